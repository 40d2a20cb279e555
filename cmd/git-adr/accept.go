package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/accept"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/compaction/workflow"
	"github.com/git-adr/git-adr/adr/publish"
	"github.com/git-adr/git-adr/gitops"
)

// This file connects the commands that accept (the prompt, --confirm,
// decide) to the one acceptance service, adr/accept.

// headLog loads the decision log as HEAD commits it (accept.HeadLog),
// with the command's roots.
func headLog(env *Env) (*adr.Log, error) {
	repo, err := env.Repo()
	if err != nil {
		return nil, err
	}
	var roots []string
	for _, p := range env.Roots {
		rel, ok := repo.Rel(p)
		if !ok {
			return nil, usagef("--root %q is outside the repository %q", p, repo.Top)
		}
		roots = append(roots, rel)
	}
	l, err := accept.HeadLog(repo, roots, env.parseCache(repo))
	if errors.Is(err, accept.ErrNoCommit) {
		return nil, failf("the repository has no commit yet; acceptance commits on top of HEAD").hint("commit the ADR records first")
	}
	return l, err
}

// acceptInput is what the acceptance service reads, over l.
func acceptInput(env *Env, l *adr.Log) (accept.Input, error) {
	trees, err := env.branchTrees()
	if err != nil {
		return accept.Input{}, err
	}
	return accept.InputFor(mustRepo(env), l, trees, generator()), nil
}

// execOptions says how an acceptance commits (accept.OptionsFor).
func execOptions(env *Env, l *adr.Log) (accept.ExecOptions, error) {
	repo := mustRepo(env)
	o, err := accept.OptionsFor(repo, l, journalDir(repo), env.command)
	if errors.Is(err, accept.ErrNoIdentity) {
		return o, failf("%v", err).hint(`set one: git config user.name "Ada Lovelace"; git config user.email ada@example.com`)
	}
	return o, err
}

// effects describes what accepting does, for the prompt and --confirm:
// acceptance effects are disclosed, never disguised as saving a draft.
func effects(w io.Writer, env *Env, acc *accept.Acceptance, strict bool, sign bool) {
	repo := mustRepo(env)
	branch := strings.TrimPrefix(repo.CurrentBranch(), "refs/heads/")
	p := acc.Plan
	verb := "Accepting"
	if p != nil && p.Mode == compaction.Summary {
		verb = "Publishing"
	}
	what := "this decision"
	if p != nil {
		what = fmt.Sprintf("plan %s revision %d", p.ID, p.Revision)
	}
	fmt.Fprintf(w, "%s %s makes ONE commit on branch %s that will:\n", verb, what, branch)
	for _, id := range acc.Ledger.Accepted {
		fmt.Fprintf(w, "  accept %s%s\n", id, recordPath(acc, id))
	}
	for _, r := range acc.Ledger.Retired() {
		fmt.Fprintf(w, "  mark %s superseded by %s, with reciprocal links\n", r.Old, strings.Join(r.By, " and "))
	}
	for _, v := range acc.Paths(accept.View) {
		fmt.Fprintf(w, "  publish %s\n", env.display(v))
	}
	for _, ix := range acc.Paths(accept.Index) {
		fmt.Fprintf(w, "  rebuild %s\n", env.display(ix))
	}
	switch {
	case strict:
		fmt.Fprintln(w, "  be signed by you and verified against the allowed signers and approvers before the branch moves (strict mode)")
	case sign:
		fmt.Fprintln(w, "  be signed (git's commit.gpgsign or .adr.toml [signing])")
	}
	if p != nil && p.Archive {
		archivePartCard(w, env, acc.Archive)
	} else {
		fmt.Fprintln(w, "  archive nothing (archival is its own plan: git adr archive)")
	}
	for _, n := range acc.Notes {
		fmt.Fprintf(w, "  note: %s\n", adr.EscapeBody(n))
	}
	if a := acc.Approval; a.Candidate != "" {
		fmt.Fprintf(w, "approval names: candidate tree %s, sources %s, membership %s, changes %s\n", short(a.Candidate), short(a.Sources), short(a.Membership), short(a.Changes))
	}
}

func recordPath(acc *accept.Acceptance, id string) string {
	if acc.Plan == nil {
		return ""
	}
	for _, r := range acc.Plan.Reserved {
		if r.ID == id {
			return " (" + r.Path + ", a new record)"
		}
	}
	return ""
}

