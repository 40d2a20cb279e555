package gitops

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/git-adr/git-adr/internal/failpoint"
)

func openTestRepo(t *testing.T) *Repo {
	t.Helper()
	r, err := Open(newRepo(t, map[string]string{"x": "x\n"}))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestLockExcludes(t *testing.T) {
	dir := openTestRepo(t).Top
	if most, _ := lockers(t, dir, 8); most != 1 {
		t.Errorf("%d holders at once", most)
	}
	if _, err := os.Stat(filepath.Join(openTestRepo(t).AdrDir(), LockFile)); err == nil {
		t.Error("no lock file should remain in a fresh repository")
	}
}

// lockers has n goroutines take and release the lock of dir at once, each
// through its own Repo, and reports the most that held it at one time and
// how many took it over from a dead holder.
func lockers(t *testing.T, dir string, n int) (most, tookOver int32) {
	t.Helper()
	var inside, max, took atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := Open(dir)
			if err != nil {
				t.Error(err)
				return
			}
			l, err := r.Lock(LockOptions{Timeout: 20 * time.Second})
			if err != nil {
				t.Error(err)
				return
			}
			if l.TookOver != nil {
				took.Add(1)
			}
			n := inside.Add(1)
			if n > max.Load() {
				max.Store(n)
			}
			time.Sleep(5 * time.Millisecond)
			inside.Add(-1)
			if err := l.Release(); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	return max.Load(), took.Load()
}

func TestLockTimeoutAndRelease(t *testing.T) {
	r := openTestRepo(t)
	l, err := r.Lock(LockOptions{Command: "git adr new X"})
	if err != nil {
		t.Fatal(err)
	}
	r2, _ := Open(r.Top)
	start := time.Now()
	_, err = r2.Lock(LockOptions{Timeout: 100 * time.Millisecond})
	var le *LockError
	if !errors.As(err, &le) || le.Stale || le.Owner.Command != "git adr new X" || le.Owner.PID != os.Getpid() {
		t.Fatalf("second lock = %v", err)
	}
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("gave up after %s, before the timeout", d)
	}
	if !errors.Is(err, ErrLocked) {
		t.Errorf("LockError must wrap ErrLocked")
	}
	// Someone else's lock is never removed by our Release.
	path := l.Path()
	other := LockOwner{PID: os.Getpid(), Host: hostname(), Nonce: "someoneelse", Command: "x"}
	data, _ := json.Marshal(other)
	os.WriteFile(path, data, 0o644)
	l.Release()
	if _, err := os.Stat(path); err != nil {
		t.Error("Release removed a lock it does not hold")
	}
	os.Remove(path)
	if _, err := r2.Lock(LockOptions{}); err != nil {
		t.Errorf("after release: %v", err)
	}
}

