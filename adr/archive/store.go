package archive

import (
	"errors"
	"fmt"

	"github.com/git-adr/git-adr/adr/plans"
	"github.com/git-adr/git-adr/gitops"
)

// Store keeps archive plans on refs/adr/archives/<plan-id>: each revision
// is a commit whose tree holds plan.json (a done archival also holds the
// bytes every file had before it, under before/, so a restore can give
// them back even if history is rewritten).
type Store struct {
	Repo *gitops.Repo
}

// ErrNoPlan means no archive plan has that ID.
var ErrNoPlan = plans.ErrNotFound

// ErrPlanChanged means another process moved the plan ref first.
var ErrPlanChanged = errors.New("the archive plan changed concurrently")

// Ref returns a plan's ref name.
func Ref(id string) string { return PlansRef + id }

func (s *Store) refs() plans.Kind[Plan] {
	return plans.Kind[Plan]{Store: plans.Store{Repo: s.Repo, Prefix: PlansRef}, Decode: DecodePlan}
}

// Save writes p as a new revision (its Revision is set: 1 for a new plan,
// else one past the revision at old, the commit the caller read), with
// extra files, moving the ref compare-and-swap. It returns the commit.
func (s *Store) Save(p *Plan, files map[string][]byte, old string) (string, error) {
	p.Revision = 1
	if old != "" {
		prev, err := s.LoadAt(old)
		if err != nil {
			return "", err
		}
		p.Revision = prev.Revision + 1
	}
	msg := fmt.Sprintf("git-adr archive plan %s revision %d (%s %s)\n", p.ID, p.Revision, p.Kind, p.State)
	commit, err := s.refs().Save(p.ID, msg, p.Encode(), files, old)
	if errors.Is(err, gitops.ErrRefChanged) {
		return "", fmt.Errorf("%w: %v", ErrPlanChanged, err)
	}
	return commit, err
}

// Load reads the newest revision of a plan and its commit.
func (s *Store) Load(id string) (*Plan, string, error) { return s.refs().Load(id) }

// LoadAt reads plan.json from a revision commit.
func (s *Store) LoadAt(commit string) (*Plan, error) { return s.refs().LoadAt(commit) }

// Revision reads revision n of a plan, walking back from the newest.
func (s *Store) Revision(id string, n int) (*Plan, string, error) {
	p, commit, err := s.Load(id)
	for err == nil && p.Revision > n {
		if commit, err = s.Repo.ResolveRef(commit + "^"); err == nil {
			p, err = s.LoadAt(commit)
		}
	}
	if err != nil || p.Revision != n {
		return nil, "", fmt.Errorf("%w: %s has no revision %d", ErrNoPlan, id, n)
	}
	return p, commit, nil
}

// List returns every plan ID, sorted.
func (s *Store) List() ([]string, error) { return s.refs().List() }

// BeforeFile is where a done archival keeps the bytes a file had before
// it, in its revision's tree.
func BeforeFile(path string) string { return "before/" + path }
