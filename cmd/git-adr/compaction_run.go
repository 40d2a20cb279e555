package main

import (
	"context"
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/compaction/workflow"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/gitops"
	"github.com/urfave/cli/v2"
)

// compactionSubcommands are `git adr compaction <name>`.
func compactionSubcommands(env *Env) []*cli.Command {
	return []*cli.Command{
		compactionStatusCommand(env),
		compactionReviewCommand(env),
		compactionSubmitCommand(env),
		compactionPublishCommand(env),
		compactionCancelCommand(env),
	}
}

// runDrafting makes the plan, shows its scope, read volume and cost, asks,
// drafts, validates, stores the candidate and the review, and asks for
// approval (summary) or points at the review (consolidation).
func runDrafting(env *Env, o compactionOptions, a *compaction.Analysis) error {
	l, err := env.Log()
	if err != nil {
		return err
	}
	cfg := l.Config
	ds, err := drafterFor(env, cfg, o.drafter)
	if err != nil {
		return err
	}
	drafter, drafterName := ds.drafter, ds.name
	po := compaction.PlanOptions{Mode: o.mode, Domain: o.domain, Sources: o.sources, Style: string(o.style), Baseline: o.baseline,
		Iteration: o.iteration, Archive: o.archive, AckExternalLinks: o.ack, Drafter: drafterName, Tokens: evidence.TokensO200k}
	var p *compaction.Plan
	var commit string
	if err := env.locked(func() (err error) {
		p, commit, err = startPlan(env, l, a, po)
		return err
	}); err != nil {
		return err
	}
	switch p.State {
	case compaction.Published, compaction.Accepted:
		fmt.Fprintf(env.Out, "plan %s is already %s (revision %d); the log has not changed since\n", p.ID, p.State, p.Revision)
		return nil
	case compaction.Validated:
		fmt.Fprintf(env.Out, "plan %s revision %d is drafted and valid; nothing has changed since\n", p.ID, p.Revision)
		if p.Mode == compaction.Consolidate {
			if _, done, err := askConsolidation(env, l, p); done || err != nil {
				return err
			}
			return approve(env, l, p)
		}
		return approve(env, l, p)
	}
	w := env.Out
	fmt.Fprintf(w, "plan %s revision %d (%s)\n", p.ID, p.Revision, p.Mode)
	for _, rc := range a.Roots {
		fmt.Fprintf(w, "root %s: %d records in scope\n", rc.Path, rc.Count)
	}
	fmt.Fprintf(w, "sources: %d records; evidence: %d more records (system constraints and links)\n", len(p.Sources), len(p.Evidence))
	fmt.Fprintln(w, volumeText(p, cfg))
	fmt.Fprintf(w, "drafter: %s\n", drafterName)
	// What runs and where data goes is shown before any consent, --yes
	// included.
	for _, line := range ds.disclosure {
		fmt.Fprintf(env.Err, "git-adr: %s\n", line)
	}
	if !o.yes {
		if !env.interactive() {
			path, err := writeReceipt(env, receipt{Plan: p.ID, Revision: p.Revision, State: "awaiting acknowledgement of the read volume and cost",
				Choices: []string{"draft", "cancel"}, Review: "git adr compaction status " + p.ID})
			if err != nil {
				return err
			}
			return withCode(ExitAwaiting, fmt.Errorf("drafting plan %s needs an answer, and there is no terminal to ask on (receipt: %s)", p.ID, path)).
				hint(fmt.Sprintf("run it on a terminal, or acknowledge the read volume and cost with `git adr compaction --mode %s --yes` (that approves drafting only)", p.Mode))
		}
		if !ask(env, fmt.Sprintf("Draft plan %s with the %s drafter?", p.ID, drafterName)) {
			fmt.Fprintf(w, "nothing drafted; the plan stays at %s\n", compaction.PlanRef(p.ID))
			return nil
		}
	}
	if p.Mode == compaction.Consolidate {
		if err := env.locked(func() error {
			branches, err := env.branchTrees()
			if err != nil {
				return err
			}
			if p, commit, err = workflow.Reserve(mustRepo(env), l, a, p, commit, branches, today()); err != nil {
				return planStoreErr(err)
			}
			return nil
		}); err != nil {
			return err
		}
	}
	batches := compaction.Batches(l, p, compaction.BatchLimits{})
	brief := compaction.BriefFor(p)
	if drafter == nil { // manual
		repo, _ := env.Repo()
		var dir string
		if err := env.locked(func() (err error) {
			dir, err = compaction.PrepareManual(repo, p, brief, batches)
			return err
		}); err != nil {
			return err
		}
		fmt.Fprintf(w, "drafting worktree: %s\n", dir)
		fmt.Fprintf(w, "next: fill in %s/%s/draft.json (see its README.md), then run `git adr compaction submit %s`\n", dir, compaction.DraftDir, p.ID)
		return nil
	}
	for {
		cand, _, err := compaction.DraftAll(context.Background(), drafter, brief, batches, func(msg string) {
			fmt.Fprintf(env.Err, "git-adr: %s\n", msg)
		})
		if err != nil {
			return failf("drafting plan %s: %v", p.ID, err).hint("nothing was published; fix the drafter and run the command again (the plan is kept)")
		}
		if err := env.locked(func() (err error) {
			p, commit, err = processCandidate(env, l, p, commit, cand, batches)
			return err
		}); err != nil {
			return err
		}
		var feedback string
		if p.Mode == compaction.Consolidate {
			fb, done, err := askConsolidation(env, l, p)
			if done {
				return err
			}
			feedback = fb
		} else if !env.interactive() {
			return approve(env, l, p)
		}
		choice := choiceChanges
		if p.Mode == compaction.Summary {
			// Blockers take Publish away, not Request changes or Cancel.
			choice, feedback = promptSummary(env, p.ID, p.Revision, p.State != compaction.Validated)
		}
		switch choice {
		case choicePublish:
			return runConfirm(env, compactionOptions{planID: p.ID, revision: p.Revision})
		case choiceCancel:
			return runCompactionCancel(env, p.ID)
		case choiceChanges:
			if err := env.locked(func() (err error) {
				commit, err = workflow.RequestChanges(mustRepo(env), p, commit, feedback)
				return err
			}); err != nil {
				return planStoreErr(err)
			}
			brief = compaction.BriefFor(p)
			fmt.Fprintf(env.Out, "revision %d: drafting again with your feedback\n", p.Revision)
		default:
			return approve(env, l, p)
		}
	}
}

