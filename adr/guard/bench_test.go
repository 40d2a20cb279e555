package guard

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkJudge times the judgement of one tool call, as each hook makes
// it, in logs of 1,000 and 10,000 records (half archived), from loading
// the layout to the decision (reported, not asserted: docs/guard.md).
func BenchmarkJudge(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		top := b.TempDir()
		os.MkdirAll(filepath.Join(top, "doc/adr/archive"), 0o755)
		os.WriteFile(filepath.Join(top, ".adr.toml"), []byte("[[roots]]\npath = \"doc/adr\"\n"), 0o644)
		for i := 1; i <= n; i++ {
			dir := "doc/adr"
			if i%2 == 0 {
				dir = "doc/adr/archive"
			}
			os.WriteFile(filepath.Join(top, dir, fmt.Sprintf("%05d-record-%d.md", i, i)), []byte(record(fmt.Sprint(i), "Record", "Accepted", "")), 0o644)
		}
		for _, cmd := range []string{"grep -rn cache doc/adr", "cat doc/adr/00001-record-1.md", "rg cache src -g '*.go'"} {
			b.Run(fmt.Sprintf("%d/%s", n, cmd), func(b *testing.B) {
				for b.Loop() {
					p := buildPolicy(b, top, Guard, "")
					p.Judge(Request{Cwd: top, Op: OpShell, Command: cmd})
				}
			})
		}
	}
}
