package hooks

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/govern"
	"github.com/git-adr/git-adr/internal/gittest"
)

func TestPrePushInput(t *testing.T) {
	r := gittest.Repo(t)
	_, err := PrePush(r, PrePushOptions{Args: []string{"origin"}, Stdin: []byte("garbage\n")})
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Errorf("malformed input: err = %v, want an *InputError", err)
	}
	// No refs on stdin while HEAD's commit is on no remote: refused.
	_, err = PrePush(r, PrePushOptions{Args: []string{"origin"}})
	var ue *UnseenPushError
	if !errors.As(err, &ue) || ue.Commits != 1 || ue.Remote != "origin" {
		t.Fatalf("no refs: err = %#v, want an *UnseenPushError for 1 commit to origin", err)
	}
	const want = `pre-push received no pushed refs on its standard input, and 1 commit of HEAD, the branches and the tags is not on "origin": git-adr cannot tell what this push sends, so it refuses it`
	if err.Error() != want {
		t.Errorf("message:\n got %s\nwant %s", err, want)
	}
	// The pre-commit framework describes the push in the environment.
	head, _ := r.Head()
	env := map[string]string{"PRE_COMMIT_TO_REF": head, "PRE_COMMIT_REMOTE_BRANCH": "refs/heads/main"}
	ps, err := PrePush(r, PrePushOptions{Args: []string{"origin"}, Getenv: func(k string) string { return env[k] }})
	if err != nil || len(ps) != 0 {
		t.Errorf("a push described by the environment: %v, %v", ps, err)
	}
	if _, err := PreReceive(r, []byte("a b\n")); !errors.As(err, &ie) {
		t.Errorf("malformed pre-receive input: err = %v, want an *InputError", err)
	}
}

const accepted = "# 1. Use Go\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nc\n\n## Decision\n\nWe use Go.\n\n## Consequences\n\nn\n"

func TestPreCommit(t *testing.T) {
	r := gittest.Repo(t)
	res, err := PreCommit(r, PreCommitOptions{})
	if err != nil || res != nil {
		t.Fatalf("nothing staged: %+v, %v", res, err)
	}
	if err := os.MkdirAll(filepath.Join(r.Top, "doc/adr"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.Top, "doc/adr/0001-use-go.md"), []byte(accepted), 0o644); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, r.Top, "add", ".")
	gittest.Git(t, r.Top, "commit", "-qm", "record")
	// Deleting an accepted record blocks, and nothing is fixed then.
	gittest.Git(t, r.Top, "rm", "-q", "doc/adr/0001-use-go.md")
	called := false
	res, err = PreCommit(r, PreCommitOptions{Branches: func() ([]adr.BranchTree, error) { called = true; return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	blocked := false
	for _, p := range res.Problems {
		blocked = blocked || p.Block && p.Path == "doc/adr/0001-use-go.md"
	}
	if !blocked || !called || len(res.Fixes) != 0 {
		t.Errorf("deleting a record: problems %+v, branches asked %v, fixes %d", res.Problems, called, len(res.Fixes))
	}
	// A broken configuration is input the hook cannot read.
	if err := os.WriteFile(filepath.Join(r.Top, ".adr.toml"), []byte("roots = ["), 0o644); err != nil {
		t.Fatal(err)
	}
	var ie *InputError
	if _, err := PreCommit(r, PreCommitOptions{}); !errors.As(err, &ie) {
		t.Errorf("broken .adr.toml: err = %v, want an *InputError", err)
	}
}

func TestFixIndexesPartialCommit(t *testing.T) {
	r := gittest.Repo(t)
	fixes := []govern.IndexFix{{Path: "doc/adr/INDEX.md", Content: []byte("x\n")}}
	updated, ps, err := FixIndexes(r, fixes, FixOptions{
		IndexFile: filepath.Join(r.GitDir, "next-index-42.lock"),
		Changeset: func() (*adr.Changeset, error) { t.Error("a partial commit must change nothing"); return nil, nil },
	})
	if err != nil || len(updated) != 0 || len(ps) != 1 || !ps[0].Block || ps[0].Rule != govern.RuleIndexDrift {
		t.Errorf("partial commit: updated %v, problems %+v, %v", updated, ps, err)
	}
}
