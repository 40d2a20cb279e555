package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/scope"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/cachefile"
)

func TestLogCommitsParsesOddNames(t *testing.T) {
	out := "\x01aaa\x00\nplain.go\x00with space.go\x00\nstarts-with-newline\x00\x00\x01bbb\x00\x01ccc\x00\nx/y.md\x00"
	got := logCommits([]byte(out))
	want := []logCommit{{hash: "aaa", files: []string{"plain.go", "with space.go", "\nstarts-with-newline"}}, {hash: "bbb"}, {hash: "ccc", files: []string{"x/y.md"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}

// churnCounts agrees with git's own count of the same commits (non-merge
// commits in since..HEAD touching the pattern) on a history with branches
// merged before and after records were added.
func TestChurnCountsAgreeWithRevList(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	env := procEnv(t)
	git := func(args ...string) string { t.Helper(); return runGit(t, dir, env, args...) }
	commit := func(p, msg string) {
		t.Helper()
		appendLine(t, filepath.Join(dir, p), msg)
		git("add", "-A")
		git("commit", "-qm", msg)
	}
	git("init", "-q", "-b", "main")
	commit("pay/a.go", "start")
	commit("doc/adr/0001-a.md", "record 1")
	git("checkout", "-qb", "early")
	commit("pay/b.go", "early branch")
	git("checkout", "-q", "main")
	commit("pay/a.go", "main 1")
	git("merge", "-q", "--no-ff", "-m", "merge early", "early")
	commit("doc/adr/0002-b.md", "record 2")
	git("checkout", "-qb", "late", "HEAD~2") // from before record 2 and the merge
	commit("pay/c.go", "late branch")
	commit("web/x.ts", "late web")
	git("checkout", "-q", "main")
	commit("pay/a.go", "main 2")
	git("merge", "-q", "--no-ff", "-m", "merge late", "late")
	commit("web/x.ts", "web")

	recs := []*adr.Record{{ID: "ADR-0001", Path: "doc/adr/0001-a.md"}, {ID: "ADR-0002", Path: "doc/adr/0002-b.md"}}
	globs := map[*adr.Record][]string{recs[0]: {"pay/**"}, recs[1]: {"pay/**", "web/*.ts"}}
	added := map[string]string{}
	for _, c := range logCommits([]byte(git("log", "-z", "--no-renames", "--diff-filter=A", "--format=%x01%H", "--name-only", "--", "doc/adr"))) {
		for _, f := range c.files {
			if _, ok := added[f]; !ok {
				added[f] = c.hash
			}
		}
	}
	changes := logCommits([]byte(git("log", "-z", "--no-merges", "--no-renames", "--full-history", "--format=%x01%H", "--name-only", "HEAD")))
	g := parseCommitGraph([]byte(git("rev-list", "--parents", "HEAD")))
	got := churnCounts(recs, globs, added, changes, g)
	for _, rec := range recs {
		args := []string{"rev-list", "--count", "--no-merges", "--full-history", strings.TrimSpace(added[rec.Path]) + "..HEAD", "--"}
		for _, p := range globs[rec] {
			args = append(args, ":(glob)"+p)
		}
		want, _ := strconv.Atoi(strings.TrimSpace(git(args...)))
		if got[rec] != want {
			t.Errorf("%s: %d commits, git rev-list counts %d", rec.ID, got[rec], want)
		}
		if want == 0 {
			t.Errorf("%s: the history gives it no commit to count", rec.ID)
		}
	}
}

// The churn counts are kept for the HEAD they were counted at: a second
// count at the same HEAD reads them (a forged count with the right key is
// believed, which shows the file is read), a new commit counts again, and
// a damaged file is counted again and replaced.
func TestChurnCacheFollowsHEAD(t *testing.T) {
	dir := t.TempDir()
	env := procEnv(t)
	git := func(args ...string) { t.Helper(); runGit(t, dir, env, args...) }
	os.MkdirAll(filepath.Join(dir, "doc", "adr"), 0o755)
	os.WriteFile(filepath.Join(dir, "doc/adr/0001-cache.md"), []byte("# 1. Cache\n\nDate: 2024-01-02\nApplies to: pay/**\n\n## Status\n\nAccepted\n\n## Decision\n\nCache.\n"), 0o644)
	git("init", "-q")
	change := func(msg string) {
		t.Helper()
		appendLine(t, filepath.Join(dir, "pay/a.go"), "// "+msg)
		git("add", "-A")
		git("commit", "-qm", msg)
	}
	change("start")
	change("one")
	r, err := gitops.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	l, err := adr.Load(r.WorktreeFS(), adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	count := func() int {
		t.Helper()
		order, globs := scopedInForce(scope.New(l, nil).Patterns())
		counts, _ := cachedChurn(r, l, order, globs)
		if len(order) != 1 {
			t.Fatalf("%d scoped records", len(order))
		}
		return counts[order[0]]
	}
	if n := count(); n != 1 {
		t.Fatalf("counted %d, want 1", n)
	}
	file := filepath.Join(r.AdrDir(), "cache", churnCacheFile)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := decodeChurnCache(data)
	if !ok {
		t.Fatal("the saved file does not decode")
	}
	c.Counts[0].Count = 99
	body, _ := json.Marshal(c)
	if err := os.WriteFile(file, cachefile.Seal(append([]byte(churnCacheMagic), body...)), 0o600); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 99 {
		t.Fatalf("at the same HEAD: %d, want the kept 99", n)
	}
	change("two")
	if n := count(); n != 2 {
		t.Fatalf("after a commit: %d, want 2", n)
	}
	if err := os.WriteFile(file, []byte(churnCacheMagic+"{damaged"), 0o600); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 2 {
		t.Fatalf("damaged file: %d, want 2", n)
	}
	if data, _ := os.ReadFile(file); !bytes.HasPrefix(data, []byte(churnCacheMagic+"{\"key\"")) {
		t.Fatalf("the damaged file was not replaced: %q", data)
	}
}

func FuzzDecodeChurnCache(f *testing.F) {
	f.Add([]byte(churnCacheMagic + `{"key":"k","counts":[{"path":"a","count":1,"added":"h"}]}`))
	f.Add([]byte("nothing"))
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeChurnCache(body)
		decodeChurnCache(cachefile.Seal(append([]byte(churnCacheMagic), body...)))
	})
}

// appendLine appends line to the file at p, made with its folder when
// missing.
func appendLine(t *testing.T, p, line string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
}

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
		appendLine(t, filepath.Join(repo, "doc", "adr", fmt.Sprintf("%04d-scoped-%d.md", 41+i, i)),
			fmt.Sprintf("# %d. Scoped %d\n\nDate: 2024-01-0%d\nApplies to: %s\n\n## Status\n\nAccepted\n\n## Decision\n\nD.\n", 41+i, i, i+1, glob))
	}
	os.WriteFile(filepath.Join(repo, ".adr.toml"), []byte("[check]\nchurn_commits = 2\n"), 0o644)
	runGit(t, repo, env, "add", "-A")
	runGit(t, repo, env, "commit", "-qm", "scoped records")
	for i := 0; i < 4; i++ {
		appendLine(t, filepath.Join(repo, "pay", "a.go"), fmt.Sprint("// ", i))
		appendLine(t, filepath.Join(repo, "api", "b.go"), fmt.Sprint("// ", i))
		runGit(t, repo, env, "add", "-A")
		runGit(t, repo, env, "commit", "-qm", fmt.Sprint("change ", i))
	}
	time.Sleep(2100 * time.Millisecond) // old enough for stat entries
	cache := filepath.Join(repo, ".git", "adr", "cache")
	file := filepath.Join(cache, churnCacheFile)
	got := func(r result) string { return fmt.Sprintf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr) }
	os.RemoveAll(cache)
	want := got(runAdr(t, repo, env, "check"))
	if !strings.Contains(want, "scope-churn") {
		t.Fatalf("check reports no scope churn, so churn.bin is not exercised:\n%s", want)
	}
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no %s after a check: %v", churnCacheFile, err)
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
		if _, ok := decodeChurnCache(data); !ok {
			t.Errorf("%s after the vandal does not decode", churnCacheFile)
		}
	}

	// Killed between a temporary file and its rename, at each write.
	killedChurn := false
	cold, writes := killAtEachCacheWrite(t, repo, env, cache, []string{"check"}, func(point string, temps []string) {
		if len(temps) != 1 {
			t.Fatalf("kill at %s left %d temporary files, want 1: %v", point, len(temps), temps)
		}
		killedChurn = killedChurn || strings.HasPrefix(filepath.Base(temps[0]), "."+churnCacheFile+".")
		check(fmt.Sprintf("after a kill at %s (%s)", point, filepath.Base(temps[0])), runAdr(t, repo, env, "check"))
		if _, err := os.ReadFile(file); err != nil {
			t.Errorf("after a kill at %s, the next check wrote no %s: %v", point, churnCacheFile, err)
		}
	})
	check("a cold run", cold)
	if !killedChurn {
		t.Fatalf("a cold check made %d cache writes, none of them %s's", writes, churnCacheFile)
	}
}
