package govern

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/git-adr/git-adr/gitops"
)

// benchRepo commits n adr-tools records (every tenth proposed) and stages
// an edit of one proposed record, as scripts/bench-hooks does; packed runs
// `git gc` first, as a repository that has lived a while is.
func benchRepo(b *testing.B, n int, packed bool) string {
	b.Helper()
	dir := b.TempDir()
	adr := filepath.Join(dir, "doc", "adr")
	if err := os.MkdirAll(adr, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		status := "Accepted"
		if i%10 == 0 {
			status = "Proposed"
		}
		s := fmt.Sprintf("# %d. Decision number %d\n\nDate: 2026-01-01\n\n## Status\n\n%s\n\n## Context\n\nThe context of decision %d.\n\n## Decision\n\nWe decide %d.\n", i, i, status, i, i)
		if err := os.WriteFile(filepath.Join(adr, fmt.Sprintf("%04d-decision-number-%d.md", i, i)), []byte(s), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=b", "-c", "user.email=b@example.com", "-c", "gc.auto=0"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "log")
	if packed {
		git("gc", "-q")
	}
	f, err := os.OpenFile(filepath.Join(adr, "0010-decision-number-10.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	f.WriteString("\nMore detail.\n")
	f.Close()
	git("add", "-A")
	return dir
}

// BenchmarkPreCommit is the pre-commit hook's own work on a one-record
// edit of a 1,000-record log (the staged change and its judgement, no
// process start-up): `go test ./adr/govern -run XXX -bench PreCommit
// -benchmem`.
func BenchmarkPreCommit(b *testing.B) {
	for _, packed := range []bool{false, true} {
		name := "loose"
		if packed {
			name = "packed"
		}
		b.Run(name, func(b *testing.B) {
			dir := benchRepo(b, 1000, packed)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r, err := gitops.Open(dir)
				if err != nil {
					b.Fatal(err)
				}
				st, err := r.StagedState()
				if err != nil {
					b.Fatal(err)
				}
				rep, err := Judge(Input{Base: st.Base, Next: st.Next, Changes: st.Changes})
				if err != nil {
					b.Fatal(err)
				}
				if rep.Checked != 1 || len(rep.Problems) != 0 {
					b.Fatalf("judged %d records, problems %v", rep.Checked, rules(rep))
				}
			}
		})
	}
}
