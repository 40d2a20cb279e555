package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/publish"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/failpoint"
)

// runConfirm publishes exactly a reviewed summary plan revision as one
// commit on the current branch, after checking again that nothing it
// relies on changed. A replayed confirmation does not publish twice, and a
// confirmation interrupted at any point is finished by the next one: the
// publication commit carries the trailer "ADR-Plan: <id>@<revision>", so
// a commit already made is found and completed, never made again.
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
			// An interrupted run may have left the candidate behind.
			if err := env.locked(func() error { return dropCandidate(env, repo, p.ID) }); err != nil {
				return err
			}
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
	trailer := fmt.Sprintf("ADR-Plan: %s@%d", p.ID, p.Revision)
	opts := publish.Options{JournalDir: journalDir(repo), Command: env.command}
	if pub, err := publish.Find(repo, p.Base, trailer); err != nil {
		return err
	} else if pub != "" {
		fmt.Fprintf(env.Err, "git-adr: note: plan %s revision %d was published in commit %s by a run that was interrupted; finishing it\n", p.ID, p.Revision, short(pub))
		var kept []string
		if head, err := repo.ResolveRef("HEAD"); err == nil && head == pub {
			if kept, err = publish.Sync(repo, pub+"^", pub, changes, opts.JournalDir, opts.Command); err != nil {
				return err
			}
		}
		return recordPublication(env, p, commit, store, o.revision, pub, changes, kept)
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
	if members := len(a.Records); members != len(p.Sources) {
		return failf("the records in scope changed since plan %s was made (%d then, %d now); nothing was published", p.ID, len(p.Sources), members).
			hint(fmt.Sprintf("draft a new revision: git adr compaction --mode summary%s", scopeFlags(p.Scope)))
	}
	sign, err := repo.SignByDefault()
	if err != nil {
		return err
	}
	opts.Sign = sign || l.Config != nil && l.Config.Signing.Sign
	msg := fmt.Sprintf("Publish the CURRENT view from plan %s revision %d\n\nA derived view of %d records, reviewed and approved; the ADRs stay authoritative.\n\n%s\n", p.ID, p.Revision, len(p.Sources), trailer)
	for _, c := range changes {
		msg += "ADR-View: " + c.Path + "\n"
	}
	opts.Steps = []publish.Step{{Message: msg, Changes: changes}}
	commits, kept, err := publish.Commit(repo, opts)
	published := ""
	if len(commits) > 0 {
		published = commits[0]
	}
	switch {
	case err != nil && published == "":
		return publishErr(err, "confirm again", "git adr compaction status "+p.ID)
	case err != nil:
		return failf("plan %s was published in commit %s, but bringing the work tree up to date failed: %v", p.ID, short(published), err).
			hint("run `git adr compaction --confirm " + p.ID + "@" + fmt.Sprint(p.Revision) + "` again to finish it")
	}
	return recordPublication(env, p, commit, store, o.revision, published, changes, kept)
}

// recordPublication records a publication in the plan and cleans up after
// it; each step can be repeated, so an interrupted run is finished by the
// next confirmation.
func recordPublication(env *Env, p *compaction.Plan, commit string, store *compaction.Store, revision int, published string, changes []gitops.TreeChange, kept []string) error {
	repo := store.Repo
	p.State = compaction.Published
	if _, err := store.Save(p, map[string][]byte{"published.json": jsonBytes(map[string]string{"commit": published})}, commit); err != nil {
		return planStoreErr(err)
	}
	failpoint.Hit("publish-saved")
	if err := dropCandidate(env, repo, p.ID); err != nil {
		return err
	}
	writeReceipt(env, receipt{Plan: p.ID, Revision: revision, State: "published in " + published, Review: "git show " + short(published)})
	for _, k := range kept {
		fmt.Fprintf(env.Err, "git-adr: note: %s was changed in the work tree since; it was left as it is (the commit holds the published version)\n", env.display(k))
	}
	for _, c := range changes {
		fmt.Fprintf(env.Out, "published %s\n", env.display(c.Path))
	}
	fmt.Fprintf(env.Out, "commit %s\n", short(published))
	return nil
}

// dropCandidate deletes a plan's candidate ref and drafting worktree.
func dropCandidate(env *Env, repo *gitops.Repo, id string) error {
	if cand, err := repo.ResolveRef(compaction.CandidateRef(id)); err == nil {
		if err := repo.UpdateRefs("git-adr: published "+id, gitops.RefUpdate{Name: compaction.CandidateRef(id), Old: cand}); err != nil && !errors.Is(err, gitops.ErrRefChanged) {
			return err
		}
	}
	if dir := compaction.ManualDir(repo, id); dirExists(dir) {
		repo.WorktreeRemove(dir, true)
	}
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
