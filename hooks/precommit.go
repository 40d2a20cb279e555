package hooks

import (
	"bytes"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/govern"
	"github.com/git-adr/git-adr/adr/scope"
	"github.com/git-adr/git-adr/gitops"
)

// cacheSave is how many records pre-commit must have parsed before it
// saves the parse cache.
const cacheSave = 64

// PreCommitOptions are what [PreCommit] needs from its caller.
type PreCommitOptions struct {
	// Branches gives the trees of the other local and remote-tracking
	// branches (numbers they hold are taken); called only when something
	// is staged.
	Branches func() ([]adr.BranchTree, error)
}

// PreCommitResult is what pre-commit found in a commit being made.
type PreCommitResult struct {
	// Problems break package govern's rules; those with Block set refuse
	// the commit.
	Problems []govern.Problem
	// Fixes are the INDEX.md files to regenerate in the commit
	// ([FixIndexes]); empty when a problem blocks.
	Fixes []govern.IndexFix
	// Paths are the staged files other than records, and Governing the
	// accepted decisions that govern them, strongest reason first: the
	// reminder of [hooks] remind = true (both empty without it).
	Paths     []string
	Governing []scope.Match
}

// PreCommit judges what is staged (read through the git binary, so a
// hook's GIT_INDEX_FILE is honoured) against HEAD. Nothing staged gives a
// nil result. A configuration it cannot read is an [*InputError].
func PreCommit(r *gitops.Repo, opts PreCommitOptions) (*PreCommitResult, error) {
	st, err := r.StagedState()
	if err != nil || len(st.Changes) == 0 {
		return nil, err
	}
	cfg, err := adr.LoadConfig(r.WorktreeFS())
	if err != nil {
		return nil, &InputError{Err: err}
	}
	var branches []adr.BranchTree
	if opts.Branches != nil {
		if branches, err = opts.Branches(); err != nil {
			return nil, err
		}
	}
	// A commit of a few new records does not pay for rewriting the cache
	// (the next command does); a hook that parsed a whole log (the first
	// after an upgrade, or in a repository where nothing else runs
	// git-adr, as the reminder reads every record) keeps what it parsed.
	cache := adr.OpenCache(filepath.Join(r.AdrDir(), "cache"), false)
	defer cache.SaveIfAdded(cacheSave)
	rep, err := govern.Judge(govern.Input{Base: st.Base, Next: st.Next, Changes: st.Changes, Branches: branches,
		Policy: govern.Policy{StaleView: cfg.Hooks.StaleView, Index: cfg.Hooks.Index}, Cache: cache})
	if err != nil {
		return nil, err
	}
	res := &PreCommitResult{Problems: rep.Problems}
	if cfg.Hooks.Remind {
		res.Paths, res.Governing = governing(r, st, cache)
	}
	if !rep.Blocked() {
		res.Fixes = rep.Fixes
	}
	return res, nil
}

// governing finds the accepted decisions that govern the staged files
// other than records. It never fails the hook: what it cannot read, it
// leaves out.
func governing(r *gitops.Repo, st *gitops.Staged, cache *adr.Cache) ([]string, []scope.Match) {
	// Every record is read (through the parse cache): any of them may
	// declare the scope of a staged file, and a lazy load would know the
	// declarations of its sample alone.
	l, err := adr.Load(st.Next, adr.LoadOptions{Cache: cache})
	if err != nil || len(l.Roots) == 0 {
		return nil, nil
	}
	var paths []string
	for _, c := range st.Changes {
		if c.Status == 'D' || l.ByPath(c.Path) != nil {
			continue // records themselves are governed by the rules above
		}
		paths = append(paths, c.Path)
	}
	if len(paths) == 0 {
		return nil, nil
	}
	out, err := r.Grep(scope.MarkerPattern, "", paths, nil, scope.MarkersPerFile, scope.MarkersMax)
	if err != nil {
		return nil, nil
	}
	// The records that name a path are found through their stored path
	// tokens, not by reading every record's text out of the object store.
	x := scope.New(l, scope.ParseMarkers(out, scope.MarkersMax))
	x.Mentions = scope.LoadMentions(filepath.Join(r.AdrDir(), "cache"), l)
	var ms []scope.Match
	for _, m := range x.Govern(paths) {
		if m.Record.Status == adr.Accepted {
			ms = append(ms, m)
		}
	}
	return paths, ms
}

// FixOptions are what [FixIndexes] needs from its caller.
type FixOptions struct {
	// IndexFile is GIT_INDEX_FILE as git set it for the hook.
	IndexFile string
	// Changeset takes the project lock and returns a journalled
	// changeset of the work tree; called only when the fixes can be made.
	Changeset func() (*adr.Changeset, error)
}

// FixIndexes writes regenerated INDEX.md files into the commit being made
// and the work tree together, so the two never disagree, and returns the
// paths it updated, sorted. A partial commit (`git commit PATH`, which
// commits a temporary index) or an INDEX.md with unstaged changes cannot
// be fixed safely: it returns blocking problems naming the commands
// instead, and changes nothing.
func FixIndexes(r *gitops.Repo, fixes []govern.IndexFix, opts FixOptions) (updated []string, problems []govern.Problem, err error) {
	if len(fixes) == 0 {
		return nil, nil, nil
	}
	if strings.HasPrefix(filepath.Base(opts.IndexFile), "next-index") {
		var ps []govern.Problem
		for _, f := range fixes {
			ps = append(ps, govern.Problem{Rule: govern.RuleIndexDrift, Path: f.Path, Block: true,
				Message: f.Path + " no longer lists the records as they are, and a commit of named paths cannot update it",
				Fix:     "run `git adr index`, then commit it with the records: `git commit PATHS " + adr.ShellWord(f.Path) + "`"})
		}
		return nil, ps, nil
	}
	cs, err := opts.Changeset()
	if err != nil {
		return nil, nil, err
	}
	var ps []govern.Problem
	entries := map[string]string{}
	for _, f := range fixes {
		cur, exists, err := adr.ReadWorkFile(r.Top, f.Path)
		if err != nil {
			return nil, nil, err
		}
		switch {
		case exists && bytes.Equal(cur, f.Content):
		case exists && f.Old != nil && bytes.Equal(cur, f.Old):
			cs.Update(f.Path, cur, f.Content)
		case !exists && f.Old == nil:
			cs.Create(f.Path, f.Content)
		default:
			ps = append(ps, govern.Problem{Rule: govern.RuleIndexDrift, Path: f.Path, Block: true,
				Message: f.Path + " no longer lists the records as they are, and it has changes that are not staged",
				Fix:     "run `git adr index`, then `git add " + adr.ShellWord(f.Path) + "`"})
			continue
		}
		blob, err := r.WriteBlob(f.Content)
		if err != nil {
			return nil, nil, err
		}
		entries[f.Path] = blob
	}
	if len(ps) > 0 {
		return nil, ps, nil
	}
	if err := cs.Apply(); err != nil {
		return nil, nil, err
	}
	if err := r.SetIndex(entries); err != nil {
		return nil, nil, err
	}
	for p := range entries {
		updated = append(updated, p)
	}
	sort.Strings(updated)
	return updated, nil, nil
}
