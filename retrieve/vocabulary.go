package retrieve

import (
	"encoding/binary"
	"iter"
	"math"
)

// A Vocabulary numbers terms, each once, and the frequencies of the
// documents numbered in it, so that analysed documents can be held as
// numbers (NumberedTerms): about three bytes a term of a document, where
// DocTerms takes twenty (a string header and a frequency). A cold task
// query over 10,000 records holds 1.7 million of them while it builds its
// indexes and writes its term cache. A Vocabulary is not safe for
// concurrent use: callers that number from several goroutines hold a lock
// (evidence.Preanalysis, compaction's readTexts).
type Vocabulary struct {
	terms numbering[string]
	// freqs are the distinct frequencies of the documents numbered in v
	// (their bits; few: sums of a handful of field weights).
	freqs numbering[uint32]
	// pairs is Number's and Numbered's scratch: (term, frequency)
	// numbers before they are packed.
	pairs []uint32
}

// numbering numbers distinct values as first met.
type numbering[K comparable] struct {
	num  map[K]int32
	keys []K
}

// add is k's number, the next one if k is new.
func (n *numbering[K]) add(k K) int32 {
	x, ok := n.num[k]
	if !ok {
		if n.num == nil {
			n.num = map[K]int32{}
		}
		x = int32(len(n.keys))
		n.num[k] = x
		n.keys = append(n.keys, k)
	}
	return x
}

// NumberedTerms is an analysed document (DocTerms) whose terms and
// frequencies are numbers of a Vocabulary, packed: a (term, frequency)
// pair of uvarints per term, in the document's order.
type NumberedTerms struct {
	packed []byte
	count  int32
	// Len is the document's length (DocTerms.Len).
	Len float32
}

// Count is the number of terms of the document.
func (nt NumberedTerms) Count() int { return int(nt.count) }

// All yields the document's terms, as numbers of v (the vocabulary it was
// numbered in), and their frequencies, in order.
func (nt NumberedTerms) All(v *Vocabulary) iter.Seq2[int32, float32] {
	return func(yield func(int32, float32) bool) {
		for p := nt.packed; len(p) > 0; {
			var n, f uint32
			n, f, p = nextPair(p)
			if !yield(int32(n), v.freq(f)) {
				return
			}
		}
	}
}

// nextPair decodes the (term, frequency) pair at the front of p, packed
// by pack.
func nextPair(p []byte) (n, f uint32, rest []byte) {
	if len(p) >= 2 && p[0] < 0x80 && p[1] < 0x80 {
		return uint32(p[0]), uint32(p[1]), p[2:]
	}
	x, k := binary.Uvarint(p)
	p = p[k:]
	y, k := binary.Uvarint(p)
	return uint32(x), uint32(y), p[k:]
}

// NewVocabulary is an empty vocabulary with room for about n terms.
func NewVocabulary(n int) *Vocabulary {
	return &Vocabulary{terms: numbering[string]{num: make(map[string]int32, n), keys: make([]string, 0, n)}}
}

// Len is the number of terms v knows; they are numbered from 0.
func (v *Vocabulary) Len() int { return len(v.terms.keys) }

// Term is the term numbered n.
func (v *Vocabulary) Term(n int32) string { return v.terms.keys[n] }

// Add is the number of term t, given the next number if v did not know it.
func (v *Vocabulary) Add(t string) int32 { return v.terms.add(t) }

// freq is the frequency numbered f.
func (v *Vocabulary) freq(f uint32) float32 { return math.Float32frombits(v.freqs.keys[f]) }

// freqNumber is the number of frequency tf.
func (v *Vocabulary) freqNumber(tf float32) uint32 {
	return uint32(v.freqs.add(math.Float32bits(tf)))
}

// pack is the document of length l whose (term, frequency) numbers are
// v.pairs, in one allocation of its size.
func (v *Vocabulary) pack(l float32) NumberedTerms {
	size := 0
	for _, x := range v.pairs {
		size += uvarintLen(uint64(x))
	}
	b := make([]byte, 0, size)
	for _, x := range v.pairs {
		b = binary.AppendUvarint(b, uint64(x))
	}
	return NumberedTerms{packed: b, count: int32(len(v.pairs) / 2), Len: l}
}

// Number is dt with its terms numbered in v (new terms added), in the
// same order.
func (v *Vocabulary) Number(dt DocTerms) NumberedTerms {
	v.pairs = v.pairs[:0]
	for i, t := range dt.Terms {
		v.pairs = append(v.pairs, uint32(v.Add(t)), v.freqNumber(dt.TF[i]))
	}
	return v.pack(dt.Len)
}

// Numbered is the document of length l whose terms are terms (numbers of
// v) at frequencies tf.
func (v *Vocabulary) Numbered(l float32, terms []int32, tf []float32) NumberedTerms {
	v.pairs = v.pairs[:0]
	for i, n := range terms {
		v.pairs = append(v.pairs, uint32(n), v.freqNumber(tf[i]))
	}
	return v.pack(l)
}

// Renumber is nt, numbered in from, numbered in v (new terms added).
func (v *Vocabulary) Renumber(nt NumberedTerms, from *Vocabulary) NumberedTerms {
	v.pairs = v.pairs[:0]
	for n, tf := range nt.All(from) {
		v.pairs = append(v.pairs, uint32(v.Add(from.Term(n))), v.freqNumber(tf))
	}
	return v.pack(nt.Len)
}

// indexNumbered builds an index from documents numbered in v: the same
// index IndexTerms builds from the documents' DocTerms.
func indexNumbered(ids []string, v *Vocabulary, docs []NumberedTerms) *Index {
	// The postings are laid out term by term in one slab (a counting
	// sort, which keeps each term's documents in order), and the map gets
	// one entry per term the documents use.
	count := make([]int32, v.Len())
	pairs := 0
	for _, d := range docs {
		pairs += d.Count()
		for p := d.packed; len(p) > 0; {
			var n uint32
			n, _, p = nextPair(p)
			count[n]++
		}
	}
	next := make([]int32, len(count))
	used := 0
	at := int32(0)
	for n, c := range count {
		next[n] = at
		at += c
		if c > 0 {
			used++
		}
	}
	slab := make([]posting, pairs)
	ix := &Index{ids: ids, docLen: make([]float64, len(docs)), postings: make(map[string][]posting, used), K1: BM25K1, B: BM25B}
	total := 0.0
	for i, d := range docs {
		ix.docLen[i] = float64(d.Len)
		total += float64(d.Len)
		for p := d.packed; len(p) > 0; {
			var n, f uint32
			n, f, p = nextPair(p)
			slab[next[n]] = posting{doc: int32(i), tf: v.freq(f)}
			next[n]++
		}
	}
	for n, c := range count {
		if c > 0 {
			end := next[n]
			ix.postings[v.terms.keys[n]] = slab[end-c : end : end]
		}
	}
	if len(docs) > 0 {
		ix.avgLen = total / float64(len(docs))
	}
	return ix
}
