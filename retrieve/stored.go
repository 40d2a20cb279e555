package retrieve

import (
	"cmp"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
)

// An index can be stored (AppendIndex) and opened again (OpenIndex)
// without being rebuilt: opening reads a small header and a directory of
// fixed-width entries, and a term's postings are decoded only when a
// query asks for that term. A stored index scores exactly as the index it
// was made from.
//
// Layout (little-endian; uvarints where marked):
//
//	docs       uvarint, then one float32 length per document
//	weights    uvarint, then the distinct float32 term frequencies, most
//	           used first (few: sums of a handful of field weights)
//	terms      uvarint
//	directory  per term, in byte order: term offset, postings offset and
//	           document frequency, uint32 each; then the end offsets of
//	           the last term and the last postings
//	term bytes the terms, concatenated
//	postings   per term: (document delta, frequency's place among the
//	           weights) uvarint pairs

// ErrStoredIndex reports stored index bytes that do not decode.
var ErrStoredIndex = errors.New("malformed stored index")

// storedIndex is the directory and postings of an opened index. It keeps
// the bytes it was opened from.
type storedIndex struct {
	n, docs int
	weights []float32
	dir     []byte // 12 bytes per term, then 8 bytes of end offsets
	terms   []byte
	post    []byte
	mu      sync.Mutex // guards decoded: an Index may be searched concurrently
	decoded map[string][]posting
}

const dirEntry = 12

// AppendIndex appends the stored form of ix to b.
func AppendIndex(b []byte, ix *Index) []byte {
	if ix.stored != nil {
		panic("retrieve: AppendIndex of an opened index")
	}
	b = binary.AppendUvarint(b, uint64(len(ix.docLen)))
	for _, l := range ix.docLen {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(l)))
	}
	type termPostings struct {
		// prefix is t's first 8 bytes, big-endian: most comparisons of
		// the sort compare it alone.
		prefix uint64
		t      string
		ps     []posting
	}
	terms := make([]termPostings, 0, len(ix.postings))
	// Frequencies are few and runs of one are common: they are numbered
	// as first met (wnum: a frequency's bits, with bit 32 set so that 0
	// is not empty) and counted, asked only when the frequency changes.
	wnum := newShortWords()
	var weights []float32
	var used []int
	num := func(tf float32) int32 {
		k := uint64(math.Float32bits(tf)) | 1<<32
		n, ok := wnum.get(k)
		if !ok {
			n = int32(len(weights))
			wnum.put(k, n)
			weights, used = append(weights, tf), append(used, 0)
		}
		return n
	}
	size := 0
	for t, ps := range ix.postings {
		terms = append(terms, termPostings{prefix8(t), t, ps})
		size += 3 * len(ps)
		for i := 0; i < len(ps); {
			j := i + 1
			for j < len(ps) && ps[j].tf == ps[i].tf {
				j++
			}
			used[num(ps[i].tf)] += j - i
			i = j
		}
	}
	// Byte order: the prefixes' order, and where they are equal (a term
	// of 8 bytes or more, or one shorter that the other extends with
	// zero bytes), the terms'.
	slices.SortFunc(terms, func(a, b termPostings) int {
		if a.prefix != b.prefix {
			return cmp.Compare(a.prefix, b.prefix)
		}
		return strings.Compare(a.t, b.t)
	})
	// Most used first, then by value; place is each number's place.
	byUse := make([]int32, len(weights))
	for n := range byUse {
		byUse[n] = int32(n)
	}
	slices.SortFunc(byUse, func(a, b int32) int {
		if c := cmp.Compare(used[b], used[a]); c != 0 {
			return c
		}
		return cmp.Compare(weights[a], weights[b])
	})
	place := make([]uint64, len(weights))
	b = binary.AppendUvarint(b, uint64(len(weights)))
	for i, n := range byUse {
		place[n] = uint64(i)
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(weights[n]))
	}
	b = binary.AppendUvarint(b, uint64(len(terms)))
	var termOff, postOff uint32
	post := make([]byte, 0, size)
	for _, tp := range terms {
		ps := tp.ps
		b = binary.LittleEndian.AppendUint32(b, termOff)
		b = binary.LittleEndian.AppendUint32(b, postOff)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(ps)))
		termOff += uint32(len(tp.t))
		start := len(post)
		prev := int32(0)
		lastTF, lastPlace := float32(-1), uint64(0)
		for _, p := range ps {
			if p.tf != lastTF {
				lastTF, lastPlace = p.tf, place[num(p.tf)]
			}
			post = binary.AppendUvarint(post, uint64(p.doc-prev))
			post = binary.AppendUvarint(post, lastPlace)
			prev = p.doc
		}
		postOff += uint32(len(post) - start)
	}
	b = binary.LittleEndian.AppendUint32(b, termOff)
	b = binary.LittleEndian.AppendUint32(b, postOff)
	b = slices.Grow(b, int(termOff)+len(post))
	for _, tp := range terms {
		b = append(b, tp.t...)
	}
	return append(b, post...)
}

