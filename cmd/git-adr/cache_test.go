package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// These tests drive real git-adr processes over the parse cache
// ($GIT_COMMON_DIR/adr/cache): every read command prints the same with an
// empty cache as with a warm one, on every shared corpus; a damaged cache
// changes nothing; processes reading and writing it at once agree.

// readCommands are the read commands compared cold and warm, for a log
// whose records include ids (first, middle, last) and a task drawn from a
// title.
func readCommands(ids []string, task string) [][]string {
	cmds := [][]string{
		{"list"}, {"list", "--json"}, {"list", "--archived"},
		{"context"}, {"context", "--json"},
		{"context", "--task", task}, {"context", "--task", task, "--json"},
		{"index", "--check"},
		{"check"}, {"check", "--json"},
		{"graph"}, {"graph", "--json"}, {"graph", "--format", "mermaid"},
		{"compaction"}, {"compaction", "--json"},
		{"roots"}, {"roots", "--json"},
		{"export", "json"},
		{"explain", "README.md"}, {"explain", "--json", "README.md"},
	}
	for _, id := range ids {
		cmds = append(cmds, []string{"show", id}, []string{"show", "--json", id},
			[]string{"context", id}, []string{"context", "--rationale", "--json", id},
			[]string{"log", id})
	}
	return cmds
}

// corpusRepo copies a corpus into a new repository and commits it.
func corpusRepo(t *testing.T, env []string, corpus string) string {
	t.Helper()
	repo := t.TempDir()
	// -R, not -a: the corpora are read-only, their copies must not be.
	if out, err := exec.Command("cp", "-R", corpus+"/.", repo).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	runGit(t, repo, env, "init", "-q")
	runGit(t, repo, env, "add", "-A")
	runGit(t, repo, env, "commit", "-qm", "corpus")
	return repo
}

// sampleIDs picks the first, middle and last record of `list --json`, a
// task made of a title's words, and every record's path.
func sampleIDs(t *testing.T, repo string, env []string) (ids []string, task string, paths []string) {
	t.Helper()
	r := runAdr(t, repo, env, "list", "--json")
	if r.code != 0 {
		t.Fatalf("list --json: exit %d\n%s", r.code, r.stderr)
	}
	var recs []struct{ ID, Title, Path string }
	if err := json.Unmarshal([]byte(r.stdout), &recs); err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 {
		t.Fatal("no record")
	}
	for _, i := range []int{0, len(recs) / 2, len(recs) - 1} {
		if len(ids) == 0 || ids[len(ids)-1] != recs[i].ID {
			ids = append(ids, recs[i].ID)
		}
	}
	for _, rec := range recs {
		paths = append(paths, rec.Path)
	}
	return ids, "change " + recs[len(recs)/2].Title, paths
}

// runAll runs every command; with cold, the parse cache is removed before
// each one. The INDEX that `git adr index` writes is included, then put
// back as committed.
func runAll(t *testing.T, repo string, env []string, cmds [][]string, cold bool) []string {
	t.Helper()
	cache := filepath.Join(repo, ".git", "adr", "cache")
	var out []string
	for _, c := range append(cmds, []string{"index"}) {
		if cold {
			if err := os.RemoveAll(cache); err != nil {
				t.Fatal(err)
			}
		}
		r := runAdr(t, repo, env, c...)
		out = append(out, fmt.Sprintf("$ git adr %s\nexit %d\n%s\n-- stderr --\n%s", strings.Join(c, " "), r.code, r.stdout, r.stderr))
	}
	out = append(out, runGit(t, repo, env, "status", "--porcelain"), runGit(t, repo, env, "diff"))
	runGit(t, repo, env, "checkout", "-q", "--", ".")
	runGit(t, repo, env, "clean", "-fdq")
	return out
}

