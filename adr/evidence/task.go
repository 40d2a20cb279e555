package evidence

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/internal/lazyre"
	"github.com/git-adr/git-adr/internal/offheap"
	"github.com/git-adr/git-adr/retrieve"
)

// How much a task answer sends, by confidence (see confidenceOf), and in
// what order. Variables, not constants, so that a test can sweep them.
var (
	// lowRecords: a weak answer holds the shortest windows of this many
	// records: text to check, cheaper than naming them as leads.
	lowRecords = 12
	// noneLeads: an answer with no confidence names this many leads.
	noneLeads = 3
	// notInForceFactor: a record no longer binding is ranked as if it
	// scored this share of its score.
	notInForceFactor = 0.5
	// relevantShare: a confident answer holds the matches scoring at
	// least this share of the best match's score.
	relevantShare = 0.2
	// relevantCoverage: or that match at least this share of the words
	// the best-covering record matches (a score share alone drops every
	// record after one whose title says the task word for word).
	relevantCoverage = 0.6
	// minRelevantCoverage: a record matching this share of the task's
	// words is relevant whatever the others match.
	minRelevantCoverage = 0.45
	// confidentCoverage is the share of the task's words a source file
	// must match to compete with decisions for the first page.
	confidentCoverage = 0.45
)

// maxTaskRecords bounds how many records a task answer ranks, over all
// its pages; weaker matches are only counted.
const maxTaskRecords = 40

// titleBonus weighs title matches against body matches.
const titleBonus = 1.0

// anchorWeight is how much a word in each kind of section says about what
// a record decides.
var anchorWeight = map[string]float64{
	"decision": 1.5, "context": 1.0, "consequences": 0.8, "options": 0.8, "status": 0.3, "body": 1.0,
}

// statusPrior ranks records in force above historical ones at equal text
// relevance.
var statusPrior = map[adr.Status]float64{
	adr.Accepted: 1.0, adr.Proposed: 0.92, adr.Unknown: 0.92, adr.Superseded: 0.85, adr.Deprecated: 0.75, adr.Rejected: 0.7,
}

// recordDoc builds the search document of a record whose text is t:
// title, domains and file name weigh most, then sections by kind. Its
// units are read for this only (PeekUnits), as its text is by the caller
// (PeekText): analysing a whole log does not keep every record's text, or
// units decoded, in memory.
func recordDoc(r *adr.Record, t *adr.Text) retrieve.Doc {
	base := baseName(r.Path)
	units := r.PeekUnits()
	// Sized once: title, domains, file name, then the units or the
	// content.
	fields := make([]retrieve.Field, 3, 3+max(len(units), 1))
	fields[0] = retrieve.Field{Text: r.Title, Weight: 2}
	fields[1] = retrieve.Field{Text: strings.Join(r.Domains, " "), Weight: 2}
	fields[2] = retrieve.Field{Text: base, Weight: 1.5}
	for _, u := range units {
		w, ok := anchorWeight[u.Anchor]
		if !ok {
			w = 1.0
		}
		fields = append(fields, retrieve.Field{Text: r.UnitViewIn(t, u), Weight: w})
	}
	// Views, not copies, of the text: analysis keeps nothing of a
	// document's text (it copies the words it keeps), and copying every
	// unit was most of what a cold query over a long log allocated.
	content := r.ContentViewIn(t)
	if len(units) == 0 {
		fields = append(fields, retrieve.Field{Text: content, Weight: 1})
	}
	return retrieve.Doc{ID: r.Locus(), Fields: fields, Lang: contentLanguage(content)}
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		p = p[i+1:]
	}
	return strings.TrimSuffix(p, ".md")
}

func contentLanguage(sample string) retrieve.Language {
	if len(sample) > 4000 {
		sample = sample[:4000]
	}
	return retrieve.DetectLanguage(sample)
}

