// Package audit is `git adr check` over a repository: it gathers what
// check reads besides the log's own files, through git, and returns one
// report. [adr.Log.Check] judges a log from its files alone; audit adds
//
//   - the record files of every other branch, with merge bases and the
//     default branch, for duplicate numbers across branches;
//   - with --compaction, the CURRENT views and INDEX files ([view.Findings]);
//   - the staleness and scope signals (scope.go): review dates, open
//     proposals, scope patterns and markers, and scope churn counted from
//     the history (churn.go) and kept per HEAD (churn_cache.go);
//   - numbers a consolidation plan reserved, taken by a record;
//   - git-adr temporary files left in ADR folders, and the journals of
//     interrupted writes (always reported first);
//   - with a --since range (since.go): the pre-commit rules over what
//     changed, the ledger of every acceptance commit of the range, and
//     only the findings the log at the merge base did not have.
//
// It runs git only through [gitops.Repo]'s named methods, prints nothing
// and decides no exit code: cmd/git-adr renders the report. [Kinds] lists
// every kind a report can hold.
package audit

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
)

// Options are what [Run] checks and how.
type Options struct {
	// Repo is the repository; Log its decision log (the work tree's, or
	// HEAD's in a bare repository).
	Repo *gitops.Repo
	Log  *adr.Log
	// Branches are the trees of every other local and remote-tracking
	// branch (the current one's files are the log's).
	Branches []adr.BranchTree
	// Compaction also reports stale, corrupt or unsupported CURRENT views
	// and stale INDEX files.
	Compaction bool
	// Since is the base of a range (a pull request's): the pre-commit
	// rules are applied to what changed from the merge base of Since and
	// HEAD, and only the findings the range introduced are reported,
	// unless All asks for the whole log's.
	Since string
	All   bool
	// Base is how the log at the merge base is loaded (roots, the working
	// folder, the parse cache, saved when worth it), as Log was.
	Base adr.LoadOptions
	// JournalDir is where this work tree's changesets keep their journals.
	JournalDir string
}

// SinceError is a --since revision this repository cannot use: it names
// no commit here (NoCommit; Shallow says the clone is shallow), or one
// that shares no history with HEAD.
type SinceError struct {
	Since    string
	NoCommit bool
	Shallow  bool
}

func (e *SinceError) Error() string {
	if e.NoCommit {
		return fmt.Sprintf("--since %q names no commit here", e.Since)
	}
	return fmt.Sprintf("--since %q shares no history with HEAD here", e.Since)
}

// Run checks o.Log with every source o asks for and returns the report:
// findings sorted as [adr.Log.Check] sorts them, but the journals of
// interrupted writes first; counts of every kind; notes. A --since that
// cannot be used is a [*SinceError], found before any other work.
func Run(o Options) (*adr.CheckReport, error) {
	var rg *sinceRange
	if o.Since != "" {
		var err error
		if rg, err = resolveSince(o.Repo, o.Since); err != nil {
			return nil, err
		}
	}
	opt, err := sources(o, o.Log, "")
	if err != nil {
		return nil, err
	}
	opt.Extra = temporaryFiles(o.Log, opt.Extra)
	if rg != nil {
		gov, kinds, err := rg.findings(o.Repo, o.Compaction)
		if err != nil {
			return nil, err
		}
		opt.Extra, opt.ExtraKinds = append(opt.Extra, gov...), append(opt.ExtraKinds, kinds...)
	}
	rep := o.Log.Check(opt)
	if rg != nil && !o.All {
		if err := introducedOnly(o, rg, rep); err != nil {
			return nil, err
		}
	}
	if err := pendingFindings(o.Repo, o.JournalDir, rep); err != nil {
		return nil, err
	}
	return rep, nil
}

// sources gathers what check reads besides the log itself, for the log l
// read at commit rev ("" for the work tree, or HEAD in a bare
// repository): other branches' record files, the views and INDEX files
// with compaction, the staleness and scope signals, and reserved numbers.
func sources(o Options, l *adr.Log, rev string) (adr.CheckOptions, error) {
	opt := branches(o.Repo, o.Branches, l, rev)
	var err error
	if o.Compaction {
		if opt.Extra, err = view.Findings(l); err != nil {
			return opt, err
		}
		opt.ExtraKinds = adr.CompactionKinds
	}
	stale, err := scopeFindings(o.Repo, l, rev)
	if err != nil {
		return opt, err
	}
	opt.Extra, opt.ExtraKinds = append(opt.Extra, stale...), append(opt.ExtraKinds, adr.ScopeKinds...)
	// Numbers a plan reserved, taken by a record of this log (the base's
	// too, so that --since reports only what the range took).
	taken, err := (&compaction.Store{Repo: o.Repo}).Taken(l)
	if err != nil {
		return opt, err
	}
	opt.Extra = append(opt.Extra, compaction.TakenFindings(taken)...)
	return opt, nil
}

