package evidence

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/retrieve"
	"github.com/git-adr/git-adr/retrieve/embeddings"
)

// Embeddings close vocabulary gaps the lexical ranking cannot ("monorepo"
// and "Yarn workspaces" share no word): when an endpoint is configured, a
// task and every live record are embedded, and the records closest in
// meaning to the task that the lexical ranking did not place among its
// first embedPool join its hits, placed by reciprocal-rank fusion after
// the lexical matches that fuse better (never before the best one, never
// past the answer's relevance stop). Nothing lexical is removed or
// reordered; confidence stays the lexical match's. Units of the records
// placed so are labelled, and the answer names the endpoint (retrieval).
// With no endpoint nothing changes.

// Embedder turns texts into vectors, one per text, in order. On an error
// it may return the vectors of a prefix of texts, which are kept.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// EmbeddingEndpoint is the embeddings endpoint in effect.
type EmbeddingEndpoint struct {
	Embedder Embedder
	// Model and URL (the base URL) key the cached vectors; the model and
	// the URL's host name the source in an answer's retrieval.
	Model, URL string
}

// Embeddings is the optional embeddings source of task answers.
type Embeddings struct {
	// Resolve finds the endpoint when a task first needs one (reading
	// configuration costs time other answers need not spend). Nil: none;
	// note, when set, says why one that was asked for is not used (an
	// untrusted .adr.toml, a URL that is not http, an empty key variable)
	// and is carried by the answer as a warning.
	Resolve func() (ep *EmbeddingEndpoint, note string)
	// Budget bounds the time one answer spends embedding (0:
	// embedBudget). Records it leaves are embedded by later answers.
	Budget time.Duration

	once  sync.Once
	ep    *EmbeddingEndpoint
	note  string
	mu    sync.Mutex
	tasks map[string]*taskVectors
}

// Bounds and parameters of the embeddings source. Variables, not
// constants, so that a test can sweep them.
var (
	// embedBudget bounds the time an answer spends on the endpoint.
	embedBudget = 60 * time.Second
	// embedChars bounds the text embedded of a record, in code points:
	// about 500 tokens, inside the context of small local models (512
	// tokens for many), which refuse or cut longer inputs.
	embedChars = 2000
	// embedTop is how many of the records closest to a task may join the
	// lexical hits.
	embedTop = 8
	// embedPool: a record the lexical ranking places among its first
	// embedPool hits needs no help.
	embedPool = 8
	// embedZ: a record joins only when its similarity stands out from the
	// log's, at least this many standard deviations above the mean
	// similarity of every live record. Absolute similarities differ from
	// model to model (unrelated texts score 0.1 with some, 0.5 with
	// others); their spread over one log does not.
	embedZ = 1.5
	// rrfK is reciprocal-rank fusion's constant (Cormack et al., 2009).
	rrfK = 60.0
)

// taskVectors is what the endpoint said about one task: the live
// records' similarity to it, or why there is none.
type taskVectors struct {
	once     sync.Once
	sims     map[*adr.Record]float64
	failed   bool
	warnings []string
	// added are the records the vectors placed among the hits, and their
	// similarity.
	added map[*adr.Record]float64
}

// endpoint resolves the endpoint once.
func (e *Embeddings) endpoint() (*EmbeddingEndpoint, string) {
	e.once.Do(func() {
		if e.Resolve != nil {
			e.ep, e.note = e.Resolve()
		}
	})
	return e.ep, e.note
}

// forTask returns the vectors of task, asking the endpoint once per task
// and Service (nil: no endpoint).
func (e *Embeddings) forTask(s *Service, task string, recs []*adr.Record) *taskVectors {
	ep, _ := e.endpoint()
	if ep == nil {
		return nil
	}
	e.mu.Lock()
	if e.tasks == nil {
		e.tasks = map[string]*taskVectors{}
	}
	tv := e.tasks[task]
	if tv == nil {
		tv = &taskVectors{}
		e.tasks[task] = tv
	}
	e.mu.Unlock()
	tv.once.Do(func() { s.embedTask(tv, ep, e.budget(), task, recs) })
	return tv
}

func (e *Embeddings) budget() time.Duration {
	if e.Budget > 0 {
		return e.Budget
	}
	return embedBudget
}

