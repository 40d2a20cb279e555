package gitops

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/git-adr/git-adr/internal/failpoint"
)

// LockFile is the name of the project lock under [Repo.AdrDir].
const LockFile = "lock"

// Lock is the project lock: one file, $GIT_COMMON_DIR/adr/lock, created the
// way git creates index.lock (exclusively, never overwritten) and holding
// the owner's process ID, host and command. Every command that writes a
// record, an INDEX, a CURRENT view, a journal or a ref holds it, so number
// allocation, precondition checks and writes never interleave between
// processes, worktrees included.
type Lock struct {
	path  string
	owner LockOwner
	repo  *Repo
}

// LockOwner is what a lock file records about the process holding it.
type LockOwner struct {
	PID  int    `json:"pid"`
	Host string `json:"host"`
	// Start identifies the process instance (on Linux its start time in
	// clock ticks since boot), so a recycled PID is not taken for the
	// owner. Empty where the platform does not say.
	Start   string    `json:"start,omitempty"`
	Command string    `json:"command"`
	Since   time.Time `json:"since"`
	Nonce   string    `json:"nonce"`
}

// LockError means the lock is held by someone else: a live process that
// did not let go within the wait, or (Stale) a process that no longer runs.
type LockError struct {
	Path  string
	Owner LockOwner
	// Stale means the owner runs on this host and has exited: the lock
	// was left behind by a crash and must be cleared on purpose.
	Stale bool
	// Unreadable means the lock file holds no owner git-adr can read.
	Unreadable bool
	Waited     time.Duration
}

func (e *LockError) Error() string {
	who := e.Owner.describe()
	switch {
	case e.Unreadable:
		return fmt.Sprintf("the lock %s exists but names no owner", e.Path)
	case e.Stale:
		return fmt.Sprintf("the lock %s was left by %s, which is no longer running", e.Path, who)
	}
	if e.Waited <= 0 {
		return fmt.Sprintf("another git-adr is writing to this repository (%s)", who)
	}
	return fmt.Sprintf("another git-adr is writing to this repository (%s); gave up after %s", who, e.Waited.Round(time.Millisecond))
}

// ErrLocked is wrapped by every [*LockError].
var ErrLocked = errors.New("repository locked")

func (e *LockError) Unwrap() error { return ErrLocked }

func (o LockOwner) describe() string {
	s := fmt.Sprintf("pid %d on %q", o.PID, o.Host)
	if o.Command != "" {
		s += fmt.Sprintf(", %q", o.Command)
	}
	if !o.Since.IsZero() {
		s += ", since " + o.Since.UTC().Format(time.RFC3339)
	}
	return s
}

// LockOptions tune [Repo.Lock].
type LockOptions struct {
	// Command is recorded for whoever finds the lock held.
	Command string
	// Timeout bounds the wait for a live owner; 0 does not wait.
	Timeout time.Duration
}

// Lock takes the project lock, waiting up to o.Timeout for a live owner to
// let go. A lock whose owner has exited is not taken over: it is reported
// as stale ([*LockError] with Stale set) so that whatever the crashed run
// left is looked at first.
func (r *Repo) Lock(o LockOptions) (*Lock, error) {
	dir := r.AdrDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, LockFile)
	me := LockOwner{PID: os.Getpid(), Host: hostname(), Start: processStart(os.Getpid()),
		Command: o.Command, Since: time.Now().UTC(), Nonce: nonce()}
	data, err := json.Marshal(me)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(o.Timeout)
	wait := 5 * time.Millisecond
	for {
		err := createExclusive(path, data)
		if err == nil {
			l := &Lock{path: path, owner: me, repo: r}
			r.held.Store(l)
			return l, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("take the lock %s: %w", path, err)
		}
		owner, rerr := ReadLockOwner(path)
		failpoint.Hit("lock-owner-read")
		switch {
		case errors.Is(rerr, fs.ErrNotExist):
			continue // released in between: try again at once
		case rerr != nil:
			// A lock file is written whole (linked into place), so an
			// unreadable one is damage, not a writer half way.
			return nil, &LockError{Path: path, Unreadable: true}
		case owner.Exited():
			// The owner may have let go and ended after the file was
			// read: only a lock its exited owner still holds is stale.
			if again, err := ReadLockOwner(path); err != nil || again.Nonce != owner.Nonce {
				continue
			}
			return nil, &LockError{Path: path, Owner: owner, Stale: true}
		}
		if !time.Now().Before(deadline) {
			return nil, &LockError{Path: path, Owner: owner, Waited: o.Timeout}
		}
		// Back off with jitter so that many waiters do not retry in step.
		time.Sleep(wait + time.Duration(jitter(int64(wait))))
		if wait < 100*time.Millisecond {
			wait *= 2
		}
	}
}