// Ablation switches off retrieval heuristics one at a time, to measure
// what each adds (scripts/bench-context -ablation). The zero value is the
// service as shipped.
type Ablation struct {
	NoThesaurus  bool // concept groups of software words (retrieve.Query)
	NoPhrases    bool // phrases and their abbreviations ("time to live", "ttl")
	NoStemPrefix bool // stem-prefix expansion against the index ("reusable", "reuse")
	NoTitleBonus bool // the bonus for words in a title, domain or file name
	NoTiering    bool // records in force ranked before those that are not
	// NoAlternateStems: no stems of the request's words as the other
	// languages stem them (retrieve.WithAlternateStems)
	NoAlternateStems bool
	// NoShortTail: every record of a task answer sends a window as
	// large as the best record's.
	NoShortTail bool
	// NoWindows: each record sends its decision unit (its best part at
	// the window's size) instead of its best-matching window.
	NoWindows bool
	// NoRelevanceStop: a confident answer holds every match, to the
	// budget, not only those scoring relevantShare of the best.
	NoRelevanceStop bool
	// NoGlossary: no expansion by the abbreviations the log defines
	// (retrieve.Abbreviations).
	NoGlossary bool
	// NoPredecessorLines: a superseded match whose successor is in force
	// sends its text too, not one line naming it.
	NoPredecessorLines bool
	// NoFusion: no plain BM25 ranking of the request's own words fused
	// into the ranking (fusePlain).
	NoFusion bool
	// NoSentenceTail: the records after the best three, and a weak
	// answer's after the first, send windows of at least minWindow, not
	// sentenceWindow.
	NoSentenceTail bool
	// NoSentenceFill: a window cut from a long paragraph sends whole
	// sentences only, not the words of the next sentence that fill it.
	NoSentenceFill bool
}

// ranked is a task's query and the live records it matched, best first.
type ranked struct {
	q    []retrieve.QueryTerm
	recs []*adr.Record
	ix   *retrieve.Index
	hits []retrieve.Hit
}

// rankTask scores the live records against a task.
func (s *Service) rankTask(task string) (*ranked, error) {
	qlang := retrieve.DetectLanguage(task)
	q := retrieve.QueryWith(task, qlang, retrieve.QueryOptions{NoThesaurus: s.Ablate.NoThesaurus, NoPhrases: s.Ablate.NoPhrases})
	if len(q) == 0 {
		w := s.words()
		return nil, badRequest(fmt.Sprintf(`describe the task in words, for example %s "add a cache in front of the orders API"`, w.arg("task")), "%s %q has no searchable words", w.arg("task"), task)
	}
	if !s.Ablate.NoAlternateStems {
		q = retrieve.WithAlternateStems(task, qlang, q)
	}
	recs, ix, tix := s.taskIndexes()
	if s.KeepIndexes {
		s.kept.keep(recs, ix, tix)
	}
	if !s.Ablate.NoStemPrefix {
		q = ix.Expand(q, 0.5)
	}
	// Abbreviations the log defines ("Software Bill of Materials
	// (SBOM)") stand for their long forms, and the other way round.
	if !s.Ablate.NoGlossary {
		q = retrieve.ExpandGlossary(q, task, qlang, ix.Glossary())
	}
	hits := ix.Search(q)
	// A title names what a record decides: words of the request in a
	// title (or domain, or file name) add a bonus on top of the body's
	// BM25 score.
	if !s.Ablate.NoTitleBonus {
		titleScore := tix.Scores(q) // by record: the title index numbers them as ix does
		for i := range hits {
			if d := hits[i].Doc; d < len(titleScore) {
				hits[i].Score += titleBonus * titleScore[d]
			}
		}
	}
	if fuseK > 0 && !s.Ablate.NoFusion {
		hits = fusePlain(hits, ix, retrieve.QueryWith(task, qlang, retrieve.QueryOptions{NoThesaurus: true, NoPhrases: true}))
	}
	for i := range hits {
		hits[i].Score *= statusPrior[recs[hits[i].Doc].Status]
	}
	hits = sortHits(hits)
	// Records close in meaning that share few words with the task, when
	// an embeddings endpoint is configured (embeddings.go).
	hits = s.embedHits(task, recs, hits)
	return &ranked{q: q, recs: recs, ix: ix, hits: hits}, nil
}

// fuseK is the weight of the plain ranking fused into the task's
// ranking (fusePlain); 0 switches fusion off.
var fuseK = 0.5

// fusePlain adds to each hit's score its plain BM25 score for the
// request's own words (no expansions, no title bonus), scaled so that
// both rankings' best scores weigh the same, times fuseK: a record the
// plain words find early climbs even when the expansions and bonuses
// favoured others.
func fusePlain(hits []retrieve.Hit, ix *retrieve.Index, plain []retrieve.QueryTerm) []retrieve.Hit {
	if len(plain) == 0 || len(hits) == 0 {
		return hits
	}
	ps := ix.Scores(plain) // by record
	ptop := 0.0
	for _, sc := range ps {
		ptop = max(ptop, sc)
	}
	if ptop == 0 {
		return hits
	}
	top := 0.0
	for _, h := range hits {
		top = max(top, h.Score)
	}
	out := slices.Clone(hits)
	for i := range out {
		out[i].Score += fuseK * ps[out[i].Doc] * top / ptop
	}
	return out
}