// embedTask embeds the task (one request) and the records the vector
// cache does not hold, and measures each record's similarity to the task.
// A failing endpoint leaves the answer lexical, with a warning saying why.
func (s *Service) embedTask(tv *taskVectors, ep *EmbeddingEndpoint, budget time.Duration, task string, recs []*adr.Record) {
	ctx, cancel := context.WithTimeoutCause(context.Background(), budget, fmt.Errorf("the answer's %s for embeddings is spent", budget))
	defer cancel()
	tvs, err := ep.Embedder.Embed(ctx, []string{task})
	if err == nil && len(tvs) != 1 {
		err = fmt.Errorf("embeddings endpoint: %d vectors for one text", len(tvs))
	}
	if err != nil {
		tv.failed = true
		tv.warnings = append(tv.warnings, fmt.Sprintf("embeddings not used: %v; the answer is the lexical ranking alone", err))
		return
	}
	q := tvs[0]
	cache := loadVectorCache(s.CacheDir)
	vecs := make([][]float32, len(recs))
	var missing []int
	keys := make([]cacheKey, len(recs))
	for i, r := range recs {
		keys[i] = vectorKey(ep, r)
		if v, ok := cache.get(keys[i], len(q)); ok {
			vecs[i] = v
		} else {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		texts := make([]string, len(missing))
		for j, i := range missing {
			texts[j] = embedText(recs[i])
		}
		got, err := ep.Embedder.Embed(ctx, texts)
		for j, v := range got[:min(len(got), len(missing))] {
			if len(v) == len(q) {
				vecs[missing[j]] = v
				cache.put(keys[missing[j]], v)
			}
		}
		if err != nil {
			covered := 0
			for _, v := range vecs {
				if v != nil {
					covered++
				}
			}
			tv.warnings = append(tv.warnings, fmt.Sprintf("embeddings cover %d of %d records: %v; the others are ranked lexically alone until an answer embeds them", covered, len(recs), err))
		}
	}
	// A cache that cannot be written only costs requests.
	s.saving.Go(func() { _ = cache.save() })
	tv.sims = map[*adr.Record]float64{}
	for i, v := range vecs {
		if v != nil {
			// Rounded: a server may answer the same text with vectors a
			// few ulps apart, which must not reorder an answer between
			// its pages.
			tv.sims[recs[i]] = math.Round(embeddings.Cosine(q, v)*1e4) / 1e4
		}
	}
}

// embedText is what is embedded of a record: its title and the text of
// its decision (the main unit), then its other sections an answer may
// send, to embedChars code points.
func embedText(r *adr.Record) string {
	t := r.PeekText()
	var b strings.Builder
	left := embedChars
	write := func(s string) {
		if left <= 0 {
			return
		}
		if n := len([]rune(s)); n > left {
			s = string([]rune(s)[:left])
		}
		b.WriteString(s)
		left -= len([]rune(s))
	}
	write(r.Title)
	write("\n\n")
	mu, hasMain := mainUnit(r)
	if hasMain {
		write(r.UnitViewIn(t, mu))
	}
	for _, u := range answerUnits(r, Current) {
		if hasMain && u.Anchor == mu.Anchor {
			continue
		}
		write("\n")
		write(r.UnitViewIn(t, u))
	}
	if !hasMain && len(r.Units()) == 0 {
		write(r.ContentViewIn(t))
	}
	return b.String()
}

// embedHits adds to the lexical hits of a task the live records closest
// to it in meaning that the lexical ranking did not place among its first
// embedPool (see fuseHits). With no endpoint, or when it fails, hits are
// returned as they are.
func (s *Service) embedHits(task string, recs []*adr.Record, hits []retrieve.Hit) []retrieve.Hit {
	if s.Embeddings == nil {
		return hits
	}
	tv := s.Embeddings.forTask(s, task, recs)
	if tv == nil || len(tv.sims) == 0 {
		return hits
	}
	out, added := fuseHits(hits, recs, tv.sims)
	s.Embeddings.mu.Lock()
	tv.added = added
	s.Embeddings.mu.Unlock()
	return out
}

// fuseHits places the records closest to the task (at most embedTop, each
// standing out from the log: embedZ) that the lexical hits do not hold
// among their first embedPool. Each goes where reciprocal-rank fusion of
// the lexical ranking and the vector ranking puts it among the other hits,
// but never before the best lexical hit, nor after the last one an answer
// takes (the relevance stop, and a weak answer's lowRecords); it takes the
// score of the hit before it, so that the answer's sorting keeps it
// there. A record the lexical hits held further down moves, keeping what
// it matched. The lexical hits keep their order and scores.
func fuseHits(hits []retrieve.Hit, recs []*adr.Record, sims map[*adr.Record]float64) ([]retrieve.Hit, map[*adr.Record]float64) {
	type near struct {
		doc int
		sim float64
	}
	var all []near
	sum := 0.0
	for i, r := range recs {
		if sim, ok := sims[r]; ok {
			all = append(all, near{i, sim})
			sum += sim
		}
	}
	if len(all) == 0 {
		return hits, nil
	}
	mean := sum / float64(len(all))
	dev := 0.0
	for _, n := range all {
		dev += (n.sim - mean) * (n.sim - mean)
	}
	floor := mean + embedZ*math.Sqrt(dev/float64(len(all)))
	slices.SortStableFunc(all, func(a, b near) int { return cmp.Compare(b.sim, a.sim) })
	vrank := map[int]int{}
	var top []near
	for _, n := range all[:min(embedTop, len(all))] {
		if n.sim > 0 && n.sim >= floor {
			top = append(top, n)
			vrank[n.doc] = len(top)
		}
	}
	lrank := map[int]int{}
	for i, h := range hits {
		if _, ok := lrank[h.Doc]; !ok {
			lrank[h.Doc] = i + 1
		}
	}
	fused := func(doc int) float64 {
		f := 0.0
		if l, ok := lrank[doc]; ok {
			f += 1 / (rrfK + float64(l))
		}
		if v, ok := vrank[doc]; ok {
			f += 1 / (rrfK + float64(v))
		}
		return f
	}
	type candidate struct {
		doc, at int
		f       float64
	}
	var cands []candidate
	moved := map[int]bool{}
	for _, n := range top {
		if l, ok := lrank[n.doc]; !ok || l > embedPool {
			cands = append(cands, candidate{doc: n.doc, f: fused(n.doc)})
			moved[n.doc] = true
		}
	}
	if len(cands) == 0 {
		return hits, nil
	}
	var base []retrieve.Hit
	for _, h := range hits {
		if !moved[h.Doc] {
			base = append(base, h)
		}
	}
	// The place an answer stops at: the hits scoring relevantShare of
	// the best, and no further than a weak answer's records.
	last := 0
	if len(base) > 0 {
		best := 0.0
		for _, h := range base {
			best = max(best, h.Score)
		}
		for _, h := range base {
			if h.Score >= relevantShare*best {
				last++
			}
		}
		last = max(1, min(last, lowRecords-1))
	}
	for i := range cands {
		at := 0
		for _, h := range base {
			if fused(h.Doc) >= cands[i].f {
				at++
			}
		}
		if len(base) > 0 {
			at = max(1, min(at, last))
		}
		cands[i].at = at
	}
	slices.SortStableFunc(cands, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(b.f, a.f))
	})
	hitOf := map[int]retrieve.Hit{}
	for _, h := range hits {
		if moved[h.Doc] {
			if _, ok := hitOf[h.Doc]; !ok {
				hitOf[h.Doc] = h
			}
		}
	}
	added := map[*adr.Record]float64{}
	out := make([]retrieve.Hit, 0, len(base)+len(cands))
	c := 0
	for j := 0; j <= len(base); j++ {
		for ; c < len(cands) && cands[c].at == j; c++ {
			h, ok := hitOf[cands[c].doc]
			if !ok {
				h = retrieve.Hit{Doc: cands[c].doc, ID: recs[cands[c].doc].Locus()}
			}
			h.Score = 0
			if j > 0 {
				h.Score = base[j-1].Score
			}
			out = append(out, h)
			added[recs[cands[c].doc]] = sims[recs[cands[c].doc]]
		}
		if j < len(base) {
			out = append(out, base[j])
		}
	}
	return out, added
}

