package archive

import (
	"errors"
	"fmt"
	"sort"
	"strings"

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
var ErrNoPlan = errors.New("no such archive plan")

// ErrPlanChanged means another process moved the plan ref first.
var ErrPlanChanged = errors.New("the archive plan changed concurrently")

// Ref returns a plan's ref name.
func Ref(id string) string { return PlansRef + id }

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
	changes := []gitops.TreeChange{{Path: "plan.json", Data: p.Encode()}}
	var names []string
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		changes = append(changes, gitops.TreeChange{Path: name, Data: files[name]})
	}
	msg := fmt.Sprintf("git-adr archive plan %s revision %d (%s %s)\n", p.ID, p.Revision, p.Kind, p.State)
	commit, err := s.Repo.CommitFiles(old, msg, changes)
	if err != nil {
		return "", err
	}
	oldValue := gitops.ZeroHash
	if old != "" {
		oldValue = old
	}
	if err := s.Repo.UpdateRefs("git-adr archive plan "+p.ID, gitops.RefUpdate{Name: Ref(p.ID), New: commit, Old: oldValue}); err != nil {
		if errors.Is(err, gitops.ErrRefChanged) {
			return "", fmt.Errorf("%w: %v", ErrPlanChanged, err)
		}
		return "", err
	}
	return commit, nil
}

// Load reads the newest revision of a plan and its commit.
func (s *Store) Load(id string) (*Plan, string, error) {
	commit, err := s.Repo.ResolveRef(Ref(id))
	if err != nil {
		if errors.Is(err, gitops.ErrNotFound) {
			return nil, "", fmt.Errorf("%w: %q", ErrNoPlan, id)
		}
		return nil, "", err
	}
	p, err := s.LoadAt(commit)
	return p, commit, err
}

// LoadAt reads plan.json from a revision commit.
func (s *Store) LoadAt(commit string) (*Plan, error) {
	data, err := s.Repo.ReadBlobAt(commit, "plan.json")
	if err != nil {
		return nil, err
	}
	return DecodePlan(data)
}

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
func (s *Store) List() ([]string, error) {
	refs, err := s.Repo.Refs(PlansRef)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, ref := range refs {
		ids = append(ids, strings.TrimPrefix(ref.Name, PlansRef))
	}
	sort.Strings(ids)
	return ids, nil
}

// BeforeFile is where a done archival keeps the bytes a file had before
// it, in its revision's tree.
func BeforeFile(path string) string { return "before/" + path }
