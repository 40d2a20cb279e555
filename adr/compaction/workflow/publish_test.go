package workflow

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/gittest"
)

// summaryCandidate retains every unit of the batches and restates each
// decision as a constraint citing it, as a drafter that changes nothing
// would.
func summaryCandidate(batches []compaction.Batch) *compaction.Candidate {
	c := &compaction.Candidate{Schema: compaction.CandidateSchema, Records: []compaction.NewRecord{}}
	for _, b := range batches {
		for _, u := range b.Units {
			c.Summary.Coverage = append(c.Summary.Coverage, view.UnitCoverage{Unit: u.Unit, State: compaction.Retained, Location: "Effective constraints"})
			if strings.HasSuffix(u.Unit, "#decision") && u.Status != "superseded" {
				c.Summary.Constraints = append(c.Summary.Constraints, view.Statement{Topic: "Decisions", Text: u.Record + ": " + strings.TrimSpace(u.Text), Sources: []string{u.Unit}})
			}
		}
	}
	return c
}

// drafted plans a summary of records and processes a candidate that
// retains everything.
func drafted(t *testing.T, repo *gitops.Repo) (*compaction.Plan, string, *compaction.Review) {
	t.Helper()
	l, a := committedLog(t, repo, records)
	p, c, err := Start(repo, l, a, compaction.PlanOptions{Mode: compaction.Summary})
	if err != nil {
		t.Fatal(err)
	}
	batches := compaction.Batches(l, p, compaction.BatchLimits{})
	p, c, rv, err := Process(Drafted{Repo: repo, Log: l, Plan: p, Commit: c, Candidate: summaryCandidate(batches), Batches: batches,
		Branches: func() ([]adr.BranchTree, error) {
			t.Fatal("a summary reserves no numbers: no branch is read")
			return nil, nil
		}, Generator: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return p, c, rv
}

func TestProcessStoresCandidateAndReview(t *testing.T) {
	repo := gittest.Repo(t)
	p, c, rv := drafted(t, repo)
	if p.State != compaction.Validated || p.Revision != 2 || len(rv.Blockers) != 0 {
		t.Fatalf("plan %s revision %d, blockers %v\n%s", p.State, p.Revision, rv.Blockers, rv.Text())
	}
	cand, err := repo.ResolveRef(compaction.CandidateRef(p.ID))
	if err != nil {
		t.Fatal(err)
	}
	if tree, _ := repo.ResolveRef(cand + "^{tree}"); tree != p.CandidateTree || tree == "" {
		t.Errorf("candidate tree %s, plan records %s", tree, p.CandidateTree)
	}
	if parent := strings.TrimSpace(gittest.Git(t, repo.Top, "rev-parse", cand+"^")); parent != p.Base {
		t.Errorf("candidate's parent %s, want the plan's base %s", parent, p.Base)
	}
	store := &compaction.Store{Repo: repo}
	for _, name := range []string{"candidate.json", "review.json", "review.md", "evidence/batch-1.json"} {
		if _, err := store.File(c, name); err != nil {
			t.Errorf("revision lacks %s: %v", name, err)
		}
	}
	got, stored, err := LoadReview(repo, p.ID)
	if err != nil || got.Revision != 2 || stored.Candidate != rv.Candidate {
		t.Errorf("LoadReview = %+v %+v %v", got, stored, err)
	}
}

func TestPublish(t *testing.T) {
	repo := gittest.Repo(t)
	p, _, _ := drafted(t, repo)
	pr, err := Publish(repo, p.ID, "adr/summary", nil, "test")
	if err != nil {
		t.Fatal(err)
	}
	cand, _ := repo.ResolveRef(compaction.CandidateRef(p.ID))
	if branch, _ := repo.ResolveRef("refs/heads/adr/summary"); branch != cand || pr.Head != cand || pr.Base != p.Base || pr.Drafts != nil {
		t.Errorf("a summary's branch is its candidate commit: branch %s, proposal %+v, candidate %s", branch, pr, cand)
	}
	if data, err := os.ReadFile(pr.Description); err != nil || !strings.Contains(string(data), p.ID) {
		t.Errorf("description %s: %v\n%s", pr.Description, err, data)
	}
	if _, err := Publish(repo, p.ID, "adr/summary", nil, "test"); !errors.Is(err, ErrBranchExists) {
		t.Errorf("publishing onto an existing branch: %v", err)
	}
	// A candidate ref that holds another tree than the reviewed one.
	gittest.Git(t, repo.Top, "update-ref", compaction.CandidateRef(p.ID), p.Base)
	var we *Error
	if _, err := Publish(repo, p.ID, "adr/other", nil, "test"); !errors.As(err, &we) || !strings.Contains(we.Msg, "is not the candidate revision 2") || we.Hint == "" {
		t.Errorf("moved candidate: %v", err)
	}
	gittest.Git(t, repo.Top, "update-ref", "-d", compaction.CandidateRef(p.ID))
	if _, err := Publish(repo, p.ID, "adr/other", nil, "test"); !errors.As(err, &we) || !strings.Contains(we.Msg, "has no candidate ref") {
		t.Errorf("no candidate: %v", err)
	}
	if _, err := repo.ResolveRef("refs/heads/adr/other"); !errors.Is(err, gitops.ErrNotFound) {
		t.Errorf("a refused publication made a branch: %v", err)
	}
}

func TestLoadReviewBeforeDrafting(t *testing.T) {
	repo := gittest.Repo(t)
	l, a := committedLog(t, repo, records)
	p, _, err := Start(repo, l, a, compaction.PlanOptions{Mode: compaction.Summary})
	if err != nil {
		t.Fatal(err)
	}
	var we *Error
	if _, _, err := LoadReview(repo, p.ID); !errors.As(err, &we) || we.Msg != "plan "+p.ID+" has no candidate to review yet (state planned)" {
		t.Errorf("LoadReview of a planned plan: %v", err)
	}
	if _, _, err := LoadReview(repo, "nope"); !errors.Is(err, compaction.ErrNoPlan) {
		t.Errorf("LoadReview(nope): %v", err)
	}
}
