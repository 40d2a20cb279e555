// Package plans keeps the revisions of a plan as commits on a ref, as
// compaction and archival plans are stored: each revision is a commit
// whose tree holds plan.json and the plan's other files, whose parent is
// the revision before, and the ref moves compare-and-swap, so a lost race
// is an error and never an overwrite. Teams share plans by pushing
// refs/adr/*.
package plans

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/gitops"
)

// File is the name of a revision's plan in its tree.
const File = "plan.json"

// ErrNotFound means no plan has that ID.
var ErrNotFound = errors.New("no such plan")

// Store is the plans under one ref prefix ("refs/adr/plans/").
type Store struct {
	Repo   *gitops.Repo
	Prefix string
}

// Ref returns a plan's ref name.
func (s Store) Ref(id string) string { return s.Prefix + id }

// Save records a revision of plan id: plan.json and files, with old (the
// revision commit the caller read; "" for a new plan) as its parent,
// moving the ref from old; each ref in creates is created, pointing at
// the revision, in the same transaction (create-only). A ref that moved
// meanwhile is an error wrapping gitops.ErrRefChanged. It returns the
// revision commit.
func (s Store) Save(id, msg string, plan []byte, files map[string][]byte, old string, creates ...string) (string, error) {
	changes := []gitops.TreeChange{{Path: File, Data: plan}}
	var names []string
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		changes = append(changes, gitops.TreeChange{Path: name, Data: files[name]})
	}
	commit, err := s.Repo.CommitFiles(old, msg, changes)
	if err != nil {
		return "", err
	}
	oldValue := gitops.ZeroHash
	if old != "" {
		oldValue = old
	}
	updates := []gitops.RefUpdate{{Name: s.Ref(id), New: commit, Old: oldValue}}
	for _, ref := range creates {
		updates = append(updates, gitops.RefUpdate{Name: ref, New: commit, Old: gitops.ZeroHash})
	}
	if err := s.Repo.UpdateRefs(strings.TrimSpace(firstLine(msg)), updates...); err != nil {
		return "", err
	}
	return commit, nil
}

// Load returns the newest revision commit of a plan and its plan.json.
func (s Store) Load(id string) (commit string, plan []byte, err error) {
	commit, err = s.Repo.ResolveRef(s.Ref(id))
	if errors.Is(err, gitops.ErrNotFound) {
		return "", nil, fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	if err != nil {
		return "", nil, err
	}
	plan, err = s.Read(commit, File)
	return commit, plan, err
}

// Read reads a file of a revision.
func (s Store) Read(commit, name string) ([]byte, error) {
	return s.Repo.ReadBlobAt(commit, name)
}

// List returns the IDs of every plan, sorted.
func (s Store) List() ([]string, error) {
	refs, err := s.Repo.Refs(s.Prefix)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, ref := range refs {
		ids = append(ids, strings.TrimPrefix(ref.Name, s.Prefix))
	}
	sort.Strings(ids)
	return ids, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
