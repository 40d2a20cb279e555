package workflow

import (
	"errors"
	"testing"

	"github.com/git-adr/git-adr/adr/accept"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/internal/gittest"
)

func TestAcceptableAndReviewArchive(t *testing.T) {
	repo := gittest.Repo(t)
	p, _, _ := drafted(t, repo)
	l, err := accept.HeadLog(repo, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := accept.Input{Repo: repo, Store: &compaction.Store{Repo: repo}, Log: l, Generator: "test"}
	acc, rf, blockers, err := Acceptable(in, p)
	if err != nil || rf != nil || blockers != 0 || acc == nil || acc.Plan.ID != p.ID {
		t.Fatalf("Acceptable(validated) = %v, %v, %d, %v", acc, rf, blockers, err)
	}
	planned := *p
	planned.State, planned.ID = compaction.Planned, "s-none"
	if acc, _, blockers, err := Acceptable(in, &planned); err != nil || acc != nil || blockers != 1 {
		t.Errorf("Acceptable(no review) = %v, %d, %v; want one blocker", acc, blockers, err)
	}
	if rv, part := ReviewArchive(p, func() (accept.Input, error) { t.Fatal("a summary has no archive part"); return in, nil }); rv != nil || part != nil {
		t.Errorf("ReviewArchive(summary) = %+v, %+v", rv, part)
	}
	cons := *p
	cons.Mode, cons.Archive = compaction.Consolidate, true
	rv, part := ReviewArchive(&cons, func() (accept.Input, error) { return accept.Input{}, errors.New("no commit") })
	if part != nil || rv == nil || rv.Blocked != "cannot be computed now: no commit" || string(rv.Plan) != "null" {
		t.Errorf("ReviewArchive that cannot be computed = %+v, %+v", rv, part)
	}
}
