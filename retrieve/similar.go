package retrieve

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"sync"
)

// Vectors are analysed documents as sparse TF-IDF vectors, for finding
// documents about the same subject (compaction's inferred groups). A
// term's weight in a document is (1 + ln tf) × ln((N+1)/df): the weighted
// frequencies of DocTerms (a title word counts more) damped, times how
// rare the term is among the N documents. Each vector is normalised over
// all of its document's terms, so a dot product is the cosine; terms only
// one document has are left out of the stored vector, since they add
// nothing to any dot product.
//
// Everything is deterministic: terms are numbered in the order the
// documents first use them, and ties are broken by those numbers.
type Vectors struct {
	// Terms is every term by number; DF how many documents have it.
	Terms []string
	DF    []int32
	docs  []vector
	num   map[string]int32
}

// vector is one document: term numbers ascending, and their weights.
type vector struct {
	terms   []int32
	weights []float32
}

// NewVectors weighs docs, numbered in vocab (see [Vectors]). The vectors
// number terms afresh, in the order the documents first use them.
func NewVectors(vocab *Vocabulary, docs []NumberedTerms) *Vectors {
	v := &Vectors{docs: make([]vector, len(docs)), num: map[string]int32{}}
	// own[n] is the vectors' number of vocab's term n, plus one (0: none
	// yet).
	own := make([]int32, vocab.Len())
	for _, d := range docs {
		for t := range d.All(vocab) {
			n := own[t] - 1
			if n < 0 {
				n = int32(len(v.Terms))
				own[t] = n + 1
				v.num[vocab.Term(t)] = n
				v.Terms = append(v.Terms, vocab.Term(t))
				v.DF = append(v.DF, 0)
			}
			v.DF[n]++
		}
	}
	n := float64(len(docs))
	type tw struct {
		n int32
		w float64
	}
	var kept []tw // one buffer for every document
	for i, d := range docs {
		kept = kept[:0]
		norm := 0.0
		for u, f := range d.All(vocab) {
			t := own[u] - 1
			tf := float64(f)
			if tf <= 0 {
				continue
			}
			w := (1 + math.Log(max(tf, 1))) * math.Log((n+1)/float64(v.DF[t]))
			norm += w * w
			if v.DF[t] > 1 {
				kept = append(kept, tw{t, w})
			}
		}
		if norm == 0 || len(kept) == 0 {
			continue
		}
		slices.SortFunc(kept, func(a, b tw) int { return cmp.Compare(a.n, b.n) })
		norm = math.Sqrt(norm)
		vec := vector{terms: make([]int32, len(kept)), weights: make([]float32, len(kept))}
		for k, x := range kept {
			vec.terms[k], vec.weights[k] = x.n, float32(x.w/norm)
		}
		v.docs[i] = vec
	}
	return v
}

// IDF is how rare term t is among the documents, ln((N+1)/df): a term
// no document has counts as if one had it.
func (v *Vectors) IDF(t string) float64 {
	df := 1.0
	if n, ok := v.num[t]; ok {
		df = float64(v.DF[n])
	}
	return math.Log((float64(len(v.docs)) + 1) / df)
}

// Cosine is the cosine similarity of documents i and j, 0 to 1.
func (v *Vectors) Cosine(i, j int) float64 {
	s := 0.0
	v.common(i, j, func(_ int32, c float64) { s += c })
	return min(s, 1)
}

// Shared returns the at most n terms that add most to the similarity of
// documents i and j, the largest contribution first.
func (v *Vectors) Shared(i, j, n int) []string {
	type tc struct {
		n int32
		c float64
	}
	var cs []tc
	v.common(i, j, func(t int32, c float64) { cs = append(cs, tc{t, c}) })
	slices.SortFunc(cs, func(p, q tc) int {
		if c := cmp.Compare(q.c, p.c); c != 0 {
			return c
		}
		return cmp.Compare(p.n, q.n)
	})
	out := []string{}
	for _, c := range cs[:min(n, len(cs))] {
		out = append(out, v.Terms[c.n])
	}
	return out
}

// common calls fn with every term documents i and j share and what it
// adds to their cosine, in term order.
func (v *Vectors) common(i, j int, fn func(t int32, c float64)) {
	a, b := v.docs[i], v.docs[j]
	for x, y := 0, 0; x < len(a.terms) && y < len(b.terms); {
		switch {
		case a.terms[x] < b.terms[y]:
			x++
		case a.terms[x] > b.terms[y]:
			y++
		default:
			fn(a.terms[x], float64(a.weights[x])*float64(b.weights[y]))
			x++
			y++
		}
	}
}

// Pair is two documents, A < B, and their cosine similarity.
type Pair struct {
	A, B int32
	Sim  float32
}

// PairOptions bound [Vectors.SimilarPairs].
type PairOptions struct {
	// Min is the lowest similarity returned.
	Min float64
	// Top is how many of a document's heaviest terms block it (default
	// 12); MaxBlock the most documents one blocking key may hold (default
	// 64): a key more documents share says too little to compare them
	// all.
	Top, MaxBlock int
	// Keep, when set, is asked of each pair found at Min or above, which
	// is returned only when it says so: a caller that turns most pairs
	// down does not hold them all. It is called from several goroutines
	// at once.
	Keep func(a, b int32, sim float32) bool
}

