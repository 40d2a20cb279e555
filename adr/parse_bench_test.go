package adr

import (
	"os"
	"testing"

	"github.com/git-adr/git-adr/internal/corpora"
)

// BenchmarkParse parses every Markdown file of the shared corpora (or of
// the folder GIT_ADR_CORPORA names), as a first, cold load of a log
// does; skipped without them.
func BenchmarkParse(b *testing.B) {
	wd, err := os.Getwd()
	if err != nil {
		b.Fatal(err)
	}
	dir, err := corpora.Dir(wd)
	if err != nil {
		b.Skip(err)
	}
	md, err := corpora.Markdown(dir)
	if err != nil || len(md) == 0 {
		b.Skipf("no corpora at %s: %v", dir, err)
	}
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