// prefix8 is the first 8 bytes of t, big-endian, zero-padded: prefix8(a)
// < prefix8(b) only if a < b.
func prefix8(t string) uint64 {
	var k uint64
	for i := 0; i < 8; i++ {
		k <<= 8
		if i < len(t) {
			k |= uint64(t[i])
		}
	}
	return k
}

// OpenIndex opens an index stored by AppendIndex over the documents ids
// (which must be as many as were stored) and returns the bytes after it.
// It checks the directory's offsets but not each term's postings: callers
// keep stored indexes under a checksum.
func OpenIndex(data []byte, ids []string) (*Index, []byte, error) {
	nd, k := binary.Uvarint(data)
	if k <= 0 || nd != uint64(len(ids)) || uint64(len(data)-k) < 4*nd {
		return nil, nil, ErrStoredIndex
	}
	data = data[k:]
	ix := &Index{ids: ids, docLen: make([]float64, nd), K1: BM25K1, B: BM25B}
	total := 0.0
	for i := range ix.docLen {
		ix.docLen[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:])))
		total += ix.docLen[i]
	}
	if nd > 0 {
		ix.avgLen = total / float64(nd)
	}
	data = data[4*nd:]
	nw, k := binary.Uvarint(data)
	if k <= 0 || nw > uint64(len(data)-k)/4 {
		return nil, nil, ErrStoredIndex
	}
	weights := make([]float32, nw)
	for i := range weights {
		weights[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[k+4*i:]))
	}
	data = data[k+4*int(nw):]
	nt, k := binary.Uvarint(data)
	if k <= 0 || nt > uint64(len(data)-k)/dirEntry {
		return nil, nil, ErrStoredIndex
	}
	data = data[k:]
	dirLen := int(nt)*dirEntry + 8
	if len(data) < dirLen {
		return nil, nil, ErrStoredIndex
	}
	st := &storedIndex{n: int(nt), docs: int(nd), weights: weights, dir: data[:dirLen], decoded: map[string][]posting{}}
	data = data[dirLen:]
	termsLen, postLen := st.termOff(st.n), st.postOff(st.n)
	if uint64(termsLen)+uint64(postLen) > uint64(len(data)) {
		return nil, nil, ErrStoredIndex
	}
	prevT, prevP := 0, 0
	for i := 0; i <= st.n; i++ {
		t, p := st.termOff(i), st.postOff(i)
		if t < prevT || p < prevP || t > termsLen || p > postLen {
			return nil, nil, ErrStoredIndex
		}
		prevT, prevP = t, p
	}
	st.terms, st.post = data[:termsLen], data[termsLen:termsLen+postLen]
	ix.stored = st
	return ix, data[termsLen+postLen:], nil
}

func (st *storedIndex) termOff(i int) int {
	if i == st.n {
		return int(binary.LittleEndian.Uint32(st.dir[st.n*dirEntry:]))
	}
	return int(binary.LittleEndian.Uint32(st.dir[i*dirEntry:]))
}

func (st *storedIndex) postOff(i int) int {
	if i == st.n {
		return int(binary.LittleEndian.Uint32(st.dir[st.n*dirEntry+4:]))
	}
	return int(binary.LittleEndian.Uint32(st.dir[i*dirEntry+4:]))
}

func (st *storedIndex) df(i int) int {
	return int(binary.LittleEndian.Uint32(st.dir[i*dirEntry+8:]))
}

// term is the i-th term, in byte order, as bytes of the stored index.
func (st *storedIndex) term(i int) []byte {
	return st.terms[st.termOff(i):st.termOff(i+1)]
}

// find is the position of t in the directory, or -1.
func (st *storedIndex) find(t string) int {
	i := sort.Search(st.n, func(i int) bool { return string(st.term(i)) >= t })
	if i < st.n && string(st.term(i)) == t {
		return i
	}
	return -1
}

