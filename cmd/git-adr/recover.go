package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/accept"
	"github.com/git-adr/git-adr/gitops"
	"github.com/urfave/cli/v2"
)

type recoverOptions struct {
	finish, keep, breakLock, json bool
}

func recoverCommand(env *Env) *cli.Command {
	var o recoverOptions
	return &cli.Command{
		Name:  "recover",
		Usage: "finish or report what an interrupted git-adr left: a stale lock, a half-applied change, temporary files",
		Description: `A git-adr that was killed while writing leaves its lock and a journal of the
change it was making. The next write finishes that change on its own when
every file is still what the change read or already what it wrote. When
someone edited one of those files in between, nothing is overwritten: the
command stops, and recover lets you choose.

   git adr recover              clear a lock whose owner has exited, finish what is
                                safe, list what is not
   git adr recover --keep       keep your version of the files edited since, finish the rest
   git adr recover --finish     finish the change over them; your version of each is kept
                                under .git/adr/recovered/<journal>/
   git adr recover --break-lock also remove a lock whose owner cannot be checked
                                (taken under another boot: another machine, or this
                                one before a restart; or no owner recorded)

A lock whose owner still holds it is never removed. A write takes over,
without recover, a lock whose owner provably died under this boot (its
flock is free), and first finishes what that run left.

Interrupted acceptances are finished too: one whose commit reached the branch
gets its work tree files, plan record and ref cleanup; one whose commit did
not accepted nothing, and its journal is cleared.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "finish", Usage: "finish interrupted changes over files edited since (a copy of each is kept)", Destination: &o.finish},
			&cli.BoolFlag{Name: "keep", Usage: "keep files edited since as they are and finish the rest; drop unusable journals", Destination: &o.keep},
			&cli.BoolFlag{Name: "break-lock", Usage: "also remove a lock whose owner cannot be checked", Destination: &o.breakLock},
			&cli.BoolFlag{Name: "json", Usage: "print what was done as JSON", Destination: &o.json},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("recover takes no arguments, got %q", c.Args().First())
			}
			if o.finish && o.keep {
				return usagef("--finish and --keep are exclusive: choose one").hint("run `git adr recover` to see the files concerned")
			}
			return runRecover(env, o)
		},
	}
}

func runRecover(env *Env, o recoverOptions) error {
	r, err := env.Repo()
	if err != nil {
		return err
	}
	owner, broke, err := r.BreakLock(o.breakLock)
	if err != nil {
		var le *gitops.LockError
		if errors.As(err, &le) && le.Unreadable {
			return withCode(ExitConflict, le).hint("if no git-adr is running, run `git adr recover --break-lock`")
		}
		if errors.As(err, &le) && le.Unverifiable {
			return withCode(ExitConflict, le).hint("if that git-adr is not running any more, run `git adr recover --break-lock`")
		}
		if errors.As(err, &le) {
			return withCode(ExitConflict, le).hint("wait for it to finish, then run `git adr recover` again if anything is left")
		}
		return err
	}
	l, err := r.Lock(gitops.LockOptions{Command: env.command})
	if err != nil {
		return lockErr(err)
	}
	env.lock = l
	mode := adr.RecoverSafe
	switch {
	case o.finish:
		mode = adr.RecoverFinish
	case o.keep:
		mode = adr.RecoverKeep
	}
	res, err := adr.RecoverJournals(r.Top, journalDir(r), mode, recoveredDir(r))
	if err != nil {
		return failf("recovering: %v", err).hint("inspect " + journalDir(r) + "; nothing is overwritten without --finish")
	}
	out := res.Report()
	if broke {
		out.Lock = &adr.RecoveredLock{PID: owner.PID, Host: owner.Host, Command: owner.Command, Since: owner.Since.UTC().Format(time.RFC3339)}
	}
	// Temporary files of runs killed before journals existed (older
	// versions staged files in the work tree first).
	if len(res.Blocked) == 0 {
		l, err := env.Log()
		if err != nil {
			return err
		}
		tmps, err := adr.RemoveTempFiles(r.Top, l.Roots)
		if err != nil {
			return err
		}
		out.TempFiles = append(out.TempFiles, tmps...)
	}
	if len(res.Blocked) == 0 {
		done, err := finishAcceptances(env, r)
		if err != nil {
			return err
		}
		out.Acceptances = append(out.Acceptances, done...)
	}
	if o.json {
		if err := writeJSON(env.Out, out); err != nil {
			return err
		}
		if len(res.Blocked) > 0 {
			return silentExit(ExitFailure)
		}
		return nil
	}
	w := env.Out
	if out.Lock != nil {
		fmt.Fprintf(w, "removed the lock left by pid %d on %q (%q, since %s)\n", owner.PID, owner.Host, owner.Command, out.Lock.Since)
	}
	for _, p := range res.Finished {
		fmt.Fprintf(w, "finished %s: %d of its %d files were left to write\n", adr.EscapeBody(p.Run()), p.Remaining(), len(p.Journal.Steps))
	}
	for _, k := range res.Kept {
		fmt.Fprintf(w, "kept your version of %s\n", adr.Escape(env.display(k)))
	}
	for k, v := range res.Saved {
		fmt.Fprintf(w, "finished over %s; your version is in %s\n", adr.Escape(env.display(k)), adr.Escape(v))
	}
	for _, d := range out.Discarded {
		fmt.Fprintf(w, "removed the unusable journal %s; nothing in it was carried out\n", d)
	}
	for _, t := range out.TempFiles {
		fmt.Fprintf(w, "removed the temporary file %s\n", adr.Escape(env.display(t)))
	}
	for _, a := range out.Acceptances {
		fmt.Fprintln(w, a)
	}
	if len(res.Blocked) > 0 {
		return pendingErr(res.Blocked)
	}
	if out.Lock == nil && len(res.Finished) == 0 && len(res.Discarded) == 0 && len(out.TempFiles) == 0 && len(out.Acceptances) == 0 {
		fmt.Fprintln(w, "nothing to recover")
	}
	return nil
}

// finishAcceptances finishes the acceptances interrupted runs left
// (accept.FinishPending) and says what it did, one line each. The caller
// holds the lock.
func finishAcceptances(env *Env, r *gitops.Repo) ([]string, error) {
	dir := accept.StateDir(r)
	js, err := accept.Pending(dir)
	if err != nil {
		return nil, failf("%v", err).hint("remove it if no git-adr is running; acceptance journals are progress, never authority")
	}
	done, err := accept.FinishPending(r, js, dir, journalDir(r), env.command)
	if err != nil {
		return nil, planStoreErr(err)
	}
	var out []string
	for _, rc := range done {
		if rc.Cleared {
			out = append(out, fmt.Sprintf("cleared %s: it was interrupted before its commit reached the branch, so nothing was accepted; accept again", rc.What))
			continue
		}
		line := fmt.Sprintf("finished %s, committed in %s: work tree, plan and refs are up to date", rc.What, short(rc.Commit))
		if rc.ArchivePending != "" {
			line += fmt.Sprintf("; its archive part (archive plan %s) is not carried out yet: `git adr compaction --confirm %s` carries it out if it is still what was approved", rc.ArchivePending, rc.Plan)
		}
		out = append(out, line)
	}
	return out, nil
}
