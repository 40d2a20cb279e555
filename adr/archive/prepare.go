package archive

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/publish"
	"github.com/git-adr/git-adr/gitops"
)

// Request is what to plan.
type Request struct {
	Kind Kind
	// Base is the commit to plan from (HEAD), or the tree of the log as
	// an acceptance not committed yet will leave it (with OnAccept).
	Base string
	// Head is the commit the work tree and the index are at, against
	// which local changes are found ("": Base).
	Head string
	// OnAccept names the consolidation plan revision ("c-…@3") whose
	// acceptance authorises the archival: the plan's identity derives
	// from it instead of Base (see [Plan.OnAccept]).
	OnAccept string
	// IDs name the records to archive, in any form `git adr` accepts.
	IDs []string
	// Layout is adr.ArchiveFlat or adr.ArchiveByYear.
	Layout string
	// Ack acknowledges the external-link risks the plan finds.
	Ack bool
	// Restore: the archival revision to undo, its plan ID and revision.
	Undo     *Plan
	PlanID   string
	Revision int
}

// RequestError is a request that names no record, or names one
// ambiguously: a usage error, nothing was planned.
type RequestError struct{ Msg, Hint string }

func (e *RequestError) Error() string { return e.Msg }

// Result is a plan with the commits that carry it out: one or two steps,
// each a list of tree changes on top of the step before (the base for
// the first).
type Result struct {
	Plan  *Plan
	Steps [][]gitops.TreeChange
	// After is the log as the plan leaves it.
	After *adr.Log
	// LocalChanges is set when a file the plan writes has uncommitted
	// changes (also a blocker): publish.ErrLocalChanges, wrapped.
	LocalChanges error
}

// planner holds what one Prepare reads.
type planner struct {
	repo    *gitops.Repo
	req     Request
	p       *Plan
	before  *adr.Log
	base    fs.FS
	entries map[string]gitops.TreeEntry
	paths   []string // every tracked path, sorted
	mv      *mover
	// files are the new contents, by path after the plan.
	files map[string]*change
	// exact maps a path as it is now to the blob it goes back to
	// (restore of a file nobody changed since the archival).
	exact map[string]string
}

type change struct {
	path, from, kind, mode string
	old, data              []byte
	links                  []LinkEdit
	exact                  bool
}

