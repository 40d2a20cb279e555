package view

import (
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/adr"
)

// BenchmarkCheck measures the read-time freshness check of a view over
// every record of a 1,000- and a 10,000-record root (the log is loaded
// once, as context and check do).
func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			fsys := fstest.MapFS{}
			for i := 1; i <= n; i++ {
				fsys[fmt.Sprintf("doc/adr/%05d-r.md", i)] = record(i%28+1, fmt.Sprintf("Record %d", i), "Accepted", "storage",
					fmt.Sprintf("Decision %d: a paragraph long enough to look like a real decision record's text.", i))
			}
			publish(b, fsys, NewSelection("", nil))
			l, err := adr.Load(fsys, adr.LoadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if f := Check(l, l.Roots[0]); f.State != Fresh {
					b.Fatalf("%s %s", f.State, f.Summary())
				}
			}
		})
	}
}
