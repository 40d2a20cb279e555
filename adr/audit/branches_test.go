package audit

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/gittest"
)

// The trees of the other branches, never the current one's.
func TestBranchTrees(t *testing.T) {
	dir := t.TempDir()
	git := hermeticGit(t, dir)
	git("init", "-q", "-b", "main")
	gittest.AppendLine(t, filepath.Join(dir, "doc/adr/0001-a.md"), "# 1. A")
	git("add", "-A")
	git("commit", "-qm", "a")
	git("checkout", "-qb", "feature")
	os.WriteFile(filepath.Join(dir, "doc/adr/0002-b.md"), []byte("# 2. B\n"), 0o644)
	git("add", "-A")
	git("commit", "-qm", "b")
	git("checkout", "-q", "main")
	r, err := gitops.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	trees, err := BranchTrees(r)
	if err != nil || len(trees) != 1 || trees[0].Ref != "refs/heads/feature" {
		t.Fatalf("BranchTrees = %+v, %v", trees, err)
	}
	if _, err := fs.Stat(trees[0].FS, "doc/adr/0002-b.md"); err != nil {
		t.Errorf("the feature branch's tree lacks its record: %v", err)
	}
}
