package gitops

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkDecodeIndex compares decodeIndex with go-git's decoder on the
// index of a 10,000-file repository.
func BenchmarkDecodeIndex(b *testing.B) {
	dir := b.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "doc", "adr"), 0o755); err != nil {
		b.Fatal(err)
	}
	for i := 1; i <= 10000; i++ {
		os.WriteFile(filepath.Join(dir, "doc", "adr", fmt.Sprintf("%04d-decision-number-%d.md", i, i)), []byte(fmt.Sprint(i)), 0o644)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
		if out, err := gitCommand(dir, args...).CombinedOutput(); err != nil {
			b.Fatal(err, string(out))
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("decodeIndex", func(b *testing.B) {
		for b.Loop() {
			if _, ok := decodeIndex(data); !ok {
				b.Fatal("refused")
			}
		}
	})
	b.Run("go-git", func(b *testing.B) {
		for b.Loop() {
			if _, err := goGitEntries(bytes.Clone(data)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