// postings decodes the postings of t (once). Postings that do not decode
// end where they stop decoding.
func (st *storedIndex) postings(t string) []posting {
	st.mu.Lock()
	defer st.mu.Unlock()
	if ps, ok := st.decoded[t]; ok {
		return ps
	}
	var ps []posting
	if i := st.find(t); i >= 0 {
		b := st.post[st.postOff(i):st.postOff(i+1)]
		ps = make([]posting, 0, min(st.df(i), len(b)/2))
		doc := 0
		for len(b) > 0 {
			d, k := binary.Uvarint(b)
			if k <= 0 || d >= uint64(st.docs-doc) {
				break
			}
			w, kw := binary.Uvarint(b[k:])
			if kw <= 0 || w >= uint64(len(st.weights)) {
				break
			}
			doc += int(d)
			ps = append(ps, posting{doc: int32(doc), tf: st.weights[w]})
			b = b[k+kw:]
		}
	}
	st.decoded[t] = ps
	return ps
}

// postingsOf are the postings of a term, built or stored.
func (ix *Index) postingsOf(t string) []posting {
	if ix.stored != nil {
		return ix.stored.postings(t)
	}
	return ix.postings[t]
}

// docFreq is the number of documents that contain t.
func (ix *Index) docFreq(t string) int {
	if ix.stored != nil {
		if i := ix.stored.find(t); i >= 0 {
			return ix.stored.df(i)
		}
		return 0
	}
	return len(ix.postings[t])
}

// stemRelatives calls f, in byte order, with every indexed term of at
// least five letters that t begins with and that is at most three letters
// shorter, or that begins with t and is at most four letters longer (see
// Expand).
func (ix *Index) stemRelatives(t string, f func(v string)) {
	related := func(v string) bool {
		return len(v) >= 5 && (strings.HasPrefix(t, v) && len(v) >= len(t)-3 || strings.HasPrefix(v, t) && len(v) <= len(t)+4)
	}
	st := ix.stored
	if st == nil {
		ix.vocabOnce.Do(ix.sortVocab)
		for _, v := range ix.vocab {
			if related(v) {
				f(v)
			}
		}
		return
	}
	// In byte order the terms t begins with come first, shortest first,
	// then t's own extensions, which are contiguous from t on.
	for l := max(5, len(t)-3); l < len(t); l++ {
		if st.find(t[:l]) >= 0 {
			f(t[:l])
		}
	}
	from := sort.Search(st.n, func(i int) bool { return string(st.term(i)) >= t })
	for i := from; i < st.n; i++ {
		b := st.term(i)
		if !strings.HasPrefix(string(b), t) {
			break
		}
		if v := string(b); related(v) {
			f(v)
		}
	}
}

// termsWithPrefix calls f with every indexed term that starts with p, in
// byte order.
func (ix *Index) termsWithPrefix(p string, f func(t string)) {
	st := ix.stored
	if st == nil {
		ix.vocabOnce.Do(ix.sortVocab)
		from := sort.SearchStrings(ix.vocab, p)
		for _, v := range ix.vocab[from:] {
			if !strings.HasPrefix(v, p) {
				return
			}
			f(v)
		}
		return
	}
	from := sort.Search(st.n, func(i int) bool { return string(st.term(i)) >= p })
	for i := from; i < st.n; i++ {
		b := st.term(i)
		if !strings.HasPrefix(string(b), p) {
			return
		}
		f(string(b))
	}
}

// sortVocab lists the built index's terms in byte order (once).
func (ix *Index) sortVocab() {
	ix.vocab = make([]string, 0, len(ix.postings))
	for v := range ix.postings {
		ix.vocab = append(ix.vocab, v)
	}
	sort.Strings(ix.vocab)
}

// Len is the number of documents the index holds.
func (ix *Index) Len() int { return len(ix.ids) }

// TermFreqs says what the index holds of term t for a BM25 score made
// on another scale (the statistics of several indexes at once): the
// number of documents that contain t, and its frequency in each of docs
// (distinct document numbers; 0 where t is absent).
func (ix *Index) TermFreqs(t string, docs []int) (df int, tfs []float64) {
	tfs = make([]float64, len(docs))
	at := make(map[int]int, len(docs))
	for i, d := range docs {
		at[d] = i
	}
	for _, p := range ix.postingsOf(t) {
		if i, ok := at[int(p.doc)]; ok {
			tfs[i] = float64(p.tf)
		}
	}
	return ix.docFreq(t), tfs
}

// DocLen is the length of document d, as BM25 normalises by it; AvgLen
// is their mean.
func (ix *Index) DocLen(d int) float64 { return ix.docLen[d] }

// AvgLen is the mean length of the index's documents.
func (ix *Index) AvgLen() float64 { return ix.avgLen }
