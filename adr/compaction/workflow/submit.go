package workflow

import (
	"fmt"
	"os"

	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/gitops"
)

// Submission is a manual draft read from a plan's drafting worktree.
type Submission struct {
	Plan *compaction.Plan
	// Commit is the plan revision the draft answers.
	Commit    string
	Candidate *compaction.Candidate
	// Dir is the drafting worktree.
	Dir string
}

// ReadSubmission reads the manual draft of plan id from its drafting
// worktree. A plan that is published or cancelled, has no drafting
// worktree, or whose draft is not valid is a [*UsageError]; no such plan an
// error wrapping [compaction.ErrNoPlan].
func ReadSubmission(repo *gitops.Repo, id string) (*Submission, error) {
	p, commit, err := (&compaction.Store{Repo: repo}).Load(id)
	if err != nil {
		return nil, err
	}
	if p.State == compaction.Published || p.State == compaction.Cancelled {
		return nil, &UsageError{Msg: fmt.Sprintf("plan %s is %s; nothing to submit", id, p.State)}
	}
	dir := compaction.ManualDir(repo, id)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, &UsageError{Msg: fmt.Sprintf("plan %s has no drafting worktree at %s", id, dir),
			Hint: "draft it manually: git adr compaction --mode " + string(p.Mode) + " --drafter manual"}
	}
	cand, err := compaction.ReadManual(dir, p)
	if err != nil {
		return nil, &UsageError{Msg: err.Error(), Hint: "fix the draft and submit again"}
	}
	return &Submission{Plan: p, Commit: commit, Candidate: cand, Dir: dir}, nil
}
