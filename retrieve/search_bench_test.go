package retrieve

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// BenchmarkSearchStored times a broad query (21 terms with its thesaurus
// and stem expansions, matching nearly every document) over a stored index
// of 10,000 synthetic documents, opened afresh each time as a context call
// opens index.bin: postings decoded, scored, ranked.
func BenchmarkSearchStored(b *testing.B) {
	common := []string{"database", "postgres", "mysql", "order", "storage", "store", "replace", "queue", "cache", "table", "schema", "sql", "data", "service", "api"}
	vocab := common
	for i := 0; i < 2000; i++ {
		vocab = append(vocab, fmt.Sprintf("word%d", i))
	}
	docs := synthDocs(vocab, len(common), 10000, 150)
	built := NewIndex(docs)
	ids := make([]string, len(docs))
	for i := range docs {
		ids[i] = docs[i].ID
	}
	data := AppendIndex(nil, built)
	q := Query("replace MySQL with PostgreSQL for order storage", English)
	b.ResetTimer()
	for b.Loop() {
		ix, _, _ := OpenIndex(data, ids)
		q2 := ix.Expand(q, 0.5)
		ix.Search(q2)
	}
}

// BenchmarkSearchLongRequest times a request of 1,500 distinct words (a
// pasted document) over 10,000 documents: memory must grow with the log
// and the request, not their product (a slab per group and document took
// 251 MB here; -benchmem shows what it takes now).
func BenchmarkSearchLongRequest(b *testing.B) {
	var vocab []string
	for i := 0; i < 3000; i++ {
		vocab = append(vocab, fmt.Sprintf("term%dx", i))
	}
	ix := NewIndex(synthDocs(vocab, 0, 10000, 100))
	var q []QueryTerm
	for i := 0; i < 1500; i++ {
		q = append(q, QueryTerm{Text: Analyzer{}.TermTexts(vocab[i])[0], Weight: 1, Group: i})
	}
	b.ResetTimer()
	for b.Loop() {
		ix.Search(q)
	}
}

// synthDocs are n documents of length words drawn from vocab, seeded; with
// common > 0, one word in ten is one of vocab's first common words.
func synthDocs(vocab []string, common, n, length int) []Doc {
	r := rand.New(rand.NewPCG(1, 2))
	docs := make([]Doc, 0, n)
	for d := 0; d < n; d++ {
		var sb strings.Builder
		for w := 0; w < length; w++ {
			if common > 0 && r.IntN(10) == 0 {
				sb.WriteString(vocab[r.IntN(common)])
			} else {
				sb.WriteString(vocab[r.IntN(len(vocab))])
			}
			sb.WriteByte(' ')
		}
		docs = append(docs, Doc{ID: fmt.Sprint(d), Fields: []Field{{Text: sb.String(), Weight: 1}}})
	}
	return docs
}
