package compaction

import (
	"cmp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/lazyre"
	"github.com/git-adr/git-adr/retrieve"
)

// InferredGroup is a group of records about one subject that no relation
// links, found from the records' own words: a candidate for a
// consolidation that nothing in the log marks. It changes no record and no
// class.
type InferredGroup struct {
	// IDs are the members in log order; Records says what each one is.
	IDs     []string      `json:"ids"`
	Records []GroupRecord `json:"records"`
	// Similarity is the lowest similarity of two members (0 to 1): every
	// pair of the group is at least this similar.
	Similarity float64 `json:"similarity"`
	// SharedTerms are the words that make the members most alike;
	// TitleWords the words of their titles (and file names) that two or
	// more members share.
	SharedTerms []string `json:"shared_terms"`
	TitleWords  []string `json:"title_words"`
	// Evolved are the later members that state another choice for the
	// concern an earlier member decided, with no relation saying so.
	Evolved []Evolution `json:"evolved"`
	// Command plans the consolidation of exactly these records ("" when
	// a member cannot be named on a command line, see Note).
	Command string `json:"command"`
	Note    string `json:"note,omitempty"`
}

// GroupRecord is a member of an inferred group.
type GroupRecord struct {
	ID     string `json:"id"`
	Path   string `json:"path"`
	Title  string `json:"title"`
	Date   string `json:"date"`
	Status string `json:"status"`
}

// Evolution is a later record that appears to replace or contradict an
// earlier one of its group without a relation saying so.
type Evolution struct {
	Earlier string `json:"earlier"`
	Later   string `json:"later"`
	// Signals say what was seen: another named choice for the same
	// concern, a wording of change ("instead of", "replace", ...).
	Signals []string `json:"signals"`
	// Evidence quotes the sentences, earlier record first.
	Evidence []Quote `json:"evidence"`
}

// Quote is a sentence of a record and the line it starts on (1-based).
type Quote struct {
	ID   string `json:"id"`
	Path string `json:"path"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// Inferred groups are made with these bounds (docs/commands/compaction.md,
// "Inferred groups").
const (
	// groupMin is the similarity every two members of a group reach.
	groupMin = 0.3
	// titleBonus is what shared title words add to a pair's cosine at
	// most (all of both titles' words shared, by weight).
	titleBonus = 0.25
	// pairMin is the cosine below which no pair is looked at: to reach
	// groupMin, such a pair needs 40 % of its title words in common.
	pairMin = 0.2
	// maxGroup bounds a group: a replacement ADR merges a few records,
	// never a whole area of the log.
	maxGroup = 8
	// neighbours is how many of its most similar records a record is
	// grouped with at most.
	neighbours = 2 * maxGroup
)

// groupable reports whether a record of class c may join an inferred
// group: a record whose decision is live (in force, proposed, or in a log
// that records no statuses). Retired records are history, and an
// unresolved record waits for a person first.
func groupable(r *adr.Record, rc RecordClass) bool {
	switch rc.Class {
	case SummarizeClass, ConsolidateClass:
		return true
	case RetainUnchanged:
		return r.Status == adr.Proposed || r.StatusNotRecorded()
	}
	return false
}

// subjectDoc is the text a record's subject is read from: its title
// (weighing most), decision and context; the other sections when it has
// neither. Unit headings are left out: every record has them.
func subjectDoc(r *adr.Record, t *adr.Text) retrieve.Doc {
	fields := []retrieve.Field{{Text: r.Title, Weight: 3}}
	if t == nil {
		return retrieve.Doc{Fields: fields}
	}
	content := r.ContentViewIn(t)
	sample := content[:min(len(content), 4000)]
	d := retrieve.Doc{Fields: fields, Lang: retrieve.DetectLanguage(sample)}
	var rest []retrieve.Field
	for _, u := range r.Units() {
		body := unitBody(r, t, u)
		switch u.Anchor {
		case "decision":
			d.Fields = append(d.Fields, retrieve.Field{Text: body, Weight: 1.5})
		case "context":
			d.Fields = append(d.Fields, retrieve.Field{Text: body, Weight: 1})
		case "status":
		default:
			rest = append(rest, retrieve.Field{Text: body, Weight: 1})
		}
	}
	switch {
	case len(d.Fields) > 1:
	case len(rest) > 0:
		d.Fields = append(d.Fields, rest...)
	default:
		d.Fields = append(d.Fields, retrieve.Field{Text: withoutURLs(content), Weight: 1})
	}
	return d
}

// unitBody is the text of unit u without its heading line.
func unitBody(r *adr.Record, t *adr.Text, u adr.Unit) string {
	if u.Start >= 1 && u.Start <= len(t.Lines) && t.Lines[u.Start-1].Kind == adr.LineHeading {
		u.Start++
	}
	if u.Start > u.End {
		return ""
	}
	return withoutURLs(r.UnitViewIn(t, u))
}

// withoutURLs drops the addresses a text links to: two records that cite
// the same tracker or wiki are not about one subject for it.
func withoutURLs(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	return urlPattern.ReplaceAllString(s, " ")
}

var urlPattern = lazyre.New(`[A-Za-z][A-Za-z0-9+.-]*://[^\s)\]>"'` + "`" + `]+`)

// titleTerms are the words of a record's title and file name that can
// name a subject: analysed like any text, without stop words and the
// words every ADR title uses ("use", "adopt", "decision").
func titleTerms(r *adr.Record, lang retrieve.Language) []string {
	text := r.Title + " " + slugWords(r.Path)
	ts := retrieve.Analyzer{Lang: lang, Query: true}.TermTexts(text)
	// Numbers ("ROS 2", "v3") name no subject on their own.
	ts = slices.DeleteFunc(ts, func(t string) bool { return strings.Trim(t, "0123456789") == "" })
	slices.Sort(ts)
	return slices.Compact(ts)
}

// slugWords is a record file's name as words, without its number or date.
func slugWords(p string) string {
	base := p[strings.LastIndexByte(p, '/')+1:]
	if base == "README.md" || base == "index.md" {
		// A record in a folder of its own is named by the folder.
		dir := strings.TrimSuffix(p, "/"+base)
		base = dir[strings.LastIndexByte(dir, '/')+1:]
	}
	base = strings.TrimSuffix(base, ".md")
	base = strings.TrimLeft(base, "0123456789-_.")
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' {
			return ' '
		}
		return r
	}, base)
}