// SimilarPairs returns the pairs of documents with a similarity of at
// least o.Min, ordered by A then B. It does not compare every pair: each
// document is blocked under its Top heaviest terms (terms two or more
// documents share, the rarest and most repeated first), alone when at
// most MaxBlock documents have the term, and two by two; only documents
// that share a block of at most MaxBlock documents are compared. The work
// is bounded by N × (Top + Top(Top-1)/2) × MaxBlock, whatever the log;
// two documents that share none of their heaviest terms, or only terms
// that very many documents share, are not found.
func (v *Vectors) SimilarPairs(o PairOptions) []Pair {
	top, maxBlock := o.Top, o.MaxBlock
	if top <= 0 {
		top = 12
	}
	if maxBlock <= 0 {
		maxBlock = 64
	}
	const single = math.MaxUint32
	// At most a key for each heavy term and each two of them: one
	// allocation, where growing by appends made twice as much garbage.
	// Document i's keys are keys[docAt[i]:docAt[i+1]].
	most := 0
	for _, d := range v.docs {
		h := min(top, len(d.terms))
		most += h * (h + 1) / 2
	}
	keys := make([]uint64, 0, most)
	docAt := make([]int32, len(v.docs)+1)
	heavy := make([]int32, 0, top)
	var idx []int
	for i, d := range v.docs {
		heavy = heavy[:0]
		// The Top heaviest terms, heaviest first, ties by number.
		idx = idx[:0]
		for k := range d.terms {
			idx = append(idx, k)
		}
		slices.SortFunc(idx, func(p, q int) int {
			if c := cmp.Compare(d.weights[q], d.weights[p]); c != 0 {
				return c
			}
			return cmp.Compare(d.terms[p], d.terms[q])
		})
		for _, k := range idx[:min(top, len(idx))] {
			heavy = append(heavy, d.terms[k])
		}
		slices.Sort(heavy)
		for x, a := range heavy {
			rareA := int(v.DF[a]) <= maxBlock
			if rareA {
				keys = append(keys, uint64(a)<<32|single)
			}
			for _, b := range heavy[x+1:] {
				// Two rare terms block nothing their own blocks do not.
				if !rareA || int(v.DF[b]) > maxBlock {
					keys = append(keys, uint64(a)<<32|uint64(b))
				}
			}
		}
		docAt[i+1] = int32(len(keys))
	}
	// Blocks: each key's documents, in document order, laid out key by
	// key in one slab; numbering the keys in a map is cheaper than
	// sorting them. A key's number takes its place in keys.
	num := make(map[uint64]int32, len(keys)/4)
	var count []int32
	for k, key := range keys {
		n, ok := num[key]
		if !ok {
			n = int32(len(count))
			num[key] = n
			count = append(count, 0)
		}
		count[n]++
		keys[k] = uint64(n)
	}
	at := make([]int32, len(count)+1)
	for n, c := range count {
		at[n+1] = at[n]
		if c >= 2 && int(c) <= maxBlock {
			at[n+1] += c
		}
	}
	slab := make([]int32, at[len(count)])
	next := slices.Clone(at[:len(count)])
	// blocks[i] are the blocks document i is in.
	blocks := make([][]int32, len(v.docs))
	for i := range v.docs {
		for _, kn := range keys[docAt[i]:docAt[i+1]] {
			n := int32(kn)
			if at[n+1] == at[n] {
				continue
			}
			slab[next[n]] = int32(i)
			next[n]++
			blocks[i] = append(blocks[i], n)
		}
	}
	// Each document is compared with the later documents of its blocks,
	// once each, on every CPU; each worker's pairs come in document
	// order, each document's sorted.
	workers := max(1, min(runtime.GOMAXPROCS(0), 8))
	found := make([][]Pair, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			seen := make([]int32, len(v.docs))
			// Document i's weights by term number, 0 for a term it does
			// not have: a cosine with i is then a pass over the other
			// document's terms, in term order as Cosine adds them (an
			// added 0 changes no sum), not a merge of the two lists.
			dense := make([]float64, len(v.Terms))
			for i := w; i < len(v.docs); i += workers {
				from := len(found[w])
				di := v.docs[i]
				for k, t := range di.terms {
					dense[t] = float64(di.weights[k])
				}
				for _, n := range blocks[i] {
					for _, j := range slab[at[n]:at[n+1]] {
						if int(j) <= i || seen[j] == int32(i)+1 {
							continue
						}
						seen[j] = int32(i) + 1
						dj := v.docs[j]
						s := 0.0
						for k, t := range dj.terms {
							s += dense[t] * float64(dj.weights[k])
						}
						s = min(s, 1)
						if s < o.Min {
							continue
						}
						p := Pair{A: int32(i), B: j, Sim: float32(s)}
						if o.Keep == nil || o.Keep(p.A, p.B, p.Sim) {
							found[w] = append(found[w], p)
						}
					}
				}
				for _, t := range di.terms {
					dense[t] = 0
				}
				slices.SortFunc(found[w][from:], func(p, q Pair) int { return cmp.Compare(p.B, q.B) })
			}
		})
	}
	wg.Wait()
	// Document i's pairs are worker i%workers's next ones.
	total := 0
	for _, f := range found {
		total += len(f)
	}
	out := make([]Pair, 0, total)
	pos := make([]int, workers)
	for i := range v.docs {
		w := i % workers
		for pos[w] < len(found[w]) && found[w][pos[w]].A == int32(i) {
			out = append(out, found[w][pos[w]])
			pos[w]++
		}
	}
	return out
}
