package main

import (
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
	p, commit, _, err := loadPlan(env, id)
	if err != nil {
		return err
	}
	if p.State == compaction.Published || p.State == compaction.Cancelled {
		return usagef("plan %s is %s; nothing to submit", id, p.State)
	}
	repo := mustRepo(env)
	dir := compaction.ManualDir(repo, id)
	if !dirExists(dir) {
		return usagef("plan %s has no drafting worktree at %s", id, dir).hint("draft it manually: git adr compaction --mode " + string(p.Mode) + " --drafter manual")
	}
	cand, err := compaction.ReadManual(dir, p)
	if err != nil {
		return usagef("%v", err).hint("fix the draft and submit again")
	}
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
		_, err = workflow.RequestChanges(repo, p, commit, feedback)
		return err
	}); err != nil {
		return planStoreErr(err)
	}
	fmt.Fprintf(env.Out, "revision %d records your feedback; revise the draft in %s and run `git adr compaction submit %s` again\n", p.Revision, dir, p.ID)
	return nil
}