// subject is what grouping knows of one record.
type subject struct {
	r *adr.Record
	// terms are numbered in the analysis' vocabulary (analyzer.vocab).
	terms retrieve.NumberedTerms
	title []string
	lang  retrieve.Language
}

// inferGroups groups the groupable records of the scope by subject. See
// docs/commands/compaction.md ("Inferred groups") for the rules.
func (a *analyzer) inferGroups(scope []*adr.Record, classes []RecordClass, clusters map[*adr.Record][]*adr.Record) []InferredGroup {
	var subs []subject
	for i, r := range scope {
		f := a.texts[r]
		if f == nil || f.subject == nil || !groupable(r, classes[i]) {
			continue
		}
		subs = append(subs, *f.subject)
	}
	if len(subs) < 2 {
		return []InferredGroup{}
	}
	dts := make([]retrieve.NumberedTerms, len(subs))
	for i, s := range subs {
		dts[i] = s.terms
	}
	vecs := retrieve.NewVectors(a.vocab, dts)
	// The vectors hold what grouping needs of the subjects' terms: the
	// terms and their vocabulary are let go of here, before the groups
	// are described.
	for i := range subs {
		subs[i].terms = retrieve.NumberedTerms{}
	}
	for _, f := range a.texts {
		f.subject = nil
	}
	a.vocab = nil
	// Each title word's weight, looked up once.
	titleW := make([][]float64, len(subs))
	for i, s := range subs {
		titleW[i] = make([]float64, len(s.title))
		for k, t := range s.title {
			titleW[i][k] = vecs.IDF(t)
		}
	}
	// Title words by their rank among every title's words: compared as
	// numbers, in the order the words sort in (a word's bytes were read
	// for each of the pairs that compared it).
	titleN := titleRanks(subs)
	score := func(i, j int, cos float64) float64 {
		return min(1, cos+titleBonus*titleOverlap(titleN[i], titleW[i], titleN[j], titleW[j]))
	}
	type edge struct {
		a, b int32
		s    float64
	}
	byScore := func(x, y edge) int {
		if c := cmp.Compare(y.s, x.s); c != 0 {
			return c
		}
		if c := cmp.Compare(x.a, y.a); c != 0 {
			return c
		}
		return cmp.Compare(x.b, y.b)
	}
	// Only the pairs that reach groupMin are kept (at 10,000 generated
	// records a third of those at pairMin): each root numbers its own
	// records.
	roots := make([]*adr.Root, len(subs)) // side by side: not a record's field each
	for i, s := range subs {
		roots[i] = s.r.Root
	}
	pairs := vecs.SimilarPairs(retrieve.PairOptions{Min: pairMin, Keep: func(i, j int32, cos float32) bool {
		return roots[i] == roots[j] && score(int(i), int(j), float64(cos)) >= groupMin
	}})
	all := make([]edge, len(pairs))
	for k, p := range pairs {
		all[k] = edge{p.A, p.B, score(int(p.A), int(p.B), float64(p.Sim))}
	}
	// A pair is kept when it is among the neighbours most similar pairs
	// of one of its records (a group holds maxGroup records): where many
	// records are alike, the others would only be compared to be turned
	// down. Only the kept pairs are sorted.
	best := make([][]float64, len(subs)) // min-heaps of each record's best scores
	for _, e := range all {
		best[e.a] = pushBest(best[e.a], e.s)
		best[e.b] = pushBest(best[e.b], e.s)
	}
	floor := func(i int32) float64 {
		if len(best[i]) < neighbours {
			return 0
		}
		return best[i][0]
	}
	edges := all[:0] // filtered in place: all is not read again
	for _, e := range all {
		if e.s >= floor(e.a) || e.s >= floor(e.b) {
			edges = append(edges, e)
		}
	}
	slices.SortFunc(edges, byScore)
	sims := make(map[uint64]float64, len(edges))
	key := func(i, j int) uint64 { return uint64(min(i, j))<<32 | uint64(max(i, j)) }
	for _, e := range edges {
		sims[key(int(e.a), int(e.b))] = e.s
	}
	sim := func(i, j int) (float64, bool) {
		s, ok := sims[key(i, j)]
		return s, ok
	}
	// Complete linkage: two groups merge, most similar pair first, only
	// when every member of one is similar enough to every member of the
	// other and the result stays within maxGroup.
	group := make([]int, len(subs))
	members := make([][]int, len(subs))
	for i := range subs {
		group[i], members[i] = i, []int{i}
	}
	for _, e := range edges {
		x, y := group[e.a], group[e.b]
		if x == y || len(members[x])+len(members[y]) > maxGroup {
			continue
		}
		ok := true
		for _, i := range members[x] {
			for _, j := range members[y] {
				if _, linked := sim(i, j); !linked {
					ok = false
					break
				}
			}
			if !ok {
				break
			}
		}
		if !ok {
			continue
		}
		if y < x {
			x, y = y, x
		}
		for _, j := range members[y] {
			group[j] = x
		}
		members[x] = append(members[x], members[y]...)
		members[y] = nil
	}
	// A group is numbered by its first member, so groups come in log
	// order.
	var found [][]int
	for g, ms := range members {
		if len(ms) < 2 || group[g] != g {
			continue
		}
		slices.Sort(ms)
		if !sameCluster(subs, ms, clusters) { // else a relation proposes them already
			found = append(found, ms)
		}
	}
	// The terms each group's members share most, from the vectors,
	// which are let go of before the groups are described.
	shared := make([][]string, len(found))
	for k, ms := range found {
		shared[k] = sharedTerms(ms, vecs)
	}
	// Describing a group reads its members' texts again: on every CPU.
	out := make([]InferredGroup, len(found))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), 8, len(found)); w++ {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= len(found) {
					return
				}
				out[k] = describeGroup(subs, found[k], shared[k], sim)
			}
		})
	}
	wg.Wait()
	// Resolving IDs builds the log's index: one goroutine.
	for k, ms := range found {
		rs := make([]*adr.Record, len(ms))
		for x, i := range ms {
			rs[x] = subs[i].r
		}
		out[k].Command, out[k].Note = a.consolidateCommand(rs)
	}
	return out
}

