package main

import (
	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/compaction/workflow"
)

// generator is what manifests name as their generator.
func generator() string { return "git-adr " + buildVersion() }

// processCandidate processes a drafted candidate into a reviewed plan
// revision (workflow.Process) and prints the review. The caller holds the
// lock.
func processCandidate(env *Env, l *adr.Log, p *compaction.Plan, commit string, cand *compaction.Candidate, batches []compaction.Batch) (*compaction.Plan, string, error) {
	p, commit, rv, err := workflow.Process(workflow.Drafted{Repo: mustRepo(env), Log: l, Plan: p, Commit: commit,
		Candidate: cand, Batches: batches, Branches: env.branchTrees, Generator: generator()})
	if err != nil {
		return nil, "", planStoreErr(err)
	}
	env.Out.Write([]byte(adr.EscapeBody(string(rv.Text()))))
	return p, commit, nil
}
