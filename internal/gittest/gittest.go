// Package gittest makes real git repositories for tests: a hermetic
// identity and configuration, one empty commit, and the project lock held
// (writes below cmd refuse without it).
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/git-adr/git-adr/gitops"
)

// Repo returns a new repository with one empty commit, opened, with the
// project lock held until the test ends.
func Repo(t *testing.T) *gitops.Repo {
	t.Helper()
	dir := t.TempDir()
	Hermetic(t)
	Git(t, dir, "init", "-q")
	Git(t, dir, "commit", "-q", "--allow-empty", "-m", "base")
	os.MkdirAll(filepath.Join(dir, ".git", "adr"), 0o755)
	r, err := gitops.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	l, err := r.Lock(gitops.LockOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Release() })
	return r
}

// Git runs git in dir and returns its output; a failure ends the test.
func Git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	c := exec.Command("git", args...)
	c.Dir = dir
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// Hermetic gives the test a HOME of its own, no system or global git
// configuration, and a fixed author and committer, so git behaves the
// same on every machine.
func Hermetic(t *testing.T) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	for k, v := range map[string]string{"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "T", "GIT_COMMITTER_EMAIL": "t@e"} {
		t.Setenv(k, v)
	}
}

// AppendLine appends line to the file at p, made with its folder when
// missing.
func AppendLine(t *testing.T, p, line string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
}
