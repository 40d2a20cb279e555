package evidence

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/navigate/retrieve"
)

// Confidence thresholds on the best record's coverage of the request's
// words (IDF-weighted, thesaurus expansions counting for the word they
// expand).
const (
	confidentCoverage = 0.45
	weakCoverage      = 0.15
	// includeRelative bounds which matches are listed: not far below the
	// best match. The unit budget does the rest.
	includeRelative = 0.1
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
// file name weigh most, then sections by kind.
func recordDoc(r *adr.Record) retrieve.Doc {
	base := baseName(r.Path)
	fields := []retrieve.Field{
		{Text: r.Title, Weight: 2},
		{Text: strings.Join(r.Domains, " "), Weight: 2},
		{Text: base, Weight: 1.5},
	}
	for _, u := range r.Units {
		w, ok := anchorWeight[u.Anchor]
		if !ok {
			w = 1.0
		}
		fields = append(fields, retrieve.Field{Text: r.UnitText(u), Weight: w})
	}
	if len(r.Units) == 0 {
		fields = append(fields, retrieve.Field{Text: string(r.Text.Src), Weight: 1})
	}
	return retrieve.Doc{ID: r.Path, Fields: fields, Lang: recordLanguage(r)}
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		p = p[i+1:]
	}
	return strings.TrimSuffix(p, ".md")
}

func recordLanguage(r *adr.Record) retrieve.Language {
	sample := r.Text.Src
	if len(sample) > 4000 {
		sample = sample[:4000]
	}
	return retrieve.DetectLanguage(string(sample))
}

// byTask ranks records (and source files) by the words of a task.
func (s *Service) byTask(req Request, partLimit int) (*plan, error) {
	qlang := retrieve.DetectLanguage(req.Task)
	q := retrieve.Query(req.Task, qlang)
	if len(q) == 0 {
		return nil, badRequest(`describe the task in words, for example --task "add a cache in front of the orders API"`, "--task %q has no searchable words", req.Task)
	}
	recs, ix, tix := s.taskIndexes()
	q = ix.Expand(q, 0.5)
	hits := ix.Search(q)
	// A title names what a record decides: words of the request in a
	// title (or domain, or file name) add a bonus on top of the body's
	// BM25 score.
	titleScore := map[int]float64{}
	for _, h := range tix.Search(q) {
		titleScore[h.Doc] = h.Score
	}
	for i := range hits {
		hits[i].Score += titleBonus * titleScore[hits[i].Doc]
	}
	for i := range hits {
		hits[i].Score *= statusPrior[recs[hits[i].Doc].Status]
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].Score > hits[b].Score })

	if os.Getenv("GIT_ADR_DEBUG_RANK") != "" {
		for i, h := range hits[:min(12, len(hits))] {
			fmt.Fprintf(os.Stderr, "%2d %-12s score %.2f cov %.2f title %.2f %v\n", i, recs[h.Doc].ID, h.Score, h.Coverage, titleScore[h.Doc], h.Matched)
		}
		fmt.Fprintf(os.Stderr, "query: %v\n", q)
	}
	p := newPlan()
	best := 0.0
	if len(hits) > 0 {
		best = hits[0].Coverage
		for _, h := range hits[:min(3, len(hits))] {
			best = max(best, h.Coverage)
		}
	}
	switch {
	case best >= confidentCoverage:
		p.confidence = "high"
	case best >= weakCoverage:
		p.confidence = "low"
		p.warnings = append(p.warnings, "weak match: no record covers most of the task's words; treat these records as leads, not answers")
	default:
		p.confidence = "none"
		p.warnings = append(p.warnings, "no decision record applies to this task")
		for _, h := range hits[:min(3, len(hits))] {
			p.references = append(p.references, reference(recs[h.Doc], fmt.Sprintf("weak match (%.0f%% of the task's words)", 100*h.Coverage)))
		}
		if len(hits) > 0 {
			p.omitted["weak_matches"] = len(hits)
		}
	}
	var matched []*adr.Record
	if p.confidence != "none" {
		top := hits[0].Score
		for _, h := range hits {
			if h.Score < includeRelative*top || len(matched) >= maxTaskRecords {
				p.omitted["weak_matches"]++
				continue
			}
			matched = append(matched, recs[h.Doc])
		}
	}
	// Applicable system constraints first, then matches in rank order, each
	// superseded match led by its successor.
	var ordered []*adr.Record
	var roles []string
	add := func(r *adr.Record, role string) {
		if !contains(ordered, r) {
			ordered = append(ordered, r)
			roles = append(roles, role)
		}
	}
	for _, r := range matched {
		if r.IsSystemConstraint() {
			add(r, "system constraint (match)")
		}
	}
	for _, r := range matched {
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
			add(r, "match ("+string(r.Status)+")")
			continue
		}
		role := "match"
		if r.Status != adr.Accepted {
			role = "match (" + string(r.Status) + ")"
		}
		add(r, role)
	}
	qterms := q
	for i, r := range ordered {
		u, part := bestUnit(r, qterms, ix, partLimit, req.Intent)
		p.items = append(p.items, item{rec: r, unit: u, part: part, role: roles[i], essential: i == 0})
	}
	s.taskViews(p, req, ordered)
	if s.SourceFiles != nil {
		s.addSources(p, req, q)
	}
	s.addMemory(p, req)
	return p, nil
}

// taskIndexes builds the body and title indexes of the live records,
// analysing only records the term cache does not know.
func (s *Service) taskIndexes() ([]*adr.Record, *retrieve.Index, *retrieve.Index) {
	cache := loadTermCache(s.CacheDir)
	var recs []*adr.Record
	var ids []string
	var body, title []retrieve.DocTerms
	for _, r := range s.Log.Records {
		if r.Archived {
			continue // archived bodies are reached through relations only
		}
		k := keyOf(r.Path, r.Text.Src)
		d, ok := cache.get(k)
		if !ok {
			doc := recordDoc(r)
			d = cachedDoc{body: retrieve.Analyze(doc), title: retrieve.Analyze(retrieve.Doc{Lang: doc.Lang, Fields: doc.Fields[:3]})}
			cache.put(k, d)
		}
		recs = append(recs, r)
		ids = append(ids, r.Path)
		body = append(body, d.body)
		title = append(title, d.title)
	}
	// A cache that cannot be written only costs time.
	_ = cache.save()
	return recs, retrieve.IndexTerms(ids, body), retrieve.IndexTerms(ids, title)
}

// bestUnit picks the unit of r that says most about the query (decision
// sections preferred) and, when the unit is split, its best part.
func bestUnit(r *adr.Record, q []retrieve.QueryTerm, ix *retrieve.Index, partLimit int, intent Intent) (adr.Unit, int) {
	candidates := unitsFor(r, intent)
	if intent == Current && r.Style != adr.StyleOCP {
		candidates = r.Units
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
			if w, ok := anchorWeight[u.Anchor]; ok && u.Anchor == "decision" {
				sc = sc*w + 0.01 // decisions win ties
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
		p.warnings = append(p.warnings, fmt.Sprintf("source search stopped at its %s limit after %d files; name the file with --file", strings.Join(st.LimitsHit, " and "), st.Files))
	}
	if req.File != "" {
		found := false
		for _, x := range xs {
			found = found || x.Priority
		}
		if !found {
			p.warnings = append(p.warnings, fmt.Sprintf("--file %q is not a readable text file in the repository", req.File))
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