func mustRepo(env *Env) *gitops.Repo {
	r, _ := env.Repo()
	return r
}

// approve ends a drafting run that cannot ask: blockers are shown; a
// valid summary or consolidation waits for approval, which no terminal
// can give (exit 3 with a receipt).
func approve(env *Env, l *adr.Log, p *compaction.Plan) error {
	switch {
	case p.State == compaction.Drafted:
		return failf("plan %s revision %d has blockers; nothing can be published", p.ID, p.Revision).
			hint("see `git adr compaction review " + p.ID + "`, fix the drafter or the draft, and run again")
	case p.Mode == compaction.Consolidate:
		return awaitingAcceptance(env, p)
	}
	confirm := confirmCommand(p)
	path, err := writeReceipt(env, receipt{Plan: p.ID, Revision: p.Revision, State: "awaiting approval",
		Choices: []string{"publish summary", "request changes", "cancel"}, Confirm: confirm, Review: "git adr compaction review " + p.ID})
	if err != nil {
		return err
	}
	return withCode(ExitAwaiting, fmt.Errorf("plan %s revision %d awaits approval (receipt: %s)", p.ID, p.Revision, path)).
		hint("review it with `git adr compaction review "+p.ID+"`, then publish it with `"+confirm+"`",
			"to change it, run the mode again on a terminal and choose Request changes; to drop it, `git adr compaction cancel "+p.ID+"`")
}
