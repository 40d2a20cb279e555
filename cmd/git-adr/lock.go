package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/accept"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/failpoint"
)

// lockWrites takes the project lock for the rest of the command and first
// finishes whatever change an interrupted earlier run left (see
// [Env.recoverPending]). Every command that writes a record, an INDEX, a
// CURRENT view, a journal or a ref calls it before reading what it will
// change, so that the numbers it allocates and the preconditions it checks
// still hold when it writes.
func (e *Env) lockWrites() error {
	if e.lock != nil {
		return nil
	}
	r, err := e.Repo()
	if err != nil {
		return err
	}
	l, err := r.LockWaiting(e.command)
	var te *gitops.LockTimeoutError
	if errors.As(err, &te) {
		return usagef("%s", te.Msg)
	}
	if err != nil {
		return lockErr(err)
	}
	e.lock = l
	e.stopSignals = releaseOnSignal(l)
	failpoint.Hit("lock-taken")
	// What was read before the lock may have changed meanwhile.
	e.log = nil
	if d := l.TookOver; d != nil {
		fmt.Fprintf(e.Err, "git-adr: note: took over the lock left by %s, which is no longer running\n", describeOwner(*d))
		if err := e.finishDeadAcceptances(r); err != nil {
			return err
		}
	}
	return e.recoverPending(r)
}

// describeOwner names a lock's owner for a person: "pid 4242 on "host"
// (`git adr new A`, since 2026-01-15T10:00:00Z)".
func describeOwner(o gitops.LockOwner) string {
	s := fmt.Sprintf("pid %d on %q (", o.PID, o.Host)
	if o.Command != "" {
		s += fmt.Sprintf("`%s`, ", adr.EscapeBody(o.Command))
	}
	return s + "since " + o.Since.UTC().Format(time.RFC3339) + ")"
}

// finishDeadAcceptances finishes, after taking over a dead holder's lock,
// the acceptances it left half done, as `git adr recover` does: one whose
// commit reached the branch gets its work tree, plan and refs; one whose
// commit did not is cleared.
func (e *Env) finishDeadAcceptances(r *gitops.Repo) error {
	if js, err := accept.Pending(accept.StateDir(r)); err == nil && len(js) == 0 {
		return nil
	}
	done, err := finishAcceptances(e, r)
	if err != nil {
		return failf("finishing an interrupted acceptance: %v", err).hint("run `git adr recover` to see what is left")
	}
	for _, d := range done {
		fmt.Fprintf(e.Err, "git-adr: note: %s\n", d)
	}
	return nil
}

// locked runs f under the project lock, taking it only for f when the
// command does not hold it already (compaction holds it only while it
// writes, never while a drafter runs or a person is asked).
func (e *Env) locked(f func() error) error {
	if e.lock != nil {
		return f()
	}
	if err := e.lockWrites(); err != nil {
		return err
	}
	defer e.unlock()
	return f()
}

// unlock releases the project lock if the command holds it.
func (e *Env) unlock() {
	if e.lock == nil {
		return
	}
	e.lock.Release()
	e.lock = nil
	if e.stopSignals != nil {
		e.stopSignals()
		e.stopSignals = nil
	}
}

// lockErr explains a lock that could not be taken.
func lockErr(err error) error {
	var le *gitops.LockError
	if !errors.As(err, &le) {
		return err
	}
	switch {
	case le.Stale:
		return withCode(ExitConflict, le).hint(
			"run `git adr recover` to clear it; it first finishes or reports any change the crashed run left half done")
	case le.Unreadable:
		return withCode(ExitConflict, le).hint(
			"if no git-adr is running, run `git adr recover --break-lock` to remove it")
	case le.Unverifiable:
		return withCode(ExitConflict, le).hint(
			"nothing was changed; if that git-adr is still running, run the command again once it has finished",
			"if it is not (the machine restarted, or it ran elsewhere and died), run `git adr recover --break-lock`")
	}
	return withCode(ExitConflict, le).hint(
		"nothing was changed; run the command again once it has finished",
		"wait longer with GIT_ADR_LOCK_TIMEOUT=60s or `git config adr.lockTimeout 60s`")
}

