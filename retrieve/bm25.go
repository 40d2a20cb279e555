package retrieve

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// Field weights multiply term frequencies (BM25F): a word in a title says
// more about a document than the same word in its body.
type Field struct {
	Text   string
	Weight float64
}

// Doc is one document of an index: an ID the caller understands and its
// fields.
type Doc struct {
	ID     string
	Fields []Field
	Lang   Language
}

// DocTerms is an analysed document: its weighted term frequencies (each
// term once, in no particular order) and length. Analysis is the
// expensive part of indexing, so callers may cache DocTerms (see
// EncodeTerms) and build indexes from them.
type DocTerms struct {
	Terms []string
	TF    []float32
	Len   float32
}

// Analyze analyses a document's fields.
func Analyze(d Doc) DocTerms {
	c := counterFor(d.Lang)
	defer counters.Put(c)
	c.fields(d)
	return c.docTerms()
}

// AnalyzeInto is v.Number(WithGlossary(Analyze(d), abbrs)), made
// without the terms' strings in between: the analysis numbers the terms
// it meets, and remembers their numbers in v for the next document (one
// goroutine's analyses meet most of their words again). Several
// goroutines may number in one v at once: each holds lock while v is
// used, which is only after the document is analysed; lock is nil when
// one goroutine numbers in v.
func AnalyzeInto(d Doc, abbrs []Abbreviation, v *Vocabulary, lock sync.Locker) NumberedTerms {
	c := counterFor(d.Lang)
	defer counters.Put(c)
	c.fields(d)
	var extra []string
	if len(abbrs) > 0 {
		extra = glossaryTerms(abbrs)
	}
	if lock != nil {
		lock.Lock()
		defer lock.Unlock()
	}
	return c.numbered(v, extra)
}

// Index is an in-memory inverted BM25F index.
type Index struct {
	ids      []string
	docLen   []float64
	avgLen   float64
	postings map[string][]posting
	// vocab is the sorted terms of postings, made when first needed.
	vocab     []string
	vocabOnce sync.Once
	// stored, when set, replaces postings (OpenIndex).
	stored *storedIndex
	// K1 and B are the BM25 parameters.
	K1, B float64
}

// posting is one document of a term. Frequencies come from DocTerms
// (float32) and are exact in float32; documents fit in int32: half the
// memory of a cold index of 10,000 records.
type posting struct {
	doc int32
	tf  float32
}

// NewIndex analyses and indexes docs.
func NewIndex(docs []Doc) *Index {
	ids := make([]string, len(docs))
	dts := make([]DocTerms, len(docs))
	for i, d := range docs {
		ids[i] = d.ID
		dts[i] = Analyze(d)
	}
	return IndexTerms(ids, dts)
}

// IndexTerms builds an index from analysed documents.
func IndexTerms(ids []string, dts []DocTerms) *Index {
	v := NewVocabulary(0)
	docs := make([]NumberedTerms, len(dts))
	for i, dt := range dts {
		docs[i] = v.Number(dt)
	}
	return indexNumbered(ids, v, docs)
}

// BM25K1 and BM25B are the BM25 parameters every index here is made with.
const (
	BM25K1 = 1.2
	BM25B  = 0.75
)