// sortHits orders hits by score, best first, keeping their order among
// equal scores (as a stable sort would): an order of indexes is sorted
// rather than the hits, which a broad query over a big log has thousands
// of.
func sortHits(hits []retrieve.Hit) []retrieve.Hit {
	order := make([]int32, len(hits))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if sa, sb := hits[a].Score, hits[b].Score; sa != sb {
			return cmp.Compare(sb, sa)
		}
		return int(a - b)
	})
	out := make([]retrieve.Hit, len(hits))
	for i, o := range order {
		out[i] = hits[o]
	}
	return out
}

// byTask answers a task with evidence packed into the budget: the
// records that match the task, best first, each sending the window of its
// text that matches the task best (the best record the most of it, the
// records after it less, down to their best sentences), until a record
// matches too little of the task to be relevant or the budget is spent.
// Records no longer binding (superseded, deprecated, rejected) rank at
// notInForceFactor of their score, labelled; a superseded record whose
// successor is in force is named in one line as that successor's
// predecessor, unless the task asks for history. Proposed, draft and
// status-less records are live evidence, labelled as such. Confidence
// decides how much is sent: a confident answer holds the relevant
// matches; a weak one the best few records' shortest windows and a list
// of leads; none, only leads.
func (s *Service) byTask(req Request, partLimit int) (*plan, error) {
	rk, err := s.rankTask(req.Task)
	if err != nil {
		return nil, err
	}
	recs, hits := rk.recs, rk.hits
	p := newPlan()
	conf := confidenceOf(rk, retrieve.DetectLanguage(req.Task))
	p.confidence = conf.level
	// Records no longer binding rank below those that are, unless one
	// matches the task more than 1/notInForceFactor times as well (a
	// question about a rejected option should get that record).
	history := req.Intent == History || asksHistory(req.Task)
	if !history && !s.Ablate.NoTiering {
		adjusted := make(map[int]float64, len(hits))
		for _, h := range hits {
			adjusted[h.Doc] = h.Score
			if s.noLongerBinding(p, recs[h.Doc]) {
				adjusted[h.Doc] = h.Score * notInForceFactor
			}
		}
		// In place: the ranking's hits are this question's own.
		sort.SliceStable(hits, func(a, b int) bool { return adjusted[hits[a].Doc] > adjusted[hits[b].Doc] })
	}
	var matched, leads, weaker []retrieve.Hit
	switch p.confidence {
	case "high", "medium":
		// Relevance is how well a record matches the task, whatever its
		// standing (which orders the answer, and labels it).
		top, cover := 0.0, 0.0
		for _, h := range hits {
			top, cover = max(top, h.Score), max(cover, h.Coverage)
		}
		for _, h := range hits {
			relevant := h.Score >= relevantShare*top || h.Coverage >= min(relevantCoverage*cover, minRelevantCoverage)
			if (!relevant && !s.Ablate.NoRelevanceStop) || len(matched) >= maxTaskRecords {
				p.omitted["weak_matches"]++
				if recs[h.Doc].Status == adr.Superseded {
					weaker = append(weaker, h) // named after a successor (below)
				}
				continue
			}
			matched = append(matched, h)
		}
	case "low":
		weak := "no record covers most of the task's words"
		if ws := requestWords(req.Task, conf.absent); len(ws) > 0 {
			weak = "no record mentions " + quoteList(ws)
		}
		p.warnings = append(p.warnings, "weak match: "+weak+"; these records are leads, not answers")
		for i, h := range hits {
			if i < lowRecords {
				matched = append(matched, h)
			} else {
				p.omitted["weak_matches"]++
			}
		}
	default:
		p.warnings = append(p.warnings, "no decision record applies to this task")
		for i, h := range hits {
			if i < noneLeads {
				leads = append(leads, h)
			} else {
				p.omitted["weak_matches"]++
			}
		}
	}
	for _, h := range leads {
		p.references = append(p.references, reference(recs[h.Doc], s.leadWhy(h, rk)))
	}
	// Applicable system constraints first, then matches in that order,
	// each superseded match led by its successor.
	var ordered []*adr.Record
	var roles []string
	add := func(r *adr.Record, role string) {
		if !contains(ordered, r) {
			ordered = append(ordered, r)
			roles = append(roles, role)
		}
	}
	predecessor := map[*adr.Record]*adr.Record{} // a predecessor's line: its successor
	for _, h := range matched {
		if r := recs[h.Doc]; r.IsSystemConstraint() {
			add(r, "system constraint (match)")
		}
	}
	for _, h := range matched {
		r := recs[h.Doc]
		if req.Intent == Current && r.Status == adr.Superseded {
			current, _ := s.successors(r)
			if len(current) == 1 {
				add(current[0], "current successor of "+r.ID)
				// The predecessor follows as a line of its own (its best
				// sentence), not a window, unless the task asks how things
				// were.
				if !history && !s.Ablate.NoPredecessorLines && !contains(ordered, r) {
					predecessor[r] = current[0]
					add(r, "predecessor of "+current[0].ID)
					continue
				}
			} else if len(current) > 1 {
				var ids []string
				for _, c := range current {
					ids = append(ids, c.ID)
				}
				p.warnings = append(p.warnings, fmt.Sprintf("%s is superseded and its successor is ambiguous (%s)", r.ID, strings.Join(ids, ", ")))
			}
		} else if req.Intent == Current {
			// A record in force whose own text names its replacement
			// ("possibly superseded"): the replacement, when in force,
			// comes first, as a superseded record's successor does.
			if st := s.standingIn(p, r); st.by != nil && st.by != r && s.standingIn(p, st.by).inForce {
				add(st.by, "named as its replacement by "+r.ID)
			}
		}
		add(r, matchRole(r))
	}
	// A superseded record that matches too weakly to be relevant on its
	// own is still named, in its line, after its successor when the
	// successor is in the answer: what the successor replaced.
	if req.Intent == Current && !history && !s.Ablate.NoPredecessorLines {
		for _, h := range weaker {
			r := recs[h.Doc]
			if r.Status != adr.Superseded || contains(ordered, r) {
				continue
			}
			if current, _ := s.successors(r); len(current) == 1 && contains(ordered, current[0]) {
				predecessor[r] = current[0]
				add(r, "predecessor of "+current[0].ID)
				p.omitted["weak_matches"]--
			}
		}
		ordered, roles = afterSuccessors(ordered, roles, predecessor)
	}
	// Each record sends its best window: the best record the most of it,
	// the next two less, the rest their best sentences. A weak answer's
	// records are leads more than answers: all but the first send the
	// shortest window.
	m := matcher{q: rk.q, ix: rk.ix, lang: retrieve.DetectLanguage(req.Task)}
	ws := s.windowsFor(req)
	tail := ws.tail(len(ordered))
	for i, r := range ordered {
		limit := ws.limit(i, p.confidence == "low")
		if i >= 3 && p.confidence != "low" && !s.Ablate.NoShortTail {
			limit = tail
		}
		if predecessor[r] != nil {
			limit = predecessorWindow
		}
		if s.Ablate.NoWindows {
			u, part := bestUnit(r, rk.q, rk.ix, limit, req.Intent)
			if u.End == 0 {
				continue // a record with no unit to send (a title alone)
			}
			p.items = append(p.items, item{rec: r, unit: u, part: part, role: roles[i], essential: i == 0, limit: limit})
			continue
		}
		fill := 0
		if i == 0 && p.confidence != "low" {
			fill = limit // the best record sends more than its best section
		}
		w, ok := s.recordWindow(r, m, limit, fill, req.Intent)
		if !ok {
			continue
		}
		p.items = append(p.items, item{rec: r, unit: w.unit, win: &w, role: roles[i], essential: i == 0})
		// The best record's decision, when its window is elsewhere.
		if i == 0 && req.Intent == Current && !s.Ablate.NoWindows {
			if d, ok := s.decisionWindow(r, w, m, ws.limit(len(ordered), false)); ok {
				p.items = append(p.items, item{rec: r, unit: d.unit, win: &d, role: roles[i] + ", decision"})
			}
		}
	}
	s.taskViews(p, req, ordered)
	if s.SourceFiles != nil && p.confidence != "none" {
		s.addSources(p, req, rk.q)
	}
	s.addMemory(p, req)
	return p, nil
}

