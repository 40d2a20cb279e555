package retrieve

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"testing"
)

// searchReference is Search as first written (a map per matched
// document), kept as the oracle the slot-based Search is checked against.
func searchReference(ix *Index, q []QueryTerm) []Hit {
	groupWeight := map[int]float64{}
	for _, t := range q {
		if t.Group < 0 || t.Weight < 1 {
			continue
		}
		if w := ix.IDF(t.Text) * t.Weight; w > groupWeight[t.Group] {
			groupWeight[t.Group] = w
		}
	}
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
	type acc struct {
		free    float64
		group   map[int]float64
		cover   map[int]float64
		matched []string
	}
	accs := map[int]*acc{}
	avg := math.Max(ix.avgLen, 1)
	for _, t := range q {
		ps := ix.postingsOf(t.Text)
		if len(ps) == 0 {
			continue
		}
		idf := ix.IDF(t.Text)
		for _, p := range ps {
			doc, tf := int(p.doc), float64(p.tf)
			a := accs[doc]
			if a == nil {
				a = &acc{group: map[int]float64{}, cover: map[int]float64{}}
				accs[doc] = a
			}
			norm := tf * (ix.K1 + 1) / (tf + ix.K1*(1-ix.B+ix.B*ix.docLen[doc]/avg))
			sc := t.Weight * idf * norm
			a.matched = append(a.matched, t.Text)
			if t.Group < 0 {
				a.free += sc
				continue
			}
			a.group[t.Group] = math.Max(a.group[t.Group], sc)
			a.cover[t.Group] = math.Max(a.cover[t.Group], idf*t.Weight)
		}
	}
	hits := make([]Hit, 0, len(accs))
	for doc, a := range accs {
		score := a.free
		for _, g := range groups {
			score += a.group[g]
		}
		if score <= 0 {
			continue
		}
		cov := 0.0
		for _, g := range groups {
			if w, ok := a.cover[g]; ok {
				cov += math.Min(w, groupWeight[g])
			}
		}
		if totalGroup > 0 {
			cov /= totalGroup
		}
		hits = append(hits, Hit{Doc: doc, ID: ix.ids[doc], Score: score, Coverage: cov, Matched: a.matched})
	}
	sort.Slice(hits, func(a, b int) bool {
		if hits[a].Score != hits[b].Score {
			return hits[a].Score > hits[b].Score
		}
		return hits[a].Doc < hits[b].Doc
	})
	return hits
}

// TestSearchMatchesReference: over random logs and queries (free terms,
// groups, many groups, expansions below weight 1, more than 64 terms), built and
// stored indexes alike, Search returns exactly what the reference does.
func TestSearchMatchesReference(t *testing.T) {
	words := []string{"cache", "queue", "database", "postgres", "mysql", "retry", "payment", "order", "storage", "event",
		"stream", "kafka", "redis", "deploy", "release", "token", "session", "login", "audit", "metric"}
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 60; round++ {
		var docs []Doc
		for d := 0; d < 1+r.IntN(80); d++ {
			var text []byte
			for w := 0; w < 1+r.IntN(30); w++ {
				text = append(text, words[r.IntN(len(words))]...)
				text = append(text, ' ')
			}
			docs = append(docs, Doc{ID: fmt.Sprint("d", d), Fields: []Field{{Text: string(text), Weight: 1 + float64(r.IntN(2))}}})
		}
		built := NewIndex(docs)
		ids := make([]string, len(docs))
		for i, d := range docs {
			ids[i] = d.ID
		}
		stored, _, err := OpenIndex(AppendIndex(nil, built), ids)
		if err != nil {
			t.Fatal(err)
		}
		var q []QueryTerm
		for i := 0; i < 1+r.IntN(90); i++ {
			w := []float64{1, 1, 0.35, 0.5, 0.99, 2}[r.IntN(6)]
			g := r.IntN(8) - 1 // -1: a free term
			if round%3 == 0 {
				g = r.IntN(150) - 1 // a long request: many groups
			}
			q = append(q, QueryTerm{Text: Analyzer{}.TermTexts(words[r.IntN(len(words))])[0], Weight: w, Group: g})
		}
		for name, ix := range map[string]*Index{"built": built, "stored": stored} {
			got, want := ix.Search(q), searchReference(ix, q)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d, %s index: Search differs from the reference\ngot  %+v\nwant %+v", round, name, got, want)
			}
		}
	}
}
