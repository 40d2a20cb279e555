package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
)

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
		pairs, err := view.BuildAll(l, view.NewSelection(p.Scope.Domain, ids), sources, deps, cand.Summary, p.ID, rev, "git-adr "+buildVersion())
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
	env.Out.Write([]byte(adr.EscapeBody(string(rv.Text()))))
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
	pairs, err := view.BuildAll(future, sel, sources, deps, d, p.ID, p.Revision+1, "git-adr "+buildVersion())
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
