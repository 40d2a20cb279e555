package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/accept"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/compaction/workflow"
)

// The four choices of a reviewed consolidation (spec §5.2).
const (
	choiceAccept = "accept"
	choiceSave   = "save"
)

// reviewedAcceptance reads the log at HEAD and the acceptance of the plan
// revision o names, checked against the tree its review saw. A plan whose
// acceptance commit already exists is finished instead, and acc is nil.
func reviewedAcceptance(env *Env, o compactionOptions) (*adr.Log, *accept.Acceptance, error) {
	l, err := headLog(env)
	if err != nil {
		return nil, nil, err
	}
	in, err := acceptInput(env, l)
	if err != nil {
		return nil, nil, err
	}
	acc, err := accept.ForPlan(in, o.planID, o.revision)
	var de *accept.DoneError
	switch {
	case errors.As(err, &de):
		return nil, nil, env.locked(func() error { return finishDone(env, in, de) })
	case err != nil:
		return nil, nil, planAcceptErr(env, o.planID, o.revision, err)
	}
	if err := reviewedTree(o, acc); err != nil {
		return nil, nil, err
	}
	return l, acc, nil
}

// runAcceptConfirm is --confirm for a consolidation: the same acceptance
// as the prompt's Accept and execute, its effects disclosed first. A
// person confirms on the controlling terminal; without one, only strict
// mode accepts (the signed commit is the approval an agent cannot make
// without the approver's key); otherwise the plan waits (exit 3).
func runAcceptConfirm(env *Env, o compactionOptions) error {
	l, acc, err := reviewedAcceptance(env, o)
	if err != nil || acc == nil {
		return err
	}
	opts, err := execOptions(env, l)
	if err != nil {
		return err
	}
	effects(env.Out, env, acc, opts.Strict.On, opts.Sign)
	tty, ok := openTerminal()
	switch {
	case ok:
		defer tty.Close()
		question := fmt.Sprintf("Accept and execute plan %s revision %d?", acc.Plan.ID, acc.Plan.Revision)
		if acc.Archive.Authorised() {
			question = fmt.Sprintf("Accept and execute plan %s revision %d, then archive plan %s as shown?", acc.Plan.ID, acc.Plan.Revision, acc.Archive.Plan.ID)
		}
		if !tty.yes(question) {
			fmt.Fprintln(env.Out, "nothing was accepted")
			return nil
		}
	case !opts.Strict.On:
		return awaitingAcceptance(env, acc.Plan)
	}
	return runPlanAcceptance(env, o.planID, o.revision, acc.Approval)
}

// awaitingAcceptance ends a run that cannot get a person's answer: a
// receipt says what waits, and the command exits 3. Nothing an agent
// writes (a receipt, a flag, standard input) changes that.
func awaitingAcceptance(env *Env, p *compaction.Plan) error {
	confirm := confirmCommand(p)
	path, err := writeReceipt(env, receipt{Plan: p.ID, Revision: p.Revision, State: "awaiting acceptance by a person",
		Choices: []string{"accept and execute", "save drafts only", "request changes", "cancel"}, Confirm: confirm, Review: "git adr compaction review " + p.ID})
	if err != nil {
		return err
	}
	return withCode(ExitAwaiting, fmt.Errorf("plan %s revision %d awaits acceptance by a person, and there is no terminal to ask on (receipt: %s)", p.ID, p.Revision, path)).
		hint("review it with `git adr compaction review "+p.ID+"`, then accept it on a terminal with `"+confirm+"`",
			"in strict mode ([governance] strict = true) the signed acceptance commit is the approval, and --confirm needs no terminal",
			"to share it for review instead: `git adr compaction publish "+p.ID+" --branch BRANCH`; to drop it: `git adr compaction cancel "+p.ID+"`")
}

// consolidationPrompt shows a reviewed consolidation's approval card and
// its four choices on the controlling terminal: Accept and execute, Save
// drafts only, Request changes, Cancel. Blockers disable Accept and
// execute only. End of input is no answer, which is never approval.
func consolidationPrompt(env *Env, tty *terminal, p *compaction.Plan, acc *accept.Acceptance, opts accept.ExecOptions, blockers int) (choice, feedback string) {
	for {
		fmt.Fprintf(tty, "\nplan %s revision %d: %d sources, %s\n", p.ID, p.Revision, len(p.Sources), replacementsText(p))
		fmt.Fprintf(tty, "the full review and documents: git adr compaction review %s (the proposal: git diff %s %s)\n", p.ID, short(p.Base), compaction.CandidateRef(p.ID))
		if acc != nil {
			effects(tty, env, acc, opts.Strict.On, opts.Sign)
			if acc.Archive.Authorised() {
				fmt.Fprintln(tty, "  [a] Accept and execute: accept the replacements in one commit, then carry out the archive plan above; no second question")
			} else {
				fmt.Fprintln(tty, "  [a] Accept and execute: accept the replacements and do all of the above in one commit")
			}
		} else {
			fmt.Fprintf(tty, "  (Accept and execute is disabled: %s; the drafts can still be read and saved)\n", plural(blockers, "blocker"))
		}
		if p.Archive {
			fmt.Fprintln(tty, "  [s] Save drafts only: write the replacements as proposed records; supersede nothing, publish nothing, archive nothing")
		} else {
			fmt.Fprintln(tty, "  [s] Save drafts only: write the replacements as proposed records; supersede nothing, publish nothing")
		}
		fmt.Fprintln(tty, "  [r] Request changes: tell the drafter what to change; a new revision is drafted and reviewed")
		fmt.Fprintln(tty, "  [c] Cancel: accept nothing; drop the candidate and the reserved numbers")
		fmt.Fprint(tty, "choice: ")
		line, ok := tty.line()
		if !ok {
			return "", ""
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "a", "accept":
			if acc != nil {
				return choiceAccept, ""
			}
			fmt.Fprintln(tty, "Accept and execute is disabled while the plan has blockers")
		case "s", "save":
			return choiceSave, ""
		case "r", "request", "changes":
			fmt.Fprintln(tty, "What should change? End with an empty line.")
			if fb := tty.paragraph(); fb != "" {
				return choiceChanges, fb
			}
			fmt.Fprintln(tty, "no feedback given")
		case "c", "cancel":
			return choiceCancel, ""
		}
	}
}

