package gitops

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// revParse is git's own answer for dir: git dir, common dir, top level
// and prefix, or ok false when git refuses or finds no work tree.
func revParse(t *testing.T, dir string) (gitDir, commonDir, top, prefix string, ok bool) {
	t.Helper()
	cmd := exec.Command("git", "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", "--show-toplevel", "--show-prefix")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", "", "", "", false
	}
	l := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(l) < 3 || l[2] == "" {
		return "", "", "", "", false
	}
	if len(l) > 3 {
		prefix = strings.TrimSuffix(l[3], "/")
	}
	return l[0], l[1], l[2], prefix, true
}

// TestDiscoverMatchesRevParse checks, case by case, that Open answers
// what `git rev-parse` answers, and that the repositories git-adr finds
// without git are exactly the plain ones (discover reports false for
// every other, so git decides).
func TestDiscoverMatchesRevParse(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("discovery always asks git on Windows")
	}
	base := newRepo(t, map[string]string{"doc/adr/0001-a.md": "# 1. A\n", "src/x/y.go": "package x\n"})
	wt := filepath.Join(t.TempDir(), "wt")
	runGit(t, base, "worktree", "add", "-q", wt)
	hooksPath := newRepo(t, map[string]string{"a.md": "a\n"})
	runGit(t, hooksPath, "config", "core.hooksPath", ".githooks")
	separate := filepath.Join(t.TempDir(), "work")
	runGit(t, t.TempDir(), "init", "-q", "--separate-git-dir", filepath.Join(t.TempDir(), "store.git"), separate)
	bare := filepath.Join(t.TempDir(), "bare.git")
	runGit(t, t.TempDir(), "init", "-q", "--bare", bare)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(filepath.Join(base, "doc"), link); err != nil {
		t.Fatal(err)
	}
	coreWT := newRepo(t, map[string]string{"a.md": "a\n"})
	elsewhere := t.TempDir()
	runGit(t, coreWT, "config", "core.worktree", elsewhere)
	ext := newRepo(t, map[string]string{"a.md": "a\n"})
	runGit(t, ext, "config", "extensions.worktreeConfig", "true")
	include := newRepo(t, map[string]string{"a.md": "a\n"})
	runGit(t, include, "config", "include.path", filepath.Join(t.TempDir(), "missing"))
	// A .git directory of its own whose refs and objects are another's
	// (a commondir file), which git follows.
	common := t.TempDir()
	if err := os.MkdirAll(filepath.Join(common, ".git", "refs"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"HEAD": "ref: refs/heads/main\n", "commondir": filepath.Join(base, ".git") + "\n"} {
		if err := os.WriteFile(filepath.Join(common, ".git", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	emptyDotGit := filepath.Join(base, "src", "x")
	if err := os.Mkdir(filepath.Join(emptyDotGit, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name string
		dir  string
		env  map[string]string
		// fast says discover answers without git.
		fast bool
	}{
		{"top of a work tree", base, nil, true},
		{"subdirectory", filepath.Join(base, "doc", "adr"), nil, true},
		{"linked worktree", wt, nil, true},
		{"subdirectory of a linked worktree", filepath.Join(wt, "doc"), nil, true},
		{"core.hooksPath", hooksPath, nil, true},
		{".git file pointing elsewhere", separate, nil, true},
		{".git directory with a commondir", common, nil, true},
		{"symlinked path", link, nil, true},
		{"inside the git directory", filepath.Join(base, ".git", "refs"), nil, false},
		{"bare repository", bare, nil, false},
		{"GIT_DIR set", filepath.Join(base, "doc"), map[string]string{"GIT_DIR": filepath.Join(base, ".git")}, true},
		{"GIT_DIR relative", base, map[string]string{"GIT_DIR": ".git"}, true},
		{"GIT_DIR of a linked worktree", wt, map[string]string{"GIT_DIR": filepath.Join(base, ".git", "worktrees", "wt")}, true},
		{"GIT_DIR of a linked worktree, from a subdirectory", filepath.Join(wt, "doc"), map[string]string{"GIT_DIR": filepath.Join(base, ".git", "worktrees", "wt")}, true},
		{"GIT_DIR naming no repository", base, map[string]string{"GIT_DIR": filepath.Join(base, "doc")}, false},
		{"GIT_DIR of a bare repository", t.TempDir(), map[string]string{"GIT_DIR": bare}, false},
		{"GIT_DIR with core.worktree", t.TempDir(), map[string]string{"GIT_DIR": filepath.Join(coreWT, ".git")}, false},
		{"GIT_WORK_TREE set", filepath.Join(base, "doc"), map[string]string{"GIT_DIR": filepath.Join(base, ".git"), "GIT_WORK_TREE": base}, false},
		{"GIT_CEILING_DIRECTORIES", filepath.Join(base, "doc"), map[string]string{"GIT_CEILING_DIRECTORIES": base}, false},
		{"GIT_CEILING_DIRECTORIES above the top", base, map[string]string{"GIT_CEILING_DIRECTORIES": filepath.Dir(base)}, true},
		{"GIT_CEILING_DIRECTORIES above the top, from a subdirectory", filepath.Join(base, "doc", "adr"), map[string]string{"GIT_CEILING_DIRECTORIES": "/nowhere-relative-x:relative:" + filepath.Dir(base)}, false},
		{"GIT_CEILING_DIRECTORIES the top itself", base, map[string]string{"GIT_CEILING_DIRECTORIES": base}, true},
		{"GIT_CEILING_DIRECTORIES between a subdirectory and the top", filepath.Join(base, "doc", "adr"), map[string]string{"GIT_CEILING_DIRECTORIES": filepath.Join(base, "doc")}, false},
		{"GIT_CEILING_DIRECTORIES unresolved after an empty entry", base, map[string]string{"GIT_CEILING_DIRECTORIES": ":" + filepath.Dir(base)}, true},
		{"GIT_CEILING_DIRECTORIES of a linked worktree's parent", wt, map[string]string{"GIT_CEILING_DIRECTORIES": filepath.Dir(wt)}, true},
		{"git -c core.worktree", base, map[string]string{"GIT_CONFIG_PARAMETERS": "'core.worktree'='" + elsewhere + "'"}, false},
		{"core.worktree in the configuration", coreWT, nil, false},
		{"an extension", ext, nil, false},
		{"an include", include, nil, false},
		{"an empty .git directory on the way up", emptyDotGit, nil, false},
		{"not a repository", t.TempDir(), nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			phys, err := filepath.EvalSymlinks(c.dir)
			if err != nil {
				t.Fatal(err)
			}
			_, _, _, fast := discover(phys)
			if fast != c.fast {
				t.Errorf("discover answered without git: %v, want %v", fast, c.fast)
			}
			gitDir, commonDir, top, prefix, ok := revParse(t, c.dir)
			r, err := Open(c.dir)
			if !ok {
				if err == nil && !r.Bare {
					t.Fatalf("git finds no work tree, Open found %+v", r)
				}
				return
			}
			if err != nil {
				t.Fatalf("Open: %v (git: %s %s %s)", err, gitDir, commonDir, top)
			}
			got := [4]string{r.GitDir, r.CommonDir, r.Top, r.Prefix}
			want := [4]string{gitDir, commonDir, top, prefix}
			if got != want {
				t.Errorf("Open = %q\ngit  = %q", got, want)
			}
		})
	}
}

// TestDiscoverRefusesAnotherOwner: a repository another user owns is
// refused by git's safe.directory rule, and so by Open, which never
// judges it without git.
func TestDiscoverRefusesAnotherOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a repository to another user")
	}
	dir := newRepo(t, map[string]string{"a.md": "a\n"})
	t.Setenv("SUDO_UID", "") // git's sudo exception must not apply
	os.Unsetenv("SUDO_UID")
	for _, p := range []string{dir, filepath.Join(dir, ".git")} {
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Skip("cannot chown:", err)
		}
	}
	if _, _, _, ok := discover(dir); ok {
		t.Error("discover answered for a repository another user owns")
	}
	_, _, _, _, gitOK := revParse(t, dir)
	_, err := Open(dir)
	if gitOK {
		t.Fatalf("git accepted the repository; the test expects its refusal")
	}
	if err == nil || !strings.Contains(err.Error(), "dubious ownership") {
		t.Errorf("Open = %v, want git's dubious ownership refusal", err)
	}
	// safe.directory makes git accept it; Open follows git.
	runGit(t, dir, "config", "--global", "--add", "safe.directory", dir)
	r, err := Open(dir)
	if err != nil {
		t.Fatalf("Open with safe.directory: %v", err)
	}
	if want, _ := filepath.EvalSymlinks(dir); r.Top != want {
		t.Errorf("Top = %q, want %q", r.Top, want)
	}
}