// afterSuccessors moves each predecessor's line right after its
// successor, keeping every other record in its place.
func afterSuccessors(ordered []*adr.Record, roles []string, predecessor map[*adr.Record]*adr.Record) ([]*adr.Record, []string) {
	var outR []*adr.Record
	var outRoles []string
	for i, r := range ordered {
		if predecessor[r] != nil {
			continue
		}
		outR, outRoles = append(outR, r), append(outRoles, roles[i])
		for j, p := range ordered {
			if predecessor[p] == r {
				outR, outRoles = append(outR, p), append(outRoles, roles[j])
			}
		}
	}
	// A predecessor whose successor is not in the list keeps its place
	// at the end (it cannot: its successor was added first).
	for i, r := range ordered {
		if s := predecessor[r]; s != nil && !contains(outR, s) {
			outR, outRoles = append(outR, r), append(outRoles, roles[i])
		}
	}
	return outR, outRoles
}

// Shares of a task answer's budget a record's window may take, by the
// record's place: the best record, the two after it, and the rest.
var (
	topWindowShare  = 0.15
	nextWindowShare = 0.08
	tailWindowShare = 0.07
	// minWindow is the smallest window of the best three records, in
	// code points: a sentence or two.
	minWindow = 250
	// sentenceWindow is the shortest useful window, sent by the records
	// after the best three when the budget holds many, and by a weak
	// answer's records after the first: the sentence that states the
	// decision, or the one that matches the task best.
	sentenceWindow = 180
	// predecessorWindow is the line a superseded record sends after its
	// successor: its best sentence.
	predecessorWindow = 200
)

