package accept

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/git-adr/git-adr/adr/publish"
	"github.com/git-adr/git-adr/gitops"
)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	c := exec.Command("git", args...)
	c.Dir = dir
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// setup makes a repository whose proposal ADR-0002 supersedes ADR-0001,
// holds the project lock, and prepares the decision to accept ADR-0002.
func setup(t *testing.T) (Input, *Acceptance, string) {
	t.Helper()
	dir := t.TempDir()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	for k, v := range map[string]string{"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@e"} {
		t.Setenv(k, v)
	}
	os.MkdirAll(filepath.Join(dir, "doc/adr"), 0o755)
	os.WriteFile(filepath.Join(dir, "doc/adr/0001-a.md"), []byte("# 1. A\n\n## Status\n\nAccepted\n\n## Decision\n\nA.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "doc/adr/0002-b.md"), []byte("# 2. B\n\n## Status\n\nProposed\n\nSupersedes [1. A](0001-a.md)\n\n## Decision\n\nB.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("notes\n"), 0o644)
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "log")
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("notes, unstaged\n"), 0o644)
	r, err := gitops.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	lock, err := r.Lock(gitops.LockOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lock.Release() })
	tree, err := r.TreeFS("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	l, err := adr.Load(tree, adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Repo: r, Store: &compaction.Store{Repo: r}, Log: l}
	acc, err := ForDecision(in, l.ByPath("doc/adr/0002-b.md"), "")
	if err != nil {
		t.Fatal(err)
	}
	return in, acc, dir
}

func opts(dir string) ExecOptions {
	return ExecOptions{ApprovedBy: "T <t@e>", JournalDir: filepath.Join(dir, ".git/adr/journal"), StateDir: filepath.Join(dir, ".git/adr/accept")}
}

func TestExecuteRefusesAnotherApproval(t *testing.T) {
	in, acc, dir := setup(t)
	head := git(t, dir, "rev-parse", "HEAD")
	for _, wrong := range []Approval{
		{Changes: "0000"}, // changed content
		{Plan: "c-0123456789", Revision: 2, Changes: acc.Approval.Changes}, // another plan's approval
	} {
		_, err := Execute(in, acc, wrong, opts(dir))
		var ae *ApprovalError
		if !errors.As(err, &ae) || !errors.Is(err, ErrApprovalChanged) {
			t.Fatalf("Execute with approval %+v: %v", wrong, err)
		}
		if got := git(t, dir, "rev-parse", "HEAD"); got != head {
			t.Fatalf("HEAD moved to %s", got)
		}
		if js, _ := Pending(filepath.Join(dir, ".git/adr/accept")); len(js) > 0 {
			t.Fatalf("a refused approval left a journal")
		}
	}
	if d := (Approval{Plan: "a", Candidate: "t1"}).Differences(Approval{Plan: "b", Candidate: "t1"}); strings.Join(d, ",") != "plan" {
		t.Errorf("Differences = %v", d)
	}
}

func TestExecuteOneCommit(t *testing.T) {
	in, acc, dir := setup(t)
	head := git(t, dir, "rev-parse", "HEAD")
	res, err := Execute(in, acc, acc.Approval, opts(dir))
	if err != nil {
		t.Fatal(err)
	}
	if got := git(t, dir, "rev-list", "--count", head+"..HEAD"); got != "1" {
		t.Fatalf("%s commits", got)
	}
	if ps, err := ledger.Check(in.Repo, res.Commit); err != nil || len(ps) > 0 {
		t.Fatalf("ledger: %v %v", ps, err)
	}
	if got := git(t, dir, "log", "-1", "--format=%(trailers)"); got != "ADR-Accepted: ADR-0002\nADR-Supersedes: ADR-0002 -> ADR-0001\nADR-Approved-By: T <t@e>" {
		t.Errorf("trailers:\n%s", got)
	}
	if got := git(t, dir, "status", "--porcelain"); got != "M notes.txt" {
		t.Errorf("status: %q", got)
	}
	// A replay of the same acceptance: HEAD is not the one it was
	// prepared on.
	if _, err := Execute(in, acc, acc.Approval, opts(dir)); !errors.Is(err, gitops.ErrRefChanged) {
		t.Errorf("replay: %v", err)
	}
	if js, _ := Pending(filepath.Join(dir, ".git/adr/accept")); len(js) > 0 {
		t.Errorf("journal left: %+v", js[0])
	}
}

func TestExecuteKeepsLocalChanges(t *testing.T) {
	in, acc, dir := setup(t)
	os.WriteFile(filepath.Join(dir, "doc/adr/0001-a.md"), []byte("# 1. A, edited\n"), 0o644)
	if _, err := Execute(in, acc, acc.Approval, opts(dir)); !errors.Is(err, publish.ErrLocalChanges) {
		t.Fatalf("Execute over a local change: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "doc/adr/0001-a.md")); string(data) != "# 1. A, edited\n" {
		t.Errorf("the local change was overwritten: %q", data)
	}
}
