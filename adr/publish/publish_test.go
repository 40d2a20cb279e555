package publish

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/gittest"
)

func TestCommitLeavesUnrelatedWorkAlone(t *testing.T) {
	r := gittest.Repo(t)
	dir := r.Top
	os.MkdirAll(filepath.Join(dir, "doc/adr"), 0o755)
	os.WriteFile(filepath.Join(dir, "doc/adr/0001-a.md"), []byte("# 1. A\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("v1\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "other.txt"), []byte("v1\n"), 0o644)
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-qm", "records")
	// Unrelated work: one file staged, one modified and unstaged, one new.
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("staged\n"), 0o644)
	gittest.Git(t, dir, "add", "notes.txt")
	os.WriteFile(filepath.Join(dir, "other.txt"), []byte("unstaged\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "new.txt"), []byte("untracked\n"), 0o644)
	before := gittest.Git(t, dir, "status", "--porcelain")
	commits, _, err := Commit(r, one(r, "Publish CURRENT view\n\nADR-Plan: s-x@1\n", false,
		gitops.TreeChange{Path: "doc/adr/CURRENT.md", Data: []byte("# Current\n")},
		gitops.TreeChange{Path: "doc/adr/CURRENT.sources.json", Data: []byte("{}\n")}))
	if err != nil {
		t.Fatal(err)
	}
	commit := commits[0]
	if got := gittest.Git(t, dir, "show", "--name-only", "--format=%s", commit); got != "Publish CURRENT view\n\ndoc/adr/CURRENT.md\ndoc/adr/CURRENT.sources.json\n" {
		t.Errorf("commit holds:\n%s", got)
	}
	if after := gittest.Git(t, dir, "status", "--porcelain"); after != before {
		t.Errorf("status after publication:\n%s\nbefore:\n%s", after, before)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "doc/adr/CURRENT.md")); string(data) != "# Current\n" {
		t.Errorf("work tree CURRENT.md = %q", data)
	}
	// A local change to a file it writes stops it before anything moves.
	os.WriteFile(filepath.Join(dir, "doc/adr/CURRENT.md"), []byte("hand edit\n"), 0o644)
	head := gittest.Git(t, dir, "rev-parse", "HEAD")
	_, _, err = Commit(r, one(r, "again\n", false, gitops.TreeChange{Path: "doc/adr/CURRENT.md", Data: []byte("# New\n")}))
	if !errors.Is(err, ErrLocalChanges) {
		t.Errorf("local change: %v", err)
	}
	if gittest.Git(t, dir, "rev-parse", "HEAD") != head {
		t.Error("HEAD moved although publication was refused")
	}
}

func TestCommitSignsWithSSH(t *testing.T) {
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("ssh-keygen not installed")
	}
	r := gittest.Repo(t)
	dir := r.Top
	key := filepath.Join(t.TempDir(), "key")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "t@e", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v %s", err, out)
	}
	pub, _ := os.ReadFile(key + ".pub")
	allowed := filepath.Join(t.TempDir(), "allowed")
	os.WriteFile(allowed, []byte("t@e "+string(pub)), 0o644)
	gittest.Git(t, dir, "config", "gpg.format", "ssh")
	gittest.Git(t, dir, "config", "user.signingkey", key)
	gittest.Git(t, dir, "config", "gpg.ssh.allowedSignersFile", allowed)
	commits, _, err := Commit(r, one(r, "signed\n", true, gitops.TreeChange{Path: "x.md", Data: []byte("x\n")}))
	if err != nil {
		t.Fatal(err)
	}
	commit := commits[0]
	if got := strings.TrimSpace(gittest.Git(t, dir, "log", "-1", "--format=%G?", commit)); got != "G" {
		t.Errorf("signature status %q, want G", got)
	}
}

// one is a publication of one commit.
func one(r *gitops.Repo, msg string, sign bool, changes ...gitops.TreeChange) Options {
	return Options{JournalDir: journalDir(r), Sign: sign, Steps: []Step{{Message: msg, Changes: changes}}}
}

func journalDir(r *gitops.Repo) string { return filepath.Join(r.GitDir, "adr", "journal") }

