package gitops

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
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
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := Open(dir)
			if err != nil {
				t.Error(err)
				return
			}
			l, err := r.Lock(LockOptions{Timeout: 10 * time.Second})
			if err != nil {
				t.Error(err)
				return
			}
			n := inside.Add(1)
			if n > most.Load() {
				most.Store(n)
			}
			time.Sleep(5 * time.Millisecond)
			inside.Add(-1)
			if err := l.Release(); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Errorf("%d holders at once", most.Load())
	}
	if _, err := os.Stat(filepath.Join(openTestRepo(t).AdrDir(), LockFile)); err == nil {
		t.Error("no lock file should remain in a fresh repository")
	}
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

func TestLockStale(t *testing.T) {
	r := openTestRepo(t)
	// A PID that has exited: a child we started and waited for.
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	dead := LockOwner{PID: cmd.Process.Pid, Host: hostname(), Nonce: "dead", Command: "git adr renumber 7", Since: time.Now()}
	path := filepath.Join(r.AdrDir(), LockFile)
	os.MkdirAll(r.AdrDir(), 0o755)
	data, _ := json.Marshal(dead)
	os.WriteFile(path, data, 0o644)
	start := time.Now()
	_, err := r.Lock(LockOptions{Timeout: 5 * time.Second})
	var le *LockError
	if !errors.As(err, &le) || !le.Stale || le.Owner.Command != "git adr renumber 7" {
		t.Fatalf("lock over a dead owner = %v", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Error("a stale lock must be reported at once, not waited for")
	}
	// Another host's lock is never presumed dead.
	far := dead
	far.Host = "elsewhere.example"
	data, _ = json.Marshal(far)
	os.WriteFile(path, data, 0o644)
	if _, ok, err := r.BreakLock(false); ok || err == nil {
		t.Errorf("broke another host's lock without force: %v", err)
	}
	if _, ok, err := r.BreakLock(true); !ok || err != nil {
		t.Errorf("force: %v %v", ok, err)
	}
	// A live owner on this host is never broken, even with force.
	live := LockOwner{PID: os.Getpid() + 0, Host: hostname(), Nonce: "live"}
	sleeper := exec.Command("sleep", "5")
	if err := sleeper.Start(); err == nil {
		defer sleeper.Process.Kill()
		live.PID = sleeper.Process.Pid
		live.Start = processStart(live.PID)
		data, _ = json.Marshal(live)
		os.WriteFile(path, data, 0o644)
		if _, ok, err := r.BreakLock(true); ok || err == nil {
			t.Errorf("broke a live lock: %v", err)
		}
		if o, ok := r.LockHolder(); !ok || o.Exited() {
			t.Errorf("holder = %+v %v", o, ok)
		}
	}
	os.WriteFile(path, []byte("garbage"), 0o644)
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
