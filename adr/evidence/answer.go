package evidence

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// Bounds on what a response echoes.
const (
	maxReferences   = 10
	maxRequestChars = 1000
)

// Answer answers a request within its budget.
func (s *Service) Answer(req Request) (*Response, []byte, error) {
	defer s.saving.Wait() // the caches a task query writes (taskIndexes)
	if req.Cursor != "" {
		c, err := s.decodeCursor(req.Cursor)
		if err != nil {
			return nil, nil, err
		}
		if given := req.withDefaults(); (req.Selector() != "overview" || req.Intent != "") && !sameRequest(given, c.req) {
			hint := "pass only --cursor (and --json), or repeat the request without it"
			if s.MCP {
				hint = "pass only cursor, or repeat the request without it"
			}
			return nil, nil, badRequest(hint, "the cursor belongs to a different request (%s)", describe(c.req))
		}
		f := req.Format
		req = c.req
		req.Format = f
		return s.answerFrom(req, c.pos, c.part)
	}
	if err := req.validate(s.words()); err != nil {
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
		if r.Selector() == "task" {
			r.MaxUnits = DefaultTaskMaxUnits
		}
	}
	if r.MaxChars == 0 {
		r.MaxChars = DefaultMaxChars
		if r.Selector() == "task" {
			r.MaxChars = DefaultTaskMaxChars
		}
	}
	if r.Format == "" {
		r.Format = JSON
	}
	return r
}

