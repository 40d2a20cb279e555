package view

import (
	"fmt"
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
// Archival is not a path-only change here: an archived record leaves the
// scope of an "unarchived" selection.
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