// holdLock starts this test binary as a separate process that takes the
// project lock of dir and keeps it until it is killed (see
// TestLockHolderProcess); it returns once the lock is held.
func holdLock(t *testing.T, dir string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHolderProcess$")
	cmd.Env = append(os.Environ(), "GITOPS_LOCK_HOLDER="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	// The holder blocks reading this pipe, which stays open until the
	// test ends: a holder blocked on nothing else (select {}) is killed by
	// the runtime's "all goroutines are asleep" check at once, letting go
	// of its flock, and a loaded machine then saw a dead holder where the
	// test meant a live one.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close() })
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "held\n" {
		t.Fatalf("the holder said %q: %v", line, err)
	}
	return cmd
}

// heldLock is the lock TestLockHolderProcess keeps until it is killed.
var heldLock *Lock

// TestLockHolderProcess is the process holdLock starts.
func TestLockHolderProcess(t *testing.T) {
	dir := os.Getenv("GITOPS_LOCK_HOLDER")
	if dir == "" {
		t.Skip("run by holdLock")
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	l, err := r.Lock(LockOptions{Command: "git adr renumber 7"})
	if err != nil {
		t.Fatal(err)
	}
	// heldLock keeps l reachable: a Lock nobody refers to is collected,
	// its file's finalizer closes the descriptor and the flock goes with
	// it, so the holder would look dead while it runs.
	// Two collections here run that finalizer at once were l unreachable.
	heldLock = l
	runtime.GC()
	runtime.GC()
	os.Stdout.WriteString("held\n")
	io.Copy(io.Discard, os.Stdin) // until the test closes the pipe
	os.Exit(0)
}

// TestLockTakesOverADeadHolder: a holder killed with SIGKILL (no deferred
// function, no signal handler) leaves its lock file; the next Lock takes
// it over at once, without a person, and names the dead owner. While the
// holder ran, nothing took its lock, not even BreakLock with force.
func TestLockTakesOverADeadHolder(t *testing.T) {
	if !canFlock || bootID() == "" {
		t.Skip("no flock or boot ID on this platform: a dead holder is cleared by a person")
	}
	r := openTestRepo(t)
	holder := holdLock(t, r.Top)
	_, err := r.Lock(LockOptions{Timeout: 50 * time.Millisecond})
	var le *LockError
	if !errors.As(err, &le) || le.Stale || le.Unverifiable || le.Owner.PID != holder.Process.Pid {
		t.Fatalf("lock while the holder runs = %v", err)
	}
	if _, ok, err := r.BreakLock(true); ok || err == nil {
		t.Fatalf("broke a live lock with force: %v", err)
	}
	if o, st, ok := r.LockHolder(); !ok || st != HolderLive || o.PID != holder.Process.Pid {
		t.Fatalf("holder = %+v %v %v", o, st, ok)
	}
	holder.Process.Signal(syscall.SIGKILL)
	holder.Wait()
	if _, st, ok := r.LockHolder(); !ok || st != HolderDead {
		t.Fatalf("after SIGKILL the holder is %v %v", st, ok)
	}
	start := time.Now()
	l, err := r.Lock(LockOptions{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("lock over a dead holder: %v", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Error("a dead holder must be taken over at once, not waited for")
	}
	if l.TookOver == nil || l.TookOver.PID != holder.Process.Pid || l.TookOver.Command != "git adr renumber 7" {
		t.Errorf("TookOver = %+v", l.TookOver)
	}
	if o, st, ok := r.LockHolder(); !ok || st != HolderLive || o.PID != os.Getpid() {
		t.Errorf("after the takeover the holder is %+v %v", o, st)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(l.Path()); err == nil {
		t.Error("the lock remains after release")
	}
}

// TestLockTakeoverRace: many processes' worth of lockers find the same
// dead lock at once; exactly one takes it over, and they still hold the
// lock one at a time.
func TestLockTakeoverRace(t *testing.T) {
	if !canFlock || bootID() == "" {
		t.Skip("no flock or boot ID on this platform")
	}
	r := openTestRepo(t)
	holder := holdLock(t, r.Top)
	holder.Process.Signal(syscall.SIGKILL)
	holder.Wait()
	if most, tookOver := lockers(t, r.Top, 8); most != 1 || tookOver != 1 {
		t.Errorf("%d holders at once, %d takeovers", most, tookOver)
	}
}

// TestLockUnknownHolders: a lock recorded under another boot ID (another
// machine sharing the repository, or this one before a restart), or by a
// git-adr that recorded none, is never presumed dead, however its PID
// looks here: it is waited for, and only BreakLock with force removes it.
func TestLockUnknownHolders(t *testing.T) {
	r := openTestRepo(t)
	path := filepath.Join(r.AdrDir(), LockFile)
	os.MkdirAll(r.AdrDir(), 0o755)
	// A PID that has exited here: a child we started and waited for.
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	exited := cmd.Process.Pid
	for name, o := range map[string]LockOwner{
		"another boot": {PID: exited, Host: hostname(), Boot: "00000000-0000-0000-0000-000000000000", Flock: true, Nonce: "far", Command: "git adr renumber 7", Since: time.Now()},
		"no boot ID":   {PID: exited, Host: hostname(), Nonce: "old", Command: "git adr renumber 7", Since: time.Now()},
	} {
		data, _ := json.Marshal(o)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := r.Lock(LockOptions{Timeout: 50 * time.Millisecond})
		var le *LockError
		if !errors.As(err, &le) || !le.Unverifiable || le.Stale || le.Owner.Nonce != o.Nonce {
			t.Errorf("%s: lock = %v", name, err)
		}
		if _, ok, err := r.BreakLock(false); ok || !errors.As(err, &le) || !le.Unverifiable {
			t.Errorf("%s: broke it without force: %v", name, err)
		}
		if _, ok, err := r.BreakLock(true); !ok || err != nil {
			t.Errorf("%s: force: %v %v", name, ok, err)
		}
	}
	os.WriteFile(path, []byte("garbage"), 0o644)
	var le *LockError
	if _, err := r.Lock(LockOptions{}); !errors.As(err, &le) || !le.Unreadable {
		t.Errorf("an unreadable lock = %v", err)
	}
}

// TestGitRunsInTheCLocale: git's messages are parsed, so every git
// process runs with LC_ALL=C and without LANGUAGE, whatever the user set.
func TestGitRunsInTheCLocale(t *testing.T) {
	r := openTestRepo(t)
	t.Setenv("LANGUAGE", "de")
	t.Setenv("LC_ALL", "de_DE.UTF-8")
	t.Setenv("LC_MESSAGES", "de_DE.UTF-8")
	out, err := r.Git("-c", "alias.envdump=!env", "envdump")
	if err != nil {
		t.Fatal(err)
	}
	env := "\n" + string(out)
	if !strings.Contains(env, "\nLC_ALL=C\n") || strings.Contains(env, "\nLANGUAGE=") || strings.Contains(env, "\nLC_MESSAGES=") {
		t.Errorf("git ran with:\n%s", out)
	}
}

// TestLockReleasedThenExited: an owner that releases the lock and exits
// between a waiter's look at the lock file and its check of the owner
// left no stale lock; the waiter takes the lock. The failpoint puts the
// release exactly there (found by TestProposeRace under load).
func TestLockReleasedThenExited(t *testing.T) {
	r := openTestRepo(t)
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	gone := LockOwner{PID: cmd.Process.Pid, Host: hostname(), Nonce: "gone", Command: "git adr propose X", Since: time.Now()}
	path := filepath.Join(r.AdrDir(), LockFile)
	os.MkdirAll(r.AdrDir(), 0o755)
	data, _ := json.Marshal(gone)
	os.WriteFile(path, data, 0o644)
	released := false
	failpoint.Set(func(name string) {
		if name == "lock-owner-read" && !released {
			released = true
			os.Remove(path) // the owner lets go, then exits
		}
	})
	defer failpoint.Set(func(string) {})
	l, err := r.Lock(LockOptions{})
	if err != nil {
		t.Fatalf("a lock released before its owner exited was reported: %v", err)
	}
	l.Release()
}

// A lock at a path of its own (a workspace file's) excludes as the
// project lock does, and is gone once released.
func TestLockFileAt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws.toml.lock")
	l, err := LockFileAt(path, LockOptions{Command: "git adr workspace add a"})
	if err != nil {
		t.Fatal(err)
	}
	var le *LockError
	if _, err := LockFileAt(path, LockOptions{}); !errors.As(err, &le) || le.Owner.Command != "git adr workspace add a" {
		t.Fatalf("second lock = %v", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("lock left after release: %v", err)
	}
	l2, err := LockFileAt(path, LockOptions{})
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	l2.Release()
}
