package gitops

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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
//
// # A holder that died
//
// The owner also holds an exclusive flock(2) on the lock file (where the
// platform has one) from before the file appears until it is removed. The
// kernel drops that lock when the process dies, however it dies (SIGKILL,
// a crash, the OOM killer), and it is the same lock for every process
// under that kernel, whatever PID namespace, container or mount it runs
// in. So a lock file whose flock is free, recorded under this kernel's
// boot ID, was provably left by a dead holder, and the next writer takes
// it over without a person ([HolderDead]). Under another boot ID (another
// machine or VM sharing the repository, or this one before a reboot) a
// free flock proves nothing (network file systems may not share flocks),
// and a PID names another process in another PID namespace: such a lock is
// never presumed dead ([HolderUnknown]); a person clears it with `git adr
// recover --break-lock`. docs/safety.md has the table.
type Lock struct {
	path  string
	owner LockOwner
	repo  *Repo
	// file is the open lock file whose flock marks the owner alive (nil
	// where there is none).
	file *os.File
	// TookOver is the dead holder whose lock this one replaced (nil when
	// the lock was free).
	TookOver *LockOwner
}

// LockOwner is what a lock file records about the process holding it.
type LockOwner struct {
	PID  int    `json:"pid"`
	Host string `json:"host"`
	// Start identifies the process instance (on Linux its start time in
	// clock ticks since boot), so a recycled PID is not taken for the
	// owner. Empty where the platform does not say.
	Start string `json:"start,omitempty"`
	// Boot is the kernel's boot ID (Linux: /proc/sys/kernel/random/boot_id;
	// macOS: kern.bootsessionuuid): the PID, start time and flock mean
	// something only under the kernel instance that recorded them.
	Boot string `json:"boot,omitempty"`
	// PIDNS names the PID namespace PID is in ("pid:[4026531836]" on
	// Linux), for messages: the PID of a holder in another container is
	// not this namespace's process of that number.
	PIDNS string `json:"pidns,omitempty"`
	// Flock: the owner holds an exclusive flock on the lock file for as
	// long as it holds the lock.
	Flock   bool      `json:"flock,omitempty"`
	Command string    `json:"command"`
	Since   time.Time `json:"since"`
	Nonce   string    `json:"nonce"`
}

// LockError means the lock is held by someone else: a live process that
// did not let go within the wait, or (Stale) a process that no longer runs.
type LockError struct {
	Path  string
	Owner LockOwner
	// Stale means the owner provably no longer runs ([HolderDead]): only
	// [Repo.BreakLock] reports it, [Repo.Lock] takes such a lock over.
	Stale bool
	// Unverifiable means the owner cannot be checked from here
	// ([HolderUnknown]): recorded under another boot, or by a git-adr that
	// recorded no boot ID.
	Unverifiable bool
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
	case e.Unverifiable && e.Waited <= 0:
		return fmt.Sprintf("the lock %s is held by %s, which git-adr cannot check from here: %s", e.Path, who, e.Owner.whyUnknown())
	case e.Unverifiable:
		return fmt.Sprintf("the lock %s is held by %s, which git-adr cannot check from here: %s; gave up after %s", e.Path, who, e.Owner.whyUnknown(), e.Waited.Round(time.Millisecond))
	}
	if e.Waited <= 0 {
		return fmt.Sprintf("another git-adr is writing to this repository (%s)", who)
	}
	return fmt.Sprintf("another git-adr is writing to this repository (%s); gave up after %s", who, e.Waited.Round(time.Millisecond))
}

// ErrLocked is wrapped by every [*LockError].
var ErrLocked = errors.New("repository locked")

func (e *LockError) Unwrap() error { return ErrLocked }

// whyUnknown says why a holder cannot be checked.
func (o LockOwner) whyUnknown() string {
	switch {
	case o.Boot == "" || !o.Flock:
		return "the git-adr that took it recorded no boot ID"
	case bootID() == "":
		return "this system does not say its boot ID"
	}
	return "it was taken under another boot ID (another machine or VM sharing the repository, or this one before a restart)"
}

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
// let go. A lock whose owner provably died ([HolderDead]) is taken over at
// once (Lock.TookOver names that owner, so the caller can say so and first
// finish what it left half done); one whose owner cannot be checked
// ([HolderUnknown]) is waited for like a live one and never taken.
func (r *Repo) Lock(o LockOptions) (*Lock, error) {
	dir := r.AdrDir()
	// The repository's own folder is never made here: a mirror a prune
	// moved aside is gone, and a lock taken in a folder made in its place
	// would hold nothing (the caller opens the mirror again).
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	return lockAt(filepath.Join(dir, LockFile), o, r)
}

