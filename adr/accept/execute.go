package accept

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/govern"
	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/git-adr/git-adr/adr/publish"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/failpoint"
)

// ExecOptions say how an acceptance commits.
type ExecOptions struct {
	// Sign signs the commit (git's commit.gpgsign, .adr.toml [signing]);
	// strict mode always signs.
	Sign   bool
	Strict ledger.Strict
	// ApprovedBy is the person accepting, "Name <email>".
	ApprovedBy string
	// JournalDir holds the work tree's changeset journals; StateDir the
	// acceptance journals ($GIT_DIR/adr/accept); Command is the command
	// line, recorded in both.
	JournalDir, StateDir, Command string
}

// Result is what an execution did.
type Result struct {
	Commit string
	// Kept are committed paths whose work tree copy someone changed
	// meanwhile: left as they are (the commit holds the accepted ones).
	Kept []string
}

// ApprovalError means the content to commit is not the content approved.
type ApprovalError struct {
	// Fields are what differs: "candidate tree", "sources", ...
	Fields []string
}

func (e *ApprovalError) Error() string {
	return fmt.Sprintf("%v (%s differ from what was approved); nothing was accepted", ErrApprovalChanged, strings.Join(e.Fields, ", "))
}

func (e *ApprovalError) Unwrap() error { return ErrApprovalChanged }

// StrictError means strict mode refused the acceptance commit: it was
// made as an object, but its signature does not pass, so the branch did
// not move and nothing was accepted.
type StrictError struct {
	Problem govern.Problem
	// Commit is the refused commit object ("" when refused before it was
	// made).
	Commit string
}

func (e *StrictError) Error() string { return e.Problem.Message }

// Execute makes the acceptance commit. The caller holds the project lock
// and prepared acc under it; approved is what the person was shown: any
// difference refuses, whatever changed. Paths with local changes stop it
// before anything is written.
//
// An authorised archive part is stored as a planned revision of its
// archive plan first (failpoint "accept-archive-plan"); it is carried
// out after the commit, by the caller.
//
// Failpoints, in order: "accept-journal", "accept-<step>" after each
// tree, "publish-commit" (the commit object), "accept-verified", then
// "publish-ref" (the branch moved) and the changeset's own.
func Execute(in Input, acc *Acceptance, approved Approval, o ExecOptions) (*Result, error) {
	repo := in.Repo
	if approved.Digest() != acc.Approval.Digest() {
		return nil, &ApprovalError{Fields: approved.Differences(acc.Approval)}
	}
	branch := repo.CurrentBranch()
	if branch == "" {
		return nil, publish.ErrDetached
	}
	head, err := repo.ResolveRef("HEAD")
	if err != nil {
		return nil, err
	}
	if head != acc.Head {
		return nil, fmt.Errorf("%w: HEAD moved from %s to %s since acceptance was prepared", gitops.ErrRefChanged, shortHash(acc.Head), shortHash(head))
	}
	changes := acc.Changes()
	if err := publish.CheckClean(repo, head, changes); err != nil {
		return nil, err
	}
	if o.Strict.On {
		o.Sign = true
		if len(o.Strict.Approvers) > 0 && !o.Strict.IsApprover(o.ApprovedBy) {
			return nil, &StrictError{Problem: govern.Problem{Rule: ledger.RuleSignature, Block: true,
				Message: fmt.Sprintf("strict mode: %s is not among the approvers ([governance] approvers: %s)", o.ApprovedBy, strings.Join(o.Strict.Approvers, ", ")),
				Fix:     "an approver accepts: run it as one (git config user.email), signing with their key"}}
		}
	}
	if acc.Archive.Authorised() {
		if err := stageArchive(repo, acc.Archive.Plan); err != nil {
			return nil, err
		}
		failpoint.Hit("accept-archive-plan")
	}
	j := &Journal{Key: journalKey(acc), Plan: acc.Ledger.Plan, Accepted: acc.Ledger.Accepted, Head: head, Branch: branch,
		Approval: acc.Approval.Digest(), Command: o.Command}
	if err := j.save(o.StateDir); err != nil {
		return nil, err
	}
	failpoint.Hit("accept-journal")
	tree := head
	for _, st := range acc.Steps {
		if tree, err = repo.BuildTree(tree, st.Changes); err != nil {
			return nil, err
		}
		j.Steps = append(j.Steps, JournalStep{Name: st.Name, Tree: tree})
		if err := j.save(o.StateDir); err != nil {
			return nil, err
		}
		failpoint.Hit("accept-" + st.Name)
	}
	if headTree, err := repo.ResolveRef(head + "^{tree}"); err == nil && headTree == tree {
		j.remove(o.StateDir)
		return nil, publish.ErrNothingToPublish
	}
	commit, err := repo.CommitTree(gitops.CommitOptions{Tree: tree, Parents: []string{head}, Message: acc.Message(o.ApprovedBy), Sign: o.Sign})
	if err != nil {
		j.remove(o.StateDir)
		if o.Sign {
			why := "signing in strict mode"
			if !o.Strict.On {
				why = "signing (git's commit.gpgsign or .adr.toml [signing] asks for it)"
			}
			return nil, &StrictError{Problem: govern.Problem{Rule: ledger.RuleSignature, Block: true,
				Message: fmt.Sprintf("the acceptance commit could not be signed, which %s requires: %v", why, err),
				Fix:     "configure signing (`git config gpg.format ssh`, `git config user.signingkey ~/.ssh/id_ed25519.pub`) and accept again"}}
		}
		return nil, err
	}
	j.Commit = commit
	if err := j.save(o.StateDir); err != nil {
		return nil, err
	}
	failpoint.Hit("publish-commit")
	// The ledger must agree with the files, as every hook will check.
	if ps, err := ledger.Check(repo, commit); err != nil {
		return nil, err
	} else if len(ps) > 0 {
		j.remove(o.StateDir)
		return nil, fmt.Errorf("the acceptance commit's ledger disagrees with its files (a git-adr bug; nothing was accepted): %s", ps[0].Message)
	}
	if o.Strict.On {
		if p := ledger.Verify(repo, commit, o.Strict); p != nil {
			j.remove(o.StateDir)
			return nil, &StrictError{Problem: *p, Commit: commit}
		}
	}
	failpoint.Hit("accept-verified")
	if err := repo.UpdateRefs("git-adr: "+acc.Subject, gitops.RefUpdate{Name: branch, New: commit, Old: head}); err != nil {
		j.remove(o.StateDir)
		return nil, err
	}
	j.Moved = true
	if err := j.save(o.StateDir); err != nil {
		return &Result{Commit: commit}, err
	}
	failpoint.Hit("publish-ref")
	kept, err := publish.Sync(repo, head, commit, changes, o.JournalDir, o.Command)
	if err != nil {
		return &Result{Commit: commit, Kept: kept}, err
	}
	j.Synced = true
	if acc.Plan == nil {
		j.remove(o.StateDir) // nothing else to finish
	} else if err := j.save(o.StateDir); err != nil {
		return &Result{Commit: commit, Kept: kept}, err
	}
	return &Result{Commit: commit, Kept: kept}, nil
}

