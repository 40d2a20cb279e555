package evidence

import (
	"fmt"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/view"
)

// The reviewed CURRENT view of a root, when fresh, leads overview, domain,
// iteration and task answers: its sections come first as units of kind
// "current", followed by the original evidence as before, all within the
// same budget. A view in any other state is never used; the answer comes
// from the original records and a warning says why.

// Kind and status of units taken from a CURRENT view.
const (
	KindCurrent   = "current"
	StatusDerived = "derived"
)

// ViewState is the state of one root's CURRENT view in a response.
type ViewState struct {
	Root     string `json:"root"`
	Path     string `json:"path"`
	State    string `json:"state"`
	Plan     string `json:"plan,omitempty"`
	Revision int    `json:"revision,omitempty"`
	// Reason says why a view is not fresh: its first cause and how many
	// others there are.
	Reason string `json:"reason,omitempty"`
}

// rootView is one root's view as the service sees it.
type rootView struct {
	root *adr.Root
	f    view.Freshness
	// For a fresh view: CURRENT.md as a record-like text (for splitting),
	// its sections and its sources' paths.
	rec      *adr.Record
	sections []view.Section
	sources  map[string]bool
}

func (v *rootView) fresh() bool { return v.f.State == view.Fresh }

func (v *rootView) role() string {
	return fmt.Sprintf("current view (plan %s rev %d)", v.f.Plan, v.f.Revision)
}

// views checks every root's CURRENT pair once per service.
func (s *Service) views() []*rootView {
	if s.viewsDone {
		return s.rootViews
	}
	s.viewsDone = true
	for _, root := range s.Log.Roots {
		v := &rootView{root: root, f: view.Check(s.Log, root)}
		if v.fresh() {
			v.rec = adr.TextRecord(v.f.CurrentPath, v.f.Current, root)
			v.sections = view.Sections(v.f.CurrentPath, v.f.Current)
			v.sources = map[string]bool{}
			for _, src := range v.f.Manifest.Sources {
				v.sources[src.Path] = true
			}
		}
		s.rootViews = append(s.rootViews, v)
	}
	return s.rootViews
}

// anyView reports whether some root has a CURRENT pair (in any state).
func (s *Service) anyView() bool {
	for _, v := range s.views() {
		if v.f.Exists() {
			return true
		}
	}
	return false
}

// viewItem makes an item of one section of a fresh view.
func (v *rootView) item(sec view.Section) item {
	u := adr.Unit{ID: v.f.CurrentPath + "#" + sec.Anchor, Anchor: sec.Anchor, Heading: sec.Title, Start: sec.Start, End: sec.End}
	return item{rec: v.rec, unit: u, role: v.role(), view: &sec}
}

// viewParts are the parts of a view an intent leads with.
func viewParts(intent Intent) []string {
	switch intent {
	case Rationale:
		return []string{view.PartRationale, view.PartConstraints, view.PartConflicts}
	case History:
		return nil // history is the records' own
	}
	return []string{view.PartConstraints, view.PartConflicts, view.PartProposals}
}

// leadWithViews puts the sections of fresh views that a request falls in
// before the plan's items: the non-empty sections of the intent's parts
// that rank accepts (nil: all), ordered by part, then by rank (lower
// first), then by root and position; at most limit (0: no limit).
func (s *Service) leadWithViews(p *plan, intent Intent, roots map[*adr.Root]bool, rank func(v *rootView, sec view.Section) (int, bool), limit int) {
	type cand struct {
		it         item
		part, rank int
	}
	var cands []cand
	for _, v := range s.views() {
		if !v.fresh() || roots != nil && !roots[v.root] {
			continue
		}
		for pi, part := range viewParts(intent) {
			for _, sec := range v.sections {
				if sec.Part != part || sec.Empty {
					continue
				}
				r, ok := 0, true
				if rank != nil {
					r, ok = rank(v, sec)
				}
				if ok {
					cands = append(cands, cand{v.item(sec), pi, r})
				}
			}
		}
	}
	// Constraints before conflicts before proposals (for the current
	// intent); within a part, the most relevant first.
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].part != cands[j].part {
			return cands[i].part < cands[j].part
		}
		return cands[i].rank < cands[j].rank
	})
	if limit > 0 && len(cands) > limit {
		p.omitted["current_sections"] += len(cands) - limit
		cands = cands[:limit]
	}
	if len(cands) == 0 {
		return
	}
	lead := make([]item, len(cands))
	for i, c := range cands {
		lead[i] = c.it
	}
	p.items = append(lead, p.items...)
	p.usedView = true
}