// TestParseCacheColdWarm: on every shared corpus, each read command's
// (list, context, index --check, check, graph, compaction's analysis,
// roots, export, explain, show, log) output, errors and exit code are the same with the cache removed before
// every command, with a warm cache (records known by hash), and with a
// cache that serves every record by its stat data (nothing parsed,
// nothing read: the cache file is not even rewritten).
func TestParseCacheColdWarm(t *testing.T) {
	if testing.Short() {
		t.Skip("starts several hundred processes")
	}
	dir := corporaDir()
	if dir == "" {
		t.Skip("shared corpora not found (../shared/corpora or $GIT_ADR_CORPORA)")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	env := procEnv(t)
	repos := map[string]string{}
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(dir, e.Name(), "SOURCE.txt")); err == nil {
			repos[e.Name()] = corpusRepo(t, env, filepath.Join(dir, e.Name()))
		}
	}
	if len(repos) == 0 {
		t.Fatalf("no corpus (a folder with SOURCE.txt) in %s", dir)
	}
	// Files changed less than two seconds before a run get no stat entry
	// (racily clean); past that, a warm run records them.
	time.Sleep(2100 * time.Millisecond)
	for name, repo := range repos {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ids, task, paths := sampleIDs(t, repo, env)
			cmds := readCommands(ids, task)
			cold := runAll(t, repo, env, cmds, true)
			os.RemoveAll(filepath.Join(repo, ".git", "adr", "cache"))
			warm := runAll(t, repo, env, cmds, false)
			file := filepath.Join(repo, ".git", "adr", "cache", "parse.bin")
			before, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("no parse cache after the warm runs: %v", err)
			}
			// A stat entry names its file; a record holds no path.
			for _, p := range paths {
				if !bytes.Contains(before, []byte(p)) {
					t.Fatalf("no stat entry for %s after the warm runs", p)
				}
			}
			// The checkout after `index` rewrote INDEX.md only, which is
			// not a record: every record is now served by its stat data.
			byStat := runAll(t, repo, env, cmds, false)
			after, _ := os.ReadFile(file)
			for i := range cold {
				if warm[i] != cold[i] {
					t.Errorf("warm differs from cold:\n%s", lineDiff(cold[i], warm[i]))
				}
				if byStat[i] != cold[i] {
					t.Errorf("served by stat data differs from cold:\n%s", lineDiff(cold[i], byStat[i]))
				}
			}
			if !bytes.Equal(before, after) {
				t.Errorf("the parse cache was rewritten by runs over an unchanged log: something was parsed again")
			}
		})
	}
}

// lineDiff shows the command and the first differing line.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("%s\nline %d:\n  cold: %s\n  warm: %s", al[0], i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("%s\n%d lines vs %d", al[0], len(al), len(bl))
}

// TestParseCacheStatEdit: an edit that keeps a record's size and puts its
// modification time back (`touch -r`) is seen by the next command, both
// when the cache holds a stat entry for the file and when the edit comes
// within the same second as the file's last change.
func TestParseCacheStatEdit(t *testing.T) {
	env := procEnv(t)
	repo := writeLog(t, env, 20, 0)
	p := filepath.Join(repo, "doc", "adr", recordName(5))
	ref := filepath.Join(t.TempDir(), "ref")
	edit := func(from, to string) {
		t.Helper()
		old, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("touch", "-r", p, ref).CombinedOutput(); err != nil {
			t.Fatalf("touch: %v %s", err, out)
		}
		now := strings.Replace(string(old), from, to, 1)
		if len(now) != len(old) || now == string(old) {
			t.Fatalf("the edit %q -> %q must change the text and keep its size", from, to)
		}
		os.WriteFile(p, []byte(now), 0o644)
		if out, err := exec.Command("touch", "-r", ref, p).CombinedOutput(); err != nil {
			t.Fatalf("touch: %v %s", err, out)
		}
	}
	status := func() string {
		t.Helper()
		// list, not show: show parses the one record it prints.
		r := runAdr(t, repo, env, "list", "--json")
		var recs []struct {
			Number int
			Status string
		}
		if err := json.Unmarshal([]byte(r.stdout), &recs); err != nil {
			t.Fatalf("list --json: %v\n%s%s", err, r.stdout, r.stderr)
		}
		for _, rec := range recs {
			if rec.Number == 5 {
				return rec.Status
			}
		}
		t.Fatal("no record 5")
		return ""
	}
	// Same second: the log was written just now, the cache sees it, the
	// edit follows at once.
	runAdr(t, repo, env, "list")
	edit("Accepted", "Rejected")
	if s := status(); s != "rejected" {
		t.Fatalf("status %q after a same-second edit that kept size and mtime", s)
	}
	// Old enough to have stat entries: a warm cache holds one for record 5.
	time.Sleep(2100 * time.Millisecond)
	runAdr(t, repo, env, "list")
	runAdr(t, repo, env, "list")
	edit("Rejected", "Proposed")
	if s := status(); s != "proposed" {
		t.Fatalf("status %q after an edit that kept size and mtime, with the file's stat entry cached", s)
	}
}