// releaseOnSignal removes the lock when the process is interrupted while it
// holds it, then dies of the same signal. A change being applied at that
// moment stays in its journal and is finished by the next write.
//
// A broken pipe (`git adr new A | head -1` after head exited) is no reason
// to leave a change half done: while the lock is held, SIGPIPE only makes
// the write fail (EPIPE), the command finishes and releases the lock; a
// later write to the closed pipe ends the process as usual.
func releaseOnSignal(l *gitops.Lock) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, append(append([]os.Signal(nil), fatalSignals...), brokenPipeSignals...)...)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case sig := <-ch:
				if isBrokenPipe(sig) {
					continue
				}
				l.Release()
				signal.Reset(sig)
				if p, err := os.FindProcess(os.Getpid()); err == nil {
					p.Signal(sig)
				}
				time.Sleep(time.Second)
				os.Exit(128 + int(sig.(syscall.Signal)))
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// journalDir is where this work tree's changesets keep their journals.
func journalDir(r *gitops.Repo) string { return filepath.Join(r.GitDir, "adr", "journal") }

// recoveredDir is where `git adr recover --finish` keeps the files it
// overwrites.
func recoveredDir(r *gitops.Repo) string { return filepath.Join(r.GitDir, "adr", "recovered") }

// recoverPending finishes, under the lock, the changes interrupted runs
// left in this work tree, but only those whose files are all still what
// the change read or already what it wrote. Anything else stops the
// command: the person chooses with `git adr recover --keep` or --finish.
func (e *Env) recoverPending(r *gitops.Repo) error {
	dir := journalDir(r)
	if !adr.HasJournals(dir) {
		return nil
	}
	res, err := adr.RecoverJournals(r.Top, dir, adr.RecoverSafe, recoveredDir(r))
	if err != nil {
		return failf("finishing an interrupted change: %v", err).hint("run `git adr recover` to see what is left")
	}
	for _, p := range res.Finished {
		fmt.Fprintf(e.Err, "git-adr: note: finished an interrupted %s: %d of its %d files were left to write\n", adr.EscapeBody(p.Run()), p.Remaining(), len(p.Journal.Steps))
	}
	if len(res.Blocked) > 0 {
		return pendingErr(res.Blocked)
	}
	return nil
}

// pendingErr explains changes recovery may not finish on its own.
func pendingErr(blocked []*adr.PendingChange) error {
	var lines []string
	for _, p := range blocked {
		if p.Err != nil {
			lines = append(lines, p.Err.Error())
			continue
		}
		for _, c := range p.Conflicts() {
			lines = append(lines, fmt.Sprintf("%s %s since the interrupted %s", c.Conflict, c.Reason, p.Describe()))
		}
	}
	e := failf("an interrupted change cannot be finished safely: %s", strings.Join(lines, "; "))
	return e.hint("nothing was changed; `git adr recover` shows the change",
		"`git adr recover --keep` keeps your version of those files and finishes the rest",
		"`git adr recover --finish` finishes the change over them (a copy of each is kept under .git/adr/recovered)")
}

// warnPending tells a read-only command that the log may be half changed.
func (e *Env) warnPending(r *gitops.Repo) {
	if e.lock != nil || e.warnedPending || !adr.HasJournals(journalDir(r)) {
		return
	}
	e.warnedPending = true
	state := "was interrupted"
	if o, h, ok := r.LockHolder(); ok && h == gitops.HolderLive {
		state = fmt.Sprintf("is being written by pid %d", o.PID)
	}
	fmt.Fprintf(e.Err, "git-adr: warning: a change to this work tree %s and is not finished; what follows may show the log half changed (run `git adr recover` to see it)\n", state)
}