// citesAny returns the best rank of the records a section cites among
// ranked paths.
func citesAny(sec view.Section, rank map[string]int) (int, bool) {
	best, ok := 0, false
	for _, c := range sec.Cites {
		if r, in := rank[c]; in && (!ok || r < best) {
			best, ok = r, true
		}
	}
	return best, ok
}

// groupViews leads a domain or iteration answer with the views whose
// scope holds every live member of the group in their root: the sections
// citing a member (all of them for a view of exactly this domain).
func (s *Service) groupViews(p *plan, req Request, members []*adr.Record) {
	rank := map[string]int{}
	byRoot := map[*adr.Root][]*adr.Record{}
	for i, r := range members {
		if r.Archived {
			continue
		}
		rank[r.Path] = i
		byRoot[r.Root] = append(byRoot[r.Root], r)
	}
	roots := map[*adr.Root]bool{}
	for _, v := range s.views() {
		ms := byRoot[v.root]
		if !v.fresh() || len(ms) == 0 {
			continue
		}
		covers := true
		for _, r := range ms {
			covers = covers && v.sources[r.Path]
		}
		if covers {
			roots[v.root] = true
		}
	}
	if len(roots) == 0 {
		return
	}
	s.leadWithViews(p, req.Intent, roots, func(v *rootView, sec view.Section) (int, bool) {
		sel := v.f.Manifest.Selection
		if req.Domain != "" && sel.Mode == view.ModeDomain && strings.EqualFold(sel.Domain, req.Domain) {
			return 0, true
		}
		return citesAny(sec, rank)
	}, 0)
}

// taskViews leads a task answer with the sections of fresh views that
// cite the matched records, best match first, at most viewSlots.
func (s *Service) taskViews(p *plan, req Request, matched []*adr.Record) {
	if len(matched) == 0 {
		return
	}
	rank := map[string]int{}
	for i, r := range matched {
		if _, ok := rank[r.Path]; !ok {
			rank[r.Path] = i
		}
	}
	s.leadWithViews(p, req.Intent, nil, func(v *rootView, sec view.Section) (int, bool) {
		return citesAny(sec, rank)
	}, viewSlots(req.MaxUnits))
}

// viewSlots is how many view sections a task answer leads with: the
// matched records' own evidence must still fit the first page.
func viewSlots(maxUnits int) int { return max(1, min(2, maxUnits/4)) }

// freshness reports the views behind an answer: basis "current" when it
// leads with a fresh view; view "none" when no root has a pair, else the
// worst state among the roots the request concerns (nil: every root);
// warnings for every view that exists and is not fresh.
func (s *Service) freshness(p *plan, roots map[*adr.Root]bool) (Freshness, []string) {
	f := Freshness{Basis: "records", View: "none", Fingerprint: s.Fingerprint()[:2*cursorFPSize], Records: len(s.Log.Records)}
	if p.usedView {
		f.Basis = "current"
	}
	if !s.anyView() {
		return f, nil
	}
	severity := map[view.State]int{view.Fresh: 0, view.Missing: 1, view.Stale: 2, view.Unsupported: 3, view.Corrupt: 4}
	worst := view.State("")
	var warnings []string
	several := len(s.Log.Roots) > 1
	for _, v := range s.views() {
		st := ViewState{Root: v.f.Root, Path: v.f.CurrentPath, State: string(v.f.State), Plan: v.f.Plan, Revision: v.f.Revision, Reason: v.f.Summary()}
		f.Views = append(f.Views, st)
		if roots == nil || roots[v.root] {
			if worst == "" || severity[v.f.State] > severity[worst] {
				worst = v.f.State
			}
		}
		if v.f.Exists() && !v.fresh() {
			which := "CURRENT view"
			if several {
				which += " of " + v.f.Root
			}
			fix := "refresh: " + v.f.Fix()
			if s.MCP {
				// Not a tool the model has: say who can do it.
				fix = "a person can refresh it with " + v.f.Fix()
			}
			warnings = append(warnings, fmt.Sprintf("%s is %s: %s; answered from the original records (%s)",
				which, v.f.State, v.f.Summary(), fix))
		}
	}
	if worst != "" {
		f.View = string(worst)
	}
	return f, warnings
}
