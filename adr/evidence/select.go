package evidence

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// plan is what a selector chose, before the budget is applied.
type plan struct {
	items      []item
	references []Reference
	warnings   []string
	overview   *Overview
	confidence string
	omitted    map[string]int
	// roots are the roots the request concerns (nil: every root), for
	// the view state; usedView reports that fresh view sections lead.
	roots    map[*adr.Root]bool
	usedView bool
	// standings are the standings of the records the plan looked at,
	// each found once (standingIn): finding one reads the record's text
	// and scans every line.
	standings map[*adr.Record]standing
}

func newPlan() *plan {
	return &plan{omitted: map[string]int{}, standings: map[*adr.Record]standing{}}
}

// standingIn is s.standingOf(r), found once per plan.
func (s *Service) standingIn(p *plan, r *adr.Record) standing {
	st, ok := p.standings[r]
	if !ok {
		st = s.standingOf(r)
		p.standings[r] = st
	}
	return st
}

// addRecord appends the units an intent wants from r.
func (p *plan) addRecord(r *adr.Record, intent Intent, role string, essential bool) {
	for i, u := range unitsFor(r, intent) {
		p.items = append(p.items, item{rec: r, unit: u, role: role, essential: essential && i == 0})
	}
}

// has reports whether the plan already holds units of r.
func (p *plan) has(r *adr.Record) bool {
	for _, it := range p.items {
		if it.rec == r {
			return true
		}
	}
	return false
}

// byID answers a request for one record (and optionally one unit).
func (s *Service) byID(req Request) (*plan, error) {
	ref, anchor := adr.SplitLocator(req.ID)
	rec, err := s.Log.Resolve(ref)
	if err != nil {
		var amb *adr.AmbiguousError
		if errors.As(err, &amb) {
			var c []string
			for _, r := range amb.Candidates {
				c = append(c, r.Locus())
			}
			return nil, badRequest("name one record by its path: "+strings.Join(c, ", "), "%q names %d records", req.ID, len(amb.Candidates))
		}
		return nil, badRequest(s.words().listIDs(), "no record %q", req.ID)
	}
	p := newPlan()
	intent := req.Intent
	var subject []*adr.Record
	if anchor != "" {
		u, _, ok := rec.Excerpt(anchor)
		if !ok {
			var anchors []string
			for _, u := range rec.Units() {
				anchors = append(anchors, u.ID)
			}
			return nil, badRequest("its units are: "+strings.Join(anchors, ", "), "%s has no unit %q", rec.ID, anchor)
		}
		if intent == Current && rec.Status == adr.Superseded {
			p.leadWithSuccessor(s, rec, intent)
		}
		p.items = append(p.items, item{rec: rec, unit: u, role: "requested", essential: true})
		subject = append(subject, rec)
	} else {
		switch {
		case intent == History:
			s.history(p, rec)
		case rec.Status == adr.Superseded && intent == Current:
			p.leadWithSuccessor(s, rec, intent)
			p.addRecord(rec, intent, "requested ("+string(rec.Status)+")", true)
		default:
			p.addRecord(rec, intent, "requested", true)
		}
		subject = append(subject, rec)
		for _, it := range p.items {
			if it.rec != rec && !contains(subject, it.rec) {
				subject = append(subject, it.rec)
			}
		}
	}
	s.constraintsAndDependencies(p, subject, intent)
	p.roots = map[*adr.Root]bool{rec.Root: true}
	return p, nil
}

