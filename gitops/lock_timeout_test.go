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
