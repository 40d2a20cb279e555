package main

import (
	"encoding/json"
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/gitops"
)

// generator is what manifests name as their generator.
func generator() string { return "git-adr " + buildVersion() }

// processCandidate validates a candidate, builds the proposal commit on the
// plan's base (CURRENT pairs, replacement records, INDEX files), stores it
// on the candidate ref and a new plan revision with the review (which
// names the candidate's tree), and prints the review.
func processCandidate(env *Env, l *adr.Log, p *compaction.Plan, commit string, cand *compaction.Candidate, batches []compaction.Batch) (*compaction.Plan, string, error) {
	repo := mustRepo(env)
	store := &compaction.Store{Repo: repo}
	rev := p.Revision + 1
	prop, err := compaction.Propose(l, p, cand, rev, generator())
	if err != nil {
		return nil, "", err
	}
	issues := prop.Issues
	if p.Mode == compaction.Consolidate {
		ris, err := reservationIssues(env, l, p, prop.Drafts)
		if err != nil {
			return nil, "", err
		}
		issues = append(issues, ris...)
		p.Transitions = prop.Transitions
	}
	candidate := ""
	p.CandidateTree = ""
	if len(prop.Changes) > 0 {
		tree, err := repo.BuildTree(p.Base, prop.Changes)
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
	for _, b := range batches {
		files[fmt.Sprintf("evidence/batch-%d.json", b.Number)] = jsonBytes(b)
	}
	newCommit, err := store.Save(p, files, commit)
	if err != nil {
		return nil, "", planStoreErr(err)
	}
	env.Out.Write([]byte(adr.EscapeBody(string(rv.Text()))))
	return p, newCommit, nil
}

// reservationIssues checks the plan's reserved numbers against the log,
// every other branch and the reservation refs (see
// compaction.ReservationIssues).
func reservationIssues(env *Env, l *adr.Log, p *compaction.Plan, drafts map[string][]byte) ([]compaction.Issue, error) {
	if len(p.Reserved) == 0 {
		return nil, nil
	}
	trees, err := env.branchTrees()
	if err != nil {
		return nil, err
	}
	store := &compaction.Store{Repo: mustRepo(env)}
	return compaction.ReservationIssues(l, p, drafts, adr.ScanBranches(trees, l.Roots), store.Owner), nil
}

func jsonBytes(v any) []byte {
	data, _ := json.MarshalIndent(v, "", "  ")
	return append(data, '\n')
}