// leadWithSuccessor puts the accepted successor of a superseded record
// first, or reports an ambiguous one.
func (p *plan) leadWithSuccessor(s *Service, rec *adr.Record, intent Intent) {
	current, chain := s.successors(rec)
	switch {
	case len(current) == 1:
		p.addRecord(current[0], intent, "current successor of "+rec.ID, true)
		for _, c := range chain {
			if c != current[0] {
				p.references = append(p.references, reference(c, "intermediate successor of "+rec.ID))
			}
		}
	case len(current) > 1:
		var ids []string
		for _, c := range current {
			ids = append(ids, c.ID)
			p.references = append(p.references, reference(c, "candidate successor of "+rec.ID))
		}
		p.warnings = append(p.warnings, fmt.Sprintf("%s is superseded and its successor is ambiguous (%s); none was chosen", rec.ID, strings.Join(ids, ", ")))
	default:
		p.warnings = append(p.warnings, fmt.Sprintf("%s is superseded but names no successor in force", rec.ID))
	}
}

// history includes the record's predecessors and successors (supersession
// chain, at most MaxHops each way; archived bodies at most one hop).
func (s *Service) history(p *plan, rec *adr.Record) {
	p.addRecord(rec, History, "requested", true)
	type step struct {
		r    *adr.Record
		hops int
		rel  string
	}
	walk := func(typ adr.RelationType, label string) []step {
		var out []step
		seen := map[*adr.Record]bool{rec: true}
		frontier := []*adr.Record{rec}
		for hop := 1; hop <= MaxHops && len(frontier) > 0; hop++ {
			var next []*adr.Record
			for _, f := range frontier {
				for _, t := range s.related(f, typ) {
					if !seen[t] {
						seen[t] = true
						out = append(out, step{t, hop, label + " " + f.ID})
						next = append(next, t)
					}
				}
			}
			frontier = next
		}
		return out
	}
	for _, st := range append(walk(adr.SupersededBy, "successor of"), walk(adr.Supersedes, "predecessor of")...) {
		if st.r.Archived && st.hops > ArchiveHops {
			p.references = append(p.references, reference(st.r, st.rel+" (archived, beyond one hop)"))
			p.omitted["archived_beyond_hop"]++
			continue
		}
		p.addRecord(st.r, History, st.rel, false)
	}
}

// constraintsAndDependencies appends the applicable system constraints,
// then the explicit dependencies of the subject records.
func (s *Service) constraintsAndDependencies(p *plan, subject []*adr.Record, intent Intent) {
	for _, c := range s.systemConstraints() {
		if !p.has(c) {
			p.addRecord(c, Current, "system constraint", true)
		}
	}
	for _, d := range s.dependencies(subject) {
		if p.has(d.rec) {
			continue
		}
		if d.rec.Archived && d.hops > ArchiveHops {
			p.references = append(p.references, reference(d.rec, "dependency ("+d.via+"), archived beyond one hop"))
			p.omitted["archived_beyond_hop"]++
			continue
		}
		if intent == Current && (d.rec.Status == adr.Superseded || d.rec.Status == adr.Rejected) {
			p.references = append(p.references, reference(d.rec, "dependency ("+d.via+")"))
			continue
		}
		p.addRecord(d.rec, Current, fmt.Sprintf("dependency (%s)", d.via), false)
	}
}

