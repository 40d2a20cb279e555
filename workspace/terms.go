package workspace

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/atomicfile"
	"github.com/git-adr/git-adr/internal/confine"
	"github.com/git-adr/git-adr/retrieve"
)

// The workspace term index lets a task question skip the repositories
// that cannot answer it well before any log is opened. Each mirrored
// member has a summary, its postings: for every term of its live records,
// the records holding it and each one's BM25 score for it (by the
// member's own statistics), and its number of records. A summary is kept
// in the mirror's cache folder, stamped with the commit it was made from:
// sync makes it when the tip moves, and a query remakes it when the stamp
// is not the tip's. A query reads the summaries one at a time, looks up
// only the task's terms (the file is sorted by term), keeps each member's
// prediction of its best record (its share of the task's words and its
// score), and asks the members predicted best. A local member read at a
// ref is summarised the same way, its summary beside its repository's
// parse cache. One read from its work tree has no commit: its summary is
// stamped with what its log holds (every record's path and blob, found
// by a load the parse cache serves without reading a record), and made
// again by the question that finds the log changed.

// termsFormat changes with the summary's layout or analysis.
const termsFormat = "git-adr workspace terms v3"

// BM25 parameters of a summary's scores: retrieve's.
const (
	bm25K1 = retrieve.BM25K1
	bm25B  = retrieve.BM25B
)

// Coverage tiers, as the context service judges confidence: a record
// matching this share of the task's words (weighted by rarity) can make a
// sure answer, one matching the lower share a weak one.
const (
	highShare = 0.45
	lowShare  = 0.15
)

// posting is a record's score for a term.
type posting struct {
	doc   int
	score float32
}

// Terms is one member's summary.
type Terms struct {
	// Commit is the commit the summary was made from.
	Commit string
	// Records is the member's number of records, archived included (as
	// a full answer counts them); Docs its live records, those ranked.
	Records, Docs int
	// Postings are, for each term of the live records, the records
	// holding it and their scores.
	Postings map[string][]posting
}

// summaryAt is where a stamped member's term summary is kept and the
// commit it must be stamped with to be read.
type summaryAt struct {
	// commit is what the member reads: its mirror's tip ("" when not
	// synced), its local ref's commit ("" when the ref names none), or
	// for its work tree, its log's stamp (logStamp; "" when the log does
	// not load).
	commit string
	// path is the summary's file: beside the parse cache of the mirror
	// (shared by every workspace naming its URL) or of the local
	// repository, one per ref read ("" when the repository does not open).
	path string
}

// summary finds where m's summary is and what it must be stamped with,
// opening m's repository once and never its log.
func (m *Member) summary() summaryAt {
	if m.Remote() {
		s := summaryAt{path: m.summaryPath(filepath.Join(m.Mirror, "adr", "cache"))}
		if r, err := gitops.OpenBare(m.Mirror); err == nil {
			s.commit, _ = r.RefHash(tipRef(m.ref()))
			r.Close()
		}
		return s
	}
	r, err := m.openLocal()
	if err != nil {
		return summaryAt{}
	}
	s := summaryAt{path: m.summaryPath(filepath.Join(r.AdrDir(), "cache"))}
	if m.Ref != "" {
		s.commit, _ = r.ResolveRef(m.Ref + "^{commit}")
		r.Close()
		return s
	}
	ld, err := m.load(r, "", false) // owns r
	if err != nil {
		return s // no stamp: the member is asked, and says what is wrong
	}
	s.commit = logStamp(ld.Log)
	ld.Close()
	return s
}

// logStamp stamps the summary of a log read from a work tree: the paths
// and blobs of its records, in the log's order, which say what it holds
// as a commit says what a tree holds.
func logStamp(l *adr.Log) string {
	h := sha256.New()
	for _, r := range l.Records {
		fmt.Fprintf(h, "%s\x00%s\x00%t\n", r.Path, r.Blob(), r.Archived)
	}
	return "worktree-" + hex.EncodeToString(h.Sum(nil)[:16])
}

