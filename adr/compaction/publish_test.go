package compaction

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
	return string(out)
}

func TestCommitLeavesUnrelatedWorkAlone(t *testing.T) {
	r := testRepo(t)
	dir := r.Top
	os.MkdirAll(filepath.Join(dir, "doc/adr"), 0o755)
	os.WriteFile(filepath.Join(dir, "doc/adr/0001-a.md"), []byte("# 1. A\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("v1\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "other.txt"), []byte("v1\n"), 0o644)
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "records")
	// Unrelated work: one file staged, one modified and unstaged, one new.
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("staged\n"), 0o644)
	git(t, dir, "add", "notes.txt")
	os.WriteFile(filepath.Join(dir, "other.txt"), []byte("unstaged\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "new.txt"), []byte("untracked\n"), 0o644)
	before := git(t, dir, "status", "--porcelain")
	commit, err := Commit(r, CommitOptions{Message: "Publish CURRENT view\n\nADR-Plan: s-x@1\n", Changes: []gitops.TreeChange{
		{Path: "doc/adr/CURRENT.md", Data: []byte("# Current\n")},
		{Path: "doc/adr/CURRENT.sources.json", Data: []byte("{}\n")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := git(t, dir, "show", "--name-only", "--format=%s", commit); got != "Publish CURRENT view\n\ndoc/adr/CURRENT.md\ndoc/adr/CURRENT.sources.json\n" {
		t.Errorf("commit holds:\n%s", got)
	}
	if after := git(t, dir, "status", "--porcelain"); after != before {
		t.Errorf("status after publication:\n%s\nbefore:\n%s", after, before)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "doc/adr/CURRENT.md")); string(data) != "# Current\n" {
		t.Errorf("work tree CURRENT.md = %q", data)
	}
	// A local change to a file it writes stops it before anything moves.
	os.WriteFile(filepath.Join(dir, "doc/adr/CURRENT.md"), []byte("hand edit\n"), 0o644)
	head := git(t, dir, "rev-parse", "HEAD")
	_, err = Commit(r, CommitOptions{Message: "again\n", Changes: []gitops.TreeChange{{Path: "doc/adr/CURRENT.md", Data: []byte("# New\n")}}})
	if !errors.Is(err, ErrLocalChanges) {
		t.Errorf("local change: %v", err)
	}
	if git(t, dir, "rev-parse", "HEAD") != head {
		t.Error("HEAD moved although publication was refused")
	}
}

func TestCommitSignsWithSSH(t *testing.T) {
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("ssh-keygen not installed")
	}
	r := testRepo(t)
	dir := r.Top
	key := filepath.Join(t.TempDir(), "key")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "t@e", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v %s", err, out)
	}
	pub, _ := os.ReadFile(key + ".pub")
	allowed := filepath.Join(t.TempDir(), "allowed")
	os.WriteFile(allowed, []byte("t@e "+string(pub)), 0o644)
	git(t, dir, "config", "gpg.format", "ssh")
	git(t, dir, "config", "user.signingkey", key)
	git(t, dir, "config", "gpg.ssh.allowedSignersFile", allowed)
	commit, err := Commit(r, CommitOptions{Message: "signed\n", Sign: true, Changes: []gitops.TreeChange{{Path: "x.md", Data: []byte("x\n")}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(git(t, dir, "log", "-1", "--format=%G?", commit)); got != "G" {
		t.Errorf("signature status %q, want G", got)
	}
}
