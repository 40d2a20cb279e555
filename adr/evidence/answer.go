package evidence

import (
	"fmt"
	"strings"
)

// Bounds on what a response echoes.
const (
	maxReferences   = 10
	maxRequestChars = 1000
)

// Answer answers a request within its budget.
func (s *Service) Answer(req Request) (*Response, []byte, error) {
	if req.Cursor != "" {
		c, err := s.decodeCursor(req.Cursor)
		if err != nil {
			return nil, nil, err
		}
		if given := req.withDefaults(); (req.Selector() != "overview" || req.Intent != "") && !sameRequest(given, c.req) {
			return nil, nil, badRequest("pass only --cursor (and --json), or repeat the request without it", "the cursor belongs to a different request (%s)", describe(c.req))
		}
		f := req.Format
		req = c.req
		req.Format = f
		return s.answerFrom(req, c.pos, c.part)
	}
	if err := req.validate(); err != nil {
		return nil, nil, err
	}
	return s.answerFrom(req.withDefaults(), 0, 0)
}

func (r Request) withDefaults() Request {
	if r.Intent == "" {
		r.Intent = Current
	}
	if r.MaxUnits == 0 {
		r.MaxUnits = DefaultMaxUnits
	}
	if r.MaxChars == 0 {
		r.MaxChars = DefaultMaxChars
	}
	if r.Format == "" {
		r.Format = JSON
	}
	return r
}

func sameRequest(a, b Request) bool {
	a.Cursor, b.Cursor, a.Format, b.Format = "", "", "", ""
	return a == b
}

func describe(r Request) string {
	switch r.Selector() {
	case "id":
		return "ID " + r.ID
	case "domain":
		return "domain " + r.Domain
	case "iteration":
		return "iteration " + r.Iteration
	case "task":
		return fmt.Sprintf("task %q", clip(r.Task, 40))
	}
	return "overview"
}

// validate checks a request's shape; selectors are exclusive.
func (r Request) validate() error {
	n := 0
	for _, v := range []string{r.ID, r.Domain, r.Iteration, r.Task} {
		if strings.TrimSpace(v) != "" {
			n++
		}
	}
	if n > 1 {
		return badRequest("ask one question at a time: an ID, --domain, --iteration or --task", "only one selector may be given")
	}
	if r.File != "" && r.Task == "" {
		return badRequest(`--file gives a file priority in task retrieval: add --task "..."`, "--file needs --task")
	}
	switch r.Intent {
	case "", Current, Rationale, History:
	default:
		return badRequest("use --current, --rationale or --history", "unknown intent %q", r.Intent)
	}
	if r.MaxUnits < 0 || r.MaxUnits > MaxUnitsLimit {
		return badRequest(fmt.Sprintf("use a number from 1 to %d", MaxUnitsLimit), "--max-units %d is out of range", r.MaxUnits)
	}
	if r.MaxChars != 0 && (r.MaxChars < MinCharsLimit || r.MaxChars > MaxCharsLimit) {
		return badRequest(fmt.Sprintf("use a number from %d to %d", MinCharsLimit, MaxCharsLimit), "--max-chars %d is out of range", r.MaxChars)
	}
	for name, v := range map[string]string{"--task": r.Task, "ID": r.ID, "--domain": r.Domain, "--iteration": r.Iteration, "--file": r.File} {
		if n := len([]rune(v)); n > maxRequestChars {
			return badRequest("shorten it: the request is echoed in every response and cursor", "%s is %d characters; at most %d are accepted", name, n, maxRequestChars)
		}
	}
	return nil
}

