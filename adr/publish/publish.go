// Package publish makes git-adr's commits on the current branch without
// touching the user's index or work tree beyond the files it publishes:
// the commits are built through a temporary index, the branch moves once,
// compare-and-swap, and only then are the published paths brought into
// the work tree and index through one journalled changeset. Compaction
// publishes a CURRENT view as one commit; archival publishes a tracked
// rename and then the link rewriting as two.
//
// # Recovery
//
// A publication's last commit carries a trailer ("ADR-Plan: <id>@<rev>",
// "ADR-Archive: <id>@<rev>"). A run interrupted after the branch moved is
// found by [Find] and finished by [Sync]; one interrupted before is simply
// done again, since nothing the user sees changed.
package publish

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/failpoint"
)

// ErrLocalChanges means a file the publication writes has uncommitted
// changes in the work tree or the index: publishing would overwrite them.
var ErrLocalChanges = errors.New("uncommitted changes in a file publication writes")

// ErrDetached means HEAD is not on a branch.
var ErrDetached = errors.New("HEAD is not on a branch")

// ErrNothingToPublish means HEAD already holds exactly what would be
// published: a second, empty commit is never made.
var ErrNothingToPublish = errors.New("HEAD already holds this publication")

// Step is one commit: its message and its changes on top of the step
// before (HEAD for the first).
type Step struct {
	Message string
	Changes []gitops.TreeChange
}

// Options describe a publication.
type Options struct {
	Steps []Step
	Sign  bool
	// JournalDir and Command are the work tree's changeset journal and
	// the command line: the published files are brought into the work
	// tree through one journalled changeset.
	JournalDir, Command string
	// Verify, when set, is asked about each commit once all are made and
	// before the branch moves (strict mode's signature check); an error
	// leaves the branch where it was.
	Verify func(commit string) error
}

// Commit makes the steps' commits on the current branch, one on top of
// the other, and moves the branch once from HEAD to the last of them. A
// path with local changes stops it before anything is written; so does a
// publication whose tree equals HEAD's. Then the changed paths are brought
// up to date in the work tree and the index ([Sync]); kept lists those
// someone changed meanwhile. The caller holds the project lock.
//
// Failpoints: "publish-commit" after each commit object, "publish-ref"
// after the branch moved. A commit Verify refuses is never reached by the
// branch.
func Commit(repo *gitops.Repo, o Options) (commits, kept []string, err error) {
	branch := repo.CurrentBranch()
	if branch == "" {
		return nil, nil, ErrDetached
	}
	head, err := repo.ResolveRef("HEAD")
	if err != nil {
		return nil, nil, err
	}
	all := Changes(o.Steps)
	if err := CheckClean(repo, head, all); err != nil {
		return nil, nil, err
	}
	parent, tree := head, head
	for _, st := range o.Steps {
		if tree, err = repo.BuildTree(tree, st.Changes); err != nil {
			return nil, nil, err
		}
		c, err := repo.CommitTree(gitops.CommitOptions{Tree: tree, Parents: []string{parent}, Message: st.Message, Sign: o.Sign})
		if err != nil {
			return nil, nil, err
		}
		commits = append(commits, c)
		parent = c
		failpoint.Hit("publish-commit")
	}
	if len(commits) == 0 {
		return nil, nil, ErrNothingToPublish
	}
	if headTree, err := repo.ResolveRef(head + "^{tree}"); err == nil && headTree == tree {
		return nil, nil, ErrNothingToPublish
	}
	if o.Verify != nil {
		for _, c := range commits {
			if err := o.Verify(c); err != nil {
				return nil, nil, err
			}
		}
	}
	if err := repo.UpdateRefs("git-adr: "+firstLine(o.Steps[len(o.Steps)-1].Message), gitops.RefUpdate{Name: branch, New: parent, Old: head}); err != nil {
		return nil, nil, err
	}
	failpoint.Hit("publish-ref")
	kept, err = Sync(repo, head, parent, all, o.JournalDir, o.Command)
	return commits, kept, err
}

// Changes flattens steps into the change each path undergoes from the
// first step's parent to the last step: a path changed twice takes its
// last content, and keeps the rename source of its first change.
func Changes(steps []Step) []gitops.TreeChange {
	var out []gitops.TreeChange
	at := map[string]int{}
	for _, st := range steps {
		for _, c := range st.Changes {
			if i, ok := at[c.Path]; ok {
				from, mode := out[i].From, out[i].Mode
				out[i] = c
				if out[i].From == "" {
					out[i].From = from
				}
				if out[i].Mode == "" {
					out[i].Mode = mode
				}
				continue
			}
			at[c.Path] = len(out)
			out = append(out, c)
		}
	}
	return out
}