// FuzzPlainConfig: whatever the configuration, a plain verdict means git
// reads no core.worktree and a false core.bare from it.
func FuzzPlainConfig(f *testing.F) {
	f.Add("[core]\n\trepositoryformatversion = 0\n\tbare = false\n")
	f.Add("[core]\n\tworktree = /x\n")
	f.Add("[Core]\nBare\n")
	f.Add("[core] bare = true\n")
	f.Add("[include]\npath = x\n")
	f.Add("[core]\nbare = fa\\\nlse\n")
	f.Add("[core]\n\tbare = false\n[remote \"origin\"]\n\turl = x\n[branch \"main\"]\n\tremote = origin\n")
	f.Add("[includeIf \"gitdir:/x/\"]\n\tpath = y\n")
	f.Add("[core]\nbare = no\nfoo bar\n")
	f.Fuzz(func(t *testing.T, cfg string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "config"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		if !plainConfig(dir) {
			return
		}
		if out, err := exec.Command("git", "config", "--file", filepath.Join(dir, "config"), "--list").CombinedOutput(); err != nil {
			t.Fatalf("plain config %q, but git cannot read it: %s", cfg, out)
		}
		for _, key := range []string{"core.worktree", "core.bare"} {
			cmd := exec.Command("git", "config", "--file", filepath.Join(dir, "config"), "--type=bool", "--get", key)
			if key == "core.worktree" {
				cmd = exec.Command("git", "config", "--file", filepath.Join(dir, "config"), "--get", key)
			}
			out, err := cmd.Output()
			if err != nil {
				continue // unset, or a file git cannot read (then rev-parse refuses it too)
			}
			if v := strings.TrimSpace(string(out)); key == "core.worktree" || v != "false" {
				t.Fatalf("plain config %q, but git reads %s = %q", cfg, key, v)
			}
		}
	})
}

