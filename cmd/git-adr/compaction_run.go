package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
	"github.com/urfave/cli/v2"
)

func init() {
	runCompactionMode = runDrafting
	runCompactionConfirm = runConfirm
}

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
	drafter, drafterName, err := drafterFor(env, cfg, o.drafter)
	if err != nil {
		return err
	}
	dp := draftParams{mode: o.mode, domain: o.domain, sources: o.sources, style: string(o.style), baseline: o.baseline,
		iteration: o.iteration, drafter: drafterName, yes: o.yes}
	p, commit, err := planFor(env, l, a, dp)
	if err != nil {
		return err
	}
	switch p.State {
	case compaction.Published:
		fmt.Fprintf(env.Out, "plan %s is already published (revision %d); the log has not changed since\n", p.ID, p.Revision)
		return nil
	case compaction.Validated:
		fmt.Fprintf(env.Out, "plan %s revision %d is drafted and valid; nothing has changed since\n", p.ID, p.Revision)
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
		if p, commit, err = reserve(env, l, a, p, commit); err != nil {
			return err
		}
	}
	batches := compaction.Batches(l, p, compaction.BatchLimits{})
	brief := briefFor(p)
	if drafter == nil { // manual
		repo, _ := env.Repo()
		dir, err := compaction.PrepareManual(repo, p, brief, batches)
		if err != nil {
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
		p, commit, err = processCandidate(env, l, p, commit, cand, batches)
		if err != nil {
			return err
		}
		if p.Mode != compaction.Summary || p.State != compaction.Validated || !env.interactive() {
			return approve(env, l, p)
		}
		choice, feedback := promptSummary(env, p.ID, p.Revision, false)
		switch choice {
		case choicePublish:
			return runConfirm(env, compactionOptions{planID: p.ID, revision: p.Revision})
		case choiceCancel:
			return runCompactionCancel(env, p.ID)
		case choiceChanges:
			p.Feedback = append(p.Feedback, feedback)
			p.State = compaction.Planned
			store := &compaction.Store{Repo: mustRepo(env)}
			if commit, err = store.Save(p, nil, commit); err != nil {
				return planStoreErr(err)
			}
			brief = briefFor(p)
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

// approve ends a drafting run: blockers are shown; a valid summary waits
// for approval, which no terminal can give (exit 3 with a receipt); a
// consolidation points at its review, since accepting replacements is a
// separate step.
func approve(env *Env, l *adr.Log, p *compaction.Plan) error {
	switch {
	case p.State == compaction.Drafted:
		return failf("plan %s revision %d has blockers; nothing can be published", p.ID, p.Revision).
			hint("see `git adr compaction review " + p.ID + "`, fix the drafter or the draft, and run again")
	case p.Mode == compaction.Consolidate:
		fmt.Fprintf(env.Out, "next: review with `git adr compaction review %s`, share with `git adr compaction publish %s --branch BRANCH`\n", p.ID, p.ID)
		return nil
	}
	confirm := fmt.Sprintf("git adr compaction --confirm %s@%d", p.ID, p.Revision)
	path, err := writeReceipt(env, receipt{Plan: p.ID, Revision: p.Revision, State: "awaiting approval",
		Choices: []string{"publish summary", "request changes", "cancel"}, Confirm: confirm, Review: "git adr compaction review " + p.ID})
	if err != nil {
		return err
	}
	return withCode(ExitAwaiting, fmt.Errorf("plan %s revision %d awaits approval (receipt: %s)", p.ID, p.Revision, path)).
		hint("review it with `git adr compaction review "+p.ID+"`, then publish it with `"+confirm+"`",
			"to change it, run the mode again on a terminal and choose Request changes; to drop it, `git adr compaction cancel "+p.ID+"`")
}

// reserve gives a consolidation the numbers its replacements will take: one
// per cluster of records classed consolidate (at least one), past every
// number in use, reserved with create-only refs in the plan's revision.
func reserve(env *Env, l *adr.Log, a *compaction.Analysis, p *compaction.Plan, commit string) (*compaction.Plan, string, error) {
	if len(p.Reserved) > 0 {
		return p, commit, nil
	}
	repo := mustRepo(env)
	store := &compaction.Store{Repo: repo}
	reserved, err := store.Reservations()
	if err != nil {
		return nil, "", err
	}
	branches, err := env.branchTrees()
	if err != nil {
		return nil, "", err
	}
	seen := adr.ScanBranches(branches, l.Roots)
	want := compaction.Clusters(l, a)
	for _, cl := range want {
		root := cl.Root
		n := adr.NextNumber(root, seen, reserved[root.Path])
		reserved[root.Path] = append(reserved[root.Path], n)
		id := root.FormatID(n)
		name := root.FileName(n, "consolidated "+strings.Join(cl.IDs, " "), today())
		p.Reserved = append(p.Reserved, compaction.Reservation{Root: root.Dir(), Number: n, ID: id, Path: root.Join(name)})
	}
	c, err := store.Save(p, nil, commit)
	if err != nil {
		return nil, "", planStoreErr(err)
	}
	return p, c, nil
}

// processCandidate validates a candidate, builds the proposal commit on the
// plan's base (CURRENT pairs, replacement records), stores it on the
// candidate ref and a new plan revision with the review, and prints the
// review.
func processCandidate(env *Env, l *adr.Log, p *compaction.Plan, commit string, cand *compaction.Candidate, batches []compaction.Batch) (*compaction.Plan, string, error) {
	repo := mustRepo(env)
	store := &compaction.Store{Repo: repo}
	issues := compaction.Validate(l, p, cand)
	rev := p.Revision + 1
	var changes []gitops.TreeChange
	var outputs []string
	if p.Mode == compaction.Summary {
		sources, deps := planRecords(l, p)
		var ids []string
		if len(p.Scope.Sources) > 0 {
			for _, s := range p.Sources {
				ids = append(ids, s.ID)
			}
		}
		pairs, err := view.BuildAll(l, view.NewSelection(p.Scope.Domain, ids), sources, deps, cand.Summary, p.ID, rev, "git-adr "+version)
		var de *view.DraftError
		var fe *view.ForeignError
		switch {
		case errors.As(err, &de):
			for _, pr := range de.Problems {
				issues = append(issues, compaction.Issue{Kind: compaction.IssueCoverage, Message: pr})
			}
		case errors.As(err, &fe):
			issues = append(issues, compaction.Issue{Kind: compaction.IssueOwnership, Path: fe.Path, Message: fe.Error() + "; git-adr never overwrites it: rename it or remove it"})
		case err != nil:
			return nil, "", err
		}
		for _, pair := range pairs {
			cur, man := pair.Paths()
			changes = append(changes, gitops.TreeChange{Path: cur, Data: pair.Current}, gitops.TreeChange{Path: man, Data: pair.ManifestJSON})
			outputs = append(outputs, cur, man)
		}
	} else {
		files, future, err := compaction.Future(l, p, cand)
		if err != nil {
			issues = append(issues, compaction.Issue{Kind: compaction.IssueReference, Message: err.Error()})
		} else {
			var paths []string
			for path := range files {
				paths = append(paths, path)
			}
			sort.Strings(paths)
			for _, path := range paths {
				changes = append(changes, gitops.TreeChange{Path: path, Data: files[path]})
				outputs = append(outputs, path)
			}
			p.Transitions = transitions(l, future, p)
			// The index preview of roots that keep a generated INDEX.md.
			if ixs, err := future.Indexes(); err == nil {
				for _, ix := range ixs {
					if ix.State == adr.IndexStale {
						changes = append(changes, gitops.TreeChange{Path: ix.Path, Data: ix.Content})
						outputs = append(outputs, ix.Path)
					}
				}
			}
			// The CURRENT view after acceptance, when the drafter wrote one.
			if len(cand.Summary.Constraints) > 0 {
				ch, out, viewIssues := futureView(future, p, cand)
				changes, outputs, issues = append(changes, ch...), append(outputs, out...), append(issues, viewIssues...)
			}
		}
	}
	candidate := ""
	if len(changes) > 0 {
		tree, err := repo.BuildTree(p.Base, changes)
		if err != nil {
			return nil, "", err
		}
		candidate, err = repo.CommitTree(gitops.CommitOptions{Tree: tree, Parents: []string{p.Base},
			Message: fmt.Sprintf("git-adr candidate: plan %s revision %d (%s)\n", p.ID, rev, p.Mode)})
		if err != nil {
			return nil, "", err
		}
		old := gitops.ZeroHash
		if cur, err := repo.ResolveRef(compaction.CandidateRef(p.ID)); err == nil {
			old = cur
		}
		if err := repo.UpdateRefs("git-adr candidate "+p.ID, gitops.RefUpdate{Name: compaction.CandidateRef(p.ID), New: candidate, Old: old}); err != nil {
			return nil, "", planStoreErr(fmt.Errorf("%w: %v", compaction.ErrPlanChanged, err))
		}
	}
	// Record each unit's coverage in the plan.
	cov := map[string]view.UnitCoverage{}
	for _, c := range cand.Summary.Coverage {
		cov[c.Unit] = c
	}
	for i := range p.Sources {
		for j := range p.Sources[i].Units {
			u := &p.Sources[i].Units[j]
			if c, ok := cov[u.Locator]; ok {
				u.Coverage, u.Location, u.Reason = c.State, c.Location, c.Reason
			}
		}
	}
	p.State = compaction.Validated
	if len(issues) > 0 {
		p.State = compaction.Drafted
	}
	p.Revision = rev
	rv := compaction.NewReview(p, cand, issues, outputs, candidate)
	files := map[string][]byte{"candidate.json": jsonBytes(cand), "review.json": rv.JSON(), "review.md": rv.Markdown()}
	for _, b := range batches {
		files[fmt.Sprintf("evidence/batch-%d.json", b.Number)] = jsonBytes(b)
	}
	newCommit, err := store.Save(p, files, commit)
	if err != nil {
		return nil, "", planStoreErr(err)
	}
	env.Out.Write(rv.Text())
	return p, newCommit, nil
}

// transitions lists the lifecycle changes acceptance of a consolidation
// would make (sources whose status changes in the future log).
func transitions(l, future *adr.Log, p *compaction.Plan) []compaction.Transition {
	out := []compaction.Transition{}
	for _, s := range p.Sources {
		now, then := l.ByPath(s.Path), future.ByPath(s.Path)
		if now != nil && then != nil && now.Status != then.Status {
			out = append(out, compaction.Transition{ID: s.ID, From: string(now.Status), To: string(then.Status)})
		}
	}
	for _, r := range p.Reserved {
		if rec := future.ByPath(r.Path); rec != nil {
			out = append(out, compaction.Transition{ID: r.ID, From: "new", To: string(rec.Status)})
		}
	}
	return out
}

// futureView renders the CURRENT view a consolidation would publish: over
// the future log, with the drafter's summary, the replacement records'
// units counted as retained in their own records.
func futureView(future *adr.Log, p *compaction.Plan, cand *compaction.Candidate) ([]gitops.TreeChange, []string, []compaction.Issue) {
	d := cand.Summary
	d.Coverage = append([]view.UnitCoverage(nil), d.Coverage...)
	var ids []string
	for _, s := range p.Sources {
		ids = append(ids, s.ID)
	}
	for _, r := range p.Reserved {
		rec := future.ByPath(r.Path)
		if rec == nil {
			continue
		}
		ids = append(ids, r.ID)
		for _, u := range rec.Units {
			d.Coverage = append(d.Coverage, view.UnitCoverage{Unit: u.ID, State: compaction.Retained, Location: "replacement " + r.ID})
		}
	}
	if len(p.Scope.Sources) == 0 {
		ids = nil
	}
	sel := view.NewSelection(p.Scope.Domain, ids)
	var sources, deps []*adr.Record
	for _, root := range future.Roots {
		sources = append(sources, view.Members(future, root, sel)...)
	}
	for _, e := range p.Evidence {
		if r := future.ByPath(e.Path); r != nil {
			deps = append(deps, r)
		}
	}
	pairs, err := view.BuildAll(future, sel, sources, deps, d, p.ID, p.Revision+1, "git-adr "+version)
	var issues []compaction.Issue
	var de *view.DraftError
	switch {
	case errors.As(err, &de):
		for _, pr := range de.Problems {
			issues = append(issues, compaction.Issue{Kind: compaction.IssueCoverage, Message: "CURRENT after acceptance: " + pr})
		}
		return nil, nil, issues
	case err != nil:
		return nil, nil, []compaction.Issue{{Kind: compaction.IssueOwnership, Message: err.Error()}}
	}
	var changes []gitops.TreeChange
	var outputs []string
	for _, pair := range pairs {
		cur, man := pair.Paths()
		changes = append(changes, gitops.TreeChange{Path: cur, Data: pair.Current}, gitops.TreeChange{Path: man, Data: pair.ManifestJSON})
		outputs = append(outputs, cur, man)
	}
	return changes, outputs, nil
}

func jsonBytes(v any) []byte {
	data, _ := json.MarshalIndent(v, "", "  ")
	return append(data, '\n')
}

// planRecords returns the plan's sources and evidence as records of l.
func planRecords(l *adr.Log, p *compaction.Plan) (sources, deps []*adr.Record) {
	for _, s := range p.Sources {
		if r := l.ByPath(s.Path); r != nil {
			sources = append(sources, r)
		}
	}
	for _, e := range p.Evidence {
		if r := l.ByPath(e.Path); r != nil {
			deps = append(deps, r)
		}
	}
	return sources, deps
}

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
	p, _, err = processCandidate(env, l, p, commit, cand, compaction.Batches(l, p, compaction.BatchLimits{}))
	if err != nil {
		return err
	}
	return approve(env, l, p)
}

// runConfirm publishes exactly a reviewed summary plan revision as one
// commit on the current branch, after checking again that nothing it
// relies on changed. A replayed confirmation does not publish twice.
func runConfirm(env *Env, o compactionOptions) error {
	p, commit, store, err := loadPlan(env, o.planID)
	if err != nil {
		return err
	}
	repo := store.Repo
	if p.Mode != compaction.Summary {
		return failf("plan %s is a consolidation; accepting replacement ADRs is not available yet", p.ID).
			hint("review it with `git adr compaction review " + p.ID + "` and share it with `git adr compaction publish " + p.ID + " --branch BRANCH`")
	}
	if p.State == compaction.Published {
		if data, err := store.File(commit, "published.json"); err == nil {
			var pub struct{ Commit string }
			json.Unmarshal(data, &pub)
			fmt.Fprintf(env.Out, "plan %s revision %d is already published in commit %s; nothing to do\n", p.ID, o.revision, short(pub.Commit))
			return nil
		}
	}
	switch {
	case o.revision > p.Revision:
		return usagef("plan %s has no revision %d (the latest is %d)", p.ID, o.revision, p.Revision)
	case o.revision < p.Revision && !(p.State == compaction.Published && o.revision == p.Revision-1):
		return usagef("plan %s changed since revision %d: revision %d is the one to review", p.ID, o.revision, p.Revision).
			hint("review it with `git adr compaction review " + p.ID + "`, then confirm that revision")
	case p.State != compaction.Validated:
		return failf("plan %s revision %d is %s, not validated; nothing was published", p.ID, p.Revision, p.State).
			hint("see `git adr compaction review " + p.ID + "`")
	}
	// Check again, under the compare-and-swap of the branch, that the
	// sources are as reviewed.
	l, err := env.Log()
	if err != nil {
		return err
	}
	for _, s := range p.Sources {
		blob, err := repo.TreeBlob("HEAD", s.Path)
		if err != nil {
			return err
		}
		r := l.ByPath(s.Path)
		if blob != s.Blob || r == nil || blobOf(r) != s.Blob {
			return failf("%s changed since plan %s was drafted; the reviewed summary no longer describes it, nothing was published", s.ID, p.ID).
				hint(fmt.Sprintf("draft a new revision: git adr compaction --mode summary%s", scopeFlags(p.Scope)))
		}
	}
	a, err := compaction.Analyze(l, compaction.AnalyzeOptions{Domain: p.Scope.Domain, Sources: p.Scope.Sources})
	if err != nil {
		return err
	}
	members := 0
	for range a.Records {
		members++
	}
	if members != len(p.Sources) {
		return failf("the records in scope changed since plan %s was made (%d then, %d now); nothing was published", p.ID, len(p.Sources), members).
			hint(fmt.Sprintf("draft a new revision: git adr compaction --mode summary%s", scopeFlags(p.Scope)))
	}
	cand, err := repo.ResolveRef(compaction.CandidateRef(p.ID))
	if err != nil {
		return failf("plan %s has no candidate ref; nothing was published", p.ID).hint("draft it again: git adr compaction --mode summary" + scopeFlags(p.Scope))
	}
	data, err := store.File(commit, "review.json")
	if err != nil {
		return err
	}
	var rv compaction.Review
	if err := json.Unmarshal(data, &rv); err != nil {
		return err
	}
	var changes []gitops.TreeChange
	for _, path := range rv.Outputs {
		content, err := repo.ReadBlobAt(cand, path)
		if err != nil {
			return err
		}
		changes = append(changes, gitops.TreeChange{Path: path, Data: content})
	}
	sign, err := repo.SignByDefault()
	if err != nil {
		return err
	}
	sign = sign || l.Config != nil && l.Config.Signing.Sign
	msg := fmt.Sprintf("Publish the CURRENT view from plan %s revision %d\n\nA derived view of %d records, reviewed and approved; the ADRs stay authoritative.\n\nADR-Plan: %s@%d\n", p.ID, p.Revision, len(p.Sources), p.ID, p.Revision)
	for _, c := range changes {
		msg += "ADR-View: " + c.Path + "\n"
	}
	published, err := compaction.Commit(repo, compaction.CommitOptions{Message: msg, Sign: sign, Changes: changes})
	switch {
	case errors.Is(err, compaction.ErrLocalChanges):
		return withCode(ExitConflict, err).hint("commit or stash your changes to these files, then confirm again")
	case errors.Is(err, compaction.ErrDetached):
		return usagef("%v: the publication commit needs a branch", err).hint("switch to a branch, then confirm again")
	case errors.Is(err, gitops.ErrRefChanged):
		return withCode(ExitConflict, err).hint("the branch moved while publishing; confirm again")
	case err != nil:
		return err
	}
	p.State = compaction.Published
	if _, err := store.Save(p, map[string][]byte{"published.json": jsonBytes(map[string]string{"commit": published})}, commit); err != nil {
		return planStoreErr(err)
	}
	repo.UpdateRefs("git-adr: published "+p.ID, gitops.RefUpdate{Name: compaction.CandidateRef(p.ID), Old: cand})
	if dir := compaction.ManualDir(repo, p.ID); dirExists(dir) {
		repo.WorktreeRemove(dir, true)
	}
	writeReceipt(env, receipt{Plan: p.ID, Revision: o.revision, State: "published in " + published, Review: "git show " + short(published)})
	for _, c := range changes {
		fmt.Fprintf(env.Out, "published %s\n", env.display(c.Path))
	}
	fmt.Fprintf(env.Out, "commit %s\n", short(published))
	return nil
}

func scopeFlags(s compaction.Scope) string {
	switch {
	case s.Domain != "":
		return " --domain " + s.Domain
	case len(s.Sources) > 0:
		return " --sources " + strings.Join(s.Sources, ",")
	}
	return ""
}
