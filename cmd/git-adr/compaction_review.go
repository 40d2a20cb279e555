package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/compaction/workflow"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
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

// loadReview reads the review stored with a plan's newest revision.
func loadReview(env *Env, id string) (*compaction.Plan, *compaction.Review, error) {
	p, commit, store, err := loadPlan(env, id)
	if err != nil {
		return nil, nil, err
	}
	data, err := store.File(commit, "review.json")
	if errors.Is(err, gitops.ErrNotFound) {
		return nil, nil, failf("plan %s has no candidate to review yet (state %s)", id, p.State).
			hint("draft it: git adr compaction --mode " + string(p.Mode) + ", or submit a manual draft: git adr compaction submit " + id)
	}
	if err != nil {
		return nil, nil, err
	}
	var rv compaction.Review
	if err := json.Unmarshal(data, &rv); err != nil {
		return nil, nil, failf("plan %s: review.json is corrupt: %v", id, err)
	}
	return p, &rv, nil
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
	if _, err := repo.Git("check-ref-format", "--branch", branch); err != nil {
		return usagef("--branch %q is not a valid branch name", branch)
	}
	if err := env.lockWrites(); err != nil {
		return err
	}
	p, commit, store, err := loadPlan(env, id)
	if err != nil {
		return err
	}
	if p.ID != id {
		return failf("%s holds plan %s, not %s; nothing was published", compaction.PlanRef(id), p.ID, id)
	}
	cand, err := repo.ResolveRef(compaction.CandidateRef(id))
	if err != nil {
		return failf("plan %s has no candidate ref (%s)", id, compaction.CandidateRef(id)).hint("it was cancelled or never drafted; see git adr compaction status " + id)
	}
	if tree, err := repo.ResolveRef(cand + "^{tree}"); err != nil || tree != p.CandidateTree {
		return failf("%s is not the candidate revision %d of plan %s reviewed; nothing was published", compaction.CandidateRef(id), p.Revision, id).
			hint("draft a new revision: git adr compaction --mode " + string(p.Mode) + p.Scope.Flags())
	}
	// The description and the branch are built again from the plan's
	// draft over its base, never taken from a stored review.
	data, err := store.File(commit, "candidate.json")
	if err != nil {
		return failf("plan %s revision %d has no candidate to publish", id, p.Revision)
	}
	var c compaction.Candidate
	if err := json.Unmarshal(data, &c); err != nil {
		return failf("plan %s: candidate.json: %v", id, err)
	}
	baseFS, err := repo.TreeFS(p.Base)
	if err != nil {
		return err
	}
	base, err := adr.Load(baseFS, adr.LoadOptions{Roots: env.rootsRel(), Cwd: repo.Prefix})
	if err != nil {
		return err
	}
	gen := generator()
	if m := candidateManifest(repo, p.Base, cand); m != "" {
		gen = m
	}
	prop, err := compaction.Propose(base, p, &c, p.Revision, gen)
	if err != nil {
		return err
	}
	rv := compaction.NewReview(p, &c, prop.Issues, prop.Outputs(), cand)
	rv.AddDocuments(p, prop)
	head := cand
	what := fmt.Sprintf("is the proposal of plan %s revision %d", id, rv.Revision)
	if p.Mode == compaction.Consolidate {
		// A consolidation's branch holds its drafts only: merging it
		// accepts nothing; the acceptance commit is added by a person.
		var changes []gitops.TreeChange
		var ids []string
		for _, r := range p.Reserved {
			if d, ok := prop.Drafts[r.Path]; ok {
				changes = append(changes, gitops.TreeChange{Path: r.Path, Data: d})
				ids = append(ids, r.ID)
			}
		}
		tree, err := repo.BuildTree(p.Base, changes)
		if err != nil {
			return err
		}
		msg := fmt.Sprintf("Propose %s from plan %s revision %d\n\nDrafts only: the replacement records are proposals; nothing is accepted and no\nrecord is superseded until a person accepts the plan after review:\n\n    git adr compaction --confirm %s@%d\n",
			strings.Join(ids, ", "), id, p.Revision, id, p.Revision)
		if head, err = repo.CommitTree(gitops.CommitOptions{Tree: tree, Parents: []string{p.Base}, Message: msg}); err != nil {
			return err
		}
		what = fmt.Sprintf("proposes %s: the drafts of plan %s revision %d, nothing accepted", strings.Join(ids, ", "), id, rv.Revision)
	}
	ref := "refs/heads/" + branch
	if err := repo.UpdateRefs("git-adr: proposal of plan "+id, gitops.RefUpdate{Name: ref, New: head, Old: gitops.ZeroHash}); err != nil {
		if errors.Is(err, gitops.ErrRefChanged) {
			return usagef("branch %q already exists", branch).hint("choose another name with --branch")
		}
		return err
	}
	dir := filepath.Join(repo.AdrDir(), "publish")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	desc := filepath.Join(dir, id+".md")
	if err := writeFileAtomic(desc, rv.Markdown()); err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "branch %s %s (git diff %s %s)\n", branch, what, short(rv.Base), branch)
	fmt.Fprintf(env.Out, "description: %s\n", desc)
	fmt.Fprintf(env.Out, "next: git push -u origin %s 'refs/adr/*:refs/adr/*' && gh pr create --head %s --body-file %s\n", branch, branch, desc)
	if p.Mode == compaction.Consolidate {
		fmt.Fprintf(env.Out, "after review: on a checkout of %s (or of the target branch after the merge), `git adr compaction --confirm %s@%d` makes the acceptance commit\n", branch, id, p.Revision)
	}
	return nil
}

// candidateManifest is the generator a candidate's manifest names ("" when
// it has none).
func candidateManifest(repo *gitops.Repo, base, cand string) string {
	changes, err := repo.TreeChanges(base, cand)
	if err != nil {
		return ""
	}
	for _, c := range changes {
		if filepath.Base(c.Path) == "CURRENT.sources.json" {
			if data, err := repo.ReadBlobAt(cand, c.Path); err == nil {
				if m, err := view.DecodeManifest(data); err == nil {
					return m.Generator
				}
			}
		}
	}
	return ""
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

func dirExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
