package gitops

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func openRepo(t *testing.T, dir string) *Repo {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func writeFile(t *testing.T, dir, rel, data string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The identity is git's: the environment wins over config, and the date
// git var appends is left out; without any identity it is an error.
func TestCommitterIdent(t *testing.T) {
	dir := newRepo(t, map[string]string{"a": "a\n"})
	r := openRepo(t, dir)
	t.Setenv("GIT_COMMITTER_NAME", "Ada Lovelace")
	t.Setenv("GIT_COMMITTER_EMAIL", "ada@example.com")
	if got, err := r.CommitterIdent(); err != nil || got != "Ada Lovelace <ada@example.com>" {
		t.Fatalf("CommitterIdent = %q, %v", got, err)
	}
	for _, k := range []string{"GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL"} {
		t.Setenv(k, "") // restored when the test ends
		os.Unsetenv(k)
	}
	runGit(t, dir, "config", "user.name", "Grace Hopper")
	runGit(t, dir, "config", "user.email", "grace@example.com")
	if got, err := r.CommitterIdent(); err != nil || got != "Grace Hopper <grace@example.com>" {
		t.Fatalf("CommitterIdent from config = %q, %v", got, err)
	}
	runGit(t, dir, "config", "user.useConfigOnly", "true")
	runGit(t, dir, "config", "--unset", "user.email")
	var ge *GitError
	if got, err := r.CommitterIdent(); !errors.As(err, &ge) {
		t.Fatalf("without an email: %q, %v; want a GitError", got, err)
	}
}

// The subject is the first line only, even of a long message, and a rev
// that looks like an option is a revision, never an option.
func TestCommitSubject(t *testing.T) {
	dir := newRepo(t, map[string]string{"a": "a\n"})
	r := openRepo(t, dir)
	runGit(t, dir, "commit", "-q", "--allow-empty", "-m", "archive ADR-0001", "-m", "body line")
	head := strings.TrimSpace(runGit(t, dir, "rev-parse", "HEAD"))
	if got, err := r.CommitSubject(head); err != nil || got != "archive ADR-0001" {
		t.Fatalf("CommitSubject(HEAD) = %q, %v", got, err)
	}
	if got, err := r.CommitSubject("HEAD~1"); err != nil || got != "init" {
		t.Fatalf("CommitSubject(HEAD~1) = %q, %v", got, err)
	}
	out := filepath.Join(t.TempDir(), "written")
	if _, err := r.CommitSubject("--output=" + out); err == nil {
		t.Fatal("an option-like rev was accepted")
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("an option-like rev was run as an option: %v", err)
	}
}

// Tracked (deleted ones too) and untracked files are listed, ignored ones
// are not, and names with spaces and newlines come back whole.
func TestFilesNotIgnored(t *testing.T) {
	dir := newRepo(t, map[string]string{".gitignore": "*.log\n", "kept.md": "k\n", "gone.md": "g\n"})
	r := openRepo(t, dir)
	writeFile(t, dir, "new dir/odd\nname.md", "n\n")
	writeFile(t, dir, "debug.log", "ignored\n")
	if err := os.Remove(filepath.Join(dir, "gone.md")); err != nil {
		t.Fatal(err)
	}
	got, err := r.FilesNotIgnored()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{".gitignore", "gone.md", "kept.md", "new dir/odd\nname.md"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("FilesNotIgnored = %q, want %q", got, want)
	}
}

// The work tree against a revision and the index against HEAD are
// different questions: an unstaged edit is in the first only, a staged
// new file in both, and a rename is named by its new name.
func TestDiffPathsAndStagedPaths(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.md": "a\n", "b.md": strings.Repeat("same line\n", 20)})
	r := openRepo(t, dir)
	writeFile(t, dir, "a.md", "edited\n")
	writeFile(t, dir, "c.md", "new\n")
	runGit(t, dir, "add", "c.md")
	runGit(t, dir, "mv", "b.md", "renamed.md")

	got, err := r.DiffPaths("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.md", "c.md", "renamed.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("DiffPaths(HEAD) = %q, want %q", got, want)
	}
	got, err = r.StagedPaths()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"c.md", "renamed.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("StagedPaths = %q, want %q", got, want)
	}
	if _, err := r.DiffPaths("--output=x"); err == nil {
		t.Error("an option-like rev was accepted")
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an option-like rev was run as an option: %v", err)
	}
	runGit(t, dir, "commit", "-qam", "all")
	if got, err := r.StagedPaths(); err != nil || len(got) != 0 {
		t.Errorf("StagedPaths after commit = %q, %v", got, err)
	}
}

// Each path keeps the day it was first added: a file deleted and added
// again keeps its first day; paths outside dirs are left out; a dir is
// never a pattern.
func TestAddedDates(t *testing.T) {
	dir := newRepo(t, map[string]string{"outside.md": "o\n"})
	r := openRepo(t, dir)
	commit := func(date string) {
		runGit(t, dir, "add", "-A")
		t.Setenv("GIT_AUTHOR_DATE", date)
		runGit(t, dir, "commit", "-qm", "at "+date)
	}
	writeFile(t, dir, "doc/adr/0001-a.md", "a\n")
	commit("2021-03-04T10:00:00Z")
	if err := os.Remove(filepath.Join(dir, "doc/adr/0001-a.md")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "doc/adr/0002-b.md", "b\n")
	commit("2022-05-06T10:00:00Z")
	writeFile(t, dir, "doc/adr/0001-a.md", "a again\n")
	writeFile(t, dir, "doc/a*/0003-star.md", "s\n")
	commit("2023-07-08T23:30:00-05:00")

	got, err := r.AddedDates([]string{"doc/adr"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"doc/adr/0001-a.md": "2021-03-04", "doc/adr/0002-b.md": "2022-05-06"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("AddedDates(doc/adr) = %v, want %v", got, want)
	}
	// "doc/a*" names the directory of that name, not doc/adr too; the
	// author's own time zone gives the day.
	got, err = r.AddedDates([]string{"doc/a*"})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"doc/a*/0003-star.md": "2023-07-08"}; !reflect.DeepEqual(got, want) {
		t.Errorf("AddedDates(doc/a*) = %v, want %v", got, want)
	}
	got, err = r.AddedDates(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 || got["outside.md"] == "" {
		t.Errorf("AddedDates(nil) = %v, want every added path", got)
	}
}

// Only the two scopes git-adr writes are accepted; each lands in its own
// file, and a value is stored as it is.
func TestSetConfig(t *testing.T) {
	dir := newRepo(t, map[string]string{"a": "a\n"})
	r := openRepo(t, dir)
	if err := r.SetConfig("local", "adr.guard.mode", "warn"); err != nil {
		t.Fatal(err)
	}
	if err := r.SetConfig("global", "adr.guard.mode", "guard"); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(runGit(t, dir, "config", "--local", "--get", "adr.guard.mode")); got != "warn" {
		t.Errorf("local = %q", got)
	}
	if got := strings.TrimSpace(runGit(t, dir, "config", "--global", "--get", "adr.guard.mode")); got != "guard" {
		t.Errorf("global = %q", got)
	}
	if err := r.SetConfig("system", "adr.guard.mode", "off"); err == nil || !strings.Contains(err.Error(), `"system"`) {
		t.Errorf("system scope: %v", err)
	}
	if err := r.SetConfig("--local", "adr.guard.mode", "off"); err == nil {
		t.Error("a flag as the scope was accepted")
	}
}
