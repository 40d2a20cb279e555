package workflow

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr/accept"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/internal/gittest"
)

func TestAcceptPlanThenFinishAccepted(t *testing.T) {
	repo := gittest.Repo(t)
	p, _, _ := drafted(t, repo)
	head, _ := repo.ResolveRef("HEAD")
	l, err := accept.HeadLog(repo, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := accept.Input{Repo: repo, Store: &compaction.Store{Repo: repo}, Log: l, Generator: "test"}
	acc, err := accept.ForPlan(in, p.ID, p.Revision)
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	options := func() (accept.ExecOptions, error) {
		asked++
		return accept.ExecOptions{ApprovedBy: "T <t@e>", JournalDir: filepath.Join(repo.GitDir, "adr", "journal"), StateDir: accept.StateDir(repo)}, nil
	}
	// Options are asked once the plan is prepared, and their error is
	// the run's.
	noIdentity := errors.New("no identity")
	if _, err := AcceptPlan(in, p.ID, p.Revision, acc.Approval, func() (accept.ExecOptions, error) { return accept.ExecOptions{}, noIdentity }); !errors.Is(err, noIdentity) {
		t.Fatalf("AcceptPlan with failing options = %v", err)
	}
	a, err := AcceptPlan(in, p.ID, p.Revision, acc.Approval, options)
	if err != nil {
		t.Fatal(err)
	}
	if asked != 1 || a.Result == nil || a.Result.Commit == "" || a.Acceptance.Plan.ID != p.ID {
		t.Fatalf("AcceptPlan = %+v (options asked %d times)", a, asked)
	}
	if parent := strings.TrimSpace(gittest.Git(t, repo.Top, "rev-parse", a.Result.Commit+"^")); parent != head {
		t.Errorf("the commit's parent is %s, want HEAD %s: ONE commit", parent, head)
	}
	stored, _, err := in.Store.Load(p.ID)
	if err != nil || !stored.Done() {
		t.Fatalf("plan not recorded done: %+v, %v", stored, err)
	}
	// A replay: the commit exists, nothing is committed again.
	if in.Log, err = accept.HeadLog(repo, nil, nil); err != nil {
		t.Fatal(err)
	}
	_, err = AcceptPlan(in, p.ID, p.Revision, acc.Approval, options)
	var de *accept.DoneError
	if !errors.As(err, &de) || de.Commit != a.Result.Commit || !de.OnBranch {
		t.Fatalf("replayed AcceptPlan = %v, want a DoneError naming %s", err, a.Result.Commit)
	}
	f, err := FinishAccepted(in, de, filepath.Join(repo.GitDir, "adr", "journal"), "test")
	if err != nil || !f.WasDone || f.ArchivePending || f.Plan.ID != p.ID {
		t.Fatalf("FinishAccepted = %+v, %v", f, err)
	}
	if now, _ := repo.ResolveRef("HEAD"); now != a.Result.Commit {
		t.Errorf("HEAD moved to %s", now)
	}
	off := *de
	off.OnBranch = false
	if f, err := FinishAccepted(in, &off, filepath.Join(repo.GitDir, "adr", "journal"), "test"); !errors.Is(err, ErrNotOnBranch) || f == nil || f.Plan == nil {
		t.Errorf("FinishAccepted off the branch = %+v, %v", f, err)
	}
}
