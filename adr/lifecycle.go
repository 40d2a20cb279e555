package adr

import (
	"errors"
	"fmt"
	"strings"
)

// FileChange is one file an operation creates (Old is nil), rewrites, or
// renames (From is the old path, Old its content).
type FileChange struct {
	Path     string
	From     string
	Old, New []byte
}

// LifecycleError is a refused lifecycle transition, with the command that
// does what the user most likely wants instead.
type LifecycleError struct {
	Msg  string
	Hint string
}

func (e *LifecycleError) Error() string { return e.Msg }

// UnparseableError means an edit would touch a record `git adr check`
// reports unparseable (see Record.Unparseable): git-adr does not edit what
// it cannot read fully, so nothing is written.
type UnparseableError struct {
	Path   string
	Reason string // the first reason check gives
	Fix    string // what to do, as check says it
}

func (e *UnparseableError) Error() string {
	return fmt.Sprintf("%s is unparseable: %s; git-adr does not edit it", e.Path, e.Reason)
}

// editable returns an *UnparseableError for a record that must not be
// edited, a *SectionError for a section of a single-file log.
func editable(r *Record) error {
	if err := Writable(r, ""); err != nil {
		return err
	}
	if ps := r.Unparseable(); len(ps) > 0 {
		return &UnparseableError{Path: r.Path, Reason: ps[0], Fix: problemFinding(r, ps[0]).Fix}
	}
	return nil
}

// ErrNoChange means the record is already in the requested state.
var ErrNoChange = errors.New("nothing to change")

// workspace accumulates edits to several records, re-reading a record
// after each edit so that successive edits to one file compose.
type workspace struct {
	log   *Log
	cur   map[string]*Record
	orig  map[string][]byte
	order []string
	err   error // the first existing record that may not be edited
}

func newWorkspace(l *Log) *workspace {
	return &workspace{log: l, cur: map[string]*Record{}, orig: map[string][]byte{}}
}

// rec returns the current version of r.
func (w *workspace) rec(r *Record) *Record {
	if c, ok := w.cur[r.Path]; ok {
		return c
	}
	return r
}

// set records new bytes for r and re-parses it. An existing record that
// is unparseable is remembered as the workspace's error (see changes).
func (w *workspace) set(r *Record, data []byte) *Record {
	if _, ok := w.orig[r.Path]; !ok {
		if _, isNew := w.cur[r.Path]; !isNew {
			w.orig[r.Path] = r.Text().Src
			if err := editable(r); err != nil && w.err == nil {
				w.err = err
			}
		}
		if !contains(w.order, r.Path) {
			w.order = append(w.order, r.Path)
		}
	}
	n := w.log.reparse(r, data)
	w.cur[r.Path] = n
	return n
}

// create adds a new file.
func (w *workspace) create(r *Record) {
	w.cur[r.Path] = r
	w.order = append(w.order, r.Path)
}

// changes returns the files to write, or the error that forbids writing
// any of them.
func (w *workspace) changes() ([]FileChange, error) {
	if w.err != nil {
		return nil, w.err
	}
	var out []FileChange
	for _, p := range w.order {
		out = append(out, FileChange{Path: p, Old: w.orig[p], New: w.cur[p].Text().Src})
	}
	return out, nil
}

// reparse reads new bytes for an existing record, keeping its identity.
func (l *Log) reparse(r *Record, data []byte) *Record {
	n := Parse(data)
	n.ID, n.Number, n.Numbered, n.Path, n.Root, n.Archived = r.ID, r.Number, r.Numbered, r.Path, r.Root, r.Archived
	n.settleTitle(nameOf(r.Path))
	n.assignUnitIDs()
	for i := range n.Relations {
		if t := l.Target(n, n.Relations[i].Target); t != nil {
			n.Relations[i].TargetID = t.ID
		}
	}
	return n
}

// lowerStatus reports styles whose status words are lower case.
func lowerStatus(s Style) bool { return s == StyleMADR || s == StyleMADR2 }