// A linked worktree has its own HEAD: Head, CurrentBranch and TreeFS
// ("HEAD") answer for it, not for the main worktree, as git does.
func TestLinkedWorktreeHead(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.md": "main\n"})
	wt := filepath.Join(t.TempDir(), "wt")
	runGit(t, dir, "worktree", "add", "-q", "-b", "side", wt)
	if err := os.WriteFile(filepath.Join(wt, "a.md"), []byte("side\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runGit(t, wt, "commit", "-qam", "side")
	for _, d := range []string{dir, wt} {
		r, err := Open(d)
		if err != nil {
			t.Fatal(err)
		}
		head, err := r.Head()
		if want := strings.TrimSpace(runGit(t, d, "rev-parse", "HEAD")); err != nil || head != want {
			t.Errorf("%s: Head = %q, %v; git says %q", d, head, err, want)
		}
		if got, want := r.CurrentBranch(), strings.TrimSpace(runGit(t, d, "symbolic-ref", "HEAD")); got != want {
			t.Errorf("%s: CurrentBranch = %q; git says %q", d, got, want)
		}
		tree, err := r.TreeFS("HEAD")
		if err != nil {
			t.Fatal(err)
		}
		data, _ := fs.ReadFile(tree, "a.md")
		if want := runGit(t, d, "show", "HEAD:a.md"); string(data) != want {
			t.Errorf("%s: TreeFS(HEAD) a.md = %q; git says %q", d, data, want)
		}
	}
}
