package accept

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// interrupted executes the acceptance of setup, then puts the work tree
// and index back as they were before it, as a run killed right after
// its commit reached the branch leaves them.
func interrupted(t *testing.T) (Input, *Result, string) {
	t.Helper()
	in, acc, dir := setup(t)
	res, err := Execute(in, acc, acc.Approval, opts(dir))
	if err != nil {
		t.Fatal(err)
	}
	git(t, dir, "checkout", "HEAD^", "--", "doc/adr")
	if got := git(t, dir, "status", "--porcelain"); !strings.Contains(got, "doc/adr/0002-b.md") {
		t.Fatalf("the work tree is not behind the commit: %q", got)
	}
	return in, res, dir
}

func TestSyncCommit(t *testing.T) {
	in, res, dir := interrupted(t)
	kept, err := SyncCommit(in.Repo, res.Commit, filepath.Join(dir, ".git/adr/journal"), "test")
	if err != nil || len(kept) != 0 {
		t.Fatalf("SyncCommit = %v, %v", kept, err)
	}
	if got := git(t, dir, "status", "--porcelain"); got != "M notes.txt" {
		t.Errorf("status after SyncCommit: %q, want only the unrelated change", got)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "doc/adr/0002-b.md"))
	if !strings.Contains(string(b), "Accepted") {
		t.Errorf("0002-b.md not brought up to the commit:\n%s", b)
	}
}

func TestSyncCommitKeepsEditsAndIgnoresAnotherHead(t *testing.T) {
	in, res, dir := interrupted(t)
	edited := "# 1. A, edited since\n"
	if err := os.WriteFile(filepath.Join(dir, "doc/adr/0001-a.md"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	kept, err := SyncCommit(in.Repo, res.Commit, filepath.Join(dir, ".git/adr/journal"), "test")
	if err != nil || strings.Join(kept, ",") != "doc/adr/0001-a.md" {
		t.Fatalf("SyncCommit = %v, %v; want the edited file kept", kept, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "doc/adr/0001-a.md")); string(b) != edited {
		t.Errorf("the edit was overwritten: %q", b)
	}
	// HEAD moved on: the commit is not HEAD, nothing is touched.
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "later")
	git(t, dir, "checkout", "HEAD~2", "--", "doc/adr/0002-b.md")
	before := git(t, dir, "status", "--porcelain")
	if kept, err := SyncCommit(in.Repo, res.Commit, filepath.Join(dir, ".git/adr/journal"), "test"); err != nil || kept != nil {
		t.Fatalf("SyncCommit when HEAD is another commit = %v, %v", kept, err)
	}
	if got := git(t, dir, "status", "--porcelain"); got != before {
		t.Errorf("the work tree changed: %q, was %q", got, before)
	}
}

func TestFinishPending(t *testing.T) {
	in, res, dir := interrupted(t)
	state := filepath.Join(dir, ".git/adr/accept")
	done := &Journal{Version: JournalVersion, Key: "decide-done", Accepted: []string{"ADR-0002"}, Commit: res.Commit, Moved: true}
	lost := &Journal{Version: JournalVersion, Key: "decide-lost", Accepted: []string{"ADR-0009"}, Commit: strings.Repeat("0", 40)}
	for _, j := range []*Journal{done, lost} {
		if err := j.save(state); err != nil {
			t.Fatal(err)
		}
	}
	js, err := Pending(state)
	if err != nil || len(js) != 2 {
		t.Fatalf("Pending = %v, %v", js, err)
	}
	out, err := FinishPending(in.Repo, js, state, filepath.Join(dir, ".git/adr/journal"), "test")
	if err != nil {
		t.Fatal(err)
	}
	byWhat := map[string]Recovered{}
	for _, rc := range out {
		byWhat[rc.What] = rc
	}
	if rc := byWhat["the acceptance of ADR-0002"]; rc.Cleared || rc.Commit != res.Commit {
		t.Errorf("the committed acceptance: %+v, want finished in %s", rc, res.Commit)
	}
	if rc := byWhat["the acceptance of ADR-0009"]; !rc.Cleared {
		t.Errorf("the acceptance whose commit never reached the branch: %+v, want cleared", rc)
	}
	if got := git(t, dir, "status", "--porcelain"); got != "M notes.txt" {
		t.Errorf("status after FinishPending: %q, want the work tree synced", got)
	}
	if js, _ := Pending(state); len(js) != 0 {
		t.Errorf("journals left: %+v", js)
	}
}
