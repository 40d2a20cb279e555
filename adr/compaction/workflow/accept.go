package workflow

import (
	"errors"

	"github.com/git-adr/git-adr/adr/accept"
	"github.com/git-adr/git-adr/adr/compaction"
)

// Accepted is a plan revision accepted (or, for a summary, published).
type Accepted struct {
	// Acceptance is what was prepared and executed.
	Acceptance *accept.Acceptance
	// Result is the acceptance commit; set with an error when the commit
	// was made but the work tree could not be brought up to date.
	Result *accept.Result
	// Removed are the candidate and reservation refs removed.
	Removed []string
}

// RecordError means the acceptance commit was made, but recording the
// plan accepted (accept.Finish) failed; running the confirmation again
// finishes it.
type RecordError struct {
	Commit string
	Err    error
}

func (e *RecordError) Error() string { return e.Err.Error() }
func (e *RecordError) Unwrap() error { return e.Err }

// AcceptPlan accepts (or, for a summary, publishes) exactly revision of
// plan id, as approved by shown, over in (the log at HEAD), under the
// lock the caller holds. The plan is prepared again from content
// (accept.ForPlan: a *accept.DoneError when a commit accepted it
// already, a *accept.Refusal); options, asked once it is prepared, say
// how it commits; accept.Execute makes the ONE commit (its errors as
// they are, with the Acceptance set, and the Result too when the commit
// was made); accept.Finish records it (a *RecordError).
func AcceptPlan(in accept.Input, id string, revision int, shown accept.Approval, options func() (accept.ExecOptions, error)) (*Accepted, error) {
	acc, err := accept.ForPlan(in, id, revision)
	if err != nil {
		return nil, err
	}
	o, err := options()
	if err != nil {
		return nil, err
	}
	out := &Accepted{Acceptance: acc}
	res, err := accept.Execute(in, acc, shown, o)
	if err != nil {
		if res != nil && res.Commit != "" {
			out.Result = res
		}
		return out, err
	}
	out.Result = res
	if out.Removed, err = accept.Finish(in, acc.Plan, acc.PlanCommit, res.Commit, o.StateDir); err != nil {
		return out, &RecordError{Commit: res.Commit, Err: err}
	}
	return out, nil
}

// ErrNotOnBranch means a plan revision was accepted in a commit that is
// not on the current branch: a revision is accepted once, nothing is
// done.
var ErrNotOnBranch = errors.New("accepted in a commit that is not on this branch")

// Finished is a plan revision a commit had accepted already, finished.
type Finished struct {
	Plan *compaction.Plan
	// WasDone: the plan was recorded accepted already; nothing was left
	// but, perhaps, its archive part.
	WasDone bool
	// Kept are files left as they were because they changed since (the
	// commit holds the accepted version).
	Kept []string
	// ArchivePending: the commit authorises an archive part that is not
	// carried out yet.
	ArchivePending bool
}

// FinishAccepted completes the plan revision de says a commit already
// accepted (a run interrupted after its commit reached the branch, or a
// replay), under the lock the caller holds: never a second commit. The
// work tree gets the commit's files when HEAD is still there (journalled
// in journalDir for command) and the plan is recorded accepted. A commit
// that is not on the branch is [ErrNotOnBranch], with Plan set.
func FinishAccepted(in accept.Input, de *accept.DoneError, journalDir, command string) (*Finished, error) {
	p, commit, err := in.Store.Load(de.Plan)
	if err != nil {
		return nil, err
	}
	out := &Finished{Plan: p, WasDone: p.Done()}
	if !de.OnBranch {
		return out, ErrNotOnBranch
	}
	if out.Kept, err = accept.SyncCommit(in.Repo, de.Commit, journalDir, command); err != nil {
		return nil, err
	}
	if _, err := accept.Finish(in, p, commit, de.Commit, accept.StateDir(in.Repo)); err != nil {
		return nil, err
	}
	st, err := accept.ArchiveOf(in.Repo, de.Commit)
	if err != nil {
		return nil, err
	}
	out.ArchivePending = st.Plan != "" && st.Done == nil
	return out, nil
}