// LockFileAt takes a lock at path the way [Repo.Lock] takes the project
// lock (its holder recorded, a dead holder's lock taken over, a live
// one's waited for up to o.Timeout), for a file git-adr edits outside
// any repository's git folder: a workspace file (path is the file's name
// and ".lock").
func LockFileAt(path string, o LockOptions) (*Lock, error) { return lockAt(path, o, nil) }

// lockAt takes the lock at path, for r when not nil.
func lockAt(path string, o LockOptions, r *Repo) (*Lock, error) {
	me := LockOwner{PID: os.Getpid(), Host: hostname(), Start: processStart(os.Getpid()),
		Boot: bootID(), PIDNS: pidNamespace(), Flock: canFlock,
		Command: o.Command, Since: time.Now().UTC(), Nonce: nonce()}
	data, err := json.Marshal(me)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(o.Timeout)
	wait := 5 * time.Millisecond
	for {
		f, err := createExclusive(path, data)
		if err == nil {
			l := &Lock{path: path, owner: me, repo: r, file: f}
			if r != nil {
				r.held.Store(l)
			}
			return l, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("take the lock %s: %w", path, err)
		}
		h, err := inspectLock(path)
		if err != nil {
			return nil, fmt.Errorf("read the lock %s: %w", path, err)
		}
		failpoint.Hit("lock-owner-read")
		switch h.State {
		case holderGone:
			continue // released in between: try again at once
		case HolderDead:
			f, ok, err := h.replace(path, data)
			if err != nil {
				return nil, fmt.Errorf("take over the lock %s: %w", path, err)
			}
			if !ok {
				continue // someone else took it over first
			}
			dead := h.Owner
			l := &Lock{path: path, owner: me, repo: r, file: f, TookOver: &dead}
			if r != nil {
				r.held.Store(l)
			}
			return l, nil
		case HolderUnreadable:
			// A lock file is written whole (linked into place), so an
			// unreadable one is damage, not a writer half way.
			return nil, &LockError{Path: path, Unreadable: true}
		}
		if !time.Now().Before(deadline) {
			// The holder may have let go (and ended) since it was read:
			// only a lock still there is reported.
			if again, err := inspectLock(path); err == nil && again.State == holderGone {
				continue
			}
			return nil, &LockError{Path: path, Owner: h.Owner, Waited: o.Timeout, Unverifiable: h.State == HolderUnknown}
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
// call more than once and from a signal handler. Nobody can replace the
// file meanwhile: a takeover needs the flock this process holds.
func (l *Lock) Release() error {
	if l == nil {
		return nil
	}
	if l.repo != nil {
		l.repo.held.CompareAndSwap(l, nil)
	}
	// The flock is let go only after the file is gone, so nobody sees
	// this lock file without it.
	defer func() {
		if f := l.file; f != nil {
			l.file = nil
			f.Close()
		}
	}()
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
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return LockOwner{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 64<<10))
	if err != nil {
		return LockOwner{}, err
	}
	return decodeOwner(path, data)
}

func decodeOwner(path string, data []byte) (LockOwner, error) {
	var o LockOwner
	if err := json.Unmarshal(data, &o); err != nil || o.PID <= 0 || o.Nonce == "" {
		return LockOwner{}, fmt.Errorf("lock %s: unreadable owner", path)
	}
	return o, nil
}

// HolderState is what can be known about the process a lock file names.
type HolderState int

const (
	// holderGone: the lock file no longer exists.
	holderGone HolderState = iota
	// HolderLive: the owner holds the lock file's flock, or is this
	// process.
	HolderLive
	// HolderDead: recorded under this kernel's boot ID by an owner that
	// held the flock, which is now free: the owner died.
	HolderDead
	// HolderUnknown: nothing here can tell whether the owner runs
	// (another boot ID, no boot ID recorded, a platform without flock).
	HolderUnknown
	// HolderUnreadable: the file names no owner.
	HolderUnreadable
)

// holder is a lock file as inspected: its owner and state, and while
// State is HolderDead the open file whose flock this process now holds.
type holder struct {
	Owner LockOwner
	State HolderState
	file  *os.File
}

// inspectLock judges the lock file at path. A HolderDead result holds the
// dead file's flock until [holder.replace] or [holder.close].
func inspectLock(path string) (*holder, error) {
	// Without blocking: a FIFO put where the lock goes must not hang
	// every command (it then names no owner).
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return &holder{State: holderGone}, nil
	}
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, 64<<10))
	if err != nil {
		f.Close()
		return nil, err
	}
	// Whether the flock is free is asked of the file read, not of a name
	// that may since lead elsewhere.
	held, free := flockState(f)
	o, derr := decodeOwner(path, data)
	h := &holder{Owner: o}
	switch {
	case held:
		h.State = HolderLive // also a file still being written (no hard links)
	case derr != nil:
		h.State = HolderUnreadable
	case o.PID == os.Getpid() && o.Boot == bootID() && o.PIDNS == pidNamespace():
		h.State = HolderLive
	case free && o.Flock && o.Boot != "" && o.Boot == bootID():
		h.State = HolderDead
		h.file = f
		return h, nil
	default:
		h.State = HolderUnknown
	}
	f.Close()
	return h, nil
}