// supersededEdits marks old as superseded by successor, the way old's style
// writes it: adr-tools removes the status word and adds "Superseded by
// [N. Title](file)" to the Status section; MADR and log4brains write
// "superseded by [x](file)" as the status value; a metadata table gets
// "Superseded" and a "| Superseded by | ID |" row.
func supersededEdits(old, successor *Record) []byte {
	t := old.Text()
	f := old.StatusField
	linkText := old.linkTextFor(successor)
	link := fmt.Sprintf("[%s](%s)", linkText, old.Link(successor))
	deco := old.Root.statusDecoration(Superseded)
	word := styleLike(old.statusWords(), "Superseded", lowerStatus(old.Style), deco)
	switch f.Kind {
	case FieldSection:
		if f.Start == f.End {
			return old.WithRelation("Superseded by", successor)
		}
		if deco != "" && f.WordEnd == f.WordStart {
			// The log decorates supersession ("⌛️ Superseded by [3.
			// X](0003-x.md)"): the status says it in place.
			return t.Apply(Edit{Start: f.Start, End: f.End, New: word + " by " + link})
		}
		if f.WordEnd > f.WordStart {
			// "Accepted, amends [3. C](0003-c.md)": the relations stay; the
			// status word changes and the link joins the section.
			return t.Apply(Edit{Start: f.WordStart, End: f.WordEnd, New: word}, old.relationEdit(SupersededBy.Label(), successor))
		}
		// Remove the status paragraph (and one blank line so blank lines do
		// not pile up), then add the link at the end of the section.
		first, last := f.Line, f.Line
		for last+1 < len(t.Lines) && t.Lines[last].Next <= f.End && t.Lines[last].End < f.End {
			last++
		}
		del := Edit{Start: t.Lines[first].Start, End: t.Lines[last].Next}
		if last+1 < len(t.Lines) && t.Lines[last+1].Kind == LineBlank && first > 0 && t.Lines[first-1].Kind == LineBlank {
			del.End = t.Lines[last+1].Next
		}
		ins := old.relationEdit(SupersededBy.Label(), successor)
		if ins.Start < del.End && ins.Start >= del.Start {
			ins.Start, ins.End = del.End, del.End
		}
		return t.Apply(del, ins)
	case FieldTable:
		row := tableRowLike(t.LineText(f.Line), "Superseded by", successor.ID)
		at := f.Line
		for at+1 < len(t.Lines) && strings.HasPrefix(strings.TrimSpace(t.LineText(at+1)), "|") {
			at++
		}
		return t.Apply(old.cellEdit(word), Edit{Start: t.Lines[at].Next, End: t.Lines[at].Next, New: lineEOL(t, at) + row + t.EOL})
	}
	return old.WithStatus(word + " by " + link)
}

// statusWords is the status as written without the relations that follow
// it in the same value ("accepted" of "accepted; supersedes ADR-0012").
func (r *Record) statusWords() string {
	if f := r.StatusField; f.WordEnd > f.WordStart && f.WordEnd <= len(r.Text().Src) {
		return string(r.Text().Src[f.WordStart:f.WordEnd])
	}
	return r.RawStatus
}

// Decide applies a lifecycle decision (accept, reject or deprecate) to rec
// and returns the files to rewrite. Accepting a record that supersedes
// others retires them in the same change, with reciprocal links (see
// [Log.AcceptAll]).
//
// The rules are [CheckTransition]'s: a superseded record is never
// re-accepted; rejected and deprecated records are not revived (write a
// new record); an accepted record is deprecated or superseded, not
// rejected; a proposal is rejected, not deprecated. Records whose status is
// unknown may take any decision.
func (l *Log) Decide(rec *Record, to Status, reason string) ([]FileChange, []string, error) {
	if rec.Status == to {
		return nil, nil, ErrNoChange
	}
	if to == Accepted {
		return l.AcceptAll([]*Record{rec}, reason, nil)
	}
	if te := CheckTransition(rec, rec.Status, to, false); te != nil {
		return nil, nil, &LifecycleError{Msg: te.Msg, Hint: te.Hint}
	}
	w := newWorkspace(l)
	word := styleLike(rec.statusWords(), StatusWord(to), lowerStatus(rec.Style), rec.Root.statusDecoration(to))
	w.set(rec, rec.WithStatusNote(word, reason))
	changes, err := w.changes()
	if err != nil {
		return nil, nil, err
	}
	return changes, nil, nil
}

// Cover tells [Log.AcceptAll] about successors outside the records it
// accepts (a consolidation's other replacements).
type Cover struct {
	// Hold says why old must not retire yet ("" when it may): another
	// successor that must cover it is not accepted.
	Hold func(old *Record) string
	// Also lists accepted records that supersede old too: when old
	// retires, it links each of them as well.
	Also func(old *Record) []*Record
}

