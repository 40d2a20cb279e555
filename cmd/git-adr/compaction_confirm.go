package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/gitops"
)

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
	// From here on nothing else writes: the plan must still be the one
	// read, and the sources are checked again as they are now.
	if err := env.lockWrites(); err != nil {
		return err
	}
	if _, again, err := store.Load(p.ID); err != nil || again != commit {
		return withCode(ExitConflict, fmt.Errorf("plan %s changed while it was being confirmed; nothing was published", p.ID)).
			hint("review it again with `git adr compaction review " + p.ID + "`")
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
