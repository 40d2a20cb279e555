package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/git-adr/git-adr/adr"
)

// These tests start real git-adr processes (the test binary, put on PATH
// by testscript.Main) against real git repositories: many at once on one
// repository, and killed with SIGKILL at chosen points of a write.

// procEnv is a hermetic environment like the scenarios' (setupScript).
func procEnv(t *testing.T) []string {
	t.Helper()
	home := t.TempDir()
	cfg := filepath.Join(home, ".gitconfig")
	os.WriteFile(cfg, []byte("[user]\n\tname = Ada Lovelace\n\temail = ada@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n"), 0o644)
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+cfg, "GIT_CEILING_DIRECTORIES="+filepath.Dir(home), "TZ=UTC", "NO_COLOR=1",
		"ADR_DATE=2026-01-15", "VISUAL=", "EDITOR=")
}

type result struct {
	args           []string
	stdout, stderr string
	code           int
	killed         bool
}

func runAdr(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command("git-adr", args...)
	cmd.Dir, cmd.Env = dir, env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{args: args, stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
		r.killed = r.code == -1
	case err != nil:
		t.Fatalf("git-adr %q: %v", args, err)
	}
	return r
}

func runGit(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %q: %v\n%s", args, err, out)
	}
	return string(out)
}

// copyDir copies a directory (a repository, modes and all) to a new
// temporary one.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-a", src+"/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	return dir
}

func slug(i int) string { return fmt.Sprintf("decision-%d", i) }

func recordName(i int) string { return fmt.Sprintf("%04d-%s.md", i, slug(i)) }

// writeLog creates a committed adr-tools log of n records; every record
// that links%k == 0 relates to record 7 (so renumbering 7 rewrites them),
// and record 10 is proposed.
func writeLog(t *testing.T, env []string, n, links int) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "doc/adr"), 0o755)
	for i := 1; i <= n; i++ {
		status := "Accepted"
		if i == 10 {
			status = "Proposed"
		}
		var b strings.Builder
		fmt.Fprintf(&b, "# %d. Decision %d\n\nDate: 2026-01-01\n\n## Status\n\n%s\n", i, i, status)
		if links > 0 && i != 7 && i%links == 0 {
			fmt.Fprintf(&b, "\nRelates to [7. Decision 7](%s)\n", recordName(7))
		}
		fmt.Fprintf(&b, "\n## Context\n\nContext of decision %d.\n\n## Decision\n\nWe decide %d.\n\n## Consequences\n\nNone.\n", i, i)
		os.WriteFile(filepath.Join(dir, "doc/adr", recordName(i)), []byte(b.String()), 0o644)
	}
	runGit(t, dir, env, "init", "-q")
	runGit(t, dir, env, "add", "-A")
	runGit(t, dir, env, "commit", "-qm", "log")
	return dir
}

// parallel runs one git-adr per argument list, all at once.
func parallel(t *testing.T, dir string, env []string, argv [][]string) []result {
	t.Helper()
	out := make([]result, len(argv))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, a := range argv {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i] = runAdr(t, dir, env, a...)
		}()
	}
	close(start)
	wg.Wait()
	return out
}

// checkOutcome: every process either succeeded or failed with exit 4 and
// a git-adr error; it returns the successes.
func checkOutcome(t *testing.T, rs []result) []result {
	t.Helper()
	var ok []result
	for _, r := range rs {
		switch {
		case r.code == 0:
			ok = append(ok, r)
		case r.code == ExitConflict && strings.HasPrefix(r.stderr, "git-adr: error: "):
		default:
			t.Errorf("git adr %q: exit %d\nstdout: %s\nstderr: %s", r.args, r.code, r.stdout, r.stderr)
		}
	}
	if len(ok) == 0 {
		t.Fatalf("no process succeeded")
	}
	return ok
}