// windows sizes the windows of a task answer's records: by place, and
// for a weak answer; short is the shortest window (sentenceWindow, or
// minWindow with the sentence tail switched off).
type windows struct {
	req         Request
	short       int
	noShortTail bool
}

// windowsFor sizes the windows of an answer to req.
func (s *Service) windowsFor(req Request) windows {
	w := windows{req: req, short: sentenceWindow, noShortTail: s.Ablate.NoShortTail}
	if s.Ablate.NoSentenceTail {
		w.short = minWindow
	}
	return w
}

// limit is the size of the window of the record at place i of a task
// answer.
func (w windows) limit(i int, weak bool) int {
	share := tailWindowShare
	switch {
	case w.noShortTail:
		share = topWindowShare
	case weak && i == 0:
		share = nextWindowShare
	case weak:
		return w.short
	case i == 0:
		share = topWindowShare
	case i < 3:
		share = nextWindowShare
	}
	return max(minWindow, int(share*float64(w.req.MaxChars)))
}

// Estimates of what a task answer spends besides record text, in code
// points: the envelope, and each unit's metadata (ID, path, lines,
// status, a title).
const (
	envelopeEstimate = 800
	unitMetaEstimate = 180
)

// tail is the window of the records after the best three when n
// records are relevant: what the budget leaves them, shared equally,
// between the shortest window and the tail's share of the budget. Many
// relevant records get shorter windows, down to the sentence that states
// each one's decision, so that more of them fit the first page.
func (w windows) tail(n int) int {
	most := max(minWindow, int(tailWindowShare*float64(w.req.MaxChars)))
	if n <= 3 {
		return most
	}
	room := w.req.MaxChars - envelopeEstimate - n*unitMetaEstimate -
		w.limit(0, false) - 2*w.limit(1, false)
	return min(most, max(w.short, room/(n-3)))
}

// recordWindow is r's best window for a task: over every section that
// may state or explain a decision (not its status or sections about the
// record itself), the decision's preferred, or the sections the intent
// asks for. A container's sections that are no longer binding are left
// out for the current intent.
func (s *Service) recordWindow(r *adr.Record, m matcher, limit, fill int, intent Intent) (window, bool) {
	units := answerUnits(r, intent)
	if len(units) == 0 {
		return window{}, false
	}
	// A record whose decision and context are a line or two is sent with
	// the sections about it too (its links, its references): the whole
	// of a short record says more than its one sentence.
	if r.Style != adr.StyleOCP && textOf(r, units) < minFill {
		var all []adr.Unit
		for _, u := range r.Units() {
			if u.Anchor != "status" {
				all = append(all, u)
			}
		}
		if textOf(r, all) > textOf(r, units) {
			units = all
		}
	}
	o := windowOpts{limit: limit, main: -1, prefer: map[int]bool{}, fill: fill, sameUnit: r.Style == adr.StyleOCP, wholeSentences: s.Ablate.NoSentenceFill}
	if mu, ok := mainUnit(r); ok && r.Style != adr.StyleOCP {
		for i, u := range units {
			if u.Anchor == mu.Anchor {
				o.main = i
			}
		}
	}
	if intent == Rationale {
		for i, u := range units {
			if roleOf(u) == roleContext {
				o.prefer[i] = true
			}
		}
	}
	// A window is sent escaped (JSON inside JSON, for MCP): text that
	// escaping multiplies (quotes, backslashes, control characters) gets
	// a smaller window, so that it always fits a page with its envelope.
	for {
		w, ok := bestWindow(r, units, m, o)
		if !ok || sentCost(w.text) <= wireLimit(limit) || o.limit <= minWindow/4 {
			return w, ok
		}
		o.limit /= 2
	}
}

