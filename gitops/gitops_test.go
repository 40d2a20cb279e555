package gitops

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// newRepo makes a hermetic repository with one commit holding files.
func newRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	t.Setenv("GIT_AUTHOR_NAME", "T")
	t.Setenv("GIT_AUTHOR_EMAIL", "t@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "T")
	t.Setenv("GIT_COMMITTER_EMAIL", "t@example.com")
	runGit(t, dir, "init", "-q", "-b", "main")
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runGit(t, dir, "add", "-A")
	runGit(t, dir, "commit", "-qm", "init")
	return dir
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func TestOpenFromSubdirAndWorktree(t *testing.T) {
	dir := newRepo(t, map[string]string{"doc/adr/0001-a.md": "# 1. A\n"})
	r, err := Open(filepath.Join(dir, "doc", "adr"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Prefix != "doc/adr" {
		t.Errorf("Prefix = %q, want doc/adr", r.Prefix)
	}
	if want, _ := filepath.EvalSymlinks(dir); r.Top != want && r.Top != dir {
		t.Errorf("Top = %q, want %q", r.Top, dir)
	}
	wt := filepath.Join(t.TempDir(), "wt")
	runGit(t, dir, "worktree", "add", "-q", wt)
	lr, err := Open(wt)
	if err != nil {
		t.Fatal(err)
	}
	if lr.CommonDir == lr.GitDir {
		t.Errorf("linked worktree: GitDir and CommonDir both %q", lr.GitDir)
	}
	fsys, err := lr.TreeFS("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	data, err := fs.ReadFile(fsys, "doc/adr/0001-a.md")
	if err != nil || string(data) != "# 1. A\n" {
		t.Fatalf("TreeFS read = %q, %v", data, err)
	}
	if _, err := Open(t.TempDir()); !errors.Is(err, ErrNotRepository) {
		t.Errorf("Open(non-repo) = %v, want ErrNotRepository", err)
	}
}

// Every read works the same with go-git and with the git binary fallback
// (forced by a repository extension go-git does not support).
func TestReadsWithAndWithoutGoGit(t *testing.T) {
	dir := newRepo(t, map[string]string{"a/b.md": "b\n", "a/c/d.md": "d\n", "top.md": "top\n"})
	for _, fallback := range []bool{false, true} {
		if fallback {
			runGit(t, dir, "sparse-checkout", "init", "--cone")
		}
		r, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if r.UsesGoGit() == fallback {
			t.Fatalf("fallback=%v but UsesGoGit=%v", fallback, r.UsesGoGit())
		}
		tree, err := r.TreeFS("main")
		if err != nil {
			t.Fatal(err)
		}
		idx, err := r.IndexFS()
		if err != nil {
			t.Fatal(err)
		}
		for name, fsys := range map[string]fs.FS{"tree": tree, "index": idx} {
			var got []string
			err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if !d.IsDir() {
					data, err := fs.ReadFile(fsys, p)
					if err != nil {
						return err
					}
					got = append(got, p+"="+strings.TrimSpace(string(data)))
				}
				return nil
			})
			if err != nil {
				t.Fatalf("%s walk (fallback=%v): %v", name, fallback, err)
			}
			want := "a/b.md=b a/c/d.md=d top.md=top"
			if strings.Join(got, " ") != want {
				t.Errorf("%s (fallback=%v) = %q, want %q", name, fallback, strings.Join(got, " "), want)
			}
			if _, err := fs.ReadFile(fsys, "missing.md"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s missing file error = %v", name, err)
			}
		}
		r.Close()
	}
}

// The index is read through git, so GIT_INDEX_FILE (set by git inside
// hooks) is honoured.
func TestIndexFSHonoursGitIndexFile(t *testing.T) {
	dir := newRepo(t, map[string]string{"x.md": "one\n"})
	if err := os.WriteFile(filepath.Join(dir, "x.md"), []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tmpIndex := filepath.Join(t.TempDir(), "index")
	cmd := exec.Command("git", "add", "x.md")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_INDEX_FILE="+tmpIndex)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	idx, _ := r.IndexFS()
	if data, _ := fs.ReadFile(idx, "x.md"); string(data) != "one\n" {
		t.Errorf("default index x.md = %q, want one", data)
	}
	t.Setenv("GIT_INDEX_FILE", tmpIndex)
	idx, _ = r.IndexFS()
	if data, _ := fs.ReadFile(idx, "x.md"); string(data) != "two\n" {
		t.Errorf("GIT_INDEX_FILE x.md = %q, want two", data)
	}
}

func TestUpdateRefsCompareAndSwap(t *testing.T) {
	dir := newRepo(t, map[string]string{"x": "x\n"})
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	head, err := r.ResolveRef("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	const ref = "refs/adr/plans/p1"
	if err := r.UpdateRefs("create", RefUpdate{Name: ref, New: head, Old: ZeroHash}); !errors.Is(err, ErrNotLocked) {
		t.Fatalf("a ref update without the lock = %v, want ErrNotLocked", err)
	}
	l, err := r.Lock(LockOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if err := r.UpdateRefs("create", RefUpdate{Name: ref, New: head, Old: ZeroHash}); err != nil {
		t.Fatal(err)
	}
	// Creating again must fail: the ref exists.
	if err := r.UpdateRefs("create", RefUpdate{Name: ref, New: head, Old: ZeroHash}); !errors.Is(err, ErrRefChanged) {
		t.Errorf("second create = %v, want ErrRefChanged", err)
	}
	// A wrong old value loses the race and changes nothing.
	tree, _ := r.ResolveRef("HEAD^{tree}")
	if err := r.UpdateRefs("swap", RefUpdate{Name: ref, New: tree, Old: tree}); !errors.Is(err, ErrRefChanged) {
		t.Errorf("stale swap = %v, want ErrRefChanged", err)
	}
	if got, _ := r.ResolveRef(ref); got != head {
		t.Errorf("ref = %s after failed swap, want %s", got, head)
	}
	if err := r.UpdateRefs("delete", RefUpdate{Name: ref, Old: head}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ResolveRef(ref); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleted ref resolves: %v", err)
	}
}

func TestConfig(t *testing.T) {
	dir := newRepo(t, map[string]string{"x": "x\n"})
	r, _ := Open(dir)
	if _, err := r.Config("adr.missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing key: %v", err)
	}
	runGit(t, dir, "config", "adr.style", "madr")
	if v, err := r.Config("adr.style"); err != nil || v != "madr" {
		t.Errorf("Config = %q, %v", v, err)
	}
	t.Setenv("GIT_CONFIG_COUNT", "1")
	t.Setenv("GIT_CONFIG_KEY_0", "commit.gpgsign")
	t.Setenv("GIT_CONFIG_VALUE_0", "yes")
	if v, err := r.ConfigBool("commit.gpgsign", false); err != nil || !v {
		t.Errorf("env config bool = %v, %v", v, err)
	}
}

// A tree built from a base with changes, and a commit on it, leave the
// user's index and work tree alone.
func TestBuildTreeAndCommit(t *testing.T) {
	dir := newRepo(t, map[string]string{"doc/adr/0001-a.md": "# 1. A\n", "keep.txt": "keep\n"})
	if err := os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("local edit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runGit(t, dir, "add", "keep.txt")
	before := runGit(t, dir, "status", "--porcelain")
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := r.BuildTree("HEAD", []TreeChange{
		{Path: "doc/adr/CURRENT.md", Data: []byte("# Current\n")},
		{Path: "doc/adr/0001-a.md", Delete: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	head, _ := r.ResolveRef("HEAD")
	c, err := r.CommitTree(CommitOptions{Tree: tree, Parents: []string{head}, Message: "view\n"})
	if err != nil {
		t.Fatal(err)
	}
	files := runGit(t, dir, "ls-tree", "-r", "--name-only", c)
	if files != "doc/adr/CURRENT.md\nkeep.txt\n" {
		t.Errorf("commit tree = %q", files)
	}
	if data, err := r.ReadBlobAt(c, "doc/adr/CURRENT.md"); err != nil || string(data) != "# Current\n" {
		t.Errorf("ReadBlobAt = %q, %v", data, err)
	}
	if after := runGit(t, dir, "status", "--porcelain"); after != before {
		t.Errorf("status changed:\n%s\nwas\n%s", after, before)
	}
}

func TestConfigOrigin(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "a\n"})
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.ConfigOrigin("adr.drafter.command"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing key: %v, want ErrNotFound", err)
	}
	runGit(t, dir, "config", "--global", "adr.drafter.command", "global cmd")
	runGit(t, dir, "config", "adr.drafter.command", "local cmd")
	v, err := r.ConfigOrigin("adr.drafter.command")
	if err != nil || v.Value != "local cmd" || v.Scope != "local" || v.Origin != "file:.git/config" {
		t.Errorf("local: %+v, %v", v, err)
	}
	runGit(t, dir, "config", "--unset", "adr.drafter.command")
	v, err = r.ConfigOrigin("adr.drafter.command")
	if err != nil || v.Value != "global cmd" || v.Scope != "global" || v.Origin != "file:"+os.Getenv("GIT_CONFIG_GLOBAL") {
		t.Errorf("global: %+v, %v", v, err)
	}
	t.Setenv("GIT_CONFIG_COUNT", "1")
	t.Setenv("GIT_CONFIG_KEY_0", "adr.drafter.openai.baseUrl")
	t.Setenv("GIT_CONFIG_VALUE_0", "http://localhost:1/v1")
	v, err = r.ConfigOrigin("adr.drafter.openai.baseurl")
	if err != nil || v.Value != "http://localhost:1/v1" || v.Scope != "command" {
		t.Errorf("environment: %+v, %v", v, err)
	}
}
