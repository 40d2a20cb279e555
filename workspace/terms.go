package workspace

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/atomicfile"
	"github.com/git-adr/git-adr/retrieve"
)

// The workspace term index lets a task question skip the repositories
// that cannot answer it before any log is opened. Each mirrored member
// has a summary, its terms: for every term of its live records, the best
// BM25 score one of its records gets for that term (by the member's own
// statistics), and its number of records. A summary is kept in the
// mirror's cache folder, stamped with the commit it was made from: sync makes it when the tip moves, and a query remakes it
// when the stamp is not the tip's. A query reads the summaries one at a
// time, keeping only each member's score for the task's words, and asks
// the members whose best record can score highest. Local members are
// always asked (their work tree has no commit to stamp a summary with).

// termsFormat changes with the summary's layout or analysis.
const termsFormat = "git-adr workspace terms v1"

// BM25 parameters of a summary's scores (as retrieve's).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Terms is one member's summary.
type Terms struct {
	// Commit is the commit the summary was made from.
	Commit string
	// Records is the member's number of records, archived included (as
	// a full answer counts them).
	Records int
	// Best is, for each term of the live records, the best score a
	// record gets for it.
	Best map[string]float32
}

// termsPath is where the summary of a mirrored member is kept: beside
// the mirror's parse cache, shared by every workspace naming its URL, one
// per ref read.
func (w *Workspace) termsPath(m *Member) string {
	sum := sha256.Sum256([]byte(m.ref()))
	return filepath.Join(m.Mirror, "adr", "cache", "workspace-terms-"+hex.EncodeToString(sum[:6])+".txt")
}

// summarise makes the summary of an open member's log.
func summarise(ld *Loaded) *Terms {
	t := &Terms{Commit: ld.Commit, Records: len(ld.Log.Records), Best: map[string]float32{}}
	var docs []retrieve.DocTerms
	for _, r := range ld.Log.Records {
		if r.Archived {
			continue // as the engine: archived bodies are not ranked
		}
		content := string(r.Content())
		docs = append(docs, retrieve.Analyze(retrieve.Doc{
			Lang: retrieve.DetectLanguage(content),
			Fields: []retrieve.Field{
				{Text: r.Title, Weight: 2},
				{Text: strings.Join(r.Domains, " "), Weight: 2},
				{Text: content, Weight: 1},
			},
		}))
	}
	if len(docs) == 0 {
		return t
	}
	df := map[string]int{}
	total := 0.0
	for _, d := range docs {
		total += float64(d.Len)
		for _, term := range d.Terms {
			df[term]++
		}
	}
	avg := max(total/float64(len(docs)), 1)
	n := float64(len(docs))
	for _, d := range docs {
		norm := bm25K1 * (1 - bm25B + bm25B*float64(d.Len)/avg)
		for i, term := range d.Terms {
			f := float64(df[term])
			idf := math.Log(1 + (n-f+0.5)/(f+0.5))
			tf := float64(d.TF[i])
			s := float32(idf * tf * (bm25K1 + 1) / (tf + norm))
			if s > t.Best[term] {
				t.Best[term] = s
			}
		}
	}
	return t
}

