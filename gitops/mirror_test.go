package gitops

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
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

// A mirror holds the tip commit of its ref and none of its history, and
// the next fetch brings the new tip; a server that cannot serve a
// shallow fetch (git's dumb HTTP, here served by the test) gives the
// whole history instead.
func TestMirrorFetchesTheTipOnly(t *testing.T) {
	src := newRepo(t, map[string]string{"doc/adr/0001-a.md": "# 1. A\n"})
	for i := 2; i <= 3; i++ {
		p := filepath.Join(src, "doc", "adr", fmt.Sprintf("%04d-r.md", i))
		if err := os.WriteFile(p, []byte(fmt.Sprintf("# %d. R\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		runGit(t, src, "add", "-A")
		runGit(t, src, "commit", "-q", "-m", fmt.Sprintf("record %d", i))
	}
	commits := func(m *Repo) string {
		t.Helper()
		cmd := exec.Command("git", "rev-list", "--count", "refs/adr-workspace/tip")
		cmd.Dir = m.GitDir
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	m := fetchedMirror(t, src)
	if n := commits(m); n != "1" {
		t.Fatalf("a first fetch holds %s commits, want the tip alone", n)
	}
	if err := os.WriteFile(filepath.Join(src, "doc", "adr", "0004-r.md"), []byte("# 4. R\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runGit(t, src, "add", "-A")
	runGit(t, src, "commit", "-q", "-m", "record 4")
	if err := m.FetchRef("file://"+src, "main", "refs/adr-workspace/tip"); err != nil {
		t.Fatal(err)
	}
	tree, err := m.TreeFS("refs/adr-workspace/tip")
	if err != nil {
		t.Fatal(err)
	}
	if data, err := fs.ReadFile(tree, "doc/adr/0004-r.md"); err != nil || string(data) != "# 4. R\n" {
		t.Fatalf("after the next fetch: %q, %v", data, err)
	}

	runGit(t, src, "update-server-info")
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join(src, ".git"))))
	defer srv.Close()
	dumb, err := OpenMirror(filepath.Join(t.TempDir(), "d.git"))
	if err != nil {
		t.Fatal(err)
	}
	defer dumb.Close()
	if err := dumb.FetchRef(srv.URL+"/", "main", "refs/adr-workspace/tip"); err != nil {
		t.Fatalf("over dumb HTTP: %v", err)
	}
	if n := commits(dumb); n != "4" {
		t.Fatalf("over dumb HTTP the mirror holds %s commits, want the whole history, 4", n)
	}
}

// Lock files a killed fetch leaves in a mirror (git's own, not git-adr's)
// do not stop the next fetch, which holds the mirror's lock.
func TestMirrorFetchAfterKilledFetchLocks(t *testing.T) {
	src := newRepo(t, map[string]string{"doc/adr/0001-a.md": "# 1. A\n"})
	m := fetchedMirror(t, src)
	for _, lock := range []string{"shallow.lock", "packed-refs.lock", "refs/adr-workspace/tip.lock"} {
		if err := os.WriteFile(filepath.Join(m.GitDir, filepath.FromSlash(lock)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.FetchRef("file://"+src, "main", "refs/adr-workspace/tip"); err != nil {
		t.Fatalf("a fetch after a killed one's locks: %v", err)
	}
	for _, lock := range []string{"shallow.lock", "packed-refs.lock", "refs/adr-workspace/tip.lock"} {
		if _, err := os.Stat(filepath.Join(m.GitDir, filepath.FromSlash(lock))); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s left: %v", lock, err)
		}
	}
}

// fetchedMirror is a new mirror with src's main fetched into
// refs/adr-workspace/tip, closed when t ends.
func fetchedMirror(t *testing.T, src string) *Repo {
	t.Helper()
	m, err := OpenMirror(filepath.Join(t.TempDir(), "m.git"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	if err := m.FetchRef("file://"+src, "main", "refs/adr-workspace/tip"); err != nil {
		t.Fatal(err)
	}
	return m
}

// A fetch into a mirror that holds no object runs no automatic
// maintenance (it could have nothing to do); a fetch into one that holds
// objects runs it, as git does.
func TestMirrorFirstFetchSkipsMaintenance(t *testing.T) {
	src := newRepo(t, map[string]string{"doc/adr/0001-a.md": "# 1. A\n"})
	dir := filepath.Join(t.TempDir(), "m.git")
	m, err := OpenMirror(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if !noObjects(dir) {
		t.Fatal("a new mirror holds objects")
	}
	trace := filepath.Join(t.TempDir(), "trace")
	t.Setenv("GIT_TRACE", trace)
	maintained := func() bool {
		data, err := os.ReadFile(trace)
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(trace)
		return strings.Contains(string(data), "maintenance run --auto")
	}
	if err := m.FetchRef("file://"+src, "main", "refs/adr-workspace/tip"); err != nil {
		t.Fatal(err)
	}
	if maintained() {
		t.Error("the first fetch into an empty mirror ran git maintenance")
	}
	if noObjects(dir) {
		t.Fatal("the fetch left no object")
	}
	runGit(t, src, "commit", "-q", "--allow-empty", "-m", "second")
	if err := m.FetchRef("file://"+src, "main", "refs/adr-workspace/tip"); err != nil {
		t.Fatal(err)
	}
	if !maintained() {
		t.Error("a fetch into a mirror holding objects ran no git maintenance")
	}
}

// A mirror made in process is what git init --bare --template= makes
// (the same folders and files, modes, HEAD and config), git fetches into
// it and reads it; with GIT_DEFAULT_HASH or a configuration that may name
// an object format, git makes it.
func TestMirrorInitAsGit(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("made in process on Linux only")
	}
	describe := func(dir string) map[string]string {
		out := map[string]string{}
		filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				t.Fatal(err)
			}
			fi, _ := e.Info()
			rel, _ := filepath.Rel(dir, p)
			out[rel] = fi.Mode().String()
			if !e.IsDir() {
				data, _ := os.ReadFile(p)
				if rel == "HEAD" {
					// Which branch HEAD names (init.defaultBranch)
					// is nothing to a mirror, read at its own ref.
					data, _, _ = bytes.Cut(data, []byte("refs/heads/"))
				}
				out[rel] += " " + string(data)
			}
			return nil
		})
		return out
	}
	byGit := filepath.Join(t.TempDir(), "git")
	runGit(t, t.TempDir(), "init", "--bare", "-q", "--template=", byGit)
	here := filepath.Join(t.TempDir(), "here")
	if err := os.Mkdir(here, 0o777); err != nil {
		t.Fatal(err)
	}
	if !initInProcess(here) {
		t.Fatal("a plain environment does not make the mirror in process")
	}
	if err := initMirror(here); err != nil {
		t.Fatal(err)
	}
	if got, want := describe(here), describe(byGit); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("made in process:\n%v\nby git:\n%v", got, want)
	}
	if what := foreignMirrorConfig(here); what != "" {
		t.Fatalf("the mirror's own config is refused: %s", what)
	}
	src := newRepo(t, map[string]string{"doc/adr/0001-a.md": "# 1. A\n"})
	dir := filepath.Join(t.TempDir(), "m.git")
	if err := os.Rename(here, dir); err != nil {
		t.Fatal(err)
	}
	m, err := OpenMirror(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.FetchRef("file://"+src, "main", "refs/adr-workspace/tip"); err != nil {
		t.Fatal(err)
	}
	if out := runGit(t, dir, "cat-file", "-p", "refs/adr-workspace/tip:doc/adr/0001-a.md"); out != "# 1. A\n" {
		t.Fatalf("read %q", out)
	}
	runGit(t, dir, "fsck", "--no-progress")

	t.Setenv("GIT_DEFAULT_HASH", "sha256")
	if initInProcess(t.TempDir()) {
		t.Error("GIT_DEFAULT_HASH set, and the mirror is made in process")
	}
	made := filepath.Join(t.TempDir(), "sha256.git")
	if _, err := OpenMirror(made); err != nil {
		t.Fatal(err)
	}
	if out := runGit(t, made, "rev-parse", "--show-object-format"); out != "sha256\n" {
		t.Errorf("GIT_DEFAULT_HASH=sha256 made a %q mirror", out)
	}
	t.Setenv("GIT_DEFAULT_HASH", "")
	global := filepath.Join(t.TempDir(), "gitconfig")
	os.WriteFile(global, []byte("[init]\n\tdefaultObjectFormat = sha256\n"), 0o644)
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	if initInProcess(t.TempDir()) {
		t.Error("init.defaultObjectFormat set, and the mirror is made in process")
	}
}

// A mirror moved aside under a fetch that had opened it (a prune) leaves
// a folder that is no repository: git must not look above it and fetch
// into the repository that holds the cache folder (a home folder kept in
// git), but fail.
func TestMirrorFetchNeverReachesAbove(t *testing.T) {
	src := newRepo(t, map[string]string{"doc/adr/0001-a.md": "# 1. A\n"})
	home := newRepo(t, map[string]string{"README": "dotfiles\n"})
	dir := filepath.Join(home, "cache", "m.git")
	m, err := OpenMirror(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "adr"), 0o755); err != nil {
		t.Fatal(err)
	}
	// FetchRef refuses a mirror with no config first; git is asked
	// here as it is after that check, the folder gone in between.
	if err := m.fetchRef("", "file://"+src, "main", "refs/adr-workspace/tip", false); err == nil {
		t.Fatal("a fetch into a folder that is no repository succeeded")
	}
	if out, err := exec.Command("git", "-C", home, "for-each-ref", "refs/adr-workspace").CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("the fetch reached the repository above the mirror: %q, %v", out, err)
	}
}
