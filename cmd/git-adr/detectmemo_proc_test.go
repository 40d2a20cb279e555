package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-adr/git-adr/internal/atomicfile"
)

// TestDetectMemoProcesses drives the detection memo (detect.bin, beside
// the parse cache) with real processes:
//   - many processes detect at once while the memo is replaced under them
//     by truncated, corrupt and foreign copies, and all print what a run
//     without any cache prints;
//   - a process killed with SIGKILL between writing a cache file's
//     temporary copy and renaming it (at each of its cache writes in
//     turn) leaves every cache file whole or absent: the next runs print
//     the same, and the killed write's temporary file, once older than
//     atomicfile.StaleAfter, is removed by the next write of that file.
func TestDetectMemoProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	env := procEnv(t)
	repo := writeLog(t, env, 120, 9)
	os.MkdirAll(filepath.Join(repo, "src", "api", "adr"), 0o755)
	for i, title := range []string{"Use REST", "Use JSON"} {
		os.WriteFile(filepath.Join(repo, "src", "api", "adr", fmt.Sprintf("%04d-%s.md", i+1, strings.ToLower(strings.ReplaceAll(title, " ", "-")))),
			[]byte(fmt.Sprintf("# %d. %s\n\n## Status\n\nAccepted\n\n## Context\n\nC.\n\n## Decision\n\nD.\n", i+1, title)), 0o644)
	}
	runGit(t, repo, env, "add", "-A")
	runGit(t, repo, env, "commit", "-qm", "second log")
	time.Sleep(2100 * time.Millisecond) // old enough for the memo to trust stat data
	cache := filepath.Join(repo, ".git", "adr", "cache")
	memo := filepath.Join(cache, "detect.bin")
	argv := [][]string{{"roots"}, {"list"}, {"check"}, {"show", "7"}}
	key := func(a []string) string { return strings.Join(a, " ") }
	got := func(r result) string { return fmt.Sprintf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr) }
	want := map[string]string{}
	runAdr(t, repo, env, "roots") // the detection note is shown once per repository
	for _, a := range argv {
		os.RemoveAll(cache)
		want[key(a)] = got(runAdr(t, repo, env, a...))
	}
	if !strings.Contains(want["roots"], "src/api/adr") {
		t.Fatalf("roots does not find the second log:\n%s", want["roots"])
	}
	check := func(stage string, a []string, r result) {
		t.Helper()
		if g := got(r); g != want[key(a)] {
			t.Errorf("%s, %s: output differs from a run without caches:\n%s", stage, key(a), lineDiff(want[key(a)], g))
		}
	}

	// Racing processes and a vandal.
	os.RemoveAll(cache)
	runAdr(t, repo, env, "roots")
	good, err := os.ReadFile(memo)
	if err != nil {
		t.Fatalf("no memo after a run: %v", err)
	}
	damaged := damagedCopies(good)
	stop := vandalize(3*time.Millisecond, func(i int) (string, []byte) { return memo, damaged[i%len(damaged)] })
	for round := 0; round < 3; round++ {
		batch := append(append([][]string{}, argv...), argv...)
		for _, r := range parallel(t, repo, env, batch) {
			check(fmt.Sprintf("vandal round %d", round), r.args, r)
		}
	}
	stop()
	for _, a := range argv {
		check("after the vandal", a, runAdr(t, repo, env, a...))
	}

	// Killed between a temporary file and its rename, at each write.
	last, writes := killAtEachCacheWrite(t, repo, env, cache, []string{"roots"}, func(n int, temps []string) {
		if len(temps) != 1 {
			t.Fatalf("kill at write %d left %d temporary files, want 1 (the writes are one after another): %v", n, len(temps), temps)
		}
		temp := temps[0]
		for _, a := range argv {
			check(fmt.Sprintf("after a kill at write %d", n), a, runAdr(t, repo, env, a...))
		}
		// The files the runs after the kill wrote are trusted: a run over
		// the unchanged log rewrites none of them.
		before := cacheFiles(t, cache)
		for _, a := range argv {
			runAdr(t, repo, env, a...)
		}
		if after := cacheFiles(t, cache); after != before {
			t.Errorf("after a kill at write %d, runs over an unchanged log rewrote a cache file:\n%s", n, lineDiff(before, after))
		}
		// An old leftover goes with the next write of its file.
		old := time.Now().Add(-2 * atomicfile.StaleAfter)
		os.Chtimes(temp, old, old)
		base := strings.TrimPrefix(filepath.Base(temp), ".")
		base = base[:strings.Index(base, ".tmp")]
		base = base[:strings.LastIndex(base, ".")]
		os.Remove(filepath.Join(cache, base))
		runAdr(t, repo, env, "roots")
		if _, err := os.Stat(filepath.Join(cache, base)); err != nil {
			t.Fatalf("%s not written again after it was removed: %v", base, err)
		}
		if _, err := os.Lstat(temp); !os.IsNotExist(err) {
			t.Errorf("the leftover %s of a killed write survives the next write of %s", filepath.Base(temp), base)
		}
	})
	check("a run with fewer writes than the kill point", []string{"roots"}, last)
	t.Logf("a cold `roots` makes %d cache writes; killed at each", writes)
}

// killAtEachCacheWrite runs `git adr ARGS` from a removed cache folder,
// killed with SIGKILL between a cache file's temporary copy and its
// rename: at its first cache write, then at its second, and so on. After
// each kill, which must leave a temporary file (more than one when the
// command writes caches at once), it calls after with the write's number
// and those files. It returns the first run that made fewer writes than
// its kill point, and how many it made (at least one; at most eight).
func killAtEachCacheWrite(t *testing.T, repo string, env []string, cache string, args []string, after func(n int, temps []string)) (result, int) {
	t.Helper()
	for n := 1; n <= 9; n++ {
		os.RemoveAll(cache)
		r := runAdr(t, repo, append(env, fmt.Sprintf("GIT_ADR_KILL_AT=atomicfile-temp:%d", n)), args...)
		if !r.killed {
			if n == 1 {
				t.Fatalf("a cold `%s` writes no cache file: exit %d\n%s", strings.Join(args, " "), r.code, r.stderr)
			}
			return r, n - 1
		}
		temps, _ := filepath.Glob(filepath.Join(cache, ".*.tmp"))
		if len(temps) == 0 {
			t.Fatalf("kill at write %d left no temporary file", n)
		}
		after(n, temps)
	}
	t.Fatalf("a cold `%s` made more than 8 cache writes", strings.Join(args, " "))
	return result{}, 0
}

// cacheFiles lists the cache folder's files with their sizes and
// modification times.
func cacheFiles(t *testing.T, dir string) string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range es {
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %d %d\n", e.Name(), fi.Size(), fi.ModTime().UnixNano())
	}
	return b.String()
}