// Prepare computes the plan of req from the commit req.Base: wl is the
// work tree's log (its configuration and root options are used to read
// the commit the same way). It reads git objects and the work tree (for
// collisions and local changes) and writes only git objects (the trees it
// measures); blockers, risks and measurements are in the plan.
func Prepare(repo *gitops.Repo, wl *adr.Log, req Request) (*Result, error) {
	tfs, err := repo.TreeFS(req.Base)
	if err != nil {
		return nil, err
	}
	before, err := wl.Reload(tfs)
	if err != nil {
		return nil, err
	}
	list, err := repo.ListTree(req.Base)
	if err != nil {
		return nil, err
	}
	pl := &planner{repo: repo, req: req, before: before, base: tfs, entries: map[string]gitops.TreeEntry{}, files: map[string]*change{}, exact: map[string]string{}}
	for _, e := range list {
		pl.entries[e.Path] = e
		pl.paths = append(pl.paths, e.Path)
	}
	sort.Strings(pl.paths)
	layout := req.Layout
	if layout == "" {
		layout = adr.ArchiveFlat
	}
	pl.p = &Plan{Schema: Schema, Kind: req.Kind, State: Planned, Base: req.Base, Layout: layout, OnAccept: req.OnAccept,
		Records: []Move{}, Files: []File{}, Generated: []Generated{}, Risks: []Risk{}, Blockers: []string{}, Similarity: []Similarity{}}
	if req.Kind == KindRestore {
		pl.p.Layout = req.Undo.Layout
		err = pl.restoreMoves()
	} else {
		err = pl.archiveMoves()
	}
	if err != nil {
		return nil, err
	}
	moves := map[string]string{}
	for _, m := range pl.p.Records {
		moves[m.From] = m.To
	}
	pl.mv = newMover(moves)
	pl.collisions()
	if len(pl.p.Blockers) > 0 || len(moves) == 0 {
		pl.finish()
		return &Result{Plan: pl.p}, nil
	}
	if err := pl.rewriteAll(); err != nil {
		return nil, err
	}
	after, err := pl.afterLog(wl)
	if err != nil {
		return nil, err
	}
	if err := pl.generated(after); err != nil {
		return nil, err
	}
	pl.verify(after)
	if err := pl.risks(); err != nil {
		return nil, err
	}
	pl.files2plan()
	res := &Result{Plan: pl.p, After: after}
	if res.LocalChanges = publish.CheckClean(pl.repo, pl.head(), pl.changes()); res.LocalChanges != nil {
		pl.block("%v: commit or stash it first", res.LocalChanges)
	}
	pl.finish()
	if len(pl.p.Blockers) == 0 {
		if res.Steps, err = pl.measure(); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// finish derives the plan's identity and its inverse.
func (pl *planner) finish() {
	p := pl.p
	p.Acknowledged = pl.req.Ack && len(p.Risks) > 0
	if p.Kind == KindRestore {
		p.ID, p.Undoes = pl.req.PlanID, pl.req.Revision
		p.Inverse = "git adr archive " + strings.Join(p.IDs(), " ")
		return
	}
	key := p.Base
	if p.OnAccept != "" {
		key = "on-accept " + p.OnAccept
	}
	p.ID = NewID(p.Kind, key, p.Layout, p.Acknowledged, p.Records)
	p.Inverse = "git adr archive restore " + p.ID
}

// head is the commit the work tree and the index are at.
func (pl *planner) head() string {
	if pl.req.Head != "" {
		return pl.req.Head
	}
	return pl.req.Base
}

func (pl *planner) block(format string, args ...any) {
	pl.p.Blockers = append(pl.p.Blockers, fmt.Sprintf(format, args...))
}

// archiveMoves resolves the records to archive and checks that each is
// wholly retired, with the compaction analysis's rules: superseded,
// rejected or deprecated (every section of a sectioned container), no
// unresolved issue touching it; age alone never qualifies.
func (pl *planner) archiveMoves() error {
	l := pl.before
	var bad, hints []string
	var recs []*adr.Record
	seen := map[*adr.Record]bool{}
	for _, id := range pl.req.IDs {
		r, err := l.Resolve(id)
		var amb *adr.AmbiguousError
		switch {
		case errors.As(err, &amb):
			bad = append(bad, fmt.Sprintf("%q is ambiguous (%s)", id, amb.Paths()))
			hints = append(hints, "name an ambiguous record by its path")
		case err != nil:
			bad = append(bad, fmt.Sprintf("%q names no committed record", id))
			hints = append(hints, "`git adr list` shows every ID; archival reads the log at HEAD, so commit a new record first")
		case !seen[r]:
			seen[r] = true
			recs = append(recs, r)
		}
	}
	if len(bad) > 0 {
		return &RequestError{Msg: strings.Join(bad, "; "), Hint: hints[0]}
	}
	a, err := compaction.Analyze(l, compaction.AnalyzeOptions{})
	if err != nil {
		return err
	}
	class := map[string]compaction.RecordClass{}
	for _, rc := range a.Records {
		class[rc.Path] = rc
	}
	sort.SliceStable(recs, func(i, j int) bool { return logPos(l, recs[i]) < logPos(l, recs[j]) })
	for _, r := range recs {
		m := Move{ID: r.ID, Status: string(r.Status), From: r.Path}
		rc, ok := class[r.Path]
		switch {
		case r.Archived:
			pl.block("%s is already archived at %s", r.ID, r.Path)
			m.Reason = "already archived"
		case !ok:
			pl.block("%s (%s) cannot be classified", r.ID, r.Path)
		case rc.Class != compaction.ArchivalCandidate:
			pl.block("%s is not wholly retired (%s): %s", r.ID, r.Status, rc.Reason)
			m.Reason = rc.Reason
		default:
			m.Reason = rc.Reason
		}
		if !r.Archived {
			year := ""
			if pl.p.Layout == adr.ArchiveByYear {
				if year = pl.year(r); year == "" {
					pl.block("%s has no date to file it under archive/<year>/", r.ID)
				}
			}
			m.To = r.Root.ArchivePath(path.Base(r.Path), year)
		}
		pl.p.Records = append(pl.p.Records, m)
	}
	return nil
}

func logPos(l *adr.Log, r *adr.Record) int {
	for i, x := range l.Records {
		if x == r {
			return i
		}
	}
	return len(l.Records)
}

// year is the year archive/<year>/ files a record under: its date's, else
// the year of the commit that added it.
func (pl *planner) year(r *adr.Record) string {
	if len(r.Date) >= 4 && adr.IsArchiveYear(r.Date[:4]) {
		return r.Date[:4]
	}
	out, err := pl.repo.Git("log", "--diff-filter=A", "--format=%ad", "--date=format:%Y", pl.head(), "--", r.Path)
	if err != nil {
		return ""
	}
	lines := strings.Fields(string(out))
	if len(lines) == 0 || !adr.IsArchiveYear(lines[len(lines)-1]) {
		return ""
	}
	return lines[len(lines)-1]
}

// restoreMoves reverses an archival's moves: each record must still be
// where the archival put it.
func (pl *planner) restoreMoves() error {
	for _, m := range pl.req.Undo.Records {
		r := pl.before.ByPath(m.To)
		back := Move{ID: m.ID, From: m.To, To: m.From, Status: m.Status,
			Reason: "restored to where it was; it keeps its status (restoring a location does not restore authority)"}
		switch {
		case r == nil:
			pl.block("%s is no longer at %s, where archive plan %s put it", m.ID, m.To, pl.req.PlanID)
		default:
			back.Status = string(r.Status)
		}
		pl.p.Records = append(pl.p.Records, back)
	}
	for _, f := range pl.req.Undo.Files {
		if e, ok := pl.entries[f.Path]; ok && e.Hash == f.After {
			pl.exact[f.Path] = f.Before
		}
	}
	return nil
}

// collisions refuses a destination that is taken, in HEAD, the index or
// the work tree, or that a file or a symbolic link stands in the way of.
func (pl *planner) collisions() {
	seen := map[string]string{}
	for _, m := range pl.p.Records {
		if m.To == "" {
			continue
		}
		if other, ok := seen[m.To]; ok {
			pl.block("%s and %s would both move to %s", other, m.ID, m.To)
			continue
		}
		seen[m.To] = m.ID
		if _, ok := pl.entries[m.To]; ok {
			pl.block("%s cannot move to %s: that path exists (collision)", m.ID, m.To)
			continue
		}
		dir := path.Dir(m.To)
		for d := dir; d != "." && d != ""; d = path.Dir(d) {
			if e, ok := pl.entries[d]; ok {
				what := "a file"
				if e.Mode == "120000" {
					what = "a symbolic link"
				}
				pl.block("%s cannot move to %s: %s is %s in HEAD", m.ID, m.To, d, what)
			}
		}
		if in, err := pl.repo.IndexBlob(m.To); err == nil && in != "" {
			pl.block("%s cannot move to %s: that path is staged in the index (collision)", m.ID, m.To)
		}
		if msg := workInTheWay(pl.repo.Top, m.To); msg != "" {
			pl.block("%s cannot move to %s: %s", m.ID, m.To, msg)
		}
	}
}

// workInTheWay says what in the work tree stops a file from being
// written at p: the file itself, or a folder on the way that is a file or
// a symbolic link (git-adr never writes through links).
func workInTheWay(top, p string) string {
	parts := strings.Split(p, "/")
	for i := range parts {
		sub := strings.Join(parts[:i+1], "/")
		fi, err := os.Lstat(filepath.Join(top, filepath.FromSlash(sub)))
		if errors.Is(err, fs.ErrNotExist) {
			return ""
		}
		switch {
		case err != nil:
			return err.Error()
		case fi.Mode()&fs.ModeSymlink != 0:
			return sub + " is a symbolic link in the work tree; git-adr does not write through links"
		case i == len(parts)-1:
			return sub + " exists in the work tree (an untracked file; collision)"
		case !fi.IsDir():
			return sub + " is a file in the work tree"
		}
	}
	return ""
}