func (s *Service) answerFrom(req Request, pos, partIdx int) (*Response, []byte, error) {
	var p *plan
	var err error
	limit := partLimit(req)
	switch req.Selector() {
	case "id":
		p, err = s.byID(req)
	case "domain", "iteration":
		p, err = s.byGroup(req)
	case "task":
		p, err = s.byTask(req, limit)
	default:
		p = s.overview(req.Intent)
	}
	if err != nil {
		return nil, nil, err
	}
	fresh, viewWarnings := s.freshness(p, p.roots)
	resp := &Response{
		Selector: req.Selector(), Intent: req.Intent, Confidence: p.confidence, Overview: p.overview,
		Units: []Unit{}, References: p.references, Omitted: p.omitted, Warnings: append(viewWarnings, p.warnings...), Next: []string{},
		Freshness: fresh,
		Size:      Size{MaxCodePoints: req.MaxChars, MaxUnits: req.MaxUnits},
	}
	if resp.References == nil {
		resp.References = []Reference{}
	}
	if resp.Warnings == nil {
		resp.Warnings = []string{}
	}
	switch req.Selector() {
	case "id":
		resp.Query = req.ID
	case "domain":
		resp.Query = req.Domain
	case "iteration":
		resp.Query = req.Iteration
	case "task":
		resp.Query = req.Task
	}
	// Every unit the plan selected, in order, for counting.
	all := make([][]Unit, len(p.items))
	total := 0
	for i, it := range p.items {
		all[i] = unitsOf(it, limit)
		total += len(all[i])
	}
	if pos < 0 || partIdx < 0 || pos > len(p.items) || pos < len(p.items) && partIdx >= len(all[pos]) || pos == len(p.items) && partIdx > 0 {
		return nil, nil, badRequest(restartHint, "stale cursor: it points past the end of the answer")
	}
	// The units before the page: a cursor needs not carry what its
	// position determines.
	before := partIdx
	for _, u := range all[:pos] {
		before += len(u)
	}
	type slot struct {
		u         Unit
		item, prt int
	}
	var seq []slot
	for i, k := pos, partIdx; i < len(p.items); i, k = i+1, 0 {
		for ; k < len(all[i]); k++ {
			seq = append(seq, slot{all[i][k], i, k})
		}
	}
	base := *resp
	baseOmitted := p.omitted
	refs := base.References
	refLimit := min(len(refs), maxReferences)
	build := func(n int) *Response {
		r := base
		r.References = refs[:refLimit]
		r.Units = make([]Unit, n)
		for j := 0; j < n; j++ {
			r.Units[j] = seq[j].u
		}
		r.Omitted = map[string]int{}
		for k, v := range baseOmitted {
			r.Omitted[k] = v
		}
		if refLimit < len(refs) {
			r.Omitted["references"] = len(refs) - refLimit
		}
		r.Warnings = append([]string{}, base.Warnings...)
		r.Next = []string{}
		delivered := before + n
		r.Coverage = Coverage{Selected: total, Before: before, Included: n}
		r.Memory = memoryUsed(r.Units)
		if n == len(seq) {
			r.Cursor = nil
			r.Coverage.Complete = true
		} else {
			next := seq[n]
			if c, err := s.mintCursor(req, next.item, next.prt); err != nil {
				r.Warnings = append(r.Warnings, fmt.Sprintf("no cursor for the rest: %v; raise --max-units or --max-chars to see it", err))
			} else {
				r.Cursor = &c
				r.Next = append(r.Next, s.nextCommand(req, c))
			}
			r.Omitted["units"] = total - delivered
			essential := 0
			for j := n; j < len(seq); j++ {
				if seq[j].prt == 0 && p.items[seq[j].item].essential {
					essential++
				}
			}
			r.Coverage.EssentialRemaining = essential
			if essential > 0 {
				r.Warnings = append(r.Warnings, fmt.Sprintf("essential coverage incomplete: %d essential units did not fit; continue with the cursor before relying on this answer", essential))
			}
		}
		if r.Confidence == "none" {
			r.Next = append(r.Next, "git adr context", "git adr list")
		}
		placeholderSize(&r)
		return &r
	}
	// References are names, not evidence: drop them before any unit.
	for refLimit > 0 && codePoints(render(build(0), req.Format)) > req.MaxChars {
		refLimit--
	}
	n := min(len(seq), req.MaxUnits)
	for ; n >= 0; n-- {
		if codePoints(render(build(n), req.Format)) <= req.MaxChars {
			break
		}
	}
	if n < 0 || n == 0 && len(seq) > 0 {
		return nil, nil, badRequest("raise --max-chars", "--max-chars %d cannot hold the envelope and one unit of this answer", req.MaxChars)
	}
	resp = build(n)
	resp.Size = Size{MaxCodePoints: req.MaxChars, MaxUnits: req.MaxUnits}
	out := measure(resp, req.Format)
	if codePoints(out) > req.MaxChars {
		// The placeholders above make this impossible; fail loudly rather
		// than exceed the budget.
		return nil, nil, fmt.Errorf("internal error: response of %d code points exceeds the budget of %d", codePoints(out), req.MaxChars)
	}
	return resp, out, nil
}