func readRecord(t *testing.T, dir string, i int) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "doc/adr", recordName(i)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestConcurrentWriters(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	for _, n := range []int{8, 32} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			env := procEnv(t)
			dir := writeLog(t, env, n+2, 0)

			// new: every number distinct, every reported record on disk.
			var argv [][]string
			for i := range n {
				argv = append(argv, []string{"new", "--no-edit", fmt.Sprintf("Concurrent decision %d", i)})
			}
			ok := checkOutcome(t, parallel(t, dir, env, argv))
			seen := map[string]string{}
			for _, r := range ok {
				p := strings.TrimSpace(r.stdout)
				num := filepath.Base(p)[:4]
				if prev, dup := seen[num]; dup {
					t.Errorf("number %s given twice: %s and %s", num, prev, p)
				}
				seen[num] = p
				if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
					t.Errorf("reported %s, not on disk: %v", p, err)
				}
			}
			entries, _ := os.ReadDir(filepath.Join(dir, "doc/adr"))
			if len(entries) != n+2+len(ok) {
				t.Errorf("%d files in doc/adr, want %d", len(entries), n+2+len(ok))
			}

			// link: every link a process reported is in both records.
			argv = nil
			for k := 2; k <= n+1; k++ {
				argv = append(argv, []string{"link", "1", "Relates to", fmt.Sprint(k), "Relates to"})
			}
			ok = checkOutcome(t, parallel(t, dir, env, argv))
			one := readRecord(t, dir, 1)
			for _, r := range ok {
				k := 0
				fmt.Sscan(r.args[3], &k)
				if !strings.Contains(one, "Relates to [") || !strings.Contains(one, "("+recordName(k)+")") {
					t.Errorf("record 1 lost the link to %d it reported:\n%s", k, one)
				}
				if !strings.Contains(readRecord(t, dir, k), "("+recordName(1)+")") {
					t.Errorf("record %d lost the link back to 1", k)
				}
			}

			// decide: exactly one process saw record 10 proposed, and the
			// file ends in the last transition's status.
			argv = nil
			for i := range n {
				d := "accept"
				if i%2 == 1 {
					d = "reject"
				}
				argv = append(argv, []string{"decide", "10", d})
			}
			var fromProposed int
			var tos []string
			for _, r := range parallel(t, dir, env, argv) {
				if r.code != 0 {
					continue
				}
				if m := regexp.MustCompile(`: (\w+) -> (\w+)`).FindStringSubmatch(r.stdout); m != nil {
					if m[1] == "proposed" {
						fromProposed++
					}
					tos = append(tos, m[2])
				}
			}
			if fromProposed != 1 {
				t.Errorf("%d processes saw record 10 proposed, want exactly 1", fromProposed)
			}
			ten := readRecord(t, dir, 10)
			final := "unknown"
			for _, s := range []string{"Accepted", "Rejected"} {
				if strings.Contains(ten, "\n"+s+"\n") {
					final = strings.ToLower(s)
				}
			}
			if len(tos) == 0 || !contains(tos, final) {
				t.Errorf("record 10 ends %s; transitions printed: %q", final, tos)
			}

			// new -s: every successor a process reported is linked from 1.
			argv = nil
			for i := range n {
				argv = append(argv, []string{"new", "--no-edit", "-s", "2", fmt.Sprintf("Successor %d", i)})
			}
			ok = checkOutcome(t, parallel(t, dir, env, argv))
			two := readRecord(t, dir, 2)
			for _, r := range ok {
				name := filepath.Base(strings.TrimSpace(r.stdout))
				if !strings.Contains(two, "("+name+")") {
					t.Errorf("record 2 lost the Superseded by line for %s:\n%s", name, two)
				}
			}
			assertNoLeftovers(t, dir)
		})
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// assertNoLeftovers: no lock, no journal, no temporary file.
func assertNoLeftovers(t *testing.T, dir string) {
	t.Helper()
	for _, p := range []string{".git/adr/lock", ".git/adr/journal"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			if p == ".git/adr/journal" && !adr.HasJournals(filepath.Join(dir, p)) {
				continue
			}
			t.Errorf("%s left behind", p)
		}
	}
	filepath.WalkDir(filepath.Join(dir, "doc"), func(p string, d os.DirEntry, err error) error {
		if err == nil && adr.IsTempName(d.Name()) {
			t.Errorf("temporary file left behind: %s", p)
		}
		return nil
	})
}