// CheckClean refuses a change to a path whose index or work tree copy is
// not head's: a rename's source and destination both count.
func CheckClean(repo *gitops.Repo, head string, changes []gitops.TreeChange) error {
	for _, c := range changes {
		paths := []string{c.Path}
		if c.From != "" {
			paths = append(paths, c.From)
		}
		for _, p := range paths {
			inHead, err := repo.TreeBlob(head, p)
			if err != nil {
				return err
			}
			inIndex, err := repo.IndexBlob(p)
			if err != nil {
				return err
			}
			if inIndex != inHead {
				return fmt.Errorf("%w: %s is staged with changes", ErrLocalChanges, p)
			}
			data, exists, err := adr.ReadWorkFile(repo.Top, p)
			switch {
			case err != nil:
				return err
			case !exists && inHead != "":
				return fmt.Errorf("%w: %s is deleted in the work tree", ErrLocalChanges, p)
			case !exists:
			case view.BlobHash(data) != inHead: // an untracked file where HEAD has none too
				return fmt.Errorf("%w: %s has unstaged changes", ErrLocalChanges, p)
			}
		}
	}
	return nil
}

// Sync brings the paths a publication changed between parent and commit
// into the work tree and the index, after the commit or to finish one an
// interruption left half done. A path whose work tree (or index) copy is
// still the parent's gets the commit's; one that already has it is left
// alone; one someone changed since is kept as it is and returned. A
// rename moves the file (its mode kept) when its source is still the
// parent's and its destination is free.
func Sync(repo *gitops.Repo, parent, commit string, changes []gitops.TreeChange, journalDir, command string) (kept []string, err error) {
	cs := &adr.Changeset{Top: repo.Top, JournalDir: journalDir, Command: command}
	var entries []gitops.IndexEntry
	// index points a path at its new blob when the index still holds old.
	index := func(p, old, blob, mode string, data []byte) error {
		inIndex, err := repo.IndexBlob(p)
		if err != nil || inIndex != old || inIndex == blob {
			return err
		}
		if blob != "" {
			if _, err := repo.WriteBlob(data); err != nil {
				return err
			}
		}
		entries = append(entries, gitops.IndexEntry{Path: p, Mode: mode, Blob: blob})
		return nil
	}
	for _, c := range changes {
		before, err := repo.TreeBlob(parent, c.Path)
		if err != nil {
			return nil, err
		}
		after := ""
		if !c.Delete {
			after = view.BlobHash(c.Data)
		}
		now, cur, exists, err := workBlob(repo, c.Path)
		if err != nil {
			return nil, err
		}
		if c.From != "" {
			src, err := repo.TreeBlob(parent, c.From)
			if err != nil {
				return nil, err
			}
			srcNow, srcCur, srcExists, err := workBlob(repo, c.From)
			if err != nil {
				return nil, err
			}
			switch {
			case srcExists && srcNow != src, exists && now != after, !srcExists && !exists:
				kept = append(kept, c.From, c.Path)
				continue
			case srcExists && !exists:
				cs.Rename(c.From, c.Path, srcCur, c.Data)
			case srcExists:
				cs.Delete(c.From, srcCur) // moved already; the source is left
			}
			if err := index(c.From, src, "", "", nil); err != nil {
				return nil, err
			}
			if err := index(c.Path, "", after, c.Mode, c.Data); err != nil {
				return nil, err
			}
			continue
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
		if err := index(c.Path, before, after, c.Mode, c.Data); err != nil {
			return nil, err
		}
	}
	if err := cs.Apply(); err != nil {
		return kept, err
	}
	if len(entries) == 0 {
		return kept, nil
	}
	return kept, repo.UpdateIndex(entries)
}

// workBlob reads a work tree file and its blob name ("" when absent).
func workBlob(repo *gitops.Repo, p string) (blob string, data []byte, exists bool, err error) {
	data, exists, err = adr.ReadWorkFile(repo.Top, p)
	if err != nil || !exists {
		return "", nil, exists, err
	}
	return view.BlobHash(data), data, true, nil
}

// Find returns the commit between base and HEAD that carries the trailer
// (for example "ADR-Plan: s-1a2b3c4d5e@2"), or "" when there is none: a
// publication an interrupted run made but did not record.
func Find(repo *gitops.Repo, base, trailer string) (string, error) {
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
