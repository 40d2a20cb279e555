package navigate

import (
	"path/filepath"
	"runtime"
	"testing"
)

// BenchmarkSearchGoTree searches scopes of Go's own source tree that fit
// within the scan limits (scripts/bench-nav compares the command with rg
// and git grep).
func BenchmarkSearchGoTree(b *testing.B) {
	tr, err := Open(filepath.Join(runtime.GOROOT(), "src"))
	if err != nil {
		b.Skip("no Go source tree:", err)
	}
	defer tr.Close()
	for _, c := range []struct {
		name string
		o    SearchOptions
	}{
		{"net-http", SearchOptions{Path: "net/http", Pattern: "func (c *Client)", CaseSensitive: true}},
		{"net-http-fold", SearchOptions{Path: "net/http", Pattern: "maxheaderbytes"}},
		{"ssa-13MB", SearchOptions{Path: "cmd/compile/internal/ssa", Pattern: "func rewriteValueAMD64_OpAMD64CMPQ", CaseSensitive: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var bytes int64
			for b.Loop() {
				res, err := tr.Search(c.o)
				if err != nil {
					b.Fatal(err)
				}
				bytes = res.Stats.Bytes
			}
			b.SetBytes(bytes)
		})
	}
}

// BenchmarkReadPages reads a 1 MiB file page by page.
func BenchmarkReadPages(b *testing.B) {
	tr, _ := newTree(b, map[string]string{"big.txt": bigText(MaxFileBytes)})
	b.SetBytes(MaxFileBytes)
	for b.Loop() {
		readAll(b, tr, "big.txt", MaxReadLines)
	}
}

func bigText(n int) string {
	line := "the quick brown fox jumps over the lazy dog, über 日本語\n"
	b := make([]byte, 0, n)
	for len(b)+len(line) <= n {
		b = append(b, line...)
	}
	return string(b)
}
