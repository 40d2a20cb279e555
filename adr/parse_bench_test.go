package adr

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkParse parses every Markdown file of the shared corpora (or of
// the folder GIT_ADR_CORPORA names), as a first, cold load of a log
// does; skipped without them.
func BenchmarkParse(b *testing.B) {
	dir := os.Getenv("GIT_ADR_CORPORA")
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			b.Fatal(err)
		}
		dir = filepath.Join(wd, "..", "..", "shared", "corpora")
	}
	var texts [][]byte
	size := 0
	_ = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil {
			texts = append(texts, data)
			size += len(data)
		}
		return err
	})
	if len(texts) == 0 {
		b.Skipf("no corpora at %s", dir)
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		for _, t := range texts {
			Parse(t)
		}
	}
}