// TestPublicationInterrupted: the branch moved but the work tree and index
// were not brought up to date (a crash between the two). Find
// finds the commit by its trailer, Sync finishes it, and a file someone
// edited meanwhile is kept; publishing the same content again is refused
// rather than made an empty commit.
func TestPublicationInterrupted(t *testing.T) {
	r := gittest.Repo(t)
	dir := r.Top
	os.MkdirAll(filepath.Join(dir, "doc/adr"), 0o755)
	os.WriteFile(filepath.Join(dir, "doc/adr/CURRENT.md"), []byte("# Old\n"), 0o644)
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-qm", "old view")
	base := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	changes := []gitops.TreeChange{
		{Path: "doc/adr/CURRENT.md", Data: []byte("# New\n")},
		{Path: "doc/adr/CURRENT.sources.json", Data: []byte("{}\n")},
	}
	tree, err := r.BuildTree(base, changes)
	if err != nil {
		t.Fatal(err)
	}
	commit, err := r.CommitTree(gitops.CommitOptions{Tree: tree, Parents: []string{base}, Message: "Publish\n\nADR-Plan: s-x@2\n"})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.UpdateRefs("", gitops.RefUpdate{Name: r.CurrentBranch(), New: commit, Old: base}); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(r, base, "ADR-Plan: s-x@2"); err != nil || got != commit {
		t.Fatalf("Find = %q, %v; want %s", got, err, commit)
	}
	if got, _ := Find(r, base, "ADR-Plan: s-x@1"); got != "" {
		t.Errorf("another revision matched: %s", got)
	}
	kept, err := Sync(r, base, commit, changes, journalDir(r), "")
	if err != nil || len(kept) != 0 {
		t.Fatalf("Sync = %q, %v", kept, err)
	}
	if st := gittest.Git(t, dir, "status", "--porcelain"); st != "" {
		t.Errorf("after Sync the work tree differs from HEAD:\n%s", st)
	}
	// Synced again with an edit in between: the edit is kept.
	os.WriteFile(filepath.Join(dir, "doc/adr/CURRENT.md"), []byte("# Mine\n"), 0o644)
	kept, err = Sync(r, base, commit, changes, journalDir(r), "")
	if err != nil || len(kept) != 1 || kept[0] != "doc/adr/CURRENT.md" {
		t.Fatalf("an edited file must be kept; Sync = %q, %v", kept, err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "doc/adr/CURRENT.md")); string(data) != "# Mine\n" {
		t.Errorf("Sync overwrote an edit: %q", data)
	}
	os.WriteFile(filepath.Join(dir, "doc/adr/CURRENT.md"), []byte("# New\n"), 0o644)
	if _, _, err := Commit(r, one(r, "again\n", false, changes...)); !errors.Is(err, ErrNothingToPublish) {
		t.Errorf("publishing what HEAD holds = %v, want ErrNothingToPublish", err)
	}
}

// TestCommitRenameThenRewrite: two steps, a tracked rename then a rewrite
// of the moved file, make two commits and move the branch once; the work
// tree gets the file at its new place with its mode, the index follows,
// git log --follow reaches the first commit, and unrelated work stays.
// Interrupted after the branch moved, Sync finishes the move.
func TestCommitRenameThenRewrite(t *testing.T) {
	r := gittest.Repo(t)
	dir := r.Top
	os.MkdirAll(filepath.Join(dir, "doc/adr"), 0o755)
	old := []byte("# 2. X\n\nSee [3](0003-y.md).\n")
	os.WriteFile(filepath.Join(dir, "doc/adr/0002-x.md"), old, 0o755)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("v1\n"), 0o644)
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-qm", "records")
	base := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("unstaged\n"), 0o644)
	const to = "doc/adr/archive/0002-x.md"
	neu := []byte("# 2. X\n\nSee [3](../0003-y.md).\n")
	steps := []Step{
		{Message: "rename\n", Changes: []gitops.TreeChange{{Path: to, From: "doc/adr/0002-x.md", Data: old, Mode: "100755"}}},
		{Message: "rewrite\n\nADR-Archive: a-x@1\n", Changes: []gitops.TreeChange{{Path: to, Data: neu, Mode: "100755"}}},
	}
	commits, kept, err := Commit(r, Options{Steps: steps, JournalDir: journalDir(r)})
	if err != nil || len(commits) != 2 || len(kept) != 0 {
		t.Fatalf("Commit = %v, %v, %v", commits, kept, err)
	}
	if got := gittest.Git(t, dir, "show", "--format=", "--name-status", commits[0]); got != "R100\tdoc/adr/0002-x.md\t"+to+"\n" {
		t.Errorf("first commit:\n%s", got)
	}
	if got := gittest.Git(t, dir, "log", "--follow", "--format=%s", "--", to); got != "rewrite\nrename\nrecords\n" {
		t.Errorf("git log --follow:\n%s", got)
	}
	if got := gittest.Git(t, dir, "status", "--porcelain"); got != " M notes.txt\n" {
		t.Errorf("status:\n%s", got)
	}
	fi, err := os.Stat(filepath.Join(dir, to))
	if err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Errorf("the moved file lost its mode: %v %v", fi, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "doc/adr/0002-x.md")); err == nil {
		t.Error("the source is still there")
	}
	if f, _ := Find(r, base, "ADR-Archive: a-x@1"); f != commits[1] {
		t.Errorf("Find = %s, want %s", f, commits[1])
	}

	// The branch moved but nothing else happened: Sync does the rest.
	gittest.Git(t, dir, "reset", "-q", "--hard", base)
	gittest.Git(t, dir, "update-ref", "refs/heads/"+strings.TrimPrefix(r.CurrentBranch(), "refs/heads/"), commits[1])
	if got := gittest.Git(t, dir, "status", "--porcelain"); got == "" {
		t.Fatal("the reset did not undo the work tree")
	}
	kept, err = Sync(r, base, commits[1], Changes(steps), journalDir(r), "")
	if err != nil || len(kept) != 0 {
		t.Fatalf("Sync = %v, %v", kept, err)
	}
	if got := gittest.Git(t, dir, "status", "--porcelain"); got != "" {
		t.Errorf("after Sync:\n%s", got)
	}
}