// summaryPath is the file of m's summary in cacheDir, the cache folder
// of its mirror or of its local repository: one per ref read.
func (m *Member) summaryPath(cacheDir string) string {
	sum := sha256.Sum256([]byte(m.ref()))
	return filepath.Join(cacheDir, "workspace-terms-"+hex.EncodeToString(sum[:6])+".txt")
}

// summarise makes the summary of an open member's log. A record's score
// for a term is, as in the context service, its BM25 score over the whole
// record plus titleBonus times its score over the title, domains and file
// name: words in a title name what a record decides.
func summarise(ld *Loaded) *Terms {
	t := &Terms{Commit: ld.Commit, Records: len(ld.Log.Records), Postings: map[string][]posting{}}
	if t.Commit == "" {
		t.Commit = logStamp(ld.Log) // a work tree's
	}
	// The records' terms are numbered as they are analysed: score sums
	// by number, and a term met before costs no look-up of its string.
	v := retrieve.NewVocabulary(0)
	var docs, titles []retrieve.NumberedTerms
	for _, r := range ld.Log.Records {
		if r.Archived {
			continue // as the engine: archived bodies are not ranked
		}
		content := string(r.Content())
		lang := retrieve.DetectLanguage(content)
		head := []retrieve.Field{
			{Text: r.Title, Weight: 2},
			{Text: strings.Join(r.Domains, " "), Weight: 2},
			{Text: strings.TrimSuffix(path.Base(r.Path), ".md"), Weight: 1.5},
		}
		docs = append(docs, retrieve.AnalyzeInto(retrieve.Doc{Lang: lang, Fields: append(head[:3:3], retrieve.Field{Text: content, Weight: 1})}, nil, v, nil))
		titles = append(titles, retrieve.AnalyzeInto(retrieve.Doc{Lang: lang, Fields: head}, nil, v, nil))
	}
	t.Docs = len(docs)
	t.Postings = score(v, docs, titles)
	return t
}

// titleBonus weighs a record's title score against its body's (the
// context service's weight).
const titleBonus = 1.0

// score gives each term of docs its postings: each record's BM25 score
// for it over docs plus titleBonus times its score over titles (the same
// records' titles, domains and file names, so their terms are the
// records' own), records in order. The documents are numbered in v: the
// scores are summed in slices indexed by those numbers.
func score(v *retrieve.Vocabulary, docs, titles []retrieve.NumberedTerms) map[string][]posting {
	// Each term's document frequency in docs and in titles.
	bodyDF, titleDF := make([]int, v.Len()), make([]int, v.Len())
	for _, d := range docs {
		for n := range d.All(v) {
			bodyDF[n]++
		}
	}
	for _, h := range titles {
		for n := range h.All(v) {
			titleDF[n]++
		}
	}
	// The scores are summed in float64, a record's body then its title,
	// and rounded once, as a map of sums would.
	type sum struct {
		doc   int
		score float64
	}
	sums := make([][]sum, v.Len())
	bodyIDF, titleIDF := idfs(len(docs), bodyDF), idfs(len(titles), titleDF)
	bodyAvg, titleAvg := avgLen(docs), avgLen(titles)
	for i, d := range docs {
		norm := bm25K1 * (1 - bm25B + bm25B*float64(d.Len)/bodyAvg)
		for n, tf32 := range d.All(v) {
			tf := float64(tf32)
			sums[n] = append(sums[n], sum{i, bodyIDF[n] * tf * (bm25K1 + 1) / (tf + norm)})
		}
		if i >= len(titles) {
			continue
		}
		h := titles[i]
		norm = bm25K1 * (1 - bm25B + bm25B*float64(h.Len)/titleAvg)
		for n, tf32 := range h.All(v) {
			tf := float64(tf32)
			s := titleBonus * titleIDF[n] * tf * (bm25K1 + 1) / (tf + norm)
			if last := len(sums[n]) - 1; last >= 0 && sums[n][last].doc == i {
				sums[n][last].score += s
			} else {
				sums[n] = append(sums[n], sum{i, s})
			}
		}
	}
	out := make(map[string][]posting, len(sums))
	for n, ss := range sums {
		if len(ss) == 0 {
			continue
		}
		ps := make([]posting, len(ss))
		for k, s := range ss {
			ps[k] = posting{s.doc, float32(s.score)}
		}
		out[v.Term(int32(n))] = ps
	}
	return out
}