// textOf is how many code points of text the blocks of units hold.
func textOf(r *adr.Record, units []adr.Unit) int {
	n := 0
	src := r.Text().Src
	for _, b := range blocksOf(r, units) {
		n += runes(src[b.from:b.to])
	}
	return n
}

// decisionWindow is the best record's decision statement, when its best
// window w lies outside the decision: the decision section's best
// sentences within limit.
func (s *Service) decisionWindow(r *adr.Record, w window, m matcher, limit int) (window, bool) {
	mu, ok := mainUnit(r)
	if !ok || r.Style == adr.StyleOCP || mu.Anchor == w.unit.Anchor || roleOf(mu) == roleMeta {
		return window{}, false
	}
	// The window may already hold the decision's first lines.
	if first := max(mu.Start, 1) + 1; w.start <= first && first <= w.end {
		return window{}, false
	}
	d, ok := bestWindow(r, []adr.Unit{mu}, m, windowOpts{limit: limit, main: 0, wholeSentences: s.Ablate.NoSentenceFill})
	// Blank lines after the heading put the decision's first words past
	// its first line: a window that already holds all of d adds nothing
	// but the same lines twice.
	if ok && w.start <= d.start && d.end <= w.end {
		return window{}, false
	}
	return d, ok
}

// answerUnits are the units of r a task answer may send a window of.
func answerUnits(r *adr.Record, intent Intent) []adr.Unit {
	var out []adr.Unit
	for _, u := range r.Units() {
		if u.Anchor == "status" {
			continue
		}
		if r.Style == adr.StyleOCP {
			if intent == Current && (u.Status == adr.Superseded || u.Status == adr.Rejected || u.Status == adr.Deprecated) {
				continue
			}
		} else if roleOf(u) == roleMeta {
			continue
		}
		out = append(out, u)
	}
	if len(out) == 0 {
		if u, ok := mainUnit(r); ok {
			out = append(out, u)
		}
	}
	return out
}

// noLongerBinding reports a record whose status says it no longer binds:
// superseded, deprecated or rejected (in any form the parser reads). A
// proposed, draft or status-less record is live evidence.
func (s *Service) noLongerBinding(p *plan, r *adr.Record) bool {
	switch r.Status {
	case adr.Superseded, adr.Deprecated, adr.Rejected:
		return true
	}
	return false
}

// historyWords are words with which a task asks how things were, not
// only how they are: it then gets superseded records' text, not their
// names.
var historyWords = lazyre.New(`(?i)\b(history|historical(ly)?|previous(ly)?|formerly|originally|original|earlier|legacy|supersed\w*|deprecat\w*|replaced|used to|no longer|moved? away|switch(ed)? from|migrat\w* (away )?from|stopped|evolv\w*|evolution)\b`)

// asksHistory reports a task that asks how things were.
func asksHistory(task string) bool { return historyWords.MatchString(task) }

func matchRole(r *adr.Record) string {
	if r.Status != adr.Accepted {
		return "match (" + string(r.Status) + ")"
	}
	return "match"
}

// leadWhy says why a record is a lead: the task's words it matches.
func (s *Service) leadWhy(h retrieve.Hit, rk *ranked) string {
	seen := map[string]bool{}
	var ws []string
	for _, m := range h.Matched {
		if !seen[m] && len(ws) < 6 {
			seen[m] = true
			ws = append(ws, m)
		}
	}
	return fmt.Sprintf("lead: matches %.0f%% of the task's words (%s)", 100*h.Coverage, strings.Join(ws, ", "))
}

