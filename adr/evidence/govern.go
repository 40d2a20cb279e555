package evidence

import (
	"fmt"

	"github.com/git-adr/git-adr/adr"
)

// maxRequestPaths bounds the paths of one request (a diff's changed files).
const maxRequestPaths = 200

// governFirst puts the decisions that govern the request's paths before
// whatever else the selector chose: records in force first, each record's
// main unit once, its role saying which path and why; records not in force
// follow, labelled. Units of the same records further down are dropped.
func (s *Service) governFirst(p *plan, req Request) {
	if s.Scope == nil {
		if req.Selector() == "paths" {
			p.warnings = append(p.warnings, "code scope is not available here")
		}
		return
	}
	hits := s.Scope(req.Paths)
	var inForce, others []item
	seen := map[*adr.Record]bool{}
	for _, h := range hits {
		r := h.Record
		if r == nil || r.Archived || seen[r] {
			continue
		}
		seen[r] = true
		u, ok := mainUnit(r)
		if !ok {
			continue
		}
		it := item{rec: r, unit: u, role: fmt.Sprintf("governs %s (%s)", h.Path, h.Why)}
		if s.standingOf(r).inForce {
			inForce = append(inForce, it)
		} else {
			others = append(others, it)
		}
	}
	lead := append(inForce, others...)
	if len(lead) == 0 {
		if req.Selector() == "paths" {
			p.warnings = append(p.warnings, "no decision record governs these paths (no declared scope, marker or mention)")
			if p.confidence == "" {
				p.confidence = "none"
			}
		}
		return
	}
	lead[0].essential = true
	if req.Selector() == "paths" && p.confidence == "" {
		p.confidence = "high"
	}
	rest := p.items[:0:0]
	for _, it := range p.items {
		if it.rec != nil && seen[it.rec] {
			continue
		}
		it.essential = false
		rest = append(rest, it)
	}
	p.items = append(lead, rest...)
}