// runPlanAcceptance accepts (or, for a summary, publishes) exactly the
// plan revision whose approval was shown, under the project lock: the
// service prepares it again from content and refuses any difference.
func runPlanAcceptance(env *Env, id string, revision int, shown accept.Approval) error {
	if err := env.lockWrites(); err != nil {
		return err
	}
	l, err := headLog(env)
	if err != nil {
		return err
	}
	in, err := acceptInput(env, l)
	if err != nil {
		return err
	}
	a, err := workflow.AcceptPlan(in, id, revision, shown, func() (accept.ExecOptions, error) { return execOptions(env, l) })
	var de *accept.DoneError
	var re *workflow.RecordError
	switch {
	case errors.As(err, &de):
		return finishDone(env, in, de)
	case errors.As(err, &re):
		return failf("plan %s revision %d was committed in %s, but recording it failed: %v", id, revision, short(re.Commit), re.Err).
			hint(fmt.Sprintf("run `git adr compaction --confirm %s@%d` again to finish it", id, revision))
	case err != nil && a != nil && a.Result != nil:
		return failf("plan %s revision %d was committed in %s, but bringing the work tree up to date failed: %v", id, revision, short(a.Result.Commit), err).
			hint(fmt.Sprintf("run `git adr compaction --confirm %s@%d` again to finish it; `git adr compaction status %s` shows each component", id, revision, id))
	case err != nil && a != nil:
		return executeErr(a.Acceptance, err)
	case err != nil:
		return planAcceptErr(env, id, revision, err)
	}
	acc, res, removed := a.Acceptance, a.Result, a.Removed
	state := "accepted in "
	if acc.Plan.Mode == compaction.Summary {
		state = "published in "
	}
	writeReceipt(env, receipt{Plan: id, Revision: revision, State: state + res.Commit, Review: "git show " + short(res.Commit)})
	reportAcceptance(env, acc, res, removed)
	if !acc.Plan.Archive {
		return nil
	}
	err = runArchiveOnAccept(env, res.Commit, fmt.Sprintf("%s@%d", id, revision))
	reportComponents(env, res.Commit)
	return err
}

// reportComponents prints where each component of an acceptance with an
// archive part stands (lifecycle, view, index, archive), separately.
func reportComponents(env *Env, commit string) {
	cs, err := accept.Components(mustRepo(env), commit, true)
	if err != nil {
		return
	}
	for _, c := range cs {
		fmt.Fprintf(env.Out, "%s: %s\n", c.Component, c.State)
	}
}

// reportAcceptance prints what an acceptance did.
func reportAcceptance(env *Env, acc *accept.Acceptance, res *accept.Result, removed []string) {
	for _, k := range res.Kept {
		fmt.Fprintf(env.Err, "git-adr: note: %s was changed in the work tree since; it was left as it is (the commit holds the accepted version)\n", env.display(k))
	}
	for _, n := range acc.Notes {
		if strings.Contains(n, " stays ") {
			fmt.Fprintf(env.Err, "git-adr: note: %s\n", adr.EscapeBody(n))
		}
	}
	for _, id := range acc.Ledger.Accepted {
		fmt.Fprintf(env.Out, "accepted %s\n", id)
	}
	for _, pr := range acc.Ledger.Supersedes {
		fmt.Fprintf(env.Out, "superseded %s by %s\n", pr.Old, pr.New)
	}
	for _, v := range acc.Paths(accept.View) {
		fmt.Fprintf(env.Out, "published %s\n", env.display(v))
	}
	for _, ix := range acc.Paths(accept.Index) {
		fmt.Fprintf(env.Out, "updated %s\n", env.display(ix))
	}
	fmt.Fprintf(env.Out, "commit %s\n", short(res.Commit))
	for _, r := range removed {
		fmt.Fprintf(env.Out, "removed %s\n", r)
	}
}