// taskIndexes builds the body and title indexes of the live records,
// analysing only records the term cache does not know; the indexes
// themselves are stored (taskindex.go) and opened again while the live
// records are the same.
func (s *Service) taskIndexes() ([]*adr.Record, *retrieve.Index, *retrieve.Index) {
	// Sized once: grown record by record, a long log's keys left twice
	// their size behind.
	recs := make([]*adr.Record, 0, len(s.Log.Records))
	keys := make([]cacheKey, 0, len(s.Log.Records))
	ids := make([]string, 0, len(s.Log.Records))
	for _, r := range s.Log.Records {
		if r.Archived {
			continue // archived bodies are reached through relations only
		}
		k := keyOf(r.Path, r.Blob())
		if r.InLogFile() {
			// A section of a single-file log is known by its place in
			// the file and its own bytes, not the file's.
			k = keyOf(r.Locus(), view.BlobHash(r.Content()))
		}
		recs = append(recs, r)
		keys = append(keys, k)
		ids = append(ids, r.Locus())
	}
	ik := indexKey(ids, keys)
	if body, title, ok := loadTaskIndex(s.CacheDir, ik, ids, offheap.Reader{On: s.OutsideHeap}); ok {
		return recs, body, title
	}
	docs, cache := s.analyseTerms(recs, keys)
	bodyTerms := make([]retrieve.NumberedTerms, len(recs))
	titleTerms := make([]retrieve.NumberedTerms, len(recs))
	for i := range recs {
		bodyTerms[i], titleTerms[i] = docs[i].body, docs[i].title
	}
	// The caches are written while the indexes are built and the answer
	// is made (Answer waits for them): on a cold query over a long log
	// each is a noticeable part of the wait. Caches that cannot be
	// written only cost time.
	s.saving.Go(func() { _ = cache.save() })
	// The indexes are made in their stored form, the file's bytes, and
	// the answer is made from those: a third of what built ones hold,
	// and what every later query reads.
	body, title, bodyData, titleData := storedIndexes(ids, cache.vocab, bodyTerms, titleTerms)
	s.saving.Go(func() { _ = saveTaskIndex(s.CacheDir, ik, bodyData, titleData) })
	return recs, body, title
}

// analyseTerms returns the analysed terms of recs (keyed by keys), from
// the term cache or by analysing the records it does not know, and the
// cache with them, for the caller to save.
func (s *Service) analyseTerms(recs []*adr.Record, keys []cacheKey) ([]cachedDoc, *termCache) {
	cache := loadTermCache(s.CacheDir)
	if len(cache.entries) == 0 {
		// A first query puts every record: sized once, not grown.
		cache.entries = make(map[cacheKey]cachedDoc, len(recs))
		cache.used = make(map[cacheKey]bool, len(recs))
	}
	docs := make([]cachedDoc, len(recs))
	var missing []int
	for i, k := range keys {
		d, ok := cache.get(k)
		if !ok {
			if d, ok = s.Preanalysis.take(recs[i]); ok {
				d = cache.putNumbered(k, d, s.Preanalysis.vocab)
			}
		}
		if !ok {
			missing = append(missing, i)
		}
		docs[i] = d
	}
	// Analysis is most of a cold query: records are independent, so it
	// runs on every core. The records' terms share their strings: each
	// worker's analysis keeps one copy of every word it has seen
	// (retrieve.Analyze), so what a cold query holds is close to its
	// vocabulary, not to the sum of its records. Each record's terms are
	// numbered in the cache's vocabulary as the workers hand them over,
	// so that only numbers are held for the whole log.
	type analysed struct {
		i           int
		body, title retrieve.DocTerms
	}
	next := make(chan int)
	finished := make(chan analysed)
	go func() {
		for _, i := range missing {
			next <- i
		}
		close(next)
	}()
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(missing)); w++ {
		go func() {
			for i := range next {
				a := analysed{i: i}
				a.body, a.title = analyseRecord(recs[i])
				if s.ReleaseTexts {
					recs[i].ReleaseText()
				}
				finished <- a
			}
		}()
	}
	for done := 1; done <= len(missing); done++ {
		a := <-finished
		docs[a.i] = cache.put(keys[a.i], a.body, a.title)
		if s.Progress != nil {
			s.Progress(done, len(missing))
		}
	}
	return docs, cache
}

// bestUnit picks the unit of r that states its decision (for the
// current intent: the decision section, or the unit mainUnit names; for
// other intents, the unit of unitsFor that says most about the query)
// and, when the unit is split, its best part.
func bestUnit(r *adr.Record, q []retrieve.QueryTerm, ix *retrieve.Index, partLimit int, intent Intent) (adr.Unit, int) {
	candidates := unitsFor(r, intent)
	if intent == Current && r.Style != adr.StyleOCP {
		if u, ok := mainUnit(r); ok {
			candidates = []adr.Unit{u}
		}
	}
	var best adr.Unit
	bestScore, bestPart := -1.0, 0
	for _, u := range candidates {
		if u.Anchor == "status" {
			continue
		}
		parts := splitUnit(r, u, partLimit)
		for pi, pt := range parts {
			sc := textScore(pt.text, q, ix)
			if u.Anchor == "decision" {
				sc = sc*anchorWeight["decision"] + 0.01 // decisions win ties
			}
			if sc > bestScore {
				bestScore, best = sc, u
				bestPart = 0
				if len(parts) > 1 {
					bestPart = pi + 1
				}
			}
		}
	}
	if bestScore < 0 {
		if u, ok := mainUnit(r); ok {
			return u, 0
		}
	}
	return best, bestPart
}

