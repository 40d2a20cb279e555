package audit

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
)

// logRepo is a repository with one committed record, opened, and its log.
func logRepo(t *testing.T) (string, func(args ...string) string, *gitops.Repo, *adr.Log) {
	t.Helper()
	dir := t.TempDir()
	r, l := committedLog(t, dir, map[string]string{"doc/adr/0001-a.md": "# 1. A\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Decision\n\nA.\n"})
	return dir, hermeticGit(t, dir), r, l
}

// A --since this repository cannot use is a SinceError found before any
// other work: a name of no commit (saying whether the clone is shallow),
// or a commit of an unrelated history.
func TestRunSinceErrors(t *testing.T) {
	dir, git, r, l := logRepo(t)
	run := func(r *gitops.Repo, l *adr.Log, since string) *SinceError {
		t.Helper()
		rep, err := Run(Options{Repo: r, Log: l, Since: since})
		var se *SinceError
		if !errors.As(err, &se) {
			t.Fatalf("--since %s: %v, %v; want a SinceError", since, rep, err)
		}
		return se
	}
	if se := run(r, l, "nosuch"); !reflect.DeepEqual(*se, SinceError{Since: "nosuch", NoCommit: true}) {
		t.Errorf("no such commit: %+v", *se)
	}
	git("checkout", "-q", "--orphan", "other")
	git("commit", "-q", "--allow-empty", "-m", "unrelated")
	git("checkout", "-q", "main")
	if se := run(r, l, "other"); !reflect.DeepEqual(*se, SinceError{Since: "other"}) {
		t.Errorf("unrelated history: %+v", *se)
	}
	if rep, err := Run(Options{Repo: r, Log: l, Since: "main"}); err != nil || len(rep.Findings) != 0 {
		t.Errorf("--since main: %+v, %v; want a clean report", rep, err)
	}

	clone := filepath.Join(t.TempDir(), "clone")
	git("commit", "-q", "--allow-empty", "-m", "two")
	git("clone", "-q", "--depth", "1", "file://"+dir, clone)
	cr, err := gitops.Open(clone)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := adr.Load(cr.WorktreeFS(), adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if se := run(cr, cl, "HEAD~1"); !reflect.DeepEqual(*se, SinceError{Since: "HEAD~1", NoCommit: true, Shallow: true}) {
		t.Errorf("a shallow clone: %+v", *se)
	}
}

// The default branch is the one origin/HEAD points at, else main and
// master; a ref names its branch without refs/heads/ or the remote.
func TestDefaultBranchNames(t *testing.T) {
	_, git, r, _ := logRepo(t)
	if got := defaultBranchNames(r); !reflect.DeepEqual(got, map[string]bool{"main": true, "master": true}) {
		t.Errorf("without origin/HEAD: %v", got)
	}
	git("update-ref", "refs/remotes/origin/trunk", "HEAD")
	git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
	if got := defaultBranchNames(r); !reflect.DeepEqual(got, map[string]bool{"trunk": true}) {
		t.Errorf("with origin/HEAD: %v", got)
	}
	for ref, want := range map[string]string{"refs/heads/feature/x": "feature/x", "refs/remotes/origin/main": "main", "refs/remotes/up/a/b": "a/b", "refs/tags/v1": "", "refs/remotes/odd": ""} {
		if got := branchName(ref); got != want {
			t.Errorf("branchName(%q) = %q, want %q", ref, got, want)
		}
	}
}

// The journal of an interrupted write (here one that cannot be read) is
// reported first and counted, and a temporary file in an ADR folder is
// reported.
func TestRunPendingFirstAndTempFiles(t *testing.T) {
	dir, _, r, _ := logRepo(t)
	if err := os.WriteFile(filepath.Join(dir, "doc/adr/.0002-b.md.git-adr-1234.tmp"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	journals := filepath.Join(dir, ".git", "adr", "journal")
	if err := os.MkdirAll(journals, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(journals, "zz-broken.json"), []byte("not a journal"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := adr.Load(r.WorktreeFS(), adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(Options{Repo: r, Log: l, JournalDir: journals})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []adr.FindingKind
	for _, f := range rep.Findings {
		kinds = append(kinds, f.Kind)
	}
	if want := []adr.FindingKind{adr.KindPendingChange, adr.KindTempFile}; !reflect.DeepEqual(kinds, want) {
		t.Fatalf("kinds %v, want %v: %+v", kinds, want, rep.Findings)
	}
	if rep.Counts[adr.KindPendingChange] != 1 || rep.Counts[adr.KindTempFile] != 1 {
		t.Errorf("counts %v", rep.Counts)
	}
}
