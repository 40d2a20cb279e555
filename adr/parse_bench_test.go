package adr

import (
	"testing"

	"github.com/git-adr/git-adr/internal/corpora"
)

// BenchmarkParse parses every Markdown file of the shared corpora (or of
// the folder GIT_ADR_CORPORA names), as a first, cold load of a log
// does; skipped without them.
func BenchmarkParse(b *testing.B) {
	md := corpora.Texts(b)
	texts := make([][]byte, len(md))
	size := 0
	for i, t := range md {
		texts[i] = []byte(t)
		size += len(t)
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		for _, t := range texts {
			Parse(t)
		}
	}
}
