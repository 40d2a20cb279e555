package retrieve

// A Vocabulary numbers terms, each once, so that analysed documents can be
// held as numbers (NumberedTerms): eight bytes a term of a document, where
// DocTerms takes twenty (a string header and a frequency). A cold task
// query over 10,000 records holds 1.7 million of them while it builds its
// indexes and writes its term cache.
type Vocabulary struct {
	num   map[string]int32
	terms []string
}

// NumberedTerms is an analysed document (DocTerms) whose terms are numbers
// of a Vocabulary.
type NumberedTerms struct {
	Terms []int32
	TF    []float32
	Len   float32
}

// NewVocabulary is an empty vocabulary with room for about n terms.
func NewVocabulary(n int) *Vocabulary {
	return &Vocabulary{num: make(map[string]int32, n), terms: make([]string, 0, n)}
}

// Len is the number of terms v knows; they are numbered from 0.
func (v *Vocabulary) Len() int { return len(v.terms) }

// Term is the term numbered n.
func (v *Vocabulary) Term(n int32) string { return v.terms[n] }

// Add is the number of term t, given the next number if v did not know it.
func (v *Vocabulary) Add(t string) int32 {
	n, ok := v.num[t]
	if !ok {
		n = int32(len(v.terms))
		v.num[t] = n
		v.terms = append(v.terms, t)
	}
	return n
}

// Number is dt with its terms numbered in v (new terms added), in the
// same order.
func (v *Vocabulary) Number(dt DocTerms) NumberedTerms {
	out := NumberedTerms{Terms: make([]int32, len(dt.Terms)), TF: dt.TF, Len: dt.Len}
	for i, t := range dt.Terms {
		out.Terms[i] = v.Add(t)
	}
	return out
}

// Renumber is nt, numbered in from, numbered in v (new terms added).
func (v *Vocabulary) Renumber(nt NumberedTerms, from *Vocabulary) NumberedTerms {
	out := NumberedTerms{Terms: make([]int32, len(nt.Terms)), TF: nt.TF, Len: nt.Len}
	for i, n := range nt.Terms {
		out.Terms[i] = v.Add(from.terms[n])
	}
	return out
}

// IndexNumbered builds an index from documents numbered in v: the same
// index IndexTerms builds from the documents' DocTerms.
func IndexNumbered(ids []string, v *Vocabulary, docs []NumberedTerms) *Index {
	// The postings are laid out term by term in one slab (a counting
	// sort, which keeps each term's documents in order), and the map gets
	// one entry per term the documents use.
	count := make([]int32, v.Len())
	pairs := 0
	for _, d := range docs {
		pairs += len(d.Terms)
		for _, n := range d.Terms {
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
	ix := &Index{ids: ids, docLen: make([]float64, len(docs)), postings: make(map[string][]posting, used), K1: 1.2, B: 0.75}
	total := 0.0
	for i, d := range docs {
		ix.docLen[i] = float64(d.Len)
		total += float64(d.Len)
		for j, n := range d.Terms {
			slab[next[n]] = posting{doc: int32(i), tf: d.TF[j]}
			next[n]++
		}
	}
	for n, c := range count {
		if c > 0 {
			end := next[n]
			ix.postings[v.terms[n]] = slab[end-c : end : end]
		}
	}
	if len(docs) > 0 {
		ix.avgLen = total / float64(len(docs))
	}
	return ix
}