func sameRequest(a, b Request) bool {
	if !slices.Equal(a.Paths, b.Paths) {
		return false
	}
	a.Cursor, b.Cursor, a.Format, b.Format = "", "", "", ""
	a.Paths, b.Paths = nil, nil
	return reflect.DeepEqual(a, b)
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

// validate checks a request's shape; selectors are exclusive. w names
// the arguments as the caller spells them.
func (r Request) validate(w words) error {
	n := 0
	for _, v := range []string{r.ID, r.Domain, r.Iteration, r.Task} {
		if strings.TrimSpace(v) != "" {
			n++
		}
	}
	if n > 1 {
		return badRequest(fmt.Sprintf("ask one question at a time: %s, %s, %s or %s", w.arg("id"), w.arg("domain"), w.arg("iteration"), w.arg("task")), "only one selector may be given")
	}
	if r.File != "" && r.Task == "" {
		return badRequest(fmt.Sprintf(`%s gives a file priority in task retrieval: add %s`, w.arg("file"), w.arg("task")), "%s needs %s", w.arg("file"), w.arg("task"))
	}
	switch r.Intent {
	case "", Current, Rationale, History:
	default:
		hint := "use --current, --rationale or --history"
		if w.mcp {
			hint = `intent is "current", "rationale" or "history"`
		}
		return badRequest(hint, "unknown intent %q", r.Intent)
	}
	if r.MaxUnits < 0 || r.MaxUnits > MaxUnitsLimit {
		return badRequest(fmt.Sprintf("use a number from 1 to %d", MaxUnitsLimit), "%s %d is out of range", w.arg("max_units"), r.MaxUnits)
	}
	if r.MaxChars != 0 && (r.MaxChars < MinCharsLimit || r.MaxChars > MaxCharsLimit) {
		return badRequest(fmt.Sprintf("use a number from %d to %d", MinCharsLimit, MaxCharsLimit), "%s %d is out of range", w.arg("max_chars"), r.MaxChars)
	}
	if len(r.Paths) > maxRequestPaths {
		return badRequest("name fewer files, or narrow the diff", "%d paths; at most %d are accepted", len(r.Paths), maxRequestPaths)
	}
	if n := len([]rune(strings.Join(r.Paths, "\n"))); n > maxRequestChars*4 {
		return badRequest("name fewer files, or narrow the diff", "the paths are %d characters; at most %d are accepted", n, maxRequestChars*4)
	}
	for _, f := range []struct{ arg, v string }{{"task", r.Task}, {"id", r.ID}, {"domain", r.Domain}, {"iteration", r.Iteration}, {"file", r.File}} {
		if n := len([]rune(f.v)); n > maxRequestChars {
			return badRequest("shorten it: the request is echoed in every response and cursor", "%s is %d characters; at most %d are accepted", w.arg(f.arg), n, maxRequestChars)
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
	case "paths":
		p = newPlan()
	default:
		p = s.overview(req.Intent)
	}
	if err != nil {
		return nil, nil, err
	}
	retrieval := s.discloseEmbeddings(p, req)
	if len(req.Paths) > 0 {
		s.governFirst(p, req)
	} else if req.Diff == "staged" {
		p.warnings = append(p.warnings, "nothing is staged: no changed file to find the governing decisions of")
	} else if req.Diff != "" {
		p.warnings = append(p.warnings, fmt.Sprintf("the work tree does not differ from %s: no changed file to find the governing decisions of", req.Diff))
	}
	fresh, viewWarnings := s.freshness(p, p.roots)
	resp := &Response{
		Selector: req.Selector(), Intent: req.Intent, Confidence: p.confidence, Overview: p.overview,
		Units: []Unit{}, References: p.references, Omitted: p.omitted, Warnings: append(viewWarnings, p.warnings...), Next: []string{},
		Freshness: fresh,
		Size:      Size{MaxCodePoints: req.MaxChars, MaxUnits: req.MaxUnits},
	}
	resp.Retrieval = retrieval
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
	case "paths":
		resp.Query = strings.Join(req.Paths, " ")
	}
	// Every unit the plan selected, in order, for counting.
	all := make([][]Unit, len(p.items))
	total := 0
	for i, it := range p.items {
		all[i] = unitsOf(it, limit)
		total += len(all[i])
		if it.rec == nil || it.view != nil {
			continue
		}
		st := s.standingIn(p, it.rec).forUnit(it.unit)
		for j := range all[i] {
			in := st.inForce
			all[i][j].InForce, all[i][j].Note = &in, st.note
		}
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
	// The records this page may show are labelled with their staleness
	// signals (the labels count in the budget, so before the page is fit).
	page := seq[:min(len(seq), req.MaxUnits)]
	var shown []*adr.Record
	seen := map[*adr.Record]bool{}
	for _, sl := range page {
		if it := p.items[sl.item]; it.rec != nil && it.view == nil && !seen[it.rec] {
			seen[it.rec] = true
			shown = append(shown, it.rec)
		}
	}
	if labels := s.staleness(shown); len(labels) > 0 {
		for j := range page {
			if it := p.items[page[j].item]; it.rec != nil && it.view == nil {
				page[j].u.Stale = labels[it.rec]
			}
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
				r.Warnings = append(r.Warnings, fmt.Sprintf("no cursor for the rest: %v; raise %s or %s to see it", err, s.words().arg("max_units"), s.words().arg("max_chars")))
			} else {
				r.Cursor = &c
				// JSON readers have the cursor; a person reading text gets
				// the command that continues.
				if req.Format == Text {
					r.Next = append(r.Next, s.nextCommand(req, c))
				}
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
			if s.MCP {
				r.Next = append(r.Next, ToolName+" {}")
			} else {
				r.Next = append(r.Next, "git adr context", "git adr list")
			}
		}
		placeholderSize(&r)
		return &r
	}
	// References are names, not evidence: drop them before any unit.
	for refLimit > 0 && s.size(render(build(0), req.Format)) > req.MaxChars {
		refLimit--
	}
	n := min(len(seq), req.MaxUnits)
	for ; n >= 0; n-- {
		if s.size(render(build(n), req.Format)) <= req.MaxChars {
			break
		}
	}
	if n < 0 || n == 0 && len(seq) > 0 {
		return nil, nil, badRequest("raise "+s.words().arg("max_chars"), "%s %d cannot hold the envelope and one unit of this answer", s.words().arg("max_chars"), req.MaxChars)
	}
	resp = build(n)
	resp.Size = Size{MaxCodePoints: req.MaxChars, MaxUnits: req.MaxUnits}
	out := measure(resp, req.Format, s.tokenCounts().count)
	// A count that cannot be kept only costs time.
	_ = s.tokenCounts().save()
	if n := s.size(out); n > req.MaxChars {
		// The placeholders above make this impossible; fail loudly rather
		// than exceed the budget.
		return nil, nil, fmt.Errorf("internal error: response of %d code points exceeds the budget of %d", n, req.MaxChars)
	}
	return resp, out, nil
}

// size counts a rendered response as it will be sent.
func (s *Service) size(rendered []byte) int {
	if s.Measure != nil {
		return s.Measure(rendered)
	}
	return codePoints(rendered)
}
