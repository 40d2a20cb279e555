package main

import (
	"bytes"
	"fmt"
	"github.com/git-adr/git-adr/internal/gittest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-adr/git-adr/adr/audit"
)

// TestChurnCacheProcesses drives churn.bin with real processes, as
// TestDetectMemoProcesses drives detect.bin: `git adr check` processes
// count at once while the file is replaced under them by truncated,
// corrupt and foreign copies, and a process killed between writing a
// cache file's temporary copy and renaming it (at each of its writes in
// turn, churn.bin's among them) leaves every file whole or absent. Every
// run prints what a run without caches prints.
func TestChurnCacheProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	env := procEnv(t)
	repo := writeLog(t, env, 40, 5)
	for i, glob := range []string{"pay/**", "api/*.go", "docs/none/**"} {
		gittest.AppendLine(t, filepath.Join(repo, "doc", "adr", fmt.Sprintf("%04d-scoped-%d.md", 41+i, i)),
			fmt.Sprintf("# %d. Scoped %d\n\nDate: 2024-01-0%d\nApplies to: %s\n\n## Status\n\nAccepted\n\n## Decision\n\nD.\n", 41+i, i, i+1, glob))
	}
	os.WriteFile(filepath.Join(repo, ".adr.toml"), []byte("[check]\nchurn_commits = 2\n"), 0o644)
	runGit(t, repo, env, "add", "-A")
	runGit(t, repo, env, "commit", "-qm", "scoped records")
	for i := 0; i < 4; i++ {
		gittest.AppendLine(t, filepath.Join(repo, "pay", "a.go"), fmt.Sprint("// ", i))
		gittest.AppendLine(t, filepath.Join(repo, "api", "b.go"), fmt.Sprint("// ", i))
		runGit(t, repo, env, "add", "-A")
		runGit(t, repo, env, "commit", "-qm", fmt.Sprint("change ", i))
	}
	time.Sleep(2100 * time.Millisecond) // old enough for stat entries
	cache := filepath.Join(repo, ".git", "adr", "cache")
	file := filepath.Join(cache, audit.ChurnCacheFile)
	got := func(r result) string { return fmt.Sprintf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr) }
	os.RemoveAll(cache)
	want := got(runAdr(t, repo, env, "check"))
	if !strings.Contains(want, "scope-churn") {
		t.Fatalf("check reports no scope churn, so churn.bin is not exercised:\n%s", want)
	}
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no %s after a check: %v", audit.ChurnCacheFile, err)
	}
	check := func(stage string, r result) {
		t.Helper()
		if g := got(r); g != want {
			t.Errorf("%s: output differs from a run without caches:\n%s", stage, lineDiff(want, g))
		}
	}

	// Racing processes and a vandal.
	damaged := damagedCopies(good)
	stop := vandalize(3*time.Millisecond, func(i int) (string, []byte) { return file, damaged[i%len(damaged)] })
	batch := [][]string{{"check"}, {"check"}, {"check"}, {"check"}, {"check"}, {"check"}}
	for round := 0; round < 3; round++ {
		for _, r := range parallel(t, repo, env, batch) {
			check(fmt.Sprintf("vandal round %d", round), r)
		}
	}
	stop()
	check("after the vandal", runAdr(t, repo, env, "check"))
	if data, _ := os.ReadFile(file); !bytes.Equal(data, good) {
		// A run that found a damaged file wrote the counts again.
		if !audit.ChurnCacheValid(data) {
			t.Errorf("%s after the vandal does not decode", audit.ChurnCacheFile)
		}
	}

	// Killed between a temporary file and its rename, at each write.
	killedChurn := false
	cold, writes := killAtEachCacheWrite(t, repo, env, cache, []string{"check"}, func(point string, temps []string) {
		if len(temps) != 1 {
			t.Fatalf("kill at %s left %d temporary files, want 1: %v", point, len(temps), temps)
		}
		killedChurn = killedChurn || strings.HasPrefix(filepath.Base(temps[0]), "."+audit.ChurnCacheFile+".")
		check(fmt.Sprintf("after a kill at %s (%s)", point, filepath.Base(temps[0])), runAdr(t, repo, env, "check"))
		if _, err := os.ReadFile(file); err != nil {
			t.Errorf("after a kill at %s, the next check wrote no %s: %v", point, audit.ChurnCacheFile, err)
		}
	})
	check("a cold run", cold)
	if !killedChurn {
		t.Fatalf("a cold check made %d cache writes, none of them %s's", writes, audit.ChurnCacheFile)
	}
}