// close lets go of a dead lock file's flock.
func (h *holder) close() {
	if h.file != nil {
		h.file.Close()
		h.file = nil
	}
}

// replace puts a new lock holding data in place of the dead one whose
// flock h holds: ok is false when the file at path is no longer the dead
// one (another process took it over first). Only a process holding the
// dead file's flock replaces it, so two can never both take it over.
func (h *holder) replace(path string, data []byte) (*os.File, bool, error) {
	defer h.close()
	same, err := sameFile(h.file, path)
	if err != nil || !same {
		return nil, false, err
	}
	tmp, f, err := writeLockTemp(path, data)
	if err != nil {
		return nil, false, err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		if f != nil {
			f.Close()
		}
		return nil, false, err
	}
	return f, true, nil
}

// remove deletes the lock file whose flock h holds, if path is still it.
func (h *holder) remove(path string) (bool, error) {
	defer h.close()
	if h.file != nil {
		same, err := sameFile(h.file, path)
		if err != nil || !same {
			return false, err
		}
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	return true, nil
}

func sameFile(f *os.File, path string) (bool, error) {
	a, err := f.Stat()
	if err != nil {
		return false, err
	}
	b, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(a, b), nil
}

// LockHolder reports who holds the project lock and whether it runs (ok
// false when nobody holds it).
func (r *Repo) LockHolder() (LockOwner, HolderState, bool) {
	h, err := inspectLock(filepath.Join(r.AdrDir(), LockFile))
	if err != nil || h.State == holderGone || h.State == HolderUnreadable {
		return LockOwner{}, 0, false
	}
	h.close()
	return h.Owner, h.State, true
}

// BreakLock removes the project lock when its owner provably died, and
// reports whom it removed it from. With force it also removes a lock whose
// owner cannot be checked (another boot ID, or none recorded) or that names
// no owner. A lock whose owner holds its flock, or is this process, is
// never removed.
func (r *Repo) BreakLock(force bool) (LockOwner, bool, error) {
	path := filepath.Join(r.AdrDir(), LockFile)
	h, err := inspectLock(path)
	if err != nil {
		return LockOwner{}, false, err
	}
	switch h.State {
	case holderGone:
		return LockOwner{}, false, nil
	case HolderLive:
		return h.Owner, false, &LockError{Path: path, Owner: h.Owner}
	case HolderUnreadable:
		if !force {
			return LockOwner{}, false, &LockError{Path: path, Unreadable: true}
		}
	case HolderUnknown:
		if !force {
			return h.Owner, false, &LockError{Path: path, Owner: h.Owner, Unverifiable: true}
		}
	}
	ok, err := h.remove(path)
	return h.Owner, ok, err
}

// createExclusive creates path holding data, or fails with fs.ErrExist,
// and returns the open file whose flock marks its owner alive. The content
// is written to a private file, flocked, and hard-linked into place, so
// the lock never exists half written nor without its flock; where hard
// links are unsupported it falls back to O_EXCL, flocking the file before
// writing it (a reader then sees it held, never dead).
func createExclusive(path string, data []byte) (*os.File, error) {
	tmp, f, err := writeLockTemp(path, data)
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp)
	err = os.Link(tmp, path)
	if err == nil {
		return f, nil
	}
	if f != nil {
		f.Close()
	}
	if errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	flock(f)
	if _, err := f.Write(data); err != nil {
		os.Remove(path)
		f.Close()
		return nil, err
	}
	return f, nil
}

// writeLockTemp writes data to a new private file beside path and takes
// its flock.
func writeLockTemp(path string, data []byte) (string, *os.File, error) {
	tmp := path + "." + nonce() + ".tmp"
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return "", nil, err
	}
	flock(f)
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return "", nil, err
	}
	return tmp, f, nil
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
