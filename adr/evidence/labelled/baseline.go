package labelled

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/retrieve"
)

// Passage is a piece of one record's text in an answer.
type Passage struct {
	Record *adr.Record
	Text   string
}

// Baseline answers a task the plain way, as the issue that set the bar
// describes it: BM25 over each live record's whole text (the same word
// analysis git-adr uses, no field weights, no expansions, no status
// rules), then, best first, each record's title line and its
// best-matching paragraph window of at most Window code points, until the
// answer holds Size code points. With RM3 the query is first expanded by
// relevance feedback from its best FeedbackDocs records.
type Baseline struct {
	Window int
	RM3    bool
	// FeedbackDocs and FeedbackTerms are RM3's k and m; FeedbackWeight
	// is the weight of the best expansion term relative to a word of the
	// request.
	FeedbackDocs, FeedbackTerms int
	FeedbackWeight              float64
}

// DefaultBaseline is the baseline: windows of at most 1,000 code
// points.
var DefaultBaseline = Baseline{Window: 1000}

// RM3Baseline is the baseline with RM3 relevance feedback (10 records,
// 10 terms, the best term at half a request word's weight).
var RM3Baseline = Baseline{Window: 1000, RM3: true, FeedbackDocs: 10, FeedbackTerms: 10, FeedbackWeight: 0.5}

// baselineIndex is a log's plain BM25 index and each record's terms.
type baselineIndex struct {
	recs  []*adr.Record
	terms []retrieve.DocTerms
	ix    *retrieve.Index
}

func newBaselineIndex(l *adr.Log) *baselineIndex {
	b := &baselineIndex{}
	var ids []string
	for _, r := range l.Records {
		if r.Archived {
			continue
		}
		text := string(r.Content())
		d := retrieve.Doc{ID: r.Locus(), Fields: []retrieve.Field{{Text: text, Weight: 1}}, Lang: retrieve.DetectLanguage(clipBytes(text, 4000))}
		b.recs = append(b.recs, r)
		b.terms = append(b.terms, retrieve.Analyze(d))
		ids = append(ids, r.Locus())
	}
	b.ix = retrieve.IndexTerms(ids, b.terms)
	return b
}

func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// answer returns the passages of the baseline's answer to task within
// size code points.
func (b Baseline) answer(bx *baselineIndex, task string, size int) []Passage {
	lang := retrieve.DetectLanguage(task)
	q := retrieve.QueryWith(task, lang, retrieve.QueryOptions{NoThesaurus: true, NoPhrases: true})
	if len(q) == 0 {
		return nil
	}
	hits := bx.ix.Search(q)
	if b.RM3 && len(hits) > 0 {
		q = b.feedback(bx, q, hits)
		hits = bx.ix.Search(q)
	}
	var out []Passage
	left := size
	for _, h := range hits {
		if left <= 0 {
			break
		}
		r := bx.recs[h.Doc]
		title := strings.TrimSpace(r.RawTitle)
		if title == "" {
			title = r.ID
		}
		window := bestWindow(string(r.Content()), q, bx.ix, b.Window)
		text := title + "\n" + window + "\n\n"
		if n := utf8.RuneCountInString(text); n > left {
			text = string([]rune(text)[:left])
		}
		left -= utf8.RuneCountInString(text)
		out = append(out, Passage{Record: r, Text: text})
	}
	return out
}

// feedback is RM3: the query plus the terms most probable in its best
// records (each record's term distribution weighed by its score), at
// most FeedbackWeight, scoring only (no coverage group).
func (b Baseline) feedback(bx *baselineIndex, q []retrieve.QueryTerm, hits []retrieve.Hit) []retrieve.QueryTerm {
	have := map[string]bool{}
	for _, t := range q {
		have[t.Text] = true
	}
	weight := map[string]float64{}
	for _, h := range hits[:min(b.FeedbackDocs, len(hits))] {
		dt := bx.terms[h.Doc]
		if dt.Len == 0 {
			continue
		}
		for i, t := range dt.Terms {
			if !have[t] && !isNumber(t) {
				weight[t] += float64(dt.TF[i]) / float64(dt.Len) * h.Score
			}
		}
	}
	type tw struct {
		t string
		w float64
	}
	var ws []tw
	for t, w := range weight {
		ws = append(ws, tw{t, w})
	}
	slices.SortFunc(ws, func(a, b tw) int { return cmp.Or(cmp.Compare(b.w, a.w), strings.Compare(a.t, b.t)) })
	ws = ws[:min(b.FeedbackTerms, len(ws))]
	out := slices.Clone(q)
	for _, x := range ws {
		out = append(out, retrieve.QueryTerm{Text: x.t, Weight: b.FeedbackWeight * x.w / ws[0].w, Group: -1})
	}
	return out
}

func isNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// bestWindow is the text from the start of the paragraph of text that
// matches q best (the IDF of the query words it holds; the first of equal
// ones), at most limit code points.
func bestWindow(text string, q []retrieve.QueryTerm, ix *retrieve.Index, limit int) string {
	paras := paragraphs(text)
	if len(paras) == 0 {
		return ""
	}
	best, bestScore := 0, -1.0
	for i, p := range paras {
		terms := map[string]bool{}
		for _, t := range (retrieve.Analyzer{}).TermTexts(text[p[0]:p[1]]) {
			terms[t] = true
		}
		sc := 0.0
		for _, t := range q {
			if terms[t.Text] {
				sc += ix.IDF(t.Text) * t.Weight
			}
		}
		if sc > bestScore {
			best, bestScore = i, sc
		}
	}
	w := text[paras[best][0]:]
	if utf8.RuneCountInString(w) > limit {
		w = string([]rune(w)[:limit])
	}
	return w
}

// paragraphs are the byte ranges of text's blocks separated by blank
// lines, after its first line (the title).
func paragraphs(text string) [][2]int {
	var out [][2]int
	start := -1
	pos := 0
	first := true
	for _, line := range strings.SplitAfter(text, "\n") {
		end := pos + len(line)
		blank := strings.TrimSpace(line) == ""
		switch {
		case first:
			first = false
		case blank && start >= 0:
			out = append(out, [2]int{start, pos})
			start = -1
		case !blank && start < 0:
			start = pos
		}
		pos = end
	}
	if start >= 0 {
		out = append(out, [2]int{start, pos})
	}
	return out
}

// Answerer answers each task, in the order RunWith asks them, within the
// size git-adr's answer to the same task took (sizes, task by task, from
// a Result of the same set): the baseline measured at the same size.
func (b Baseline) Answerer(sizes []int) Answerer {
	indexes := map[*adr.Log]*baselineIndex{}
	next := 0
	return func(l *adr.Log, _, task string) (*evidence.Response, []byte, error) {
		if next >= len(sizes) {
			return nil, nil, fmt.Errorf("baseline: more tasks than sizes (%d)", len(sizes))
		}
		size := sizes[next]
		next++
		bx := indexes[l]
		if bx == nil {
			bx = newBaselineIndex(l)
			indexes[l] = bx
		}
		resp := &evidence.Response{Units: []evidence.Unit{}}
		var out strings.Builder
		for _, p := range b.answer(bx, task, size) {
			resp.Units = append(resp.Units, evidence.Unit{ID: p.Record.ID, Path: p.Record.Path, Kind: "excerpt", Text: p.Text})
			out.WriteString(p.Text)
		}
		return resp, []byte(out.String()), nil
	}
}

// Ranking is the plain BM25 order of l's live records for task (RM3
// when b says so).
func (b Baseline) Ranking(l *adr.Log, task string) []*adr.Record {
	bx := newBaselineIndex(l)
	q := retrieve.QueryWith(task, retrieve.DetectLanguage(task), retrieve.QueryOptions{NoThesaurus: true, NoPhrases: true})
	if len(q) == 0 {
		return nil
	}
	hits := bx.ix.Search(q)
	if b.RM3 && len(hits) > 0 {
		hits = bx.ix.Search(b.feedback(bx, q, hits))
	}
	out := make([]*adr.Record, len(hits))
	for i, h := range hits {
		out[i] = bx.recs[h.Doc]
	}
	return out
}

// Pooled is one baseline index over the live records of several logs at
// once (a workspace's repositories): the plain answer across
// repositories ranks every record by the statistics of them all.
type Pooled struct{ bx *baselineIndex }

// NewPooled indexes the records of logs together.
func NewPooled(logs ...*adr.Log) *Pooled {
	var all []*adr.Record
	for _, l := range logs {
		all = append(all, l.Records...)
	}
	return &Pooled{bx: newBaselineIndex(&adr.Log{Records: all})}
}

// Passages is the baseline's answer to task over the pooled records
// within size code points; each passage names its record.
func (b Baseline) Passages(p *Pooled, task string, size int) []Passage {
	return b.answer(p.bx, task, size)
}
