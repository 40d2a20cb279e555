package main

import (
	"errors"
	"fmt"

	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/compaction/workflow"
	"github.com/urfave/cli/v2"
)

func compactionSubmitCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "submit",
		Usage:     "submit a manual draft (from the plan's drafting worktree)",
		ArgsUsage: "PLAN-ID",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("submit needs one plan ID, got %d arguments", c.NArg())
			}
			return runSubmit(env, c.Args().First())
		},
	}
}

func runSubmit(env *Env, id string) error {
	if err := env.lockWrites(); err != nil {
		return err
	}
	sub, err := workflow.ReadSubmission(mustRepo(env), id)
	var ue *workflow.UsageError
	switch {
	case errors.Is(err, compaction.ErrNoPlan):
		return usagef("no plan %q", id).hint("run `git adr compaction status` to list plans")
	case errors.As(err, &ue):
		return usageErr(ue)
	case err != nil:
		return err
	}
	p, commit, cand, dir := sub.Plan, sub.Commit, sub.Candidate, sub.Dir
	l, err := env.Log()
	if err != nil {
		return err
	}
	p, commit, err = processCandidate(env, l, p, commit, cand, compaction.Batches(l, p, compaction.BatchLimits{}))
	if err != nil {
		return err
	}
	if p.Mode != compaction.Consolidate {
		return approve(env, l, p)
	}
	// A person is asked without the lock held.
	env.unlock()
	feedback, done, err := askConsolidation(env, l, p)
	if done {
		return err
	}
	if err := env.locked(func() (err error) {
		_, err = workflow.RequestChanges(mustRepo(env), p, commit, feedback)
		return err
	}); err != nil {
		return planStoreErr(err)
	}
	fmt.Fprintf(env.Out, "revision %d records your feedback; revise the draft in %s and run `git adr compaction submit %s` again\n", p.Revision, dir, p.ID)
	return nil
}
