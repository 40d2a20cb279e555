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
	cold, writes := killAtEachCacheWrite(t, repo, env, cache, []string{"roots"}, func(point string, temps []string) {
		if len(temps) != 1 {
			t.Fatalf("kill at %s left %d temporary files, want 1 (the writes are one after another): %v", point, len(temps), temps)
		}
		temp := temps[0]
		for _, a := range argv {
			check("after a kill at "+point, a, runAdr(t, repo, env, a...))
		}
		// The files the runs after the kill wrote are trusted: a run over
		// the unchanged log rewrites none of them.
		before := cacheFiles(t, cache)
		for _, a := range argv {
			runAdr(t, repo, env, a...)
		}
		if after := cacheFiles(t, cache); after != before {
			t.Errorf("after a kill at %s, runs over an unchanged log rewrote a cache file:\n%s", point, lineDiff(before, after))
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
	check("a cold run", []string{"roots"}, cold)
	t.Logf("a cold `roots` makes %d cache writes; killed at each", writes)
}

// killAtEachCacheWrite runs `git adr ARGS` from a removed cache folder,
// killed with SIGKILL between a cache file's temporary copy and its
// rename: for each file a cold run leaves in cache, at its first write,
// then at its second, and so on. The kill point names the file
// (atomicfile-temp/NAME:N), so it is the same write in every run however
// a command that saves several files at once interleaves them: a count of
// all writes would stop at a different file when the machine is busy.
// After each kill, which must leave the named file's temporary copy (and
// perhaps others, for a command that writes caches at once), it calls
// after with the point and the temporary files. It returns the cold run
// and how many writes it killed (at least one; at most eight a file).
func killAtEachCacheWrite(t *testing.T, repo string, env []string, cache string, args []string, after func(point string, temps []string)) (result, int) {
	t.Helper()
	os.RemoveAll(cache)
	cold := runAdr(t, repo, env, args...)
	es, _ := os.ReadDir(cache)
	var files []string
	for _, e := range es {
		if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
			files = append(files, e.Name())
		}
	}
	if len(files) == 0 {
		t.Fatalf("a cold `%s` writes no cache file: exit %d\n%s", strings.Join(args, " "), cold.code, cold.stderr)
	}
	writes := 0
	for _, f := range files {
		for n := 1; ; n++ {
			if n > 8 {
				t.Fatalf("a cold `%s` wrote %s more than 8 times", strings.Join(args, " "), f)
			}
			point := fmt.Sprintf("atomicfile-temp/%s:%d", f, n)
			os.RemoveAll(cache)
			r := runAdr(t, repo, append(env, "GIT_ADR_KILL_AT="+point), args...)
			if !r.killed {
				if n == 1 {
					t.Fatalf("a cold `%s` leaves %s but was not killed at its write (not written through atomicfile?): exit %d\n%s", strings.Join(args, " "), f, r.code, r.stderr)
				}
				break
			}
			temps, _ := filepath.Glob(filepath.Join(cache, ".*.tmp"))
			mine := false
			for _, tmp := range temps {
				mine = mine || strings.HasPrefix(filepath.Base(tmp), "."+f+".")
			}
			if !mine {
				t.Fatalf("kill at %s left no temporary copy of %s: %v", point, f, temps)
			}
			writes++
			after(point, temps)
		}
	}
	return cold, writes
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
