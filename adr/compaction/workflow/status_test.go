package workflow

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/gittest"
)

const record = "# 1. Use Go\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nc\n\n## Decision\n\nd\n\n## Consequences\n\ne\n"

func testFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for p, s := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(s)}
	}
	return fsys
}

func testLog(t *testing.T, files map[string]string) *adr.Log {
	t.Helper()
	l, err := adr.Load(testFS(files), adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func savePlan(t *testing.T, repo *gitops.Repo, p *compaction.Plan) string {
	t.Helper()
	c, err := (&compaction.Store{Repo: repo}).Save(p, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestStatuses(t *testing.T) {
	repo := gittest.Repo(t)
	l := testLog(t, map[string]string{"doc/adr/0001-use-go.md": record})
	r := l.ByPath("doc/adr/0001-use-go.md")
	if r == nil {
		t.Fatal("record not loaded")
	}
	current := &compaction.Plan{Schema: compaction.SchemaVersion, ID: "s-current", Mode: compaction.Summary, State: compaction.Planned,
		Sources: []compaction.Source{{ID: r.ID, Path: r.Path, Blob: BlobOf(r)}}}
	stale := &compaction.Plan{Schema: compaction.SchemaVersion, ID: "c-stale", Mode: compaction.Consolidate, State: compaction.Validated,
		Sources:  []compaction.Source{{ID: "ADR-0002", Path: "doc/adr/0002-gone.md", Blob: "x"}},
		Reserved: []compaction.Reservation{{Root: "doc/adr", Number: 3, ID: "0003"}}}
	c1 := savePlan(t, repo, current)
	c2 := savePlan(t, repo, stale)
	// A fetched plan, and a ref that names another plan than it holds.
	gittest.Git(t, repo.Top, "update-ref", RemotePlansRef+"origin/plans/c-stale", c2)
	gittest.Git(t, repo.Top, "update-ref", compaction.PlansRef+"s-forged", c1)

	all, err := Statuses(repo, l, "")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Status{}
	var names []string
	for _, s := range all {
		got[s.Name()] = s
		names = append(names, s.Name())
	}
	if want := "c-stale s-current s-forged origin/c-stale"; strings.Join(names, " ") != want {
		t.Fatalf("plans %q, want %q (the repository's own first)", strings.Join(names, " "), want)
	}
	if s := got["s-current"]; s.Current != "current" || !strings.HasPrefix(s.Next, "draft: git adr compaction --mode summary") || s.Acceptance != nil {
		t.Errorf("s-current: %+v", s)
	}
	if s := got["c-stale"]; s.Current != "stale: ADR-0002 is gone" || s.Next != "re-plan: git adr compaction --mode consolidate" {
		t.Errorf("c-stale: %+v", s)
	}
	if s := got["s-forged"]; s.Current != "forged: refs/adr/plans/s-forged holds plan s-current" {
		t.Errorf("s-forged: %+v", s)
	}
	remote := got["origin/c-stale"]
	if remote.Remote != "origin" || remote.Candidate != nil || remote.Ref != RemotePlansRef+"origin/plans/c-stale" {
		t.Errorf("origin/c-stale: %+v", remote)
	}
	if want := "adopt it to review and accept it here: git fetch origin refs/adr/plans/c-stale:refs/adr/plans/c-stale refs/adr/candidates/c-stale:refs/adr/candidates/c-stale " +
		"refs/adr/reservations/doc%adr/3:refs/adr/reservations/doc%adr/3"; remote.Next != want {
		t.Errorf("adopt:\n got %s\nwant %s", remote.Next, want)
	}

	one, err := Statuses(repo, l, "origin/c-stale")
	if err != nil || len(one) != 1 || one[0].Remote != "origin" {
		t.Errorf("Statuses(origin/c-stale) = %+v, %v", one, err)
	}
	if _, err := Statuses(repo, l, "nope"); !errors.Is(err, compaction.ErrNoPlan) {
		t.Errorf("Statuses(nope): %v, want ErrNoPlan", err)
	}
}
