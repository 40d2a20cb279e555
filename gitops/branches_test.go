package gitops_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-adr/git-adr/internal/gittest"
)

// The trees of the other branches, each with its own files; the current
// branch is the work tree and left out.
func TestOtherBranchTrees(t *testing.T) {
	r := gittest.Repo(t)
	git := func(args ...string) { t.Helper(); gittest.Git(t, r.Top, args...) }
	git("branch", "-M", "main")
	os.WriteFile(filepath.Join(r.Top, "a.md"), []byte("main\n"), 0o644)
	git("add", "a.md")
	git("commit", "-q", "-m", "main")
	git("branch", "same")
	git("checkout", "-q", "-b", "other")
	os.WriteFile(filepath.Join(r.Top, "a.md"), []byte("other\n"), 0o644)
	git("commit", "-q", "-am", "other")
	git("checkout", "-q", "main")
	trees, err := r.OtherBranchTrees()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, bt := range trees {
		data, err := fs.ReadFile(bt.FS, "a.md")
		if err != nil {
			t.Fatal(err)
		}
		got[bt.Ref] = string(data)
	}
	if len(got) != 2 || got["refs/heads/other"] != "other\n" || got["refs/heads/same"] != "main\n" {
		t.Errorf("OtherBranchTrees = %q, want refs/heads/other and refs/heads/same, not the current main", got)
	}
}