// AcceptAll accepts recs in one change (one record for `git adr decide`,
// every replacement of a consolidation) and retires the records they
// supersede, each edit in the record's own style: a record several of
// them supersede is marked superseded once, with a reciprocal link to each
// of them (many-to-one). cover, when not nil, may keep a record from being
// retired yet (it is left as it is, with a note) and names the other
// successors it links when it retires.
//
// It returns ErrNoChange when nothing is to change.
func (l *Log) AcceptAll(recs []*Record, reason string, cover *Cover) ([]FileChange, []string, error) {
	w := newWorkspace(l)
	var notes []string
	for _, rec := range recs {
		if rec.Status == Accepted {
			continue
		}
		if te := CheckTransition(rec, rec.Status, Accepted, false); te != nil {
			return nil, nil, &LifecycleError{Msg: te.Msg, Hint: te.Hint}
		}
		word := styleLike(rec.statusWords(), StatusWord(Accepted), lowerStatus(rec.Style), rec.Root.statusDecoration(Accepted))
		w.set(rec, rec.WithStatusNote(word, reason))
	}
	retiredHere := map[string]bool{}
	for _, rec := range recs {
		for _, rel := range rec.Relations {
			if rel.Type != Supersedes {
				continue
			}
			old := l.Target(rec, rel.Target)
			if old == nil {
				notes = append(notes, fmt.Sprintf("%s names %q as superseded, but no such record exists", rec.ID, rel.Target))
				continue
			}
			if cover != nil && cover.Hold != nil {
				if why := cover.Hold(old); why != "" {
					notes = append(notes, fmt.Sprintf("%s stays %s: %s", old.ID, old.Status, why))
					continue
				}
			}
			cur := w.rec(old)
			switch {
			case retiredHere[old.Path]:
				// Retired by another record of this change: link this one too.
				if cur.HasRelation(SupersededBy, w.rec(rec)) {
					continue
				}
				w.set(old, cur.WithRelation(SupersededBy.Label(), w.rec(rec)))
			case old.Status == Superseded:
				continue
			default:
				if te := CheckTransition(old, old.Status, Superseded, true); te != nil {
					return nil, nil, &LifecycleError{Msg: te.Msg, Hint: te.Hint}
				}
				w.set(old, supersededEdits(cur, w.rec(rec)))
				retiredHere[old.Path] = true
				if cover != nil && cover.Also != nil {
					for _, a := range cover.Also(old) {
						if o := w.rec(old); a.Path != rec.Path && !o.HasRelation(SupersededBy, a) {
							w.set(old, o.WithRelation(SupersededBy.Label(), a))
						}
					}
				}
			}
			notes = append(notes, fmt.Sprintf("%s is now superseded by %s", old.ID, rec.ID))
		}
	}
	if len(w.order) == 0 {
		return nil, nil, ErrNoChange
	}
	changes, err := w.changes()
	if err != nil {
		return nil, nil, err
	}
	return changes, notes, nil
}

// Link adds a relation from src to dst labelled label, and the reverse
// relation from dst to src labelled reverse (as `adr link` does). A
// supersession label ("Supersedes") also retires dst when src is accepted;
// when src is only proposed, dst stays in force until src is accepted.
func (l *Log) Link(src *Record, label string, dst *Record, reverse string) ([]FileChange, []string, error) {
	if src.Path == dst.Path {
		return nil, nil, &LifecycleError{Msg: fmt.Sprintf("%s cannot link to itself", src.ID), Hint: "name two different records"}
	}
	typ := ParseRelationType(label)
	// "X Superseded by Y" is "Y Supersedes X".
	if typ == SupersededBy {
		src, dst, label, reverse = dst, src, reverse, label
		typ = Supersedes
	}
	w := newWorkspace(l)
	var notes []string
	if !src.HasRelation(typ, dst) {
		w.set(src, src.WithRelation(label, dst))
	}
	if typ == Supersedes {
		switch {
		case dst.Status == Superseded:
			if !dst.HasRelation(SupersededBy, src) {
				w.set(dst, w.rec(dst).WithRelation(reverse, w.rec(src)))
			}
		case src.Status == Accepted:
			w.set(dst, supersededEdits(w.rec(dst), w.rec(src)))
			notes = append(notes, fmt.Sprintf("%s is now superseded by %s", dst.ID, src.ID))
		default:
			notes = append(notes, fmt.Sprintf("%s stays %s until %s is accepted (`git adr decide %s accept`)", dst.ID, dst.Status, src.ID, src.ID))
		}
	} else if rt := ParseRelationType(reverse); !dst.HasRelation(rt, src) {
		w.set(dst, w.rec(dst).WithRelation(reverse, w.rec(src)))
	}
	if len(w.order) == 0 {
		return nil, nil, ErrNoChange
	}
	changes, err := w.changes()
	if err != nil {
		return nil, nil, err
	}
	return changes, notes, nil
}