func replacementsText(p *compaction.Plan) string {
	var ids []string
	for _, r := range p.Reserved {
		ids = append(ids, r.ID)
	}
	if len(ids) == 0 {
		return "no replacement"
	}
	return fmt.Sprintf("%s (%s)", plural(len(ids), "replacement"), strings.Join(ids, ", "))
}

// askConsolidation runs the four choices for a drafted consolidation. It
// returns done=false with feedback when the person requests changes.
func askConsolidation(env *Env, l *adr.Log, p *compaction.Plan) (feedback string, done bool, err error) {
	tty, ok := openTerminal()
	if !ok {
		if p.State == compaction.Drafted {
			return "", true, approve(env, l, p)
		}
		return "", true, awaitingAcceptance(env, p)
	}
	defer tty.Close()
	hl, err := headLog(env)
	if err != nil {
		return "", true, err
	}
	in, err := acceptInput(env, hl)
	if err != nil {
		return "", true, err
	}
	opts, err := execOptions(env, hl)
	if err != nil {
		return "", true, err
	}
	acc, rf, blockers, err := workflow.Acceptable(in, p)
	if err != nil {
		return "", true, err
	}
	if rf != nil {
		fmt.Fprintf(env.Err, "git-adr: %s\n", adr.EscapeBody(rf.Error()))
	}
	choice, fb := consolidationPrompt(env, tty, p, acc, opts, blockers)
	switch choice {
	case choiceAccept:
		return "", true, runPlanAcceptance(env, p.ID, p.Revision, acc.Approval)
	case choiceSave:
		return "", true, runSaveDrafts(env, p)
	case choiceChanges:
		return fb, false, nil
	case choiceCancel:
		return "", true, runCompactionCancel(env, p.ID)
	}
	return "", true, awaitingAcceptance(env, p)
}

// runSaveDrafts is Save drafts only: the replacements are written into the
// work tree as proposed records at their reserved paths (one journalled
// changeset); no predecessor is superseded, no view is published, nothing
// is committed or accepted, and the plan still needs acceptance.
func runSaveDrafts(env *Env, p *compaction.Plan) error {
	if err := env.lockWrites(); err != nil {
		return err
	}
	l, err := env.Log()
	if err != nil {
		return err
	}
	changes, saved, err := workflow.SaveDrafts(mustRepo(env), l, p)
	var we *workflow.Error
	var ce *workflow.DraftConflictError
	switch {
	case errors.As(err, &ce):
		return withCode(ExitConflict, ce).
			hint("move it away, or cancel the plan and plan again: `git adr compaction cancel " + p.ID + "`")
	case errors.As(err, &we):
		return workflowErr(we)
	case err != nil:
		return err
	}
	if err := applyChanges(env, changes); err != nil {
		return err
	}
	writeReceipt(env, receipt{Plan: p.ID, Revision: p.Revision, State: "drafts saved as proposed records; nothing accepted",
		Choices: []string{"accept and execute", "cancel"}, Confirm: fmt.Sprintf("git adr compaction --confirm %s@%d", p.ID, p.Revision), Review: "git adr compaction review " + p.ID})
	for _, s := range saved {
		fmt.Fprintf(env.Out, "saved %s (proposed)\n", env.display(s))
	}
	fmt.Fprintln(env.Out, "nothing was accepted or superseded: the records they would replace stay in force")
	fmt.Fprintf(env.Out, "next: commit the drafts to keep them; accept them later with `git adr compaction --confirm %s@%d`, or one by one with `git adr decide ID accept`\n", p.ID, p.Revision)
	return nil
}

// confirmCommand is the --confirm command for a plan revision, naming the
// candidate tree its review shows, so that the approval names content.
func confirmCommand(p *compaction.Plan) string {
	if p.CandidateTree == "" {
		return fmt.Sprintf("git adr compaction --confirm %s@%d", p.ID, p.Revision)
	}
	return fmt.Sprintf("git adr compaction --confirm %s@%d:%s", p.ID, p.Revision, short(p.CandidateTree))
}

// reviewedTree refuses a confirmation that names a candidate tree (the
// one its review showed) other than the one the plan holds now.
func reviewedTree(o compactionOptions, acc *accept.Acceptance) error {
	if o.tree == "" || strings.HasPrefix(acc.Approval.Candidate, o.tree) {
		return nil
	}
	return failf("you confirm candidate tree %s of plan %s revision %d, but the plan's candidate is tree %s now; nothing was accepted", o.tree, o.planID, o.revision, short(acc.Approval.Candidate)).
		hint("review it again with `git adr compaction review " + o.planID + "`: the candidate is not the one you reviewed")
}