// TestLockWaitGivesUp: a writer that cannot get the lock in time exits 4,
// says who holds it, and writes nothing; recover never breaks a live
// lock, even with --break-lock.
func TestLockWaitGivesUp(t *testing.T) {
	env := procEnv(t)
	dir := writeLog(t, env, 3, 0)
	// A live holder: a git-adr paused under the lock (GIT_ADR_PAUSE_AT).
	release := filepath.Join(dir, ".git", "release")
	holder := exec.Command("git-adr", "new", "--no-edit", "Holder")
	holder.Dir, holder.Env = dir, append(env, "GIT_ADR_PAUSE_AT=lock-taken:1:"+release)
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { holder.Process.Kill(); holder.Wait() }()
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(release + ".reached"); err == nil {
			break
		}
		if time.Since(start) > time.Minute {
			t.Fatal("the holder never took the lock")
		}
	}
	start := time.Now()
	r := runAdr(t, dir, append(env, "GIT_ADR_LOCK_TIMEOUT=300ms"), "new", "--no-edit", "Blocked")
	if r.code != ExitConflict || !strings.Contains(r.stderr, fmt.Sprintf("another git-adr is writing to this repository (pid %d", holder.Process.Pid)) ||
		!strings.Contains(r.stderr, `"git adr new --no-edit Holder"`) || !strings.Contains(r.stderr, "gave up after 300ms") {
		t.Errorf("exit %d\n%s", r.code, r.stderr)
	}
	if time.Since(start) < 300*time.Millisecond {
		t.Errorf("did not wait")
	}
	if _, err := os.Stat(filepath.Join(dir, "doc/adr/0004-blocked.md")); err == nil {
		t.Error("a writer without the lock wrote")
	}
	// recover never breaks a live lock.
	if r := runAdr(t, dir, env, "recover", "--break-lock"); r.code != ExitConflict {
		t.Errorf("recover --break-lock over a live lock: exit %d %s", r.code, r.stderr)
	}
	os.WriteFile(release, nil, 0o644)
	if err := holder.Wait(); err != nil {
		t.Errorf("the holder: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "doc/adr/0004-holder.md")); err != nil {
		t.Errorf("the holder's record: %v", err)
	}
}

