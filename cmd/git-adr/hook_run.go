package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/adr/scope"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/hooks"
)

// runPreCommit runs pre-commit (see [hooks.PreCommit]): the reminder, the
// INDEX.md files it updates, then the problems.
func runPreCommit(env *Env, r *gitops.Repo) error {
	res, err := hooks.PreCommit(r, hooks.PreCommitOptions{Branches: env.branchTrees})
	if err != nil || res == nil {
		return hookErr(err)
	}
	remind(env, res)
	updated, ps, err := hooks.FixIndexes(r, res.Fixes, hooks.FixOptions{
		IndexFile: os.Getenv("GIT_INDEX_FILE"),
		Changeset: func() (*adr.Changeset, error) {
			if err := env.lockWrites(); err != nil {
				return nil, err
			}
			return env.Changeset()
		},
	})
	if err != nil {
		return err
	}
	for _, p := range updated {
		fmt.Fprintf(env.Err, "git-adr: note: updated %s in the commit and the work tree\n", adr.Escape(p))
	}
	problems := append(res.Problems, ps...)
	return refuseProblems(env, "commit", problems)
}

// runPrePush runs pre-push (see [hooks.PrePush]).
func runPrePush(env *Env, r *gitops.Repo, args []string, stdin []byte) error {
	problems, err := hooks.PrePush(r, hooks.PrePushOptions{Args: args, Stdin: stdin, Getenv: os.Getenv})
	if err != nil {
		return hookErr(err)
	}
	return refuseProblems(env, "push", problems)
}

// runPreReceive runs pre-receive (see [hooks.PreReceive]).
func runPreReceive(env *Env, r *gitops.Repo, stdin []byte) error {
	problems, err := hooks.PreReceive(r, stdin)
	if err != nil {
		return hookErr(err)
	}
	return refuseProblems(env, "push", problems)
}

// hookErr gives a hook runner's error its exit code and hints.
func hookErr(err error) error {
	var ie *hooks.InputError
	var ue *hooks.UnseenPushError
	switch {
	case errors.As(err, &ie):
		return withCode(ExitUsage, ie)
	case errors.As(err, &ue):
		return withCode(ExitFailure, ue).
			hint("lefthook passes git's input to a command only with `use_stdin: true`: add it under the git-adr command of pre-push (`git adr hooks install --pre-push` prints the lines)",
				"a hook of your own that runs `git adr hook pre-push \"$@\"` must leave its standard input to it",
				"git gives no refs only when a push sends nothing: if that is so (everything up to date), `git push --no-verify` skips the hooks")
	}
	return err
}

// runCommitMsg suggests a Refs: trailer naming the records a commit
// changes (see [hooks.UnlinkedRecords]).
func runCommitMsg(env *Env, r *gitops.Repo, args []string) error {
	if len(args) == 0 {
		return usagef("commit-msg needs the message file git passes")
	}
	msg, err := os.ReadFile(args[0])
	if err != nil {
		return failf("reading the commit message: %v", err)
	}
	missing, err := hooks.UnlinkedRecords(r, msg)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		ids := strings.Join(missing, ", ")
		fmt.Fprintf(env.Err, "git-adr: note: this commit changes %s; to record the link in history, add the trailer\n\n    Refs: %s\n\n(git commit --amend, or `git commit --trailer \"Refs: %s\"` next time)\n",
			ids, ids, ids)
	}
	return nil
}

// remindBudget bounds the reminder: 800 o200k tokens.
const remindBudget = 800

// remind prints, never blocks, the decisions in force that govern the
// staged paths ([hooks] remind = true), within remindBudget tokens.
func remind(env *Env, res *hooks.PreCommitResult) {
	fmt.Fprint(env.Err, res.Reminder(remindBudget, func(m scope.Match) string {
		return fmt.Sprintf("git-adr: note: %s is governed by %s %s (%s)\n", adr.Escape(m.Path), adr.Escape(m.Record.ID), adr.Escape(m.Record.Title), adr.Escape(m.Why))
	}, func(n int, paths []string) string {
		return fmt.Sprintf("git-adr: note: and %d more: `git adr explain %s`\n", n, strings.Join(paths, " "))
	}, evidence.TokensO200k))
}
