package workflow

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/gittest"
)

func adrRecord(n, title, status, rel string) string {
	return "# " + n + ". " + title + "\n\nDate: 2024-01-0" + n + "\n\n## Status\n\n" + status + "\n" + rel +
		"\n## Context\n\nThe " + title + " context.\n\n## Decision\n\nWe " + strings.ToLower(title) + ".\n\n## Consequences\n\nSome.\n"
}

// committedLog commits files into repo and returns the work tree's log and
// its analysis.
func committedLog(t *testing.T, repo *gitops.Repo, files map[string]string) (*adr.Log, *compaction.Analysis) {
	t.Helper()
	for p, s := range files {
		full := filepath.Join(repo.Top, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gittest.Git(t, repo.Top, "add", "-A")
	gittest.Git(t, repo.Top, "commit", "-q", "-m", "records")
	l, err := adr.Load(repo.WorktreeFS(), adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := compaction.Analyze(l, compaction.AnalyzeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l, a
}

var records = map[string]string{
	"doc/adr/0001-use-postgres.md":     adrRecord("1", "Use Postgres", "Superseded by [2. Use Postgres 16](0002-use-postgres-16.md)", ""),
	"doc/adr/0002-use-postgres-16.md":  adrRecord("2", "Use Postgres 16", "Accepted", "\nSupersedes [1. Use Postgres](0001-use-postgres.md)\n"),
	"doc/adr/0003-pool-connections.md": adrRecord("3", "Pool connections", "Accepted", ""),
}

func TestStartContinuesAndRefusesUncommitted(t *testing.T) {
	repo := gittest.Repo(t)
	l, a := committedLog(t, repo, records)
	o := compaction.PlanOptions{Mode: compaction.Consolidate}
	p, c1, err := Start(repo, l, a, o)
	if err != nil {
		t.Fatal(err)
	}
	head := strings.TrimSpace(gittest.Git(t, repo.Top, "rev-parse", "HEAD"))
	if p.Base != head || p.Revision != 1 || p.State != compaction.Planned {
		t.Errorf("plan base %s revision %d state %s, want %s 1 planned", p.Base, p.Revision, p.State, head)
	}
	// The same scope of the same log continues the plan.
	again, c2, err := Start(repo, l, a, o)
	if err != nil || again.ID != p.ID || c2 != c1 {
		t.Errorf("second Start = %s %s %v, want %s %s", again.ID, c2, err, p.ID, c1)
	}
	// An edited record in scope: the plan would not read what HEAD holds.
	path := filepath.Join(repo.Top, "doc/adr/0003-pool-connections.md")
	os.WriteFile(path, []byte(records["doc/adr/0003-pool-connections.md"]+"\nedited\n"), 0o644)
	l2, err := adr.Load(repo.WorktreeFS(), adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var ue *UncommittedError
	if _, _, err := Start(repo, l2, a, o); !errors.As(err, &ue) || !slices.Equal(ue.Paths, []string{"doc/adr/0003-pool-connections.md"}) {
		t.Errorf("Start over an edited record: %v", err)
	}
}

func TestReserveSkipsNumbersInUse(t *testing.T) {
	repo := gittest.Repo(t)
	l, a := committedLog(t, repo, records)
	// Number 7 is taken on another branch, 5 by another plan's reservation.
	other := map[string]string{"doc/adr/0007-elsewhere.md": adrRecord("7", "Elsewhere", "Proposed", "")}
	branchFS := map[string]string{}
	for k, v := range records {
		branchFS[k] = v
	}
	for k, v := range other {
		branchFS[k] = v
	}
	branches := []adr.BranchTree{{Ref: "refs/heads/other", FS: testFS(branchFS)}}
	store := &compaction.Store{Repo: repo}
	if _, err := store.Save(&compaction.Plan{Schema: compaction.SchemaVersion, ID: "c-other", Mode: compaction.Consolidate, State: compaction.Planned,
		Reserved: []compaction.Reservation{{Root: "doc/adr", Number: 5, ID: "5"}}}, nil, ""); err != nil {
		t.Fatal(err)
	}
	p, c, err := Start(repo, l, a, compaction.PlanOptions{Mode: compaction.Consolidate})
	if err != nil {
		t.Fatal(err)
	}
	p, c2, err := Reserve(repo, l, a, p, c, branches, "2024-02-01")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Reserved) != 1 || p.Reserved[0].Number != 8 || p.Reserved[0].Root != "doc/adr" || !strings.HasPrefix(p.Reserved[0].Path, "doc/adr/0008-") {
		t.Fatalf("Reserved = %+v, want number 8 in doc/adr", p.Reserved)
	}
	if owner := store.Owner(compaction.ReservationRef("doc/adr", 8)); owner != p.ID {
		t.Errorf("reservation ref owner %q, want %s", owner, p.ID)
	}
	// Reserving again keeps the numbers.
	if p2, c3, err := Reserve(repo, l, a, p, c2, branches, "2024-02-01"); err != nil || c3 != c2 || len(p2.Reserved) != 1 {
		t.Errorf("second Reserve = %+v %s %v", p2.Reserved, c3, err)
	}

	// Cancelling frees the number and keeps the plan's history.
	removed, err := Cancel(repo, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(removed, compaction.ReservationRef("doc/adr", 8)) {
		t.Errorf("Cancel removed %v, want the reservation ref", removed)
	}
	res, err := store.Reservations()
	if err != nil || !slices.Equal(res["doc/adr"], []int{5}) {
		t.Errorf("reservations after cancel: %v %v", res, err)
	}
	if cancelled, _, err := store.Load(p.ID); err != nil || cancelled.State != compaction.Cancelled {
		t.Errorf("plan after cancel: %+v %v", cancelled, err)
	}
	if _, err := Cancel(repo, "nope"); !errors.Is(err, compaction.ErrNoPlan) {
		t.Errorf("Cancel(nope): %v", err)
	}
}

func TestCancelRefusesDonePlan(t *testing.T) {
	repo := gittest.Repo(t)
	savePlan(t, repo, &compaction.Plan{Schema: compaction.SchemaVersion, ID: "s-done", Mode: compaction.Summary, State: compaction.Published})
	var de *DoneError
	if _, err := Cancel(repo, "s-done"); !errors.As(err, &de) || err.Error() != "plan s-done is published" {
		t.Errorf("Cancel(published): %v", err)
	}
}