// finishDone completes a plan revision a commit already accepted (a run
// that was interrupted after its commit reached the branch, or a replay):
// never a second commit.
func finishDone(env *Env, in accept.Input, de *accept.DoneError) error {
	repo := in.Repo
	f, err := workflow.FinishAccepted(in, de, journalDir(repo), env.command)
	if err != nil && !errors.Is(err, workflow.ErrNotOnBranch) {
		return planStoreErr(err)
	}
	p := f.Plan
	word := "accepted"
	if p.Mode == compaction.Summary {
		word = "published"
	}
	if err != nil {
		return failf("plan %s revision %d was %s in commit %s, which is not on this branch; a plan revision is accepted once, nothing was done", de.Plan, de.Revision, word, short(de.Commit)).
			hint("to accept the same change again here, draft a new plan: git adr compaction --mode " + string(p.Mode) + p.Scope.Flags())
	}
	if !f.WasDone {
		fmt.Fprintf(env.Err, "git-adr: note: plan %s revision %d was %s in commit %s by a run that was interrupted; finishing it\n", de.Plan, de.Revision, word, short(de.Commit))
	}
	for _, k := range f.Kept {
		fmt.Fprintf(env.Err, "git-adr: note: %s was changed in the work tree since; it was left as it is (the commit holds the %s version)\n", env.display(k), word)
	}
	if f.ArchivePending {
		// The archive part is what is left: carry it out if it is still
		// what was approved, else say it was skipped.
		fmt.Fprintf(env.Out, "plan %s revision %d is %s in commit %s; its archive part is not carried out yet\n", de.Plan, de.Revision, word, short(de.Commit))
		err := runArchiveOnAccept(env, de.Commit, fmt.Sprintf("%s@%d", de.Plan, de.Revision))
		reportComponents(env, de.Commit)
		return err
	}
	if f.WasDone {
		fmt.Fprintf(env.Out, "plan %s revision %d is already %s in commit %s; nothing to do\n", de.Plan, de.Revision, word, short(de.Commit))
		return nil
	}
	fmt.Fprintf(env.Out, "plan %s revision %d is %s in commit %s; finished\n", de.Plan, de.Revision, word, short(de.Commit))
	return nil
}

// planAcceptErr explains a plan acceptance the service refused.
func planAcceptErr(env *Env, id string, revision int, err error) error {
	var rf *accept.Refusal
	if !errors.As(err, &rf) {
		if errors.Is(err, compaction.ErrNoPlan) {
			return usagef("no plan %q", id).hint("run `git adr compaction status` to list plans")
		}
		return err
	}
	p, _, _, _ := loadPlan(env, id)
	mode, scope := compaction.Consolidate, compaction.Scope{}
	if p != nil && p.ID == id {
		mode, scope = p.Mode, p.Scope
	}
	nothing := "nothing was accepted"
	what := "the reviewed plan no longer describes the log"
	if mode == compaction.Summary {
		nothing, what = "nothing was published", "the reviewed summary no longer describes it"
	}
	redraft := "draft a new revision: git adr compaction --mode " + string(mode) + scope.Flags()
	msg := strings.Join(rf.Problems, "; ")
	switch rf.Kind {
	case accept.Revision:
		e := usagef("%s", msg)
		if rf.Hint != "" {
			e.hint(rf.Hint)
		}
		return e
	case accept.Stale:
		return failf("%s; %s, %s", msg, what, nothing).hint(redraft)
	case accept.Invalid:
		return failf("plan %s revision %d does not pass validation now, whatever its state says; %s: %s", id, revision, nothing, msg).
			hint("see `git adr compaction review "+id+"`", redraft)
	}
	return failf("plan %s revision %d is not what was reviewed; %s: %s", id, revision, nothing, msg).
		hint("refs/adr/* are storage, not authority: acceptance checks content, and this content does not check out", redraft)
}

// executeErr explains an acceptance Execute refused.
func executeErr(acc *accept.Acceptance, err error) error {
	again := "confirm again"
	status := "git adr compaction status"
	if acc.Plan == nil {
		again = "decide again"
	} else {
		status += " " + acc.Plan.ID
	}
	var ae *accept.ApprovalError
	var se *accept.StrictError
	switch {
	case errors.As(err, &ae):
		return withCode(ExitConflict, err).hint("what would be committed is not what you were shown; review it again and " + again)
	case errors.As(err, &se):
		e := failf("%v; nothing was accepted (the branch did not move)", se.Problem.Message)
		if se.Problem.Fix != "" {
			e.hint(se.Problem.Fix)
		}
		return e
	case errors.Is(err, publish.ErrLocalChanges):
		return withCode(ExitConflict, err).hint("commit or stash your changes to these files, then " + again)
	case errors.Is(err, publish.ErrDetached):
		return usagef("%v: the acceptance commit needs a branch", err).hint("switch to a branch, then " + again)
	case errors.Is(err, publish.ErrNothingToPublish):
		return failf("%v: nothing was accepted", err).hint("see `git log -1` and `" + status + "`")
	case errors.Is(err, gitops.ErrRefChanged):
		return withCode(ExitConflict, err).hint("the branch moved meanwhile; " + again)
	}
	return err
}