// damagedCopies are the ways a cache file is found broken: cut in half,
// missing its last byte, replaced by another file, one byte flipped.
func damagedCopies(good []byte) [][]byte {
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/3] ^= 0xff
	return [][]byte{good[:len(good)/2], good[:len(good)-1], []byte("garbage"), flipped}
}

// vandalize writes, every interval, the i-th damaged file next names (in
// place, not renamed: a reader may see it half written) until the
// returned stop is called, which waits for it.
func vandalize(every time.Duration, next func(i int) (file string, data []byte)) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			case <-time.After(every):
			}
			file, data := next(i)
			os.MkdirAll(filepath.Dir(file), 0o755)
			os.WriteFile(file, data, 0o644)
		}
	}()
	return func() { close(done); wg.Wait() }
}

// TestParseCacheConcurrentProcesses: processes that read the log and save
// the cache at once, while the cache file is replaced under them by
// truncated, corrupt and foreign copies, all print what a run without
// cache prints, and leave a cache that a later run uses with the same
// result and no temporary file behind.
func TestParseCacheConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	env := procEnv(t)
	repo := writeLog(t, env, 300, 9)
	time.Sleep(2100 * time.Millisecond) // old enough for stat entries
	cache := filepath.Join(repo, ".git", "adr", "cache")
	file := filepath.Join(cache, "parse.bin")
	argv := [][]string{{"list", "--json"}, {"show", "--json", "7"}, {"check"}, {"context", "--task", "decision 42"}}
	want := map[string]string{}
	for _, a := range argv {
		os.RemoveAll(cache)
		r := runAdr(t, repo, env, a...)
		want[strings.Join(a, " ")] = fmt.Sprintf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	os.RemoveAll(cache)
	runAdr(t, repo, env, "list")
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	damaged := damagedCopies(good)
	os.RemoveAll(cache)
	stopVandal := vandalize(7*time.Millisecond, func(i int) (string, []byte) {
		return file, damaged[i%len(damaged)]
	})
	for round := 0; round < 4; round++ {
		var batch [][]string
		for i := 0; i < 3; i++ {
			batch = append(batch, argv...)
		}
		for _, r := range parallel(t, repo, env, batch) {
			k := strings.Join(r.args, " ")
			if got := fmt.Sprintf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr); got != want[k] {
				t.Errorf("round %d, %s: output differs from a run without cache:\n%s", round, k, lineDiff(want[k], got))
			}
		}
	}
	stopVandal()
	// Without the vandal: processes at once leave a good cache.
	os.RemoveAll(cache)
	var batch [][]string
	for i := 0; i < 4; i++ {
		batch = append(batch, argv...)
	}
	for _, r := range parallel(t, repo, env, batch) {
		k := strings.Join(r.args, " ")
		if got := fmt.Sprintf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr); got != want[k] {
			t.Errorf("%s: output differs from a run without cache:\n%s", k, lineDiff(want[k], got))
		}
	}
	runAdr(t, repo, env, "list") // records the stat entries a lost race dropped
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range argv {
		r := runAdr(t, repo, env, a...)
		if got := fmt.Sprintf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr); got != want[strings.Join(a, " ")] {
			t.Errorf("%s after the concurrent runs differs", strings.Join(a, " "))
		}
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
		t.Errorf("the cache the concurrent runs left was not used: it was rewritten")
	}
	if left, _ := filepath.Glob(filepath.Join(cache, ".parse-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