// discloseEmbeddings labels what the embeddings added to a task answer
// and returns the answer's retrieval: "" with no endpoint, "lexical" when
// it failed, else the endpoint's model and host. Units of records the
// vectors placed say so in their role ("match (embedding)"), and so do
// leads; the endpoint's warnings join the answer's.
func (s *Service) discloseEmbeddings(p *plan, req Request) string {
	if s.Embeddings == nil || req.Selector() != "task" {
		return ""
	}
	ep, note := s.Embeddings.endpoint()
	if ep == nil {
		if note != "" {
			p.warnings = append(p.warnings, note)
		}
		return ""
	}
	s.Embeddings.mu.Lock()
	tv := s.Embeddings.tasks[req.Task]
	s.Embeddings.mu.Unlock()
	if tv == nil {
		return ""
	}
	p.warnings = append(p.warnings, tv.warnings...)
	if tv.failed || len(tv.sims) == 0 {
		return "lexical"
	}
	s.Embeddings.mu.Lock()
	added := tv.added
	s.Embeddings.mu.Unlock()
	for i, it := range p.items {
		if it.rec == nil || it.src != nil || it.view != nil || it.mem != nil {
			continue
		}
		if _, ok := added[it.rec]; ok {
			p.items[i].role = embeddingRole(it.rec, it.role)
		}
	}
	byRef := map[[2]string]float64{}
	for r, sim := range added {
		byRef[[2]string{r.ID, r.Path}] = sim
	}
	for i, ref := range p.references {
		if sim, ok := byRef[[2]string{ref.ID, ref.Path}]; ok && strings.HasPrefix(ref.Relation, "lead:") {
			p.references[i].Relation = fmt.Sprintf("lead: close in meaning to the task (embedding similarity %.2f), sharing few or none of its words", sim)
		}
	}
	return "lexical+embeddings (" + clip(ep.Model, 80) + " at " + hostOf(ep.URL) + ")"
}

// embeddingRole is the role of a unit whose record the vectors placed:
// a plain match says so ("match (embedding)", "match (embedding,
// proposed)"); other roles (a successor, a constraint) say why the record
// is there and stay.
func embeddingRole(r *adr.Record, role string) string {
	plain := matchRole(r)
	rest, ok := strings.CutPrefix(role, plain)
	if !ok || rest != "" && !strings.HasPrefix(rest, ",") {
		return role
	}
	label := "match (embedding)"
	if st := strings.TrimPrefix(plain, "match"); st != "" {
		label = "match (embedding, " + strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(st), "("), ")") + ")"
	}
	return label + rest
}

// hostOf is the host (and port) of an endpoint's URL.
func hostOf(base string) string {
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		return u.Host
	}
	return clip(base, 80)
}
