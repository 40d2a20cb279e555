package gitops

import (
	"errors"
	"io/fs"
	"path/filepath"
	"testing"
)

// A mirror is fetched into and read without a work tree, in process and
// through the git binary (a bare repository go-git refuses): cat-file
// once ran in the process's directory, which for a bare repository is
// some other repository or none.
func TestMirrorFetchAndRead(t *testing.T) {
	src := newRepo(t, map[string]string{"doc/adr/0001-a.md": "# 1. A\n"})
	for _, fallback := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "m.git")
		m, err := OpenMirror(dir)
		if err != nil {
			t.Fatal(err)
		}
		if !m.Bare {
			t.Fatal("mirror is not bare")
		}
		if fallback {
			runGit(t, dir, "config", "core.repositoryformatversion", "1")
			runGit(t, dir, "config", "extensions.worktreeConfig", "true")
		}
		if err := m.FetchRef("file://"+src, "main", "refs/adr-workspace/tip"); err != nil {
			t.Fatal(err)
		}
		m.Close()
		m, err = OpenBare(dir) // go-git's verdict is taken once per Repo
		if err != nil {
			t.Fatal(err)
		}
		if m.UsesGoGit() == fallback {
			t.Fatalf("fallback=%v but UsesGoGit=%v", fallback, m.UsesGoGit())
		}
		tree, err := m.TreeFS("refs/adr-workspace/tip")
		if err != nil {
			t.Fatal(err)
		}
		data, err := fs.ReadFile(tree, "doc/adr/0001-a.md")
		if err != nil || string(data) != "# 1. A\n" {
			t.Fatalf("fallback=%v: read %q, %v", fallback, data, err)
		}
		c, rt, err := m.RefTree("refs/adr-workspace/tip")
		if err != nil || len(c) != 40 {
			t.Fatalf("fallback=%v: RefTree = %q, %v", fallback, c, err)
		}
		if data, err := fs.ReadFile(rt, "doc/adr/0001-a.md"); err != nil || string(data) != "# 1. A\n" {
			t.Fatalf("fallback=%v: RefTree read %q, %v", fallback, data, err)
		}
		if h, err := m.RefHash("refs/adr-workspace/tip"); err != nil || h != c {
			t.Fatalf("fallback=%v: RefHash = %q, %v; want %q", fallback, h, err, c)
		}
		if _, err := m.RefHash("refs/adr-workspace/none"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("fallback=%v: RefHash of a missing ref: %v", fallback, err)
		}
		if _, _, err := m.RefTree("refs/adr-workspace/none"); err == nil {
			t.Fatalf("fallback=%v: RefTree of a missing ref succeeded", fallback)
		}
		var ge *GitError
		if err := m.FetchRef("file://"+src, "no-such-branch", "refs/adr-workspace/tip"); !errors.As(err, &ge) {
			t.Fatalf("a missing ref: %v, want a GitError", err)
		}
		m.Close()
	}
	if _, err := OpenBare(src); !errors.Is(err, ErrNotRepository) {
		t.Fatalf("OpenBare of a work tree: %v", err)
	}
}
