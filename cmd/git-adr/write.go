package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/git-adr/git-adr/adr"
)

// applyChanges writes file changes as one journalled changeset. A file
// that changed on disk since it was read is a conflict: nothing is written.
func applyChanges(env *Env, changes []adr.FileChange) error {
	cs, err := env.Changeset()
	if err != nil {
		return err
	}
	for _, c := range changes {
		switch {
		case c.From != "":
			cs.Rename(c.From, c.Path, c.Old, c.New)
		case c.Old == nil:
			cs.Create(c.Path, c.New)
		default:
			cs.Update(c.Path, c.Old, c.New)
		}
	}
	if err := cs.Apply(); err != nil {
		if errors.Is(err, adr.ErrChangedOnDisk) {
			return withCode(ExitConflict, err).hint("another program changed the file while git-adr worked; run the command again")
		}
		return err
	}
	return nil
}

// writeChanges writes changes (applyChanges), brings generated indexes
// up to date, and returns every file written: the changes' in order,
// then the indexes.
func writeChanges(env *Env, changes []adr.FileChange) ([]string, error) {
	if err := applyChanges(env, changes); err != nil {
		return nil, err
	}
	ixs, err := refreshedIndexes(env)
	if err != nil {
		return nil, err
	}
	var updated []string
	for _, c := range changes {
		updated = append(updated, c.Path)
	}
	return append(updated, ixs...), nil
}

// display turns a repository-relative path into one relative to the
// directory git-adr was started in, as a shell user would type it.
func (e *Env) display(rel string) string {
	r, err := e.Repo()
	if err != nil || r.Prefix == "" {
		return rel
	}
	p, err := filepath.Rel(filepath.FromSlash(r.Prefix), filepath.FromSlash(rel))
	if err != nil {
		return rel
	}
	return filepath.ToSlash(p)
}

// today is ADR_DATE or the local date ([adr.Today]).
func today() string { return adr.Today() }

// noteLines prints notes to stderr.
func (e *Env) notes(lines []string) {
	for _, n := range lines {
		fmt.Fprintf(e.Err, "git-adr: note: %s\n", adr.EscapeBody(n))
	}
}

// refreshIndexes rewrites every generated INDEX.md that a change made stale,
// so that an index a team keeps stays true without a separate step. Missing
// and hand-written indexes are left alone.
func refreshIndexes(env *Env) error {
	_, err := refreshedIndexes(env)
	return err
}

// refreshedIndexes is refreshIndexes returning the indexes it rewrote.
func refreshedIndexes(env *Env) ([]string, error) {
	repo, err := env.Repo()
	if err != nil {
		return nil, err
	}
	// Most logs keep no INDEX.md: then there is nothing to reload for.
	if env.log != nil && !env.log.KeepsIndex(func(rel string) bool {
		_, err := os.Stat(repo.Abs(rel))
		return err == nil
	}) {
		return nil, nil
	}
	changes, err := adr.StaleIndexChanges(repo.WorktreeFS(), adr.LoadOptions{Roots: env.rootsRel(), Cwd: repo.Prefix}, len(env.Roots) > 0)
	if err != nil {
		return nil, err
	}
	if len(changes) == 0 {
		return nil, nil
	}
	if err := applyChanges(env, changes); err != nil {
		return nil, err
	}
	var paths []string
	for _, c := range changes {
		env.notes([]string{"updated " + env.display(c.Path)})
		paths = append(paths, c.Path)
	}
	return paths, nil
}

// changeResult is what link, decide and renumber print with --json.
type changeResult struct {
	// ID is the record acted on ("ADR-0012"); for renumber its new ID.
	ID string `json:"id"`
	// From and To: decide's statuses, renumber's IDs; link's source and
	// target.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// Changed is false when there was nothing to do.
	Changed bool `json:"changed"`
	// Updated are the files written (records, generated indexes).
	Updated []string `json:"updated"`
	// Notes are what the command also said (records it superseded,
	// mentions left alone).
	Notes []string `json:"notes"`
	// Commit is decide --commit's acceptance commit.
	Commit string `json:"commit,omitempty"`
}

func newChangeResult(id string) changeResult {
	return changeResult{ID: id, Updated: []string{}, Notes: []string{}}
}