// TestKillRenumber kills `git adr renumber` with SIGKILL at a point chosen
// by a seeded random source, on a 2,000-record log where 500 records link
// to the renumbered one, then edits a file the change still had to write.
// Reads warn, writes refuse, recovery never loses the edit, and --keep
// finishes everything else.
func TestKillRenumber(t *testing.T) {
	if testing.Short() {
		t.Skip("a 2,000-record log")
	}
	env := procEnv(t)
	base := writeLog(t, env, 2000, 4)
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 0))
			dir := copyDir(t, base)
			steps := 1 + 2000/4 // the rename and every inbound link
			point := "changeset-step:" + fmt.Sprint(1+rng.IntN(steps-1))
			if rng.IntN(4) == 0 {
				point = "changeset-journal:1"
			}
			r := runAdr(t, dir, append(env, "GIT_ADR_KILL_AT="+point), "renumber", "7", "--to", "2500")
			if !r.killed {
				t.Fatalf("renumber was not killed at %s: exit %d %s", point, r.code, r.stderr)
			}
			pending, err := adr.PendingJournals(dir, filepath.Join(dir, ".git/adr/journal"))
			if err != nil || len(pending) != 1 {
				t.Fatalf("pending = %v, %v", pending, err)
			}
			// A file the change still has to write, chosen by the seed.
			var todo []string
			for i, s := range pending[0].Journal.Steps {
				if pending[0].Steps[i].Conflict == "" && pendingStep(dir, s) {
					todo = append(todo, s.Path)
				}
			}
			if len(todo) == 0 {
				t.Fatalf("killed at %s with nothing left to do", point)
			}
			sort.Strings(todo)
			victim := todo[rng.IntN(len(todo))]
			if strings.HasSuffix(victim, "2500-decision-7.md") {
				victim = todo[0]
			}
			edit := filepath.Join(dir, victim)
			data, err := os.ReadFile(edit)
			if err != nil {
				t.Fatal(err)
			}
			mine := append(data, []byte("\nA hand edit made after the crash.\n")...)
			os.WriteFile(edit, mine, 0o644)

			read := runAdr(t, dir, env, "list")
			if read.code != 0 || !strings.Contains(read.stderr, "warning: a change to this work tree was interrupted") {
				t.Errorf("list after the crash: exit %d\n%s", read.code, read.stderr)
			}
			check := runAdr(t, dir, env, "check")
			if !strings.HasPrefix(check.stdout, "pending-change") && !strings.Contains(strings.SplitN(check.stdout, "\n", 2)[0], "interrupted") {
				t.Errorf("check must name the pending change first:\n%s", firstLines(check.stdout, 3))
			}
			// The next write takes the dead run's lock over by itself, but
			// stops at the change it cannot finish over the edit.
			write := runAdr(t, dir, env, "new", "--no-edit", "After the crash")
			if write.code != ExitFailure || !strings.Contains(write.stderr, "took over the lock") || !strings.Contains(write.stderr, "cannot be finished safely") ||
				!strings.Contains(write.stderr, "git adr recover") || strings.Contains(write.stdout, "after-the-crash") {
				t.Errorf("a write after the crash: exit %d\n%s%s", write.code, write.stdout, write.stderr)
			}
			rec := runAdr(t, dir, env, "recover")
			if rec.code != ExitFailure || !strings.Contains(rec.stderr, victim) || !strings.Contains(rec.stderr, "--keep") {
				t.Errorf("recover with an edit in the way: exit %d\n%s%s", rec.code, rec.stdout, rec.stderr)
			}
			if got, _ := os.ReadFile(edit); !bytes.Equal(got, mine) {
				t.Fatalf("recovery overwrote the edit of %s", victim)
			}
			keep := runAdr(t, dir, env, "recover", "--keep")
			if keep.code != 0 || !strings.Contains(keep.stdout, "kept your version of "+victim) {
				t.Fatalf("recover --keep: exit %d\n%s%s", keep.code, keep.stdout, keep.stderr)
			}
			if got, _ := os.ReadFile(edit); !bytes.Equal(got, mine) {
				t.Fatalf("recover --keep lost the edit of %s", victim)
			}
			// Everything else is finished: the record moved, and every
			// other inbound link names its new file.
			if _, err := os.Stat(filepath.Join(dir, "doc/adr/2500-decision-7.md")); err != nil {
				t.Errorf("the renamed record: %v", err)
			}
			if _, err := os.Stat(filepath.Join(dir, "doc/adr", recordName(7))); err == nil {
				t.Errorf("the old file of record 7 remains")
			}
			for i := 4; i <= 2000; i += 4 {
				p := "doc/adr/" + recordName(i)
				if p == victim {
					continue
				}
				if s := readRecord(t, dir, i); !strings.Contains(s, "(2500-decision-7.md)") {
					t.Fatalf("%s was not finished:\n%s", p, s)
				}
			}
			assertNoLeftovers(t, dir)
			if r := runAdr(t, dir, env, "new", "--no-edit", "After recovery"); r.code != 0 {
				t.Errorf("a write after recovery: exit %d %s", r.code, r.stderr)
			}
		})
	}
}

