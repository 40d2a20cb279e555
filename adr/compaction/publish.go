package compaction

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
)

// ErrLocalChanges means a file publication writes has uncommitted changes
// in the work tree or the index: publishing would overwrite them.
var ErrLocalChanges = errors.New("uncommitted changes in a file publication writes")

// ErrDetached means HEAD is not on a branch.
var ErrDetached = errors.New("HEAD is not on a branch")

// CommitOptions describe a publication commit.
type CommitOptions struct {
	Message string
	Sign    bool
	Changes []gitops.TreeChange
}

// Commit makes ONE commit on the current branch holding exactly the given
// changes on top of HEAD. The commit is built through a temporary index,
// the branch moves compare-and-swap, and then only the changed paths are
// brought up to date in the user's index and work tree: unrelated staged
// and unstaged work is never touched. A changed path with local changes
// stops it before anything is written.
func Commit(repo *gitops.Repo, o CommitOptions) (string, error) {
	branch := repo.CurrentBranch()
	if branch == "" {
		return "", ErrDetached
	}
	head, err := repo.ResolveRef("HEAD")
	if err != nil {
		return "", err
	}
	for _, c := range o.Changes {
		inHead, err := repo.TreeBlob(head, c.Path)
		if err != nil {
			return "", err
		}
		inIndex, err := repo.IndexBlob(c.Path)
		if err != nil {
			return "", err
		}
		if inIndex != inHead {
			return "", fmt.Errorf("%w: %s is staged with changes", ErrLocalChanges, c.Path)
		}
		data, err := os.ReadFile(repo.Abs(c.Path))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if inHead != "" {
				return "", fmt.Errorf("%w: %s is deleted in the work tree", ErrLocalChanges, c.Path)
			}
		case err != nil:
			return "", err
		case view.BlobHash(data) != inHead:
			return "", fmt.Errorf("%w: %s has unstaged changes", ErrLocalChanges, c.Path)
		}
	}
	tree, err := repo.BuildTree(head, o.Changes)
	if err != nil {
		return "", err
	}
	commit, err := repo.CommitTree(gitops.CommitOptions{Tree: tree, Parents: []string{head}, Message: o.Message, Sign: o.Sign})
	if err != nil {
		return "", err
	}
	if err := repo.UpdateRefs("git-adr: "+firstLine(o.Message), gitops.RefUpdate{Name: branch, New: commit, Old: head}); err != nil {
		return "", err
	}
	return commit, Sync(repo, o.Changes)
}

// Sync writes the changed paths into the work tree and the index (after a
// publication commit, or to finish one an interruption left half done).
func Sync(repo *gitops.Repo, changes []gitops.TreeChange) error {
	entries := map[string]string{}
	for _, c := range changes {
		full := repo.Abs(c.Path)
		if c.Delete {
			if err := os.Remove(full); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			entries[c.Path] = ""
			continue
		}
		if cur, err := os.ReadFile(full); err != nil || !bytes.Equal(cur, c.Data) {
			if err := writeAtomic(full, c.Data); err != nil {
				return err
			}
		}
		blob, err := repo.WriteBlob(c.Data)
		if err != nil {
			return err
		}
		entries[c.Path] = blob
	}
	return repo.SetIndex(entries)
}

func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".git-adr-*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

func firstLine(s string) string {
	if i := bytes.IndexByte([]byte(s), '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