// encode writes the summary: a header, then a term and its score a line,
// sorted (a term has no tab or newline: analysis splits on spaces).
func (t *Terms) encode() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\ncommit %s\nrecords %d\n", termsFormat, t.Commit, t.Records)
	terms := make([]string, 0, len(t.Best))
	for term := range t.Best {
		terms = append(terms, term)
	}
	slices.Sort(terms)
	for _, term := range terms {
		b.WriteString(term)
		b.WriteByte('\t')
		b.WriteString(strconv.FormatFloat(float64(t.Best[term]), 'g', 5, 32))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// saveTerms keeps the summary of m; a summary that cannot be written
// only costs the next query an open.
func (w *Workspace) saveTerms(m *Member, t *Terms) error {
	p := w.termsPath(m)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(p, t.encode(), 0o644)
}

// memberScore is what a summary says of a task: the best score a record
// of the member can reach (the sum, over the task's words, of the best
// score of any of the word's terms) and how many of the words it holds.
type memberScore struct {
	score float64
	words int
	// records is the member's number of records.
	records int
}

// scoreTerms reads the summary of m stamped with commit and scores the
// task's terms, streaming the file (only the task's terms are kept).
// ok is false when there is no such summary.
func (w *Workspace) scoreTerms(m *Member, commit string, q []retrieve.QueryTerm) (ms memberScore, ok bool) {
	f, err := os.Open(w.termsPath(m))
	if err != nil {
		return ms, false
	}
	defer f.Close()
	weight := make(map[string][]int, len(q)) // term → indexes in q
	for i, qt := range q {
		weight[qt.Text] = append(weight[qt.Text], i)
	}
	best := make([]float64, len(q))
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for line := 0; sc.Scan(); line++ {
		s := sc.Bytes()
		switch line {
		case 0:
			if string(s) != termsFormat {
				return ms, false
			}
			continue
		case 1:
			if string(s) != "commit "+commit {
				return ms, false
			}
			continue
		case 2:
			n, err := strconv.Atoi(strings.TrimPrefix(string(s), "records "))
			if err != nil {
				return ms, false
			}
			ms.records = n
			if len(q) == 0 {
				return ms, true
			}
			continue
		}
		tab := bytes.IndexByte(s, '\t')
		if tab < 0 {
			return ms, false
		}
		idx, hit := weight[string(s[:tab])]
		if !hit {
			continue
		}
		v, err := strconv.ParseFloat(string(s[tab+1:]), 32)
		if err != nil {
			return ms, false
		}
		for _, i := range idx {
			best[i] = v * q[i].Weight
		}
	}
	if sc.Err() != nil {
		return ms, false
	}
	// A word scores by its best term (an expansion or the word itself).
	group := map[int]float64{}
	for i, qt := range q {
		if qt.Group < 0 || best[i] == 0 {
			continue
		}
		group[qt.Group] = max(group[qt.Group], best[i])
	}
	for _, s := range group {
		ms.score += s
		ms.words++
	}
	return ms, true
}

// tip is the commit a mirrored member reads, without opening its log
// ("" when it is not synced).
func (m *Member) tip() string {
	r, err := gitops.OpenBare(m.Mirror)
	if err != nil {
		return ""
	}
	defer r.Close()
	c, err := r.RefHash(tipRef(m.ref()))
	if err != nil {
		return ""
	}
	return c
}

// keepTerms remakes the summary of a mirrored member whose tip is not
// the one its summary was made from (sync calls it after a fetch).
func (w *Workspace) keepTerms(m *Member) error {
	commit := m.tip()
	if commit == "" {
		return nil
	}
	if _, ok := w.scoreTerms(m, commit, nil); ok {
		return nil
	}
	ld, err := m.Open(false)
	if err != nil {
		return err
	}
	defer ld.Close()
	return w.saveTerms(m, summarise(ld))
}

// selectMembers chooses the members a task is asked of. A workspace of at
// most twice the unit budget asks every member (ask is nil). A larger one
// asks every local member, every mirror without a usable summary (a
// mirror not synced answers with its error), and the mirrors whose best
// record can score highest for the task's words, twice the unit budget
// of them: no answer holds more units than that, and a member's units come
// from its best records. The others get their answer here: records from
// the summary, confidence "none" for a member that holds none of the
// task's words, "skipped" for one that holds fewer of its best matches.
func (w *Workspace) selectMembers(req ContextRequest) (ask []int, pre []*MemberAnswer) {
	k := 2 * req.MaxUnits
	if len(w.Members) <= k {
		return nil, nil
	}
	lang := retrieve.DetectLanguage(req.Task)
	q := retrieve.WithAlternateStems(req.Task, lang, retrieve.QueryWith(req.Task, lang, retrieve.QueryOptions{}))
	if len(q) == 0 {
		return nil, nil // the engine says what is wrong with the task
	}
	type scored struct {
		i int
		memberScore
	}
	var ranked []scored
	pre = make([]*MemberAnswer, len(w.Members))
	for i, m := range w.Members {
		if !m.Remote() {
			ask = append(ask, i)
			continue
		}
		commit := m.tip()
		if commit == "" {
			ask = append(ask, i)
			continue
		}
		ms, ok := w.scoreTerms(m, commit, q)
		if !ok {
			if w.keepTerms(m) == nil {
				ms, ok = w.scoreTerms(m, commit, q)
			}
			if !ok {
				ask = append(ask, i)
				continue
			}
		}
		ranked = append(ranked, scored{i, ms})
	}
	slices.SortStableFunc(ranked, func(a, b scored) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return a.i - b.i
	})
	for n, r := range ranked {
		if n < k && r.words > 0 {
			ask = append(ask, r.i)
			continue
		}
		conf := "skipped"
		if r.words == 0 {
			conf = "none"
		}
		pre[r.i] = &MemberAnswer{Name: w.Members[r.i].Name, Confidence: conf, Records: r.records}
	}
	slices.Sort(ask)
	return ask, pre
}