// pendingStep reports whether a journal step's file still holds what the
// change read (it is yet to be written).
func pendingStep(dir string, s adr.JournalStep) bool {
	p := s.Path
	if s.From != "" {
		p = s.From
	}
	data, err := os.ReadFile(filepath.Join(dir, p))
	if err != nil {
		return false
	}
	return adr.ContentHash(data) == s.Old && (s.From == "" || !exists(filepath.Join(dir, s.Path)))
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// TestKillConfirm kills `git adr compaction --confirm` with SIGKILL at
// every point of a publication (commit object made; branch moved; work
// tree journal recorded; first file written; plan recorded), with
// unrelated work in the tree. The next confirmation (after `git adr
// recover` clears the stale lock) finishes it: exactly one publication
// commit, the work tree and index at HEAD for the published files, the
// unrelated work untouched, no candidate ref left.
func TestKillConfirm(t *testing.T) {
	if testing.Short() {
		t.Skip("drafts and publishes")
	}
	env := procEnv(t)
	base := writeLog(t, env, 5, 0)
	os.WriteFile(filepath.Join(base, ".adr.toml"), []byte("[drafter]\ndefault = \"command\"\n"), 0o644)
	runGit(t, base, env, "config", "adr.drafter.command", "fake-drafter")
	os.WriteFile(filepath.Join(base, "notes.txt"), []byte("notes\n"), 0o644)
	runGit(t, base, env, "add", "-A")
	runGit(t, base, env, "commit", "-qm", "config")
	if r := runAdr(t, base, env, "compaction", "--mode", "summary", "--yes"); r.code != ExitAwaiting {
		t.Fatalf("drafting: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	plan := strings.TrimSpace(runGit(t, base, env, "for-each-ref", "--format=%(refname:lstrip=3)", "refs/adr/plans"))
	confirm := []string{"compaction", "--confirm", plan + "@2"}
	for _, point := range []string{"publish-commit:1", "publish-ref:1", "changeset-journal:1", "changeset-step:1", "changeset-step:2", "publish-saved:1"} {
		t.Run(point, func(t *testing.T) {
			dir := copyDir(t, base)
			before := strings.TrimSpace(runGit(t, dir, env, "rev-parse", "HEAD"))
			r := runAdr(t, dir, append(env, "GIT_ADR_KILL_AT="+point), confirm...)
			if !r.killed {
				t.Fatalf("confirm was not killed at %s: exit %d\n%s%s", point, r.code, r.stdout, r.stderr)
			}
			// The person goes on working meanwhile.
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("notes, edited after the crash\n"), 0o644)
			if r := runAdr(t, dir, env, "recover"); r.code != 0 {
				t.Fatalf("recover: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if r := runAdr(t, dir, env, confirm...); r.code != 0 {
				t.Fatalf("confirm again: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			log := runGit(t, dir, env, "log", "--format=%H %s", before+"..HEAD")
			if n := strings.Count(log, "\n"); n != 1 || !strings.Contains(log, "Publish the CURRENT view from plan "+plan) {
				t.Fatalf("want exactly one publication commit after %s, got:\n%s", before, log)
			}
			if got := runGit(t, dir, env, "status", "--porcelain"); got != " M notes.txt\n" {
				t.Errorf("status after finishing:\n%s", got)
			}
			if data, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(data) != "notes, edited after the crash\n" {
				t.Errorf("the unrelated edit was lost: %q", data)
			}
			if refs := runGit(t, dir, env, "for-each-ref", "refs/adr/candidates"); refs != "" {
				t.Errorf("candidate ref left: %s", refs)
			}
			again := runAdr(t, dir, env, confirm...)
			if again.code != 0 || !strings.Contains(again.stdout, "already published") {
				t.Errorf("a third confirmation: exit %d\n%s%s", again.code, again.stdout, again.stderr)
			}
			assertNoLeftovers(t, dir)
		})
	}
}