// IDF is BM25's inverse document frequency of a term that df of n
// documents hold (a term none holds counts as held once: it gets the
// maximum).
func IDF(n, df float64) float64 {
	df = math.Max(df, 1)
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// TermFactor is BM25's factor of a term that occurs tf times in a
// document of length docLen, among documents of mean length avgLen: its
// frequency saturated by k1 and normalised by length as b says. A score
// is the sum over terms of IDF times this factor.
func TermFactor(tf, docLen, avgLen, k1, b float64) float64 {
	return tf * (k1 + 1) / (tf + k1*(1-b+b*docLen/avgLen))
}

// IDF is the BM25 inverse document frequency of a term (terms absent from
// the index get the maximum, as if they occurred once).
func (ix *Index) IDF(t string) float64 {
	return IDF(float64(len(ix.ids)), float64(ix.docFreq(t)))
}

// QueryTerm is a weighted term of a query.
type QueryTerm struct {
	Text   string
	Weight float64
	// Group ties expansions to the query word they came from: coverage
	// counts a word as matched when any term of its group matches. A
	// negative group (feedback terms) scores but never counts for coverage.
	Group int
}

// Hit is a scored document.
type Hit struct {
	Doc   int // index in the order documents were given
	ID    string
	Score float64
	// Coverage is the IDF-weighted share of the query's words (groups)
	// this document matches, between 0 and 1.
	Coverage float64
	Matched  []string
}

// Expand adds, for each query word of at least five letters, the indexed
// terms that share its stem's beginning ("reusabl" finds "reusing"), at
// weight w and in the word's coverage group: stemmers disagree across
// derivations, and a request should not miss a record for a suffix.
func (ix *Index) Expand(q []QueryTerm, w float64) []QueryTerm {
	have := map[string]bool{}
	for _, t := range q {
		have[t.Text] = true
	}
	out := append([]QueryTerm(nil), q...)
	for _, t := range q {
		if t.Weight < 1 || len(t.Text) < 5 || !isASCII(t.Text) {
			continue
		}
		ix.stemRelatives(t.Text, func(v string) {
			if !have[v] {
				have[v] = true
				out = append(out, QueryTerm{Text: v, Weight: w, Group: t.Group})
			}
		})
	}
	return out
}

// Search scores documents against the query and returns hits with a
// positive score, best first; ties keep document order. A word and its
// expansions are one concept: the concept scores its best term, so a broad
// thesaurus group cannot outweigh the request's own words by matching many
// of its members.
func (ix *Index) Search(q []QueryTerm) []Hit {
	m := ix.match(q)
	docs, score, cover, masks, W := m.docs, m.score, m.cover, m.masks, m.W
	// Then the order (slot numbers sorted, not Hits: a broad query
	// matches most of a big log), then the hits in it.
	order := make([]int32, 0, len(docs))
	for si := range docs {
		if score[si] > 0 {
			order = append(order, int32(si))
		}
	}
	slices.SortFunc(order, func(a, b int32) int {
		if sa, sb := score[a], score[b]; sa != sb {
			return cmp.Compare(sb, sa)
		}
		return docs[a] - docs[b]
	})
	total := 0
	for _, si := range order {
		for _, m := range masks[int(si)*W : int(si)*W+W] {
			total += bits.OnesCount64(m)
		}
	}
	names := make([]string, 0, total) // every hit's Matched, one array
	hits := make([]Hit, 0, len(order))
	for _, s32 := range order {
		si := int(s32)
		cov := cover[si]
		if m.totalGroup > 0 {
			cov /= m.totalGroup
		}
		from := len(names)
		for ti := range q {
			if masks[si*W+ti/64]&(1<<(ti%64)) != 0 {
				names = append(names, q[ti].Text)
			}
		}
		doc := docs[si]
		hits = append(hits, Hit{Doc: doc, ID: ix.ids[doc], Score: score[si], Coverage: cov, Matched: names[from:len(names):len(names)]})
	}
	return hits
}

// Scores are the documents' scores for q by document, as Search scores
// them (0 for a document it would not return): for a caller that needs
// no ranking, no coverage and no matched words, only each document's
// score (a title bonus, a fused ranking), which a broad query over a
// long log would otherwise build, sort and look up thousands of hits
// for.
func (ix *Index) Scores(q []QueryTerm) []float64 {
	m := ix.match(q)
	out := make([]float64, len(ix.ids))
	for si, doc := range m.docs {
		if m.score[si] > 0 {
			out[doc] = m.score[si]
		}
	}
	return out
}

// matched is what match finds: each matched document's slot (in the
// order documents were first matched) with its score, its coverage and
// the query terms it matched as a bit set (W words of them a slot).
type matched struct {
	docs         []int
	score, cover []float64
	masks        []uint64
	W            int
	totalGroup   float64
}

// match scores the documents q matches (see Search).
func (ix *Index) match(q []QueryTerm) matched {
	// A group weighs what its own word weighs: expansions widen what
	// matches, not what the request asked for.
	groupWeight := map[int]float64{}
	for _, t := range q {
		if t.Group < 0 || t.Weight < 1 {
			continue
		}
		if w := ix.IDF(t.Text) * t.Weight; w > groupWeight[t.Group] {
			groupWeight[t.Group] = w
		}
	}
	// Sums run over the groups in order: floating-point addition in map
	// order would make equal matches score a rounding error apart from run
	// to run, and swap places.
	var groups []int
	for _, t := range q {
		if t.Group >= 0 && !slices.Contains(groups, t.Group) {
			groups = append(groups, t.Group)
		}
	}
	slices.Sort(groups)
	totalGroup := 0.0
	for _, g := range groups {
		totalGroup += groupWeight[g]
	}
	// Each matched document gets a slot (in the order documents are first
	// matched): its score, its coverage, and the query terms it matched
	// as a bit set. Terms outside any group score first, in query order;
	// then each group in order adds its best term's score, through two
	// arrays over the documents that are reused group after group. Memory
	// grows with the log and the query, never with their product, and
	// the sums run in the same order as a map per document would.
	W := (len(q) + 63) / 64
	slot := make([]int32, len(ix.ids)) // 0: no slot; else slot index + 1
	// Sized for the documents the most common term alone matches: grown
	// by doubling from nothing, the slots of a broad query over a long
	// log left twice their size behind.
	most := 0
	for _, t := range q {
		most = max(most, ix.docFreq(t.Text))
	}
	most = min(most, len(ix.ids))
	docs := make([]int, 0, most)
	score, cover := make([]float64, 0, most), make([]float64, 0, most)
	masks := make([]uint64, 0, most*W)
	avg := math.Max(ix.avgLen, 1)
	slotOf := func(doc int) int {
		si := int(slot[doc]) - 1
		if si < 0 {
			si = len(docs)
			slot[doc] = int32(si + 1)
			docs = append(docs, doc)
			score = append(score, 0)
			cover = append(cover, 0)
			masks = append(masks, make([]uint64, W)...)
		}
		return si
	}
	// each calls f with the term's index, its IDF and every posting of a
	// document the index knows, with the posting's BM25 score.
	each := func(ti int, f func(doc, si int, idf, sc float64)) {
		t := q[ti]
		ps := ix.postingsOf(t.Text)
		if len(ps) == 0 {
			return
		}
		idf := ix.IDF(t.Text)
		for _, p := range ps {
			doc, tf := int(p.doc), float64(p.tf)
			if doc < 0 || doc >= len(slot) {
				continue
			}
			si := slotOf(doc)
			masks[si*W+ti/64] |= 1 << (ti % 64)
			norm := TermFactor(tf, ix.docLen[doc], avg, ix.K1, ix.B)
			f(doc, si, idf, t.Weight*idf*norm)
		}
	}
	for ti, t := range q {
		if t.Group < 0 {
			each(ti, func(_, si int, _, sc float64) { score[si] += sc })
		}
	}
	best := make([]float64, len(ix.ids))
	widest := make([]float64, len(ix.ids))
	var touched []int
	for _, g := range groups {
		touched = touched[:0]
		for ti, t := range q {
			if t.Group != g {
				continue
			}
			each(ti, func(doc, _ int, idf, sc float64) {
				if best[doc] == 0 && widest[doc] == 0 {
					touched = append(touched, doc)
				}
				best[doc] = math.Max(best[doc], sc)
				widest[doc] = math.Max(widest[doc], idf*t.Weight)
			})
		}
		for _, doc := range touched {
			si := int(slot[doc]) - 1
			score[si] += best[doc]
			if w := widest[doc]; w > 0 {
				cover[si] += math.Min(w, groupWeight[g])
			}
			best[doc], widest[doc] = 0, 0
		}
	}
	return matched{docs: docs, score: score, cover: cover, masks: masks, W: W, totalGroup: totalGroup}
}
