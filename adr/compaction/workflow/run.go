package workflow

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/accept"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/gitops"
)

// ErrNoCommit means the repository has no commit yet: a plan reads the
// log at HEAD.
var ErrNoCommit = errors.New("the repository has no commit yet")

// UncommittedError means records in a plan's scope differ from HEAD: a
// plan reads the committed log, and its publication commit goes on top of
// it.
type UncommittedError struct {
	// Paths are the first (at most five) records that differ.
	Paths []string
}

func (e *UncommittedError) Error() string {
	return fmt.Sprintf("%s differ from HEAD; a plan reads the committed log", strings.Join(e.Paths, ", "))
}

// Start makes the plan of a drafting run over the analysis a of l, the
// work tree's log, on HEAD (o.Base is set here), and stores its first
// revision; when the plan of the same scope of the same log exists, that
// plan is continued instead. It returns the plan and its revision commit.
// The caller holds the lock.
func Start(repo *gitops.Repo, l *adr.Log, a *compaction.Analysis, o compaction.PlanOptions) (*compaction.Plan, string, error) {
	head, err := repo.ResolveRef("HEAD")
	if err != nil {
		return nil, "", ErrNoCommit
	}
	if dirty := uncommittedSources(repo, l, a); len(dirty) > 0 {
		return nil, "", &UncommittedError{Paths: dirty}
	}
	o.Base = head
	p, err := compaction.NewPlan(l, a, o)
	if err != nil {
		return nil, "", err
	}
	store := &compaction.Store{Repo: repo}
	if prev, commit, err := store.Load(p.ID); err == nil {
		// The same scope of the same log: continue that plan.
		return prev, commit, nil
	} else if !errors.Is(err, compaction.ErrNoPlan) {
		return nil, "", err
	}
	commit, err := store.Save(p, nil, "")
	if err != nil {
		return nil, "", err
	}
	return p, commit, nil
}

// uncommittedSources lists records in scope whose work-tree bytes differ
// from HEAD (the first five).
func uncommittedSources(repo *gitops.Repo, l *adr.Log, a *compaction.Analysis) []string {
	var dirty []string
	for _, rc := range a.Records {
		r := l.ByPath(rc.Path)
		if r == nil {
			continue
		}
		blob, err := repo.TreeBlob("HEAD", rc.Path)
		if err != nil || blob == "" || blob != BlobOf(r) {
			dirty = append(dirty, rc.Path)
		}
		if len(dirty) >= 5 {
			break
		}
	}
	return dirty
}

// Reserve gives a consolidation the numbers its replacements will take:
// one per cluster of records classed consolidate (at least one), past
// every number in use in l, on the branches and by other plans, reserved
// with create-only refs in a new revision of the plan stored in commit. A
// plan that reserved its numbers already is returned as it is. today
// dates the reserved file names. The caller holds the lock.
func Reserve(repo *gitops.Repo, l *adr.Log, a *compaction.Analysis, p *compaction.Plan, commit string, branches []adr.BranchTree, today string) (*compaction.Plan, string, error) {
	if len(p.Reserved) > 0 {
		return p, commit, nil
	}
	store := &compaction.Store{Repo: repo}
	reserved, err := store.Reservations()
	if err != nil {
		return nil, "", err
	}
	seen := adr.ScanBranches(branches, l.Roots)
	want := compaction.Clusters(l, a)
	if len(want) == 0 && len(a.Records) > 0 {
		// At least one: the drafter may still merge records the analysis
		// did not group.
		first := l.ByPath(a.Records[0].Path)
		cl := compaction.Cluster{Root: first.Root}
		for _, rc := range a.Records {
			if r := l.ByPath(rc.Path); r != nil && r.Root == first.Root && len(cl.IDs) < 3 {
				cl.IDs = append(cl.IDs, r.ID)
			}
		}
		want = append(want, cl)
	}
	for _, cl := range want {
		root := cl.Root
		n := adr.NextNumber(root, seen, reserved[root.Path])
		reserved[root.Path] = append(reserved[root.Path], n)
		id := root.FormatID(n)
		name := root.FileName(n, "consolidated "+strings.Join(cl.IDs, " "), today)
		p.Reserved = append(p.Reserved, compaction.Reservation{Root: root.Dir(), Number: n, ID: id, Path: root.Join(name)})
	}
	c, err := store.Save(p, nil, commit)
	if err != nil {
		return nil, "", err
	}
	return p, c, nil
}

// RequestChanges records a person's feedback on a drafted revision (stored
// in commit): a new revision, planned again, whose brief carries it. It
// returns the new revision's commit. The caller holds the lock.
func RequestChanges(repo *gitops.Repo, p *compaction.Plan, commit, feedback string) (string, error) {
	p.Feedback = append(p.Feedback, feedback)
	p.State = compaction.Planned
	return (&compaction.Store{Repo: repo}).Save(p, nil, commit)
}

// DoneError means the plan was published or accepted: it cannot be
// cancelled.
type DoneError struct {
	ID    string
	State compaction.State
}

func (e *DoneError) Error() string { return fmt.Sprintf("plan %s is %s", e.ID, e.State) }

// Cancel cancels a plan: a revision in state cancelled (unless it is
// cancelled already), then its candidate ref, reserved numbers and
// drafting worktree go, so ref counts stay small and the numbers are free
// again; the plan's ref remains as its history. It returns what it
// removed. A published or accepted plan is a [*DoneError]. The caller holds
// the lock.
func Cancel(repo *gitops.Repo, id string) ([]string, error) {
	store := &compaction.Store{Repo: repo}
	p, commit, err := store.Load(id)
	if err != nil {
		return nil, err
	}
	if p.Done() {
		return nil, &DoneError{ID: id, State: p.State}
	}
	if p.State != compaction.Cancelled {
		p.State = compaction.Cancelled
		if _, err := store.Save(p, nil, commit); err != nil {
			return nil, err
		}
	}
	return accept.Cleanup(repo, store, id)
}
