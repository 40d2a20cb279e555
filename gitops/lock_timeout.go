package gitops

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"
)

// DefaultLockTimeout is how long a writer waits for another to finish.
const DefaultLockTimeout = 10 * time.Second

// MaxLockTimeout bounds adr.lockTimeout and GIT_ADR_LOCK_TIMEOUT.
const MaxLockTimeout = 10 * time.Minute

// LockTimeoutError is a lock timeout setting that cannot be used: Msg
// names the setting and its value.
type LockTimeoutError struct{ Msg string }

func (e *LockTimeoutError) Error() string { return e.Msg }

// LockTimeout is how long a writer waits for the project lock:
// GIT_ADR_LOCK_TIMEOUT, else git config adr.lockTimeout, else
// [DefaultLockTimeout]; a Go duration ("30s") or a number of seconds, from
// 0 to [MaxLockTimeout] (a *LockTimeoutError otherwise).
func (r *Repo) LockTimeout() (time.Duration, error) {
	v, from := os.Getenv("GIT_ADR_LOCK_TIMEOUT"), "GIT_ADR_LOCK_TIMEOUT"
	if v == "" {
		c, err := r.Config("adr.lockTimeout")
		if err != nil && !errors.Is(err, ErrNotFound) {
			return 0, err
		}
		v, from = c, "git config adr.lockTimeout"
	}
	if v == "" {
		return DefaultLockTimeout, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		n, nerr := strconv.ParseFloat(v, 64)
		if nerr != nil {
			return 0, &LockTimeoutError{Msg: fmt.Sprintf("%s %q is not a duration such as \"30s\"", from, v)}
		}
		d = time.Duration(n * float64(time.Second))
	}
	if d < 0 || d > MaxLockTimeout {
		return 0, &LockTimeoutError{Msg: fmt.Sprintf("%s %q is out of range: 0 to %s", from, v, MaxLockTimeout)}
	}
	return d, nil
}

// LockWaiting takes the project lock for command, waiting up to
// [Repo.LockTimeout] while a live writer holds it; a stale or unreadable
// lock is not waited for (its *LockError is returned at once), nor is one
// when the timeout setting cannot be used (its *LockTimeoutError).
func (r *Repo) LockWaiting(command string) (*Lock, error) {
	l, err := r.Lock(LockOptions{Command: command})
	var le *LockError
	if errors.As(err, &le) && !le.Stale && !le.Unreadable {
		timeout, terr := r.LockTimeout()
		if terr != nil {
			return nil, terr
		}
		l, err = r.Lock(LockOptions{Command: command, Timeout: timeout})
	}
	return l, err
}
