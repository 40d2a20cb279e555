package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestContextCachesConcurrentProcesses: context processes that read and
// save the caches of `context` (the task index, the term cache, the
// mentions of paths, the token counts) at once, while those files are
// replaced under them by truncated, corrupt and garbage copies, all print
// what a run without caches prints; afterwards the caches they leave serve
// the next runs with the same output and are not rewritten.
func TestContextCachesConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	env := procEnv(t)
	repo := writeLog(t, env, 300, 9)
	os.MkdirAll(filepath.Join(repo, "src", "pay"), 0o755)
	os.WriteFile(filepath.Join(repo, "src", "pay", "cache.go"), []byte("package pay\n"), 0o644)
	rec := filepath.Join(repo, "doc", "adr", recordName(5))
	text, _ := os.ReadFile(rec)
	os.WriteFile(rec, append(text, "\nThe cache lives in `src/pay/cache.go`.\n"...), 0o644)
	runGit(t, repo, env, "add", "-A")
	runGit(t, repo, env, "commit", "-qm", "source")
	cache := filepath.Join(repo, ".git", "adr", "cache")
	files := []string{"index.bin", "terms.bin", "mentions.bin", "tokens.bin"}
	argv := [][]string{{"context", "--task", "decision 42"}, {"context", "--json", "--task", "we decide 7 context"},
		{"context", "--file", "src/pay/cache.go"}, {"context", "--task", "decide", "--file", "src/pay/cache.go"}}
	key := func(a []string) string { return strings.Join(a, " ") }
	got := func(r result) string { return fmt.Sprintf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr) }
	want := map[string]string{}
	for _, a := range argv {
		os.RemoveAll(cache)
		want[key(a)] = got(runAdr(t, repo, env, a...))
	}
	if !strings.Contains(want[key(argv[2])], "names src/pay/") {
		t.Fatalf("--file finds no mention:\n%s", want[key(argv[2])])
	}
	os.RemoveAll(cache)
	for _, a := range argv {
		runAdr(t, repo, env, a...)
	}
	damaged := map[string][][]byte{}
	for _, f := range files {
		good, err := os.ReadFile(filepath.Join(cache, f))
		if err != nil {
			t.Fatalf("no %s after the runs: %v", f, err)
		}
		damaged[f] = damagedCopies(good)
	}
	os.RemoveAll(cache)
	stopVandal := vandalize(5*time.Millisecond, func(i int) (string, []byte) {
		f := files[i%len(files)]
		return filepath.Join(cache, f), damaged[f][(i/len(files))%len(damaged[f])]
	})
	for round := 0; round < 3; round++ {
		batch := append(append([][]string{}, argv...), argv...)
		for _, r := range parallel(t, repo, env, batch) {
			if g := got(r); g != want[key(r.args)] {
				t.Errorf("round %d, %s: output differs from a run without caches:\n%s", round, key(r.args), lineDiff(want[key(r.args)], g))
			}
		}
	}
	stopVandal()
	// Without the vandal: processes at once leave good caches.
	os.RemoveAll(cache)
	batch := append(append([][]string{}, argv...), argv...)
	for _, r := range parallel(t, repo, env, batch) {
		if g := got(r); g != want[key(r.args)] {
			t.Errorf("%s: output differs from a run without caches:\n%s", key(r.args), lineDiff(want[key(r.args)], g))
		}
	}
	for _, a := range argv {
		runAdr(t, repo, env, a...) // counts a lost race dropped
	}
	before := map[string][]byte{}
	for _, f := range files {
		before[f], _ = os.ReadFile(filepath.Join(cache, f))
	}
	for _, a := range argv {
		if g := got(runAdr(t, repo, env, a...)); g != want[key(a)] {
			t.Errorf("%s after the concurrent runs differs:\n%s", key(a), lineDiff(want[key(a)], g))
		}
	}
	for _, f := range files {
		if after, _ := os.ReadFile(filepath.Join(cache, f)); !bytes.Equal(before[f], after) {
			t.Errorf("%s was rewritten by runs over an unchanged log", f)
		}
	}
}

// TestContextCachesKilled: a cold task query, which writes the term cache
// and the task index while it makes its answer, killed with SIGKILL at
// each of its cache writes in turn, leaves every cache file whole or
// absent: the next query prints what a query without caches prints.
func TestContextCachesKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	env := procEnv(t)
	repo := writeLog(t, env, 120, 9)
	cache := filepath.Join(repo, ".git", "adr", "cache")
	args := []string{"context", "--json", "--task", "we decide 7 context"}
	got := func(r result) string { return fmt.Sprintf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr) }
	os.RemoveAll(cache)
	want := got(runAdr(t, repo, env, args...))
	killed := map[string]bool{}
	cold, writes := killAtEachCacheWrite(t, repo, env, cache, args, func(point string, temps []string) {
		killed[strings.TrimPrefix(point[:strings.LastIndexByte(point, ':')], "atomicfile-temp/")] = true
		if g := got(runAdr(t, repo, env, args...)); g != want {
			t.Errorf("after a kill at %s (%v): output differs from a run without caches:\n%s", point, temps, lineDiff(want, g))
		}
	})
	if g := got(cold); g != want {
		t.Errorf("a cold run: output differs:\n%s", lineDiff(want, g))
	}
	for _, f := range []string{"terms.bin", "index.bin"} {
		if !killed[f] {
			t.Errorf("none of the %d cache writes killed was %s's: %v", writes, f, killed)
		}
	}
}
