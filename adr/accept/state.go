package accept

import (
	"fmt"
	"path"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/publish"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
)

// ComponentState is where one component of an acceptance stands.
type ComponentState struct {
	Component string `json:"component"`
	// State is "committed" (in the acceptance commit and in the work
	// tree), "committed, work tree pending" (the commit holds it; the work
	// tree does not yet: `git adr recover` or the next confirmation
	// finishes it), "committed, kept" (someone changed the work tree copy
	// since: left as it is), "pending" (not committed: nothing was
	// accepted; for archive, approved but not carried out yet), "blocked"
	// (archive: asked for, but the approval showed it blocked), "skipped"
	// (archive: not carried out, it was no longer what was approved),
	// "restored" (archive: carried out, then restored) or "none" (the plan
	// has no such part).
	State  string   `json:"state"`
	Paths  []string `json:"paths"`
	Detail string   `json:"detail"`
}

// Components reports each component of an acceptance separately:
// lifecycle (the records accepted and superseded), view (the CURRENT
// pair), index (generated INDEX files) and archive (the archive-on-accept
// moves, in commits of their own: committed, pending, skipped, restored
// or none). commit is the acceptance commit ("" when none reached the
// branch: everything is pending; archive too when withArchive says the
// plan has an archive part).
func Components(repo *gitops.Repo, commit string, withArchive bool) ([]ComponentState, error) {
	out := []ComponentState{
		{Component: Lifecycle, Paths: []string{}}, {Component: View, Paths: []string{}},
		{Component: Index, Paths: []string{}},
		{Component: Archive, State: "none", Paths: []string{}, Detail: "no archive-on-accept moves: archival is its own plan (`git adr archive`)"},
	}
	if commit == "" {
		n := 3
		if withArchive {
			n = 4
		}
		for i := 0; i < n; i++ {
			out[i].State, out[i].Detail = "pending", "not committed: nothing was accepted"
		}
		return out, nil
	}
	ac, err := archiveComponent(repo, commit, withArchive)
	if err != nil {
		return nil, err
	}
	out[3] = ac
	changes, err := repo.TreeChanges(commit+"^", commit)
	if err != nil {
		return nil, err
	}
	indexNames := map[string]bool{adr.IndexFile: true}
	if tree, err := repo.TreeFS(commit); err == nil {
		if l, err := adr.Load(tree, adr.LoadOptions{Lazy: true}); err == nil {
			for _, r := range l.Roots {
				indexNames[r.Join(r.IndexName())] = true
			}
		}
	}
	head, _ := repo.ResolveRef("HEAD")
	at := map[string]int{Lifecycle: 0, View: 1, Index: 2}
	pendingIn := map[int][]string{}
	keptIn := map[int][]string{}
	for _, c := range changes {
		i := at[Lifecycle]
		switch b := path.Base(c.Path); {
		case b == "CURRENT.md" || b == "CURRENT.sources.json":
			i = at[View]
		case indexNames[c.Path] || indexNames[b] && path.Dir(c.Path) == ".":
			i = at[Index]
		}
		out[i].Paths = append(out[i].Paths, c.Path)
		want, err := repo.TreeBlob(commit, c.Path)
		if err != nil {
			return nil, err
		}
		before, err := repo.TreeBlob(commit+"^", c.Path)
		if err != nil {
			return nil, err
		}
		data, exists, err := adr.ReadWorkFile(repo.Top, c.Path)
		if err != nil {
			return nil, err
		}
		now := ""
		if exists {
			now = view.BlobHash(data)
		}
		if now != want && head != commit {
			// A later commit (the archive part's, or the person's) may
			// have moved or changed it: the work tree agrees with HEAD.
			if atHead, err := repo.TreeBlob(head, c.Path); err == nil && atHead == now {
				now = want
			}
		}
		switch now {
		case want:
		case before:
			pendingIn[i] = append(pendingIn[i], c.Path)
		default:
			keptIn[i] = append(keptIn[i], c.Path)
		}
	}
	for i := 0; i < 3; i++ {
		switch {
		case len(out[i].Paths) == 0:
			out[i].State, out[i].Detail = "none", "the acceptance changes no such file"
		case len(pendingIn[i]) > 0:
			out[i].State = "committed, work tree pending"
			out[i].Detail = fmt.Sprintf("in commit %s; not yet in the work tree: %s (run `git adr recover`)", shortHash(commit), strings.Join(pendingIn[i], ", "))
		case len(keptIn[i]) > 0:
			out[i].State = "committed, kept"
			out[i].Detail = fmt.Sprintf("in commit %s; changed in the work tree since, left as it is: %s", shortHash(commit), strings.Join(keptIn[i], ", "))
		default:
			out[i].State = "committed"
			out[i].Detail = fmt.Sprintf("in commit %s and in the work tree", shortHash(commit))
		}
	}
	return out, nil
}

// CommitChanges reads the files a commit changed, with their committed
// content: what finishing an interrupted acceptance brings into the work
// tree (taken from the commit, never recomputed).
func CommitChanges(repo *gitops.Repo, commit string) ([]gitops.TreeChange, error) {
	changes, err := repo.TreeChanges(commit+"^", commit)
	if err != nil {
		return nil, err
	}
	var out []gitops.TreeChange
	for _, c := range changes {
		if c.Status == 'D' {
			out = append(out, gitops.TreeChange{Path: c.Path, Delete: true})
			continue
		}
		data, err := repo.ReadBlobAt(commit, c.Path)
		if err != nil {
			return nil, err
		}
		out = append(out, gitops.TreeChange{Path: c.Path, Data: data})
	}
	return out, nil
}

// SyncCommit brings the work tree and index up to an acceptance commit
// an interrupted run made, when HEAD is still that commit (nothing
// otherwise), journalled in journalDir for command. It returns the files
// left as they were because they changed since.
func SyncCommit(repo *gitops.Repo, commit, journalDir, command string) ([]string, error) {
	if head, err := repo.ResolveRef("HEAD"); err != nil || head != commit {
		return nil, nil
	}
	changes, err := CommitChanges(repo, commit)
	if err != nil {
		return nil, err
	}
	return publish.Sync(repo, commit+"^", commit, changes, journalDir, command)
}
