package workflow

import (
	"encoding/json"
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/gitops"
)

// Drafted is a drafter's candidate for a plan revision, and what
// processing it reads.
type Drafted struct {
	Repo *gitops.Repo
	Log  *adr.Log
	// Plan is the plan's newest revision, stored in Commit.
	Plan   *compaction.Plan
	Commit string
	// Candidate is what the drafter returned from Batches.
	Candidate *compaction.Candidate
	Batches   []compaction.Batch
	// Branches returns the trees of the other branches; it is called
	// only for a plan that reserved numbers, to check that no branch
	// took them since.
	Branches func() ([]adr.BranchTree, error)
	// Generator is what manifests name as their generator.
	Generator string
}

// Process validates a candidate, builds the proposal commit on the plan's
// base (CURRENT pairs, replacement records, INDEX files), stores it on the
// candidate ref, and stores a new plan revision with the review (which
// names the candidate's tree) and the evidence batches. It returns the new
// revision, its commit and the review. A ref moved meanwhile is an error
// wrapping [compaction.ErrPlanChanged] (or [compaction.ErrReserved]). The
// caller holds the lock.
func Process(d Drafted) (*compaction.Plan, string, *compaction.Review, error) {
	repo, l, p, cand := d.Repo, d.Log, d.Plan, d.Candidate
	store := &compaction.Store{Repo: repo}
	rev := p.Revision + 1
	prop, err := compaction.Propose(l, p, cand, rev, d.Generator)
	if err != nil {
		return nil, "", nil, err
	}
	issues := prop.Issues
	if p.Mode == compaction.Consolidate {
		ris, err := reservationIssues(d, prop.Drafts)
		if err != nil {
			return nil, "", nil, err
		}
		issues = append(issues, ris...)
		p.Transitions = prop.Transitions
	}
	candidate := ""
	p.CandidateTree = ""
	if len(prop.Changes) > 0 {
		tree, err := repo.BuildTree(p.Base, prop.Changes)
		if err != nil {
			return nil, "", nil, err
		}
		candidate, err = repo.CommitTree(gitops.CommitOptions{Tree: tree, Parents: []string{p.Base},
			Message: fmt.Sprintf("git-adr candidate: plan %s revision %d (%s)\n", p.ID, rev, p.Mode)})
		if err != nil {
			return nil, "", nil, err
		}
		old := gitops.ZeroHash
		if cur, err := repo.ResolveRef(compaction.CandidateRef(p.ID)); err == nil {
			old = cur
		}
		if err := repo.UpdateRefs("git-adr candidate "+p.ID, gitops.RefUpdate{Name: compaction.CandidateRef(p.ID), New: candidate, Old: old}); err != nil {
			return nil, "", nil, fmt.Errorf("%w: %v", compaction.ErrPlanChanged, err)
		}
		p.CandidateTree = tree
	}
	// Record each unit's coverage in the plan.
	for i := range p.Sources {
		for j := range p.Sources[i].Units {
			u := &p.Sources[i].Units[j]
			for _, c := range cand.Summary.Coverage {
				if c.Unit == u.Locator {
					u.Coverage, u.Location, u.Reason = c.State, c.Location, c.Reason
				}
			}
		}
	}
	p.State = compaction.Validated
	if len(issues) > 0 {
		p.State = compaction.Drafted
	}
	p.Revision = rev
	rv := compaction.NewReview(p, cand, issues, prop.Outputs(), candidate)
	rv.AddDocuments(p, prop)
	files := map[string][]byte{"candidate.json": jsonBytes(cand), "review.json": rv.JSON(), "review.md": rv.Markdown()}
	for _, b := range d.Batches {
		files[fmt.Sprintf("evidence/batch-%d.json", b.Number)] = jsonBytes(b)
	}
	newCommit, err := store.Save(p, files, d.Commit)
	if err != nil {
		return nil, "", nil, err
	}
	return p, newCommit, rv, nil
}

// reservationIssues checks the plan's reserved numbers against the log,
// every other branch and the reservation refs (see
// compaction.ReservationIssues).
func reservationIssues(d Drafted, drafts map[string][]byte) ([]compaction.Issue, error) {
	if len(d.Plan.Reserved) == 0 {
		return nil, nil
	}
	trees, err := d.Branches()
	if err != nil {
		return nil, err
	}
	store := &compaction.Store{Repo: d.Repo}
	return compaction.ReservationIssues(d.Log, d.Plan, drafts, adr.ScanBranches(trees, d.Log.Roots), store.Owner), nil
}

func jsonBytes(v any) []byte {
	data, _ := json.MarshalIndent(v, "", "  ")
	return append(data, '\n')
}
