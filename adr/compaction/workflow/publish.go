package workflow

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/atomicfile"
)

// Error is a step of the workflow that cannot be taken, with the next
// command to run (Hint, "" when there is none).
type Error struct{ Msg, Hint string }

func (e *Error) Error() string { return e.Msg }

// ErrBranchExists means the branch a proposal was to be published on
// exists already; nothing was published.
var ErrBranchExists = errors.New("the branch exists")

// Proposal is a plan's proposal put on a branch for pull-request review.
type Proposal struct {
	Plan *compaction.Plan
	// Head is the branch's commit, Base its parent (the plan's base).
	Head, Base string
	// Drafts are the IDs of a consolidation's replacement records, the
	// only files its branch holds; nil for a summary, whose branch is the
	// candidate commit.
	Drafts []string
	// Description is the file the markdown review was written to.
	Description string
}

// Publish creates branch at plan id's proposal, so that a pull request
// from it shows exactly that, and writes the markdown review to a
// description file under $GIT_DIR/adr/publish. A summary's branch is its
// candidate commit; a consolidation's holds its drafts only, so merging it
// accepts nothing. Both are built again from the plan's draft over its base
// (loaded with roots), never taken from a stored review. It accepts
// nothing. A branch that exists is an error wrapping [ErrBranchExists]; a
// plan that cannot be published is an [*Error]. The caller holds the lock.
func Publish(repo *gitops.Repo, id, branch string, roots []string, generator string) (*Proposal, error) {
	store := &compaction.Store{Repo: repo}
	p, commit, err := store.Load(id)
	if err != nil {
		return nil, err
	}
	if p.ID != id {
		return nil, &Error{Msg: fmt.Sprintf("%s holds plan %s, not %s; nothing was published", compaction.PlanRef(id), p.ID, id)}
	}
	cand, err := repo.ResolveRef(compaction.CandidateRef(id))
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("plan %s has no candidate ref (%s)", id, compaction.CandidateRef(id)),
			Hint: "it was cancelled or never drafted; see git adr compaction status " + id}
	}
	if tree, err := repo.ResolveRef(cand + "^{tree}"); err != nil || tree != p.CandidateTree {
		return nil, &Error{Msg: fmt.Sprintf("%s is not the candidate revision %d of plan %s reviewed; nothing was published", compaction.CandidateRef(id), p.Revision, id),
			Hint: "draft a new revision: git adr compaction --mode " + string(p.Mode) + p.Scope.Flags()}
	}
	data, err := store.File(commit, "candidate.json")
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("plan %s revision %d has no candidate to publish", id, p.Revision)}
	}
	var c compaction.Candidate
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, &Error{Msg: fmt.Sprintf("plan %s: candidate.json: %v", id, err)}
	}
	baseFS, err := repo.TreeFS(p.Base)
	if err != nil {
		return nil, err
	}
	base, err := adr.Load(baseFS, adr.LoadOptions{Roots: roots, Cwd: repo.Prefix})
	if err != nil {
		return nil, err
	}
	if m := candidateGenerator(repo, p.Base, cand); m != "" {
		generator = m
	}
	prop, err := compaction.Propose(base, p, &c, p.Revision, generator)
	if err != nil {
		return nil, err
	}
	rv := compaction.NewReview(p, &c, prop.Issues, prop.Outputs(), cand)
	rv.AddDocuments(p, prop)
	out := &Proposal{Plan: p, Head: cand, Base: rv.Base}
	if p.Mode == compaction.Consolidate {
		// A consolidation's branch holds its drafts only: merging it
		// accepts nothing; the acceptance commit is added by a person.
		var changes []gitops.TreeChange
		for _, r := range p.Reserved {
			if d, ok := prop.Drafts[r.Path]; ok {
				changes = append(changes, gitops.TreeChange{Path: r.Path, Data: d})
				out.Drafts = append(out.Drafts, r.ID)
			}
		}
		tree, err := repo.BuildTree(p.Base, changes)
		if err != nil {
			return nil, err
		}
		msg := fmt.Sprintf("Propose %s from plan %s revision %d\n\nDrafts only: the replacement records are proposals; nothing is accepted and no\nrecord is superseded until a person accepts the plan after review:\n\n    git adr compaction --confirm %s@%d\n",
			strings.Join(out.Drafts, ", "), id, p.Revision, id, p.Revision)
		if out.Head, err = repo.CommitTree(gitops.CommitOptions{Tree: tree, Parents: []string{p.Base}, Message: msg}); err != nil {
			return nil, err
		}
	}
	ref := "refs/heads/" + branch
	if err := repo.UpdateRefs("git-adr: proposal of plan "+id, gitops.RefUpdate{Name: ref, New: out.Head, Old: gitops.ZeroHash}); err != nil {
		if errors.Is(err, gitops.ErrRefChanged) {
			return nil, fmt.Errorf("%w: %q", ErrBranchExists, branch)
		}
		return nil, err
	}
	dir := filepath.Join(repo.AdrDir(), "publish")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	out.Description = filepath.Join(dir, id+".md")
	if err := atomicfile.Write(out.Description, rv.Markdown(), 0o644); err != nil {
		return nil, err
	}
	return out, nil
}

// candidateGenerator is the generator a candidate's manifest names (""
// when it has none).
func candidateGenerator(repo *gitops.Repo, base, cand string) string {
	changes, err := repo.TreeChanges(base, cand)
	if err != nil {
		return ""
	}
	for _, c := range changes {
		if filepath.Base(c.Path) == "CURRENT.sources.json" {
			if data, err := repo.ReadBlobAt(cand, c.Path); err == nil {
				if m, err := view.DecodeManifest(data); err == nil {
					return m.Generator
				}
			}
		}
	}
	return ""
}

// LoadReview reads plan id's newest revision and the review stored with
// it. A plan with no candidate yet, or a review that cannot be read, is an
// [*Error].
func LoadReview(repo *gitops.Repo, id string) (*compaction.Plan, *compaction.Review, error) {
	store := &compaction.Store{Repo: repo}
	p, commit, err := store.Load(id)
	if err != nil {
		return nil, nil, err
	}
	data, err := store.File(commit, "review.json")
	if errors.Is(err, gitops.ErrNotFound) {
		return nil, nil, &Error{Msg: fmt.Sprintf("plan %s has no candidate to review yet (state %s)", id, p.State),
			Hint: "draft it: git adr compaction --mode " + string(p.Mode) + ", or submit a manual draft: git adr compaction submit " + id}
	}
	if err != nil {
		return nil, nil, err
	}
	var rv compaction.Review
	if err := json.Unmarshal(data, &rv); err != nil {
		return nil, nil, &Error{Msg: fmt.Sprintf("plan %s: review.json is corrupt: %v", id, err)}
	}
	return p, &rv, nil
}