// pushBest adds s to h, a min-heap of at most neighbours scores, when it
// is among the best.
func pushBest(h []float64, s float64) []float64 {
	if len(h) < neighbours {
		h = append(h, s)
		for i := len(h) - 1; i > 0; {
			p := (i - 1) / 2
			if h[p] <= h[i] {
				break
			}
			h[p], h[i] = h[i], h[p]
			i = p
		}
		return h
	}
	if s <= h[0] {
		return h
	}
	h[0] = s
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && h[l] < h[m] {
			m = l
		}
		if r < len(h) && h[r] < h[m] {
			m = r
		}
		if m == i {
			return h
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// titleRanks are the subjects' title words (sorted) as their ranks in
// the sorted list of every title's words, in the same order.
func titleRanks(subs []subject) [][]int32 {
	var words []string
	for _, s := range subs {
		words = append(words, s.title...)
	}
	slices.Sort(words)
	words = slices.Compact(words)
	out := make([][]int32, len(subs))
	for i, s := range subs {
		out[i] = make([]int32, len(s.title))
		for k, t := range s.title {
			n, _ := slices.BinarySearch(words, t)
			out[i][k] = int32(n)
		}
	}
	return out
}

// titleOverlap is how much of two titles' words (sorted, with their
// weights by rarity) the titles share, 0 to 1.
func titleOverlap[T cmp.Ordered](x []T, xw []float64, y []T, yw []float64) float64 {
	shared, all := 0.0, 0.0
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case j == len(y) || i < len(x) && x[i] < y[j]:
			all += xw[i]
			i++
		case i == len(x) || y[j] < x[i]:
			all += yw[j]
			j++
		default:
			shared += xw[i]
			all += xw[i]
			i++
			j++
		}
	}
	if all == 0 {
		return 0
	}
	return shared / all
}

// sameCluster reports whether the members ms are all of one cluster of
// relations: the analysis proposes them already.
func sameCluster(subs []subject, ms []int, clusters map[*adr.Record][]*adr.Record) bool {
	c := clusters[subs[ms[0]].r]
	if c == nil {
		return false
	}
	for _, m := range ms[1:] {
		if !slices.Contains(c, subs[m].r) {
			return false
		}
	}
	return true
}
