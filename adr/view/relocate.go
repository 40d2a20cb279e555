package view

import (
	"fmt"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// Relocate repairs the provenance of a view whose only changes are moves
// of sources or dependencies that kept their bytes (a rename in the root,
// spec §6.3: path-only changes are refreshed mechanically, never by a
// model): it rewrites their paths (and IDs) in the manifest, the link
// destinations (and link texts) that point at them in CURRENT.md, and the
// membership and summary hash. Statement prose is reviewed content and is
// left as it is. It returns the new pair, or an error saying why the view
// needs a reviewed summary instead: any other reason for staleness, or a
// broken pair. A fresh view is returned unchanged.
//
// Archival and restore, which also rewrite link destinations, are
// repaired by [Moved].
func Relocate(l *adr.Log, root *adr.Root) (*Manifest, []byte, error) {
	f := Check(l, root)
	switch f.State {
	case Fresh:
		return f.Manifest, f.Current, nil
	case Stale:
	default:
		return nil, nil, fmt.Errorf("the CURRENT view of %s is %s: %s", root.Dir(), f.State, f.Summary())
	}
	if f.More > 0 {
		return nil, nil, fmt.Errorf("the CURRENT view of %s changed in more ways than moves: %s", root.Dir(), f.Summary())
	}
	m := *f.Manifest
	m.Sources = append([]Source(nil), m.Sources...)
	m.Dependencies = append([]Source(nil), m.Dependencies...)
	type move struct{ fromPath, toPath, fromID, toID string }
	var moves []move
	for _, r := range f.Reasons {
		switch r.Kind {
		case ReasonMoved:
		case ReasonDependency:
			if !strings.Contains(r.Message, " moved from ") {
				return nil, nil, fmt.Errorf("the CURRENT view of %s needs a reviewed summary: %s", root.Dir(), r.Message)
			}
		default:
			return nil, nil, fmt.Errorf("the CURRENT view of %s needs a reviewed summary: %s", root.Dir(), r.Message)
		}
		n := l.ByPath(r.Path)
		if n == nil {
			return nil, nil, fmt.Errorf("%s: %s is not a record", root.Dir(), r.Path)
		}
		list := m.Sources
		if r.Kind == ReasonDependency {
			list = m.Dependencies
		}
		for i := range list {
			s := &list[i]
			if s.ID != r.ID || l.ByPath(s.Path) == n {
				continue
			}
			if !sameContent(content(l, n), s.Blob, BlobHash) {
				return nil, nil, fmt.Errorf("the CURRENT view of %s needs a reviewed summary: %s moved and its content changed", root.Dir(), s.ID)
			}
			moves = append(moves, move{s.Path, n.Path, s.ID, n.ID})
			s.Path, s.ID = n.Path, n.ID
			for j := range s.Units {
				if rest, ok := strings.CutPrefix(s.Units[j].Locator, r.ID); ok {
					s.Units[j].Locator = n.ID + rest
				}
			}
		}
	}
	cur := string(f.Current)
	for _, mv := range moves {
		from, to := adr.RelLink(m.Summary.Path, mv.fromPath), adr.RelLink(m.Summary.Path, mv.toPath)
		for _, suffix := range []string{")", "#"} {
			cur = strings.ReplaceAll(cur, "]("+adr.LinkDest(from)+suffix, "]("+adr.LinkDest(to)+suffix)
			cur = strings.ReplaceAll(cur, "](<"+from+suffix, "](<"+to+suffix) // destinations written in <>
		}
		cur = strings.ReplaceAll(cur, "`"+mv.fromPath+"`", "`"+mv.toPath+"`")
		if mv.fromID != mv.toID {
			cur = strings.ReplaceAll(cur, "["+mv.fromID+"](", "["+mv.toID+"](")
			cur = strings.ReplaceAll(cur, "["+mv.fromID+"#", "["+mv.toID+"#")
			cur = strings.ReplaceAll(cur, "["+mv.fromID+"§", "["+mv.toID+"§")
		}
	}
	m.Membership = membershipOfSources(m.Sources)
	if m.Membership != MembershipHash(Members(l, root, m.Selection)) {
		return nil, nil, fmt.Errorf("the CURRENT view of %s needs a reviewed summary: the records in its scope changed", root.Dir())
	}
	m.Summary.SHA256 = SummaryHash([]byte(cur))
	return &m, []byte(cur), nil
}

// Moves describes what archival or restore did to the files a view pins:
// files moved (old path to new), and files whose bytes changed only in
// their link destinations, each still reaching the same file (the caller
// verifies this; new path to the blob the file had before).
type Moves struct {
	Paths     map[string]string
	Rewritten map[string]string
}

// Moved repairs root's view after archival or restore, without a model
// (spec §6.3, §7): l is the log after the change and current is CURRENT.md
// with its link destinations already rewritten. Every source and
// dependency must still hold the bytes the manifest pins, or differ from
// them only by the rewriting in mv; its path, blob and unit hashes are
// brought up to date. An archived source leaves the view's scope (the
// selection rule is "unarchived") and is kept as a dependency, so a later
// change to it still makes the view stale; a restored dependency the
// selection chooses again becomes a source. Code-span paths in CURRENT.md
// follow the moves; statement prose is reviewed content and is left
// alone. Anything else (an edit, a record entering or leaving the scope
// otherwise, a broken pair) is an error: the view then needs a reviewed
// summary.
func Moved(l *adr.Log, root *adr.Root, m *Manifest, current []byte, mv Moves) (*Manifest, []byte, error) {
	out := *m
	var all []Source
	for _, list := range [][]Source{m.Sources, m.Dependencies} {
		for _, s := range list {
			to := s.Path
			if p, ok := mv.Paths[s.Path]; ok {
				to = p
			}
			r := l.ByPath(to)
			if r == nil || !strings.EqualFold(r.ID, s.ID) {
				return nil, nil, fmt.Errorf("the CURRENT view of %s needs a reviewed summary: %s is not at %s", root.Dir(), s.ID, to)
			}
			blob := BlobHash(r.Text().Src)
			if blob != s.Blob && mv.Rewritten[to] != s.Blob {
				return nil, nil, fmt.Errorf("the CURRENT view of %s needs a reviewed summary: %s changed since it was reviewed", root.Dir(), s.ID)
			}
			n := s
			n.Path, n.Blob = to, blob
			n.Units = append([]Unit(nil), s.Units...)
			for i := range n.Units {
				u, ok := unitByLocator(r, n.Units[i].Locator)
				if !ok {
					return nil, nil, fmt.Errorf("the CURRENT view of %s needs a reviewed summary: %s has no unit %s any more", root.Dir(), s.ID, n.Units[i].Locator)
				}
				n.Units[i].Hash, n.Units[i].Heading = u.Hash, u.Heading
			}
			all = append(all, n)
		}
	}
	members := Members(l, root, m.Selection)
	pos := map[string]int{}
	for i, r := range members {
		pos[r.Path] = i
	}
	out.Sources, out.Dependencies = []Source{}, []Source{}
	for _, s := range all {
		if _, ok := pos[s.Path]; ok {
			out.Sources = append(out.Sources, s)
		} else {
			out.Dependencies = append(out.Dependencies, s)
		}
	}
	sort.SliceStable(out.Sources, func(i, j int) bool { return pos[out.Sources[i].Path] < pos[out.Sources[j].Path] })
	order := map[string]int{}
	for i, r := range l.Records {
		order[r.Path] = i
	}
	sort.SliceStable(out.Dependencies, func(i, j int) bool {
		return order[out.Dependencies[i].Path] < order[out.Dependencies[j].Path]
	})
	out.Membership = membershipOfSources(out.Sources)
	if out.Membership != MembershipHash(members) {
		return nil, nil, fmt.Errorf("the CURRENT view of %s needs a reviewed summary: the records in its scope changed", root.Dir())
	}
	cur := string(current)
	var froms []string
	for from := range mv.Paths {
		froms = append(froms, from)
	}
	sort.Strings(froms)
	for _, from := range froms {
		cur = strings.ReplaceAll(cur, "`"+from+"`", "`"+mv.Paths[from]+"`")
	}
	out.Summary.SHA256 = SummaryHash([]byte(cur))
	return &out, []byte(cur), nil
}

// unitByLocator finds a unit of r by its locator ("ADR-0003#decision").
func unitByLocator(r *adr.Record, loc string) (adr.Unit, bool) {
	for _, u := range r.Units() {
		if strings.EqualFold(u.ID, loc) {
			return u, true
		}
	}
	return adr.Unit{}, false
}