// textScore sums the IDF weight of the query words a text contains.
func textScore(text string, q []retrieve.QueryTerm, ix *retrieve.Index) float64 {
	terms := map[string]bool{}
	for _, t := range (retrieve.Analyzer{}).TermTexts(text) {
		terms[t] = true
	}
	sc := 0.0
	for _, t := range q {
		if terms[t.Text] {
			sc += ix.IDF(t.Text) * t.Weight
		}
	}
	return sc
}

// sourceSlots is how many units a task response keeps for source files.
func sourceSlots(maxUnits int) int { return max(1, min(2, maxUnits/4)) }

// addSources ranks the repository's own files and inserts the best ones
// after the first units, so that they fit in the first response.
func (s *Service) addSources(p *plan, req Request, q []retrieve.QueryTerm) {
	if s.Source == nil {
		return
	}
	paths, err := s.SourceFiles()
	if err != nil {
		p.warnings = append(p.warnings, "source files not searched: "+err.Error())
		return
	}
	var cand []string
	for _, f := range paths {
		if !s.inRoot(f) {
			cand = append(cand, f)
		}
	}
	xs, st := retrieve.Files(q, retrieve.FileOptions{FS: s.Source, Paths: cand, Priority: req.File, Results: 6})
	if len(st.LimitsHit) > 0 {
		p.warnings = append(p.warnings, fmt.Sprintf("source search stopped at its %s limit after %d files; name the file with %s", strings.Join(st.LimitsHit, " and "), st.Files, s.words().arg("file")))
	}
	if req.File != "" {
		found := false
		for _, x := range xs {
			found = found || x.Priority
		}
		if !found {
			p.warnings = append(p.warnings, fmt.Sprintf("%s %q is not a readable text file in the repository", s.words().arg("file"), req.File))
		}
	}
	slots := sourceSlots(req.MaxUnits)
	var srcItems []item
	for _, x := range xs {
		if len(srcItems) >= slots && !x.Priority {
			break
		}
		// A file competes with decisions for the first page only when it
		// matches the task well.
		if !x.Priority && x.Coverage < confidentCoverage {
			continue
		}
		x := x
		role := "match"
		if x.Priority {
			role = "selected file"
		}
		srcItems = append(srcItems, item{src: &x, role: role, essential: x.Priority})
	}
	if len(srcItems) == 0 {
		return
	}
	// Decisions first, but leave the last slots of the first page to the
	// sources.
	at := min(len(p.items), req.MaxUnits-len(srcItems))
	if at < 0 {
		at = 0
	}
	items := append([]item(nil), p.items[:at]...)
	items = append(items, srcItems...)
	p.items = append(items, p.items[at:]...)
}

// inRoot reports whether a repository path lies in an ADR root (records
// are answered as decisions, not as source).
func (s *Service) inRoot(p string) bool {
	for _, root := range s.Log.Roots {
		if root.Path == "" {
			if s.Log.ByPath(p) != nil || strings.HasPrefix(p, adr.ArchiveDir+"/") {
				return true
			}
			continue
		}
		if p == root.Path || strings.HasPrefix(p, root.Path+"/") {
			return true
		}
	}
	return false
}

// TaskRanking is the order in which a task ranks the live records that
// match any of its words, best first, as an answer would consider them
// (for measurements: scripts/bench-context).
func (s *Service) TaskRanking(task string) ([]*adr.Record, error) {
	rk, err := s.rankTask(task)
	if err != nil {
		return nil, err
	}
	hits := rk.hits
	if !s.Ablate.NoTiering && !asksHistory(task) {
		p := newPlan()
		adjusted := map[int]float64{}
		for _, h := range hits {
			adjusted[h.Doc] = h.Score
			if s.noLongerBinding(p, rk.recs[h.Doc]) {
				adjusted[h.Doc] = h.Score * notInForceFactor
			}
		}
		// In place: the ranking's hits are this question's own.
		sort.SliceStable(hits, func(a, b int) bool { return adjusted[hits[a].Doc] > adjusted[hits[b].Doc] })
	}
	out := make([]*adr.Record, len(hits))
	for i, h := range hits {
		out[i] = rk.recs[h.Doc]
	}
	return out, nil
}
