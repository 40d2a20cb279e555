package main

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
)

// sinceRange is what `check --since REV` judges: the change from the
// merge base of REV and HEAD (from) to HEAD, read from git objects only.
type sinceRange struct {
	since          string
	from           string
	baseFS, headFS fs.FS
	changes        []gitops.DiffEntry
}

// resolveSince finds the range of --since REV, with the command that
// fetches a base this clone does not have.
func resolveSince(env *Env, since string) (*sinceRange, error) {
	r, err := env.Repo()
	if err != nil {
		return nil, err
	}
	base, err := r.ResolveRef(since + "^{commit}")
	if err != nil {
		e := usagef("--since %q names no commit here", since)
		if shallow, _ := r.Git("rev-parse", "--is-shallow-repository"); strings.TrimSpace(string(shallow)) == "true" {
			e.hint("this is a shallow clone: fetch the base first (`git fetch --unshallow`, or actions/checkout with fetch-depth: 0)")
		} else {
			e.hint("fetch it first, for example `git fetch origin main` for --since origin/main")
		}
		return nil, e
	}
	mb, err := r.Git("merge-base", base, "HEAD")
	if err != nil {
		return nil, usagef("--since %q shares no history with HEAD here", since).
			hint("in a shallow clone fetch more history: `git fetch --unshallow` (actions/checkout: fetch-depth: 0)")
	}
	rg := &sinceRange{since: since, from: strings.TrimSpace(string(mb))}
	if rg.baseFS, err = r.TreeFS(rg.from); err != nil {
		return nil, err
	}
	if rg.headFS, err = r.TreeFS("HEAD"); err != nil {
		return nil, err
	}
	if rg.changes, err = r.TreeChanges(rg.from, "HEAD"); err != nil {
		return nil, err
	}
	return rg, nil
}

// introducedOnly leaves in rep the findings the range introduced: the
// log at the merge base is checked the same way (its branches, views and
// scope signals as of that commit, every kind), and each finding it
// already had takes one like it out of rep (adr.Introduced). A note
// counts what was left out. A base whose log cannot be read leaves rep
// whole, and says so.
func introducedOnly(env *Env, l *adr.Log, rg *sinceRange, compaction bool, rep *adr.CheckReport) error {
	r, err := env.Repo()
	if err != nil {
		return err
	}
	cache := env.parseCache(r)
	base, err := adr.Load(rg.baseFS, adr.LoadOptions{Roots: env.rootsRel(), Cwd: r.Prefix, Cache: cache})
	_ = cache.SaveIfWorth()
	if err != nil {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the log at the merge base %s cannot be read (%v): every finding is reported, as with --all", short(rg.from), err))
		return nil
	}
	opt, err := checkSources(env, base, rg.from, compaction)
	if err != nil {
		return err
	}
	opt.AllKinds = true
	renames := map[string]string{}
	for _, c := range rg.changes {
		if c.Status == 'R' {
			renames[c.OldPath] = c.Path
		}
	}
	introduced, old := adr.Introduced(rep.Findings, base.Check(opt).Findings, renames)
	rep.Findings = append([]adr.Finding{}, introduced...)
	for k := range rep.Counts {
		rep.Counts[k] = 0
	}
	for _, f := range rep.Findings {
		rep.Counts[f.Kind]++
	}
	switch {
	case old == 1:
		rep.Notes = append(rep.Notes, fmt.Sprintf("1 finding the log already had at the merge base %s is not reported: this change did not introduce it (`git adr check --since %s --all` reports the whole log)",
			short(rg.from), adr.ShellWord(rg.since)))
	case old > 1:
		rep.Notes = append(rep.Notes, fmt.Sprintf("%d findings the log already had at the merge base %s are not reported: this change did not introduce them (`git adr check --since %s --all` reports the whole log)",
			old, short(rg.from), adr.ShellWord(rg.since)))
	}
	return nil
}