// idfs is the IDF of every term numbered in df, over n documents.
func idfs(n int, df []int) []float64 {
	out := make([]float64, len(df))
	for t, f := range df {
		out[t] = idf(n, f)
	}
	return out
}

// avgLen is the documents' mean length (at least 1), as BM25 normalises
// by it.
func avgLen(docs []retrieve.NumberedTerms) float64 {
	total := 0.0
	for _, d := range docs {
		total += float64(d.Len)
	}
	return max(total/float64(max(len(docs), 1)), 1)
}

// idf is BM25's inverse document frequency of a term n of whose docs
// records hold (retrieve.IDF).
func idf(docs, n int) float64 { return retrieve.IDF(float64(docs), float64(n)) }

// encode writes the summary: a header, then a term a line, sorted, with
// its postings ("term\tdoc:score,doc:score"; a term has no tab or
// newline: analysis splits on spaces).
func (t *Terms) encode() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\ncommit %s\nrecords %d %d\n", termsFormat, t.Commit, t.Records, t.Docs)
	terms := make([]string, 0, len(t.Postings))
	size := b.Len()
	for term, ps := range t.Postings {
		terms = append(terms, term)
		size += len(term) + 2 + 9*len(ps) // "doc:score," is about 9 bytes
	}
	b.Grow(size)
	slices.Sort(terms)
	for _, term := range terms {
		b.WriteString(term)
		for i, p := range t.Postings[term] {
			if i == 0 {
				b.WriteByte('\t')
			} else {
				b.WriteByte(',')
			}
			b.Write(strconv.AppendInt(b.AvailableBuffer(), int64(p.doc), 10))
			b.WriteByte(':')
			b.Write(strconv.AppendFloat(b.AvailableBuffer(), float64(p.score), 'g', 4, 32))
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// save keeps the summary t at s; a summary that cannot be written only
// costs the next query an open.
func (s summaryAt) save(t *Terms) error {
	if err := atomicfile.MkdirCache(filepath.Dir(s.path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(s.path, t.encode(), 0o644)
}

// memberScore is what a summary predicts of a member's best record for a
// task: its tier (2: it matches enough of the task's words for a sure
// answer, 1: for a weak one, 0: neither), its share of the words, and
// its score (over the task's words, the best of each word's terms).
type memberScore struct {
	tier  int
	share float64
	score float64
	// records is the member's number of records.
	records int
}

// better orders predictions: tier, then score.
func (a memberScore) better(b memberScore) bool {
	if a.tier != b.tier {
		return a.tier > b.tier
	}
	return a.score > b.score
}

// scoreTerms reads the summary at s, stamped with s.commit, and predicts
// its member's best record for the task's terms; buf is reused between
// members. ok is false when there is no such summary.
func scoreTerms(s summaryAt, q []retrieve.QueryTerm, buf *[]byte) (ms memberScore, ok bool) {
	if s.commit == "" || s.path == "" {
		return ms, false
	}
	data, err := readInto(s.path, buf)
	if err != nil {
		return ms, false
	}
	header := termsFormat + "\ncommit " + s.commit + "\nrecords "
	if !bytes.HasPrefix(data, []byte(header)) {
		return ms, false
	}
	data = data[len(header):]
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 {
		return ms, false
	}
	counts := strings.Fields(string(data[:nl]))
	if len(counts) != 2 {
		return ms, false
	}
	if ms.records, err = strconv.Atoi(counts[0]); err != nil {
		return ms, false
	}
	docs, err := strconv.Atoi(counts[1])
	if err != nil {
		return ms, false
	}
	body := data[nl+1:]
	if len(q) == 0 || docs == 0 {
		return ms, true
	}
	if docs < 0 || docs > maxSummaryDocs {
		return ms, false
	}
	// Per word (group, in the order first met): its weight (its rarest
	// original term's IDF), and per record its best term score, in
	// slices by record number; a record numbered outside the summary's
	// records is damage.
	type word struct {
		weight float64
		best   []float64
		held   []bool
	}
	var words []*word
	index := map[int]int{}
	for _, qt := range q {
		if qt.Group < 0 {
			continue
		}
		k, seen := index[qt.Group]
		if !seen {
			k = len(words)
			index[qt.Group] = k
			words = append(words, &word{})
		}
		wd := words[k]
		line := lookup(body, qt.Text)
		n := 0
		for len(line) > 0 {
			var entry []byte
			entry, line, _ = bytes.Cut(line, []byte{','})
			d, s, found := bytes.Cut(entry, []byte{':'})
			doc, err1 := strconv.Atoi(string(d))
			score, err2 := strconv.ParseFloat(string(s), 32)
			if !found || err1 != nil || err2 != nil || doc < 0 || doc >= docs {
				return ms, false
			}
			if wd.best == nil {
				wd.best, wd.held = make([]float64, docs), make([]bool, docs)
			}
			// A record not yet held counts from 0, as a map's zero value.
			wd.best[doc] = max(wd.best[doc], score*qt.Weight)
			wd.held[doc] = true
			n++
		}
		if qt.Weight >= 1 {
			wd.weight = max(wd.weight, idf(docs, n))
		}
	}
	total := 0.0
	var share, score []float64
	var held []bool
	for _, wd := range words {
		total += wd.weight
		if wd.best == nil {
			continue
		}
		if share == nil {
			share, score, held = make([]float64, docs), make([]float64, docs), make([]bool, docs)
		}
		for doc, h := range wd.held {
			if h {
				share[doc] += wd.weight
				score[doc] += wd.best[doc]
				held[doc] = true
			}
		}
	}
	for doc, h := range held {
		if !h {
			continue
		}
		p := memberScore{share: share[doc] / max(total, 1e-9), score: score[doc], records: ms.records}
		switch {
		case p.share >= highShare:
			p.tier = 2
		case p.share >= lowShare:
			p.tier = 1
		}
		if p.better(ms) {
			ms = p
		}
	}
	return ms, true
}

// maxSummaryDocs bounds the records a summary may claim: a header past it
// is damage (scoreTerms keeps a slice of that many scores per word).
const maxSummaryDocs = 1 << 20

// lookup finds term's line in the sorted lines of body by binary search
// and returns its postings (nil when the term is not there). Each step
// reads the first line starting at or after the middle, found by a
// forward scan: a line of postings can be long, and a scan back to its
// start was most of a summary's read.
func lookup(body []byte, term string) []byte {
	lo, hi := 0, len(body) // lo and hi are line starts (or the end)
	for lo < hi {
		mid := (lo + hi) / 2
		start := lo
		if mid > lo {
			if nl := bytes.IndexByte(body[mid-1:hi], '\n'); nl >= 0 && mid+nl < hi {
				start = mid + nl
			}
		}
		end := bytes.IndexByte(body[start:], '\n')
		if end < 0 {
			end = len(body) - start
		}
		line := body[start : start+end]
		t, post, _ := bytes.Cut(line, []byte{'\t'})
		switch c := strings.Compare(string(t), term); {
		case c == 0:
			return post
		case c < 0:
			lo = start + end + 1
		default:
			hi = start
		}
	}
	return nil
}

// readInto reads the file at p into *buf, grown as needed.
func readInto(p string, buf *[]byte) ([]byte, error) {
	// Without blocking, and a regular file of a summary's size only: a
	// FIFO or a huge file put in a cache must not hang or exhaust a
	// question (the next sync replaces it).
	f, fi, err := confine.OpenRegularFile(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > maxSummary {
		return nil, fmt.Errorf("%s: not a summary", p)
	}
	n := int(fi.Size())
	if cap(*buf) < n {
		*buf = make([]byte, n)
	}
	b := (*buf)[:n]
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, err
	}
	return b, nil
}

// maxSummary bounds a term summary read: far past a log of 100,000
// records.
const maxSummary = 256 << 20

// keepTerms remakes the summary of a member whose commit (or, for a work
// tree, its log's stamp) is not the one its summary was made from.
func (w *Workspace) keepTerms(m *Member) error {
	return keepSummary(m, m.summary())
}

// keepSummary remakes m's summary at s unless one stamped with s.commit
// is there.
func keepSummary(m *Member, s summaryAt) error {
	if s.commit == "" || s.path == "" || s.current() {
		return nil
	}
	ld, err := m.Open(false)
	if err != nil {
		return err
	}
	defer ld.Close()
	return s.save(summarise(ld))
}

// current reports whether a summary stamped with s.commit is at s.path.
func (s summaryAt) current() bool {
	var buf []byte
	_, ok := scoreTerms(s, nil, &buf)
	return ok
}

// Skipped is the confidence of a member the workspace term index did not
// ask: a member predicted to answer more weakly than those asked.
const Skipped = "skipped"

// selectMembers chooses the members a task is asked of. A workspace of at
// most twice the unit budget asks every member (ask is nil). A larger one
// asks every member without a usable summary (a mirror not synced, a ref
// that names nothing or a work tree whose log does not load answers with
// its error), and the members whose best record is predicted best for
// the task (the share of its words it
// matches, in the context service's tiers, then its score), twice the
// unit budget of them: no answer holds more units than that, and a
// member's units come from its best records. The others get their answer
// here: records from the summary, confidence "none" for a member none of
// whose records matches enough of the task's words to be sent (as its
// own answer would say), "skipped" for one predicted weaker.
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
	// Summaries are read on every core (a thousand mirrors are a
	// thousand small files), each worker with its own buffer.
	const unsynced = -1
	preds := make([]memberScore, len(w.Members))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), maxParallel) {
		wg.Go(func() {
			var buf []byte
			for {
				i := int(next.Add(1) - 1)
				if i >= len(w.Members) {
					return
				}
				m := w.Members[i]
				at := m.summary()
				if at.commit == "" {
					preds[i].tier = unsynced
					continue
				}
				ms, ok := scoreTerms(at, q, &buf)
				if !ok {
					if keepSummary(m, at) == nil {
						ms, ok = scoreTerms(at, q, &buf)
					}
					if !ok {
						ms.tier = unsynced
					}
				}
				preds[i] = ms
			}
		})
	}
	wg.Wait()
	var ranked []scored
	pre = make([]*MemberAnswer, len(w.Members))
	for i, ms := range preds {
		if ms.tier < 0 {
			ask = append(ask, i)
			continue
		}
		ranked = append(ranked, scored{i, ms})
	}
	slices.SortStableFunc(ranked, func(a, b scored) int {
		switch {
		case a.better(b.memberScore):
			return -1
		case b.better(a.memberScore):
			return 1
		}
		return a.i - b.i
	})
	for n, r := range ranked {
		if n < k && r.tier > 0 {
			ask = append(ask, r.i)
			continue
		}
		conf := Skipped
		if r.tier == 0 {
			conf = "none"
		}
		pre[r.i] = &MemberAnswer{Name: w.Members[r.i].Name, Confidence: conf, Records: r.records, NotAsked: true}
	}
	slices.Sort(ask)
	return ask, pre
}