// byGroup answers --domain and --iteration: system constraints, then the
// group's records in force (all of them for history), then their
// dependencies outside the group.
func (s *Service) byGroup(req Request) (*plan, error) {
	var members []*adr.Record
	kind, value := "domain", req.Domain
	if req.Iteration != "" {
		kind, value = "iteration", req.Iteration
	}
	known := map[string]bool{}
	for _, r := range s.Log.Records {
		var in bool
		if kind == "domain" {
			for _, d := range r.Domains {
				known[d] = true
				in = in || strings.EqualFold(d, value)
			}
		} else {
			if r.Iteration != "" {
				known[r.Iteration] = true
			}
			in = r.Iteration != "" && strings.EqualFold(r.Iteration, value)
		}
		if in {
			members = append(members, r)
		}
	}
	if len(members) == 0 {
		var ks []string
		for k := range known {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		hint := "no record declares a " + kind
		if len(ks) > 0 {
			hint = "known " + kind + "s: " + strings.Join(ks, ", ")
		}
		return nil, badRequest(hint, "no record has %s %q", kind, value)
	}
	p := newPlan()
	for _, c := range s.systemConstraints() {
		p.addRecord(c, Current, "system constraint", true)
	}
	var subject []*adr.Record
	for _, r := range members {
		switch {
		case r.Archived && req.Intent != History:
			p.omitted["archived"]++
			p.references = append(p.references, reference(r, kind+" member (archived)"))
			continue
		case req.Intent == Current && (r.Status == adr.Superseded || r.Status == adr.Rejected || r.Status == adr.Deprecated):
			p.omitted[string(r.Status)]++
			p.references = append(p.references, reference(r, kind+" member ("+string(r.Status)+")"))
			continue
		}
		if !p.has(r) {
			p.addRecord(r, req.Intent, kind+" "+value, false)
		}
		subject = append(subject, r)
	}
	for _, d := range s.dependencies(subject) {
		if p.has(d.rec) || d.rec.Status == adr.Superseded || d.rec.Status == adr.Rejected {
			continue
		}
		if d.rec.Archived && d.hops > ArchiveHops {
			p.omitted["archived_beyond_hop"]++
			continue
		}
		p.addRecord(d.rec, Current, "dependency ("+d.via+")", false)
	}
	p.roots = map[*adr.Root]bool{}
	for _, r := range members {
		p.roots[r.Root] = true
	}
	s.groupViews(p, req, members)
	return p, nil
}

// overview maps the log: counts, domains, roots, recent records, system
// constraints (as units) and what to ask next.
func (s *Service) overview(intent Intent) *plan {
	p := newPlan()
	ov := &Overview{ByStatus: map[string]int{}, Domains: []DomainCount{}, Recent: []Reference{}}
	domains := map[string]int{}
	var live []*adr.Record
	for _, r := range s.Log.Records {
		if r.Archived {
			ov.Archived++
			continue
		}
		ov.Records++
		ov.ByStatus[string(r.Status)]++
		for _, d := range r.Domains {
			domains[d]++
		}
		live = append(live, r)
	}
	for _, root := range s.Log.Roots {
		ov.Roots = append(ov.Roots, root.Dir())
	}
	for d, n := range domains {
		ov.Domains = append(ov.Domains, DomainCount{d, n})
	}
	sort.Slice(ov.Domains, func(i, j int) bool {
		if ov.Domains[i].Records != ov.Domains[j].Records {
			return ov.Domains[i].Records > ov.Domains[j].Records
		}
		return ov.Domains[i].Domain < ov.Domains[j].Domain
	})
	if len(ov.Domains) > 12 {
		p.omitted["domains"] = len(ov.Domains) - 12
		ov.Domains = ov.Domains[:12]
	}
	recent := append([]*adr.Record(nil), live...)
	sort.SliceStable(recent, func(i, j int) bool { return recent[i].Date > recent[j].Date })
	for i := 0; i < len(recent) && i < 5; i++ {
		ov.Recent = append(ov.Recent, reference(recent[i], "recent"))
	}
	w := s.words()
	ov.NextSteps = []string{w.call(ToolName, map[string]any{"task": "what you are about to change"}, `git adr context --task "what you are about to change"`),
		w.call(ShowTool, map[string]any{"id": "ID"}, "git adr context ID")}
	if len(ov.Domains) > 0 {
		ov.NextSteps = append(ov.NextSteps, w.call(ToolName, map[string]any{"domain": ov.Domains[0].Domain}, "git adr context --domain "+ov.Domains[0].Domain))
	}
	p.overview = ov
	for _, c := range s.systemConstraints() {
		p.addRecord(c, Current, "system constraint", true)
	}
	if len(p.items) == 0 {
		p.warnings = append(p.warnings, "no record declares itself system-wide (\"Scope: system\" or domain \"system\"); ask about a task, an ID or a domain")
	}
	s.leadWithViews(p, intent, nil, nil, 0)
	return p
}

func contains(rs []*adr.Record, r *adr.Record) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}
