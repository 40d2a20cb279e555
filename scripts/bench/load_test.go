package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-adr/git-adr/adr"
)

// BenchmarkLoad times what every git-adr command starts with: discovering
// the roots and parsing every record of a generated log. Run it with
// -cpuprofile to see where `git adr list` and `git adr new` spend their
// time on large logs:
//
//	go test ./scripts/bench -run '^$' -bench Load/10000 -cpuprofile cpu.out
//	go tool pprof -top scripts/bench.test cpu.out
func BenchmarkLoad(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := b.TempDir()
			if err := WriteLog(filepath.Join(dir, "doc", "adr"), Generate(n, 1)); err != nil {
				b.Fatal(err)
			}
			fsys := os.DirFS(dir)
			b.ResetTimer()
			for b.Loop() {
				l, err := adr.Load(fsys, adr.LoadOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if len(l.Records) != n {
					b.Fatalf("loaded %d records, want %d", len(l.Records), n)
				}
			}
		})
	}
}

// BenchmarkParse times the parser alone on the records of a generated log.
func BenchmarkParse(b *testing.B) {
	recs := Generate(1000, 1)
	srcs := make([][]byte, len(recs))
	size := 0
	for i, r := range recs {
		srcs[i] = r.Render()
		size += len(srcs[i])
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, s := range srcs {
			adr.Parse(s)
		}
	}
}
