package retrieve

import (
	"math"
	"sort"
	"strings"
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

// Index is an in-memory BM25F index.
type Index struct {
	docs   []indexedDoc
	df     map[string]int
	avgLen float64
	// K1 and B are the BM25 parameters.
	K1, B float64
}

type indexedDoc struct {
	id  string
	tf  map[string]float64
	len float64
}

// NewIndex analyses and indexes docs.
func NewIndex(docs []Doc) *Index {
	ix := &Index{df: map[string]int{}, K1: 1.2, B: 0.75}
	total := 0.0
	for _, d := range docs {
		a := Analyzer{Lang: d.Lang}
		id := indexedDoc{id: d.ID, tf: map[string]float64{}}
		for _, f := range d.Fields {
			w := f.Weight
			if w == 0 {
				w = 1
			}
			for _, t := range a.TermTexts(f.Text) {
				id.tf[t] += w
				id.len += w
			}
		}
		for t := range id.tf {
			ix.df[t]++
		}
		total += id.len
		ix.docs = append(ix.docs, id)
	}
	if len(ix.docs) > 0 {
		ix.avgLen = total / float64(len(ix.docs))
	}
	return ix
}

// Len is the number of documents.
func (ix *Index) Len() int { return len(ix.docs) }

// IDF is the BM25 inverse document frequency of a term (terms absent from
// the index get the maximum, as if they occurred once).
func (ix *Index) IDF(t string) float64 {
	n := float64(len(ix.docs))
	df := float64(ix.df[t])
	if df == 0 {
		df = 1
	}
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

// Expand adds, for each query word of at least five letters, the indexed
// terms that share its stem's beginning ("reusabl" finds "reus" and
// "reusing"), at weight w and in the word's coverage group: stemmers
// disagree across derivations, and a request should not miss a record for
// a suffix.
func (ix *Index) Expand(q []QueryTerm, w float64) []QueryTerm {
	have := map[string]bool{}
	for _, t := range q {
		have[t.Text] = true
	}
	out := append([]QueryTerm(nil), q...)
	vocab := make([]string, 0, len(ix.df))
	for t := range ix.df {
		vocab = append(vocab, t)
	}
	sort.Strings(vocab)
	for _, t := range q {
		if t.Weight < 1 || len(t.Text) < 5 || !isASCII(t.Text) {
			continue
		}
		for _, v := range vocab {
			if have[v] || len(v) < 4 {
				continue
			}
			if strings.HasPrefix(t.Text, v) && len(v) >= 5 && len(v) >= len(t.Text)-3 || strings.HasPrefix(v, t.Text) && len(v) <= len(t.Text)+4 {
				have[v] = true
				out = append(out, QueryTerm{Text: v, Weight: w, Group: t.Group})
			}
		}
	}
	return out
}

// Has reports whether any document contains the term.
func (ix *Index) Has(t string) bool { return ix.df[t] > 0 }

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

// Search scores every document against the query and returns hits with a
// positive score, best first; ties keep document order.
func (ix *Index) Search(q []QueryTerm) []Hit {
	groupWeight := map[int]float64{}
	for _, t := range q {
		if t.Group < 0 {
			continue
		}
		if w := ix.IDF(t.Text) * t.Weight; w > groupWeight[t.Group] {
			groupWeight[t.Group] = w
		}
	}
	totalGroup := 0.0
	for _, w := range groupWeight {
		totalGroup += w
	}
	var hits []Hit
	for i, d := range ix.docs {
		// A word and its expansions are one concept: the concept scores
		// its best term, so a broad thesaurus group cannot outweigh the
		// request's own words by matching many of its members.
		groupScore := map[int]float64{}
		score := 0.0
		matchedGroups := map[int]float64{}
		var matched []string
		for _, t := range q {
			tf := d.tf[t.Text]
			if tf == 0 {
				continue
			}
			idf := ix.IDF(t.Text)
			norm := tf * (ix.K1 + 1) / (tf + ix.K1*(1-ix.B+ix.B*d.len/math.Max(ix.avgLen, 1)))
			sc := t.Weight * idf * norm
			matched = append(matched, t.Text)
			if t.Group < 0 {
				score += sc
				continue
			}
			groupScore[t.Group] = math.Max(groupScore[t.Group], sc)
			if w := idf * t.Weight; w > matchedGroups[t.Group] {
				matchedGroups[t.Group] = w
			}
		}
		for _, sc := range groupScore {
			score += sc
		}
		if score <= 0 {
			continue
		}
		cov := 0.0
		for g, w := range matchedGroups {
			cov += math.Min(w, groupWeight[g])
		}
		if totalGroup > 0 {
			cov /= totalGroup
		}
		hits = append(hits, Hit{Doc: i, ID: d.id, Score: score, Coverage: cov, Matched: matched})
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].Score > hits[b].Score })
	return hits
}

// TopTerms returns the n terms of document i with the highest tf·idf, for
// pseudo-relevance feedback.
func (ix *Index) TopTerms(i, n int) []string {
	d := ix.docs[i]
	type tw struct {
		t string
		w float64
	}
	var all []tw
	for t, tf := range d.tf {
		if ix.df[t] < 2 {
			continue // a word only this document has cannot find others
		}
		all = append(all, tw{t, tf * ix.IDF(t)})
	}
	sort.Slice(all, func(a, b int) bool {
		if all[a].w != all[b].w {
			return all[a].w > all[b].w
		}
		return all[a].t < all[b].t
	})
	var out []string
	for i := 0; i < n && i < len(all); i++ {
		out = append(out, all[i].t)
	}
	return out
}
