package main

import (
	"errors"

	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/publish"
	"github.com/git-adr/git-adr/gitops"
)

// runConfirm is `git adr compaction --confirm PLAN@REVISION`: the
// fallback and recovery entry of the one acceptance service, with exactly
// the checks of the prompt. A summary is published (it accepts no ADR, so
// no terminal is needed; strict mode still requires the signature); a
// consolidation is accepted, which a person does on the controlling
// terminal, or in strict mode with a commit signed by an allowed signer
// who is an approver. A replayed confirmation does nothing twice, and one
// interrupted at any point is finished by the next: the commit carries
// "ADR-Plan: <id>@<revision>" and is found, never made again.
func runConfirm(env *Env, o compactionOptions) error {
	p, _, _, err := loadPlan(env, o.planID)
	if err != nil {
		return err
	}
	if p.Mode == compaction.Consolidate {
		return runAcceptConfirm(env, o)
	}
	_, acc, err := reviewedAcceptance(env, o)
	if err != nil || acc == nil {
		return err
	}
	return runPlanAcceptance(env, o.planID, o.revision, acc.Approval)
}

// publishErr explains a publication that made no commit; again says how to
// retry and status names the command that shows the plan.
func publishErr(err error, again, status string) error {
	switch {
	case errors.Is(err, publish.ErrLocalChanges):
		return withCode(ExitConflict, err).hint("commit or stash your changes to these files, then " + again)
	case errors.Is(err, publish.ErrDetached):
		return usagef("%v: the publication commit needs a branch", err).hint("switch to a branch, then " + again)
	case errors.Is(err, publish.ErrNothingToPublish):
		return failf("%v: nothing was published", err).hint("see `git log -1` and `" + status + "`")
	case errors.Is(err, gitops.ErrRefChanged):
		return withCode(ExitConflict, err).hint("the branch moved while publishing; " + again)
	}
	return err
}