// branches is what check needs to compare IDs with other branches: their
// record files, merge bases with rev ("" for HEAD), and which branch is
// the default one.
func branches(r *gitops.Repo, trees []adr.BranchTree, l *adr.Log, rev string) adr.CheckOptions {
	var opt adr.CheckOptions
	if rev == "" {
		rev = "HEAD"
	}
	opt.Branches = adr.ScanBranches(trees, l.Roots)
	if len(opt.Branches) == 0 {
		return opt
	}
	defaults := defaultBranchNames(r)
	opt.OnDefaultBranch = defaults[branchName(r.CurrentBranch())]
	opt.IsDefaultRef = func(ref string) bool { return defaults[branchName(ref)] }
	opt.MergeBase = func(ref string) fs.FS {
		mb, err := r.MergeBase(rev, ref)
		if err != nil {
			return nil
		}
		t, err := r.TreeFS(mb)
		if err != nil {
			return nil
		}
		return t
	}
	return opt
}

// defaultBranchNames is the branch refs/remotes/origin/HEAD points at, or
// main and master when there is no such ref.
func defaultBranchNames(r *gitops.Repo) map[string]bool {
	if name := branchName(r.RemoteHead("origin")); name != "" {
		return map[string]bool{name: true}
	}
	return map[string]bool{"main": true, "master": true}
}

// branchName is a branch ref without refs/heads/ or refs/remotes/<remote>/.
func branchName(ref string) string {
	if s, ok := strings.CutPrefix(ref, "refs/heads/"); ok {
		return s
	}
	if s, ok := strings.CutPrefix(ref, "refs/remotes/"); ok {
		if i := strings.IndexByte(s, '/'); i >= 0 {
			return s[i+1:]
		}
	}
	return ""
}

// pendingFindings puts the changes interrupted runs left first in the
// report: while one is pending the log may be half changed, and much of
// the rest may follow from it.
func pendingFindings(r *gitops.Repo, journalDir string, rep *adr.CheckReport) error {
	rep.Counts[adr.KindPendingChange] = 0
	pending, err := adr.PendingJournals(r.Top, journalDir)
	if err != nil || len(pending) == 0 {
		return err
	}
	var found []adr.Finding
	for _, p := range pending {
		path := p.File
		if rel, ok := r.Rel(p.File); ok {
			path = rel
		}
		f := adr.Finding{Kind: adr.KindPendingChange, Path: path, IDs: []string{},
			Fix: "run `git adr recover` to finish it (files edited since are never overwritten without --finish)"}
		if p.Err != nil {
			f.Message = p.Err.Error() + "; nothing in it was carried out"
			f.Fix = "inspect it; `git adr recover --keep` removes it and keeps the files as they are"
		} else {
			f.Message = "an interrupted " + p.Describe() + ": the log may be half changed, and findings below may follow from it"
			if cs := p.Conflicts(); len(cs) > 0 {
				f.Message += fmt.Sprintf("; %d of its files were changed since (first: %s %s)", len(cs), cs[0].Conflict, cs[0].Reason)
			}
		}
		found = append(found, f)
		rep.Counts[adr.KindPendingChange]++
	}
	rep.Findings = append(found, rep.Findings...)
	return nil
}

// temporaryFiles adds a finding for each git-adr temporary file in an ADR
// folder (left by a run killed while writing).
func temporaryFiles(l *adr.Log, extra []adr.Finding) []adr.Finding {
	for _, rt := range l.Roots {
		if rt.Refused != nil {
			continue // nothing is read there
		}
		for _, dir := range []string{rt.Dir(), rt.Join(adr.ArchiveDir)} {
			// Through the log's confined file system: a folder that is a
			// link out of the repository is not listed.
			entries, err := fs.ReadDir(l.FS, dir)
			if err != nil {
				continue
			}
			for _, e := range entries {
				if e.Type().IsRegular() && adr.IsTempName(e.Name()) {
					extra = append(extra, adr.Finding{Kind: adr.KindTempFile, Path: path.Join(dir, e.Name()), IDs: []string{},
						Message: "a temporary file left by a git-adr run that was interrupted",
						Fix:     "run `git adr recover`, which removes it"})
				}
			}
		}
	}
	return extra
}

// short is a commit hash as messages show it.
func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
