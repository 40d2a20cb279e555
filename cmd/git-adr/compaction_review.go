package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/compaction/workflow"
	"github.com/urfave/cli/v2"
)

// loadPlan loads a plan by ID with errors that say what to do.
func loadPlan(env *Env, id string) (*compaction.Plan, string, *compaction.Store, error) {
	repo, err := env.Repo()
	if err != nil {
		return nil, "", nil, err
	}
	store := &compaction.Store{Repo: repo}
	p, commit, err := store.Load(id)
	if errors.Is(err, compaction.ErrNoPlan) {
		return nil, "", nil, usagef("no plan %q", id).hint("run `git adr compaction status` to list plans")
	}
	return p, commit, store, err
}

// loadReview reads the review stored with a plan's newest revision
// (workflow.LoadReview), with errors that say what to do.
func loadReview(env *Env, id string) (*compaction.Plan, *compaction.Review, error) {
	repo, err := env.Repo()
	if err != nil {
		return nil, nil, err
	}
	p, rv, err := workflow.LoadReview(repo, id)
	var we *workflow.Error
	switch {
	case errors.Is(err, compaction.ErrNoPlan):
		return nil, nil, usagef("no plan %q", id).hint("run `git adr compaction status` to list plans")
	case errors.As(err, &we):
		return nil, nil, workflowErr(we)
	}
	return p, rv, err
}

func compactionReviewCommand(env *Env) *cli.Command {
	var format string
	return &cli.Command{
		Name:      "review",
		Usage:     "show a plan's candidate for review: substantive changes, unresolved items, pure reorganisation",
		ArgsUsage: "PLAN-ID",
		Flags:     []cli.Flag{&cli.StringFlag{Name: "format", Value: "text", Usage: "`text`, markdown or json", Destination: &format}},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("review needs one plan ID, got %d arguments", c.NArg()).hint("run `git adr compaction status` to list plans")
			}
			if format != "text" && format != "markdown" && format != "json" {
				return usagef("--format %q is not text, markdown or json", format)
			}
			p, rv, err := loadReview(env, c.Args().First())
			if err != nil {
				return err
			}
			part, card := archiveReview(env, p)
			if part != nil {
				rv.ArchiveOnAccept = part
			}
			out := map[string][]byte{"text": append(rv.Text(), card...), "markdown": append(rv.Markdown(), card...), "json": rv.JSON()}[format]
			if format != "json" {
				out = []byte(adr.EscapeBody(string(out)))
			}
			_, err = env.Out.Write(out)
			return err
		},
	}
}

func compactionPublishCommand(env *Env) *cli.Command {
	var branch string
	return &cli.Command{
		Name:      "publish",
		Usage:     "put a plan's proposal on a branch for pull-request review",
		ArgsUsage: "PLAN-ID --branch BRANCH",
		Description: `Creates BRANCH at the candidate commit (whose parent is the plan's base), so a
pull request from BRANCH shows exactly the proposal, and writes the markdown
review to a description file. This is for review only: it accepts nothing.`,
		Flags: []cli.Flag{&cli.StringFlag{Name: "branch", Usage: "new branch `B`", Destination: &branch}},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("publish needs one plan ID, got %d arguments", c.NArg())
			}
			if branch == "" {
				return usagef("publish needs --branch B").hint("for example: git adr compaction publish " + c.Args().First() + " --branch adr/compaction")
			}
			return runCompactionPublish(env, c.Args().First(), branch)
		},
	}
}

func runCompactionPublish(env *Env, id, branch string) error {
	repo, err := env.Repo()
	if err != nil {
		return err
	}
	if !repo.IsBranchName(branch) {
		return usagef("--branch %q is not a valid branch name", branch)
	}
	if err := env.lockWrites(); err != nil {
		return err
	}
	pr, err := workflow.Publish(repo, id, branch, env.rootsRel(), generator())
	var we *workflow.Error
	switch {
	case errors.Is(err, compaction.ErrNoPlan):
		return usagef("no plan %q", id).hint("run `git adr compaction status` to list plans")
	case errors.Is(err, workflow.ErrBranchExists):
		return usagef("branch %q already exists", branch).hint("choose another name with --branch")
	case errors.As(err, &we):
		return workflowErr(we)
	case err != nil:
		return err
	}
	p := pr.Plan
	what := fmt.Sprintf("is the proposal of plan %s revision %d", id, p.Revision)
	if p.Mode == compaction.Consolidate {
		what = fmt.Sprintf("proposes %s: the drafts of plan %s revision %d, nothing accepted", strings.Join(pr.Drafts, ", "), id, p.Revision)
	}
	fmt.Fprintf(env.Out, "branch %s %s (git diff %s %s)\n", branch, what, short(pr.Base), branch)
	fmt.Fprintf(env.Out, "description: %s\n", pr.Description)
	fmt.Fprintf(env.Out, "next: git push -u origin %s 'refs/adr/*:refs/adr/*' && gh pr create --head %s --body-file %s\n", branch, branch, pr.Description)
	if p.Mode == compaction.Consolidate {
		fmt.Fprintf(env.Out, "after review: on a checkout of %s (or of the target branch after the merge), `git adr compaction --confirm %s@%d` makes the acceptance commit\n", branch, id, p.Revision)
	}
	return nil
}

// workflowErr is a step of the compaction workflow that cannot be taken,
// with its hint.
func workflowErr(we *workflow.Error) error {
	e := failf("%s", we.Msg)
	if we.Hint != "" {
		e.hint(we.Hint)
	}
	return e
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func compactionCancelCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "cancel",
		Usage:     "cancel a plan: drop its candidate and drafting worktree, keep its history",
		ArgsUsage: "PLAN-ID",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("cancel needs one plan ID, got %d arguments", c.NArg())
			}
			return runCompactionCancel(env, c.Args().First())
		},
	}
}

func runCompactionCancel(env *Env, id string) error {
	if err := env.lockWrites(); err != nil {
		return err
	}
	dropped, err := workflow.Cancel(mustRepo(env), id)
	var de *workflow.DoneError
	switch {
	case errors.Is(err, compaction.ErrNoPlan):
		return usagef("no plan %q", id).hint("run `git adr compaction status` to list plans")
	case errors.As(err, &de):
		return usagef("%v; it cannot be cancelled", de).hint("a published view or an accepted decision is changed by a new plan")
	case err != nil:
		return planStoreErr(err)
	}
	for _, d := range dropped {
		fmt.Fprintf(env.Out, "removed %s\n", d)
	}
	fmt.Fprintf(env.Out, "plan %s is cancelled; %s remains as its history\n", id, compaction.PlanRef(id))
	return nil
}
