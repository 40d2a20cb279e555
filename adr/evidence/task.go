package evidence

import (
	"cmp"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/navigate/retrieve"
)

// How much a task answer sends, by confidence (see confidenceOf), and in
// what order. Variables, not constants, so that a test can sweep them.
var (
	// highRelative: a confident answer holds the matches scoring at least
	// this share of the best match's score.
	highRelative = 0.3
	// lowRecords: a weak answer holds the decisions of this many records;
	// maxLeads more are named as leads.
	lowRecords = 5
	maxLeads   = 5
	// noneLeads: an answer with no confidence names this many leads.
	noneLeads = 3
	// extraRecords: how many of the best records may add a section other
	// than their decision, when it matches betterSectionRatio times
	// better.
	extraRecords       = 1
	betterSectionRatio = 1.5
	// notInForceFactor: a record not in force is ranked as if it scored
	// this share of its score.
	notInForceFactor = 0.5
	// fullRecords: a task answer's best records send their decision at
	// the response's part size; the records after them at tailPartShare
	// of it.
	fullRecords   = 3
	tailPartShare = 0.5
	// lowFullRecords: how many of a weak answer's records send their
	// decision at the response's part size.
	lowFullRecords = 1
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

// recordDoc builds the search document of a record: title, domains and
// file name weigh most, then sections by kind. The record's text is read
// for this only (PeekText): analysing a whole log does not keep every
// record's text in memory.
func recordDoc(r *adr.Record) retrieve.Doc {
	t := r.PeekText()
	base := baseName(r.Path)
	fields := []retrieve.Field{
		{Text: r.Title, Weight: 2},
		{Text: strings.Join(r.Domains, " "), Weight: 2},
		{Text: base, Weight: 1.5},
	}
	for _, u := range r.Units() {
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
	if len(r.Units()) == 0 {
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
	// NoShortTail: the records after a task answer's best fullRecords
	// send their decision at the response's part size too, not at
	// tailPartShare of it.
	NoShortTail bool
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
	if !s.Ablate.NoStemPrefix {
		q = ix.Expand(q, 0.5)
	}
	hits := ix.Search(q)
	// A title names what a record decides: words of the request in a
	// title (or domain, or file name) add a bonus on top of the body's
	// BM25 score.
	if !s.Ablate.NoTitleBonus {
		titleScore := map[int]float64{}
		for _, h := range tix.Search(q) {
			titleScore[h.Doc] = h.Score
		}
		for i := range hits {
			hits[i].Score += titleBonus * titleScore[hits[i].Doc]
		}
	}
	for i := range hits {
		hits[i].Score *= statusPrior[recs[hits[i].Doc].Status]
	}
	hits = sortHits(hits)
	if os.Getenv("GIT_ADR_DEBUG_RANK") != "" {
		for i, h := range hits[:min(12, len(hits))] {
			fmt.Fprintf(os.Stderr, "%2d %-12s score %.2f cov %.2f %v\n", i, recs[h.Doc].ID, h.Score, h.Coverage, h.Matched)
		}
		fmt.Fprintf(os.Stderr, "query: %v\n", q)
	}
	return &ranked{q: q, recs: recs, ix: ix, hits: hits}, nil
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

// byTask ranks records (and source files) by the words of a task. With
// the default intent the answer is made of decisions: each matched
// record's decision unit (its best part when it is split), records in
// force first, then those not in force (labelled), then, while units
// remain, the other sections of the best records that match the task
// better than their decision. Confidence decides how much is sent: a
// confident answer gets the matches near the best one; a weak one only
// the decisions of its best few records and a list of leads; none, only
// leads.
func (s *Service) byTask(req Request, partLimit int) (*plan, error) {
	rk, err := s.rankTask(req.Task)
	if err != nil {
		return nil, err
	}
	recs, hits := rk.recs, rk.hits
	p := newPlan()
	conf := confidenceOf(rk.q, rk.ix, hits)
	p.confidence = conf.level
	var matched []retrieve.Hit
	var leads []retrieve.Hit
	switch p.confidence {
	case "high":
		top := hits[0].Score
		for _, h := range hits {
			if h.Score < highRelative*top || len(matched) >= maxTaskRecords {
				p.omitted["weak_matches"]++
				continue
			}
			matched = append(matched, h)
		}
	case "low":
		weak := "no record covers most of the task's words"
		if ws := requestWords(req.Task, conf.absent); len(ws) > 0 {
			weak = "no record mentions " + quoteList(ws)
		}
		p.warnings = append(p.warnings, "weak match: "+weak+"; these records are leads, not answers: check them with "+s.words().call(ShowTool, map[string]any{"id": "ID"}, "git adr show ID"))
		for i, h := range hits {
			switch {
			case i < lowRecords:
				matched = append(matched, h)
			case len(leads) < maxLeads:
				leads = append(leads, h)
			default:
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
	// Records in force before those that are not, unless one that is not
	// matches the task more than 1/notInForceFactor times as well (a
	// question about a rejected option should get that record).
	if req.Intent != History && !s.Ablate.NoTiering {
		// Each record's standing once, not per comparison.
		adjusted := map[int]float64{}
		for _, h := range matched {
			adjusted[h.Doc] = h.Score
			if !s.standingIn(p, recs[h.Doc]).inForce {
				adjusted[h.Doc] = h.Score * notInForceFactor
			}
		}
		sort.SliceStable(matched, func(a, b int) bool { return adjusted[matched[a].Doc] > adjusted[matched[b].Doc] })
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
	// A weak answer's records are leads more than answers: only the best
	// sends its decision whole.
	full := fullRecords
	if p.confidence == "low" {
		full = lowFullRecords
	}
	for i, r := range ordered {
		// The best records send their decision whole (split only as the
		// budget requires); the ones after them, more often leads than
		// answers, their best part at half that size.
		limit := 0
		if i >= full && !s.Ablate.NoShortTail {
			limit = max(300, int(float64(partLimit)*tailPartShare))
		}
		u, part := bestUnit(r, rk.q, rk.ix, cmp.Or(limit, partLimit), req.Intent)
		p.items = append(p.items, item{rec: r, unit: u, part: part, role: roles[i], essential: i == 0, limit: limit})
	}
	// Then, while units remain, sections other than the decision that
	// match the task better than it (the best records only).
	if req.Intent == Current {
		for i, r := range ordered {
			if i >= extraRecords {
				break
			}
			if u, part, ok := betterSection(r, rk.q, rk.ix, partLimit); ok {
				p.items = append(p.items, item{rec: r, unit: u, part: part, role: roles[i] + ", " + u.Anchor})
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
	var recs []*adr.Record
	var keys []cacheKey
	var ids []string
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
	if body, title, ok := loadTaskIndex(s.CacheDir, ik, ids); ok {
		return recs, body, title
	}
	docs, cache := s.analyseTerms(recs, keys)
	bodyTerms := make([]retrieve.DocTerms, len(recs))
	titleTerms := make([]retrieve.DocTerms, len(recs))
	for i := range recs {
		bodyTerms[i], titleTerms[i] = docs[i].body, docs[i].title
	}
	// The caches are written while the indexes are built and the answer
	// is made (Answer waits for them): on a cold query over a long log
	// each is a noticeable part of the wait. Caches that cannot be
	// written only cost time.
	s.saving.Go(func() { _ = cache.save() })
	var wg sync.WaitGroup
	var title *retrieve.Index
	wg.Go(func() { title = retrieve.IndexTerms(ids, titleTerms) })
	body := retrieve.IndexTerms(ids, bodyTerms)
	wg.Wait()
	s.saving.Go(func() { _ = saveTaskIndex(s.CacheDir, ik, body, title) })
	return recs, body, title
}

// analyseTerms returns the analysed terms of recs (keyed by keys), from
// the term cache or by analysing the records it does not know, and the
// cache with them, for the caller to save.
func (s *Service) analyseTerms(recs []*adr.Record, keys []cacheKey) ([]cachedDoc, *termCache) {
	cache := loadTermCache(s.CacheDir)
	docs := make([]cachedDoc, len(recs))
	var missing []int
	for i, k := range keys {
		d, ok := cache.get(k)
		if !ok {
			missing = append(missing, i)
		}
		docs[i] = d
	}
	// Analysis is most of a cold query: records are independent, so it
	// runs on every core. The records' terms share their strings: each
	// worker's analysis keeps one copy of every word it has seen
	// (retrieve.Analyze), so what a cold query holds is close to its
	// vocabulary, not to the sum of its records.
	next := make(chan int)
	finished := make(chan int)
	go func() {
		for _, i := range missing {
			next <- i
		}
		close(next)
	}()
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(missing)); w++ {
		go func() {
			for i := range next {
				doc := recordDoc(recs[i])
				docs[i] = cachedDoc{body: retrieve.Analyze(doc), title: retrieve.Analyze(retrieve.Doc{Lang: doc.Lang, Fields: doc.Fields[:3]})}
				finished <- i
			}
		}()
	}
	for done := 1; done <= len(missing); done++ {
		<-finished
		if s.Progress != nil {
			s.Progress(done, len(missing))
		}
	}
	for _, i := range missing {
		cache.put(keys[i], docs[i])
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

// betterSection is the section of r, other than its decision, that
// matches the query clearly better than the decision does (and its best
// part), if any.
func betterSection(r *adr.Record, q []retrieve.QueryTerm, ix *retrieve.Index, partLimit int) (adr.Unit, int, bool) {
	main, ok := mainUnit(r)
	if !ok || r.Style == adr.StyleOCP {
		return adr.Unit{}, 0, false
	}
	mainScore := 0.0
	for _, pt := range splitUnit(r, main, partLimit) {
		mainScore = max(mainScore, textScore(pt.text, q, ix))
	}
	var best adr.Unit
	bestScore, bestPart := 0.0, 0
	for _, u := range r.Units() {
		if u.Anchor == "status" || u.Anchor == main.Anchor || u.Anchor == "body" || roleOf(u) == roleMeta {
			continue
		}
		parts := splitUnit(r, u, partLimit)
		for pi, pt := range parts {
			if sc := textScore(pt.text, q, ix); sc > bestScore {
				bestScore, best, bestPart = sc, u, 0
				if len(parts) > 1 {
					bestPart = pi + 1
				}
			}
		}
	}
	return best, bestPart, bestScore > betterSectionRatio*mainScore && bestScore > 0
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
