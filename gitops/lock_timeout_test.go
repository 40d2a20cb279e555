package gitops

import (
	"errors"
	"os/exec"
	"testing"
	"time"
)

func TestLockTimeout(t *testing.T) {
	r := openTestRepo(t)
	t.Setenv("GIT_ADR_LOCK_TIMEOUT", "")
	if d, err := r.LockTimeout(); err != nil || d != DefaultLockTimeout {
		t.Fatalf("unset = %v, %v; want %v", d, err, DefaultLockTimeout)
	}
	if out, err := exec.Command("git", "-C", r.Top, "config", "adr.lockTimeout", "2.5").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if d, err := r.LockTimeout(); err != nil || d != 2500*time.Millisecond {
		t.Errorf("git config 2.5 = %v, %v; want 2.5s", d, err)
	}
	t.Setenv("GIT_ADR_LOCK_TIMEOUT", "30s")
	if d, err := r.LockTimeout(); err != nil || d != 30*time.Second {
		t.Errorf("environment 30s over git config = %v, %v", d, err)
	}
	for v, want := range map[string]string{
		"soon": `GIT_ADR_LOCK_TIMEOUT "soon" is not a duration such as "30s"`,
		"11m":  `GIT_ADR_LOCK_TIMEOUT "11m" is out of range: 0 to 10m0s`,
		"-1":   `GIT_ADR_LOCK_TIMEOUT "-1" is out of range: 0 to 10m0s`,
	} {
		t.Setenv("GIT_ADR_LOCK_TIMEOUT", v)
		_, err := r.LockTimeout()
		var te *LockTimeoutError
		if !errors.As(err, &te) || te.Msg != want {
			t.Errorf("%q: %v, want %q", v, err, want)
		}
	}
}

func TestLockWaiting(t *testing.T) {
	r := openTestRepo(t)
	held, err := r.Lock(LockOptions{Command: "first"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := Open(r.Top)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_ADR_LOCK_TIMEOUT", "soon")
	var te *LockTimeoutError
	if _, err := other.LockWaiting("second"); !errors.As(err, &te) {
		t.Errorf("a held lock with an unusable timeout = %v, want a LockTimeoutError", err)
	}
	t.Setenv("GIT_ADR_LOCK_TIMEOUT", "200ms")
	start := time.Now()
	var le *LockError
	if _, err := other.LockWaiting("second"); !errors.As(err, &le) || time.Since(start) < 150*time.Millisecond {
		t.Errorf("a held lock = %v after %v, want a LockError after waiting", err, time.Since(start))
	}
	held.Release()
	l, err := other.LockWaiting("second")
	if err != nil {
		t.Fatalf("a free lock = %v", err)
	}
	l.Release()
}