// Finish records an accepted (or published) plan revision in the plan and
// removes what it no longer needs: its candidate ref, its reservation refs
// and its drafting worktree. Every part may be repeated, so a run
// interrupted here is finished by the next. The caller holds the lock.
//
// Failpoints: "publish-saved" (the plan recorded), "accept-cleanup" (refs
// removed).
func Finish(in Input, p *compaction.Plan, planCommit, commit, stateDir string) ([]string, error) {
	repo, store := in.Repo, in.Store
	if !p.Done() {
		if p.Mode == compaction.Consolidate {
			p.State = compaction.Accepted
		} else {
			p.State = compaction.Published
		}
		if _, err := store.Save(p, map[string][]byte{"published.json": []byte(fmt.Sprintf("{\n  \"commit\": %q\n}\n", commit))}, planCommit); err != nil {
			return nil, err
		}
	}
	failpoint.Hit("publish-saved")
	removed, err := Cleanup(repo, store, p.ID)
	if err != nil {
		return removed, err
	}
	failpoint.Hit("accept-cleanup")
	(&Journal{Key: journalKeyOf(p.ID)}).remove(stateDir)
	return removed, nil
}

// Cleanup deletes a plan's candidate ref and the reservation refs it
// holds, in one transaction, and its drafting worktree; it returns what
// it removed. A ref someone moved meanwhile is left alone.
func Cleanup(repo *gitops.Repo, store *compaction.Store, id string) ([]string, error) {
	var updates []gitops.RefUpdate
	var removed []string
	if cand, err := repo.ResolveRef(compaction.CandidateRef(id)); err == nil {
		updates = append(updates, gitops.RefUpdate{Name: compaction.CandidateRef(id), Old: cand})
	}
	refs, err := repo.Refs(compaction.ReservationsRef)
	if err != nil {
		return nil, err
	}
	for _, r := range refs {
		if store.Owner(r.Name) == id {
			updates = append(updates, gitops.RefUpdate{Name: r.Name, Old: r.Hash})
		}
	}
	if len(updates) > 0 {
		if err := repo.UpdateRefs("git-adr: done with plan "+id, updates...); err != nil && !errors.Is(err, gitops.ErrRefChanged) {
			return nil, err
		}
		for _, u := range updates {
			removed = append(removed, u.Name)
		}
	}
	if dir := compaction.ManualDir(repo, id); dirExists(dir) {
		if err := repo.WorktreeRemove(dir, true); err != nil {
			return removed, err
		}
		removed = append(removed, dir)
	}
	return removed, nil
}
