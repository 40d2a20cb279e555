package compaction

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/failpoint"
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
	// JournalDir and Command are the work tree's changeset journal and
	// the command line: the published files are brought into the work
	// tree through one journalled changeset.
	JournalDir, Command string
}

// ErrNothingToPublish means HEAD already holds exactly what would be
// published: a second, empty commit is never made.
var ErrNothingToPublish = errors.New("HEAD already holds this publication")

// Commit makes ONE commit on the current branch holding exactly the given
// changes on top of HEAD. The commit is built through a temporary index,
// the branch moves compare-and-swap, and then only the changed paths are
// brought up to date in the user's index and work tree: unrelated staged
// and unstaged work is never touched. A changed path with local changes
// stops it before anything is written. The caller holds the project lock.
func Commit(repo *gitops.Repo, o CommitOptions) (string, []string, error) {
	branch := repo.CurrentBranch()
	if branch == "" {
		return "", nil, ErrDetached
	}
	head, err := repo.ResolveRef("HEAD")
	if err != nil {
		return "", nil, err
	}
	for _, c := range o.Changes {
		inHead, err := repo.TreeBlob(head, c.Path)
		if err != nil {
			return "", nil, err
		}
		inIndex, err := repo.IndexBlob(c.Path)
		if err != nil {
			return "", nil, err
		}
		if inIndex != inHead {
			return "", nil, fmt.Errorf("%w: %s is staged with changes", ErrLocalChanges, c.Path)
		}
		data, exists, err := adr.ReadWorkFile(repo.Top, c.Path)
		switch {
		case err != nil:
			return "", nil, err
		case !exists:
			if inHead != "" {
				return "", nil, fmt.Errorf("%w: %s is deleted in the work tree", ErrLocalChanges, c.Path)
			}
		case view.BlobHash(data) != inHead:
			return "", nil, fmt.Errorf("%w: %s has unstaged changes", ErrLocalChanges, c.Path)
		}
	}
	tree, err := repo.BuildTree(head, o.Changes)
	if err != nil {
		return "", nil, err
	}
	if headTree, err := repo.ResolveRef(head + "^{tree}"); err == nil && headTree == tree {
		return "", nil, ErrNothingToPublish
	}
	commit, err := repo.CommitTree(gitops.CommitOptions{Tree: tree, Parents: []string{head}, Message: o.Message, Sign: o.Sign})
	if err != nil {
		return "", nil, err
	}
	failpoint.Hit("publish-commit")
	if err := repo.UpdateRefs("git-adr: "+firstLine(o.Message), gitops.RefUpdate{Name: branch, New: commit, Old: head}); err != nil {
		return "", nil, err
	}
	failpoint.Hit("publish-ref")
	kept, err := Sync(repo, head, commit, o)
	return commit, kept, err
}

// Sync brings the paths a publication commit changed into the work tree
// and the index, after the commit or to finish one an interruption left
// half done. A path whose work tree (or index) copy is still the parent's
// gets the commit's; one that already has it is left alone; one someone
// changed since is kept as it is and returned.
func Sync(repo *gitops.Repo, parent, commit string, o CommitOptions) (kept []string, err error) {
	cs := &adr.Changeset{Top: repo.Top, JournalDir: o.JournalDir, Command: o.Command}
	entries := map[string]string{}
	for _, c := range o.Changes {
		before, err := repo.TreeBlob(parent, c.Path)
		if err != nil {
			return nil, err
		}
		after := ""
		if !c.Delete {
			after = view.BlobHash(c.Data)
		}
		cur, exists, err := adr.ReadWorkFile(repo.Top, c.Path)
		if err != nil {
			return nil, err
		}
		now := ""
		if exists {
			now = view.BlobHash(cur)
		}
		switch {
		case now == after:
		case now != before:
			kept = append(kept, c.Path)
			continue
		case c.Delete:
			cs.Delete(c.Path, cur)
		case !exists:
			cs.Create(c.Path, c.Data)
		default:
			cs.Update(c.Path, cur, c.Data)
		}
		inIndex, err := repo.IndexBlob(c.Path)
		if err != nil {
			return nil, err
		}
		if inIndex == before && inIndex != after {
			if after != "" {
				if _, err := repo.WriteBlob(c.Data); err != nil {
					return nil, err
				}
			}
			entries[c.Path] = after
		}
	}
	if err := cs.Apply(); err != nil {
		return kept, err
	}
	if len(entries) == 0 {
		return kept, nil
	}
	return kept, repo.SetIndex(entries)
}

// FindPublication returns the commit between base and HEAD that carries
// the trailer (for example "ADR-Plan: s-1a2b3c4d5e@2"), or "" when there is
// none: a publication an interrupted run made but did not record.
func FindPublication(repo *gitops.Repo, base, trailer string) (string, error) {
	out, err := repo.Git("log", "-F", "--grep="+trailer, "--format=%H%x00%B%x01", base+"..HEAD")
	if err != nil {
		return "", err
	}
	for _, rec := range strings.Split(string(out), "\x01") {
		hash, body, ok := strings.Cut(strings.TrimLeft(rec, "\n"), "\x00")
		if !ok {
			continue
		}
		for _, line := range strings.Split(body, "\n") {
			if strings.TrimSpace(line) == trailer {
				return hash, nil
			}
		}
	}
	return "", nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