// ErrNotLocked means a write was attempted without the project lock: a
// bug in git-adr, reported rather than risked.
var ErrNotLocked = errors.New("internal error: a write without the project lock")

// Locked reports whether this process holds the project lock through r.
func (r *Repo) Locked() bool { return r.held.Load() != nil }

// Path is the lock file.
func (l *Lock) Path() string { return l.path }

// Release removes the lock if this process still holds it. It is safe to
// call more than once and from a signal handler.
func (l *Lock) Release() error {
	if l == nil {
		return nil
	}
	l.repo.held.CompareAndSwap(l, nil)
	owner, err := ReadLockOwner(l.path)
	if err != nil || owner.Nonce != l.owner.Nonce {
		return nil // not ours (any more): never remove someone else's lock
	}
	if err := os.Remove(l.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// ReadLockOwner reads the owner recorded in a lock file.
func ReadLockOwner(path string) (LockOwner, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return LockOwner{}, err
	}
	var o LockOwner
	if err := json.Unmarshal(data, &o); err != nil || o.PID <= 0 || o.Nonce == "" {
		return LockOwner{}, fmt.Errorf("lock %s: unreadable owner", path)
	}
	return o, nil
}

// LockHolder reports who holds the project lock (ok false when nobody).
func (r *Repo) LockHolder() (LockOwner, bool) {
	o, err := ReadLockOwner(filepath.Join(r.AdrDir(), LockFile))
	return o, err == nil
}

// BreakLock removes the project lock when its owner has exited, and
// reports whom it removed it from. With force it also removes a lock whose
// owner cannot be checked (another host, or no owner recorded). A lock held
// by a live process on this host is never removed.
func (r *Repo) BreakLock(force bool) (LockOwner, bool, error) {
	path := filepath.Join(r.AdrDir(), LockFile)
	o, err := ReadLockOwner(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return LockOwner{}, false, nil
	case err != nil && !force:
		return o, false, &LockError{Path: path, Unreadable: true}
	case err == nil && !o.Exited() && (!force || o.Host == hostname()):
		return o, false, &LockError{Path: path, Owner: o}
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return o, false, err
	}
	return o, true, nil
}

// Exited reports whether the owner provably no longer runs: it ran on this
// host and its process is gone (or the PID now belongs to another process).
// An owner on another host is never presumed dead.
func (o LockOwner) Exited() bool {
	if o.Host != hostname() {
		return false
	}
	if o.PID == os.Getpid() {
		return false
	}
	if processGone(o.PID) {
		return true
	}
	if o.Start != "" {
		if now := processStart(o.PID); now != "" && now != o.Start {
			return true
		}
	}
	return false
}

// createExclusive creates path holding data, or fails with fs.ErrExist. The
// content is written to a private file first and hard-linked into place,
// so the lock never exists half written; where hard links are unsupported
// it falls back to O_EXCL.
func createExclusive(path string, data []byte) error {
	tmp := path + "." + nonce() + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	defer os.Remove(tmp)
	err := os.Link(tmp, path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return "unknown"
	}
	return h
}

// processStart is the start time of a process in clock ticks since boot
// (field 22 of /proc/PID/stat), or "" where /proc does not say.
func processStart(pid int) string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 20 {
		return ""
	}
	return f[19]
}

func nonce() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func jitter(n int64) int64 {
	var b [8]byte
	rand.Read(b[:])
	v := int64(0)
	for _, c := range b {
		v = v<<8 | int64(c)
	}
	if v < 0 {
		v = -v
	}
	if n <= 0 {
		return 0
	}
	return v % n
}
