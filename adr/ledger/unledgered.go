package ledger

import (
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/govern"
	"github.com/git-adr/git-adr/gitops"
)

// Trailers of git-adr's archival and restore commits (see package
// archive): in strict mode they are approvals like a ledger's, so
// [CheckCommits] verifies their signature too.
const (
	KeyArchived = "ADR-Archive"
	KeyRestored = "ADR-Restore"
)

// RuleUnledgered: in strict mode, a commit without a ledger makes a
// record accepted (a hand edit, a merge of an edited branch): only a
// signed acceptance commit may.
const RuleUnledgered govern.Rule = "unledgered-acceptance"

// Unledgered lists the records commit c makes accepted: accepted in c,
// and at no parent accepted at the same path (or, against the first
// parent, at the path it was renamed from). A commit without parents
// makes every accepted record it holds accepted.
func Unledgered(r *gitops.Repo, c string) ([]*adr.Record, error) {
	out, err := r.Git("rev-list", "--parents", "-n", "1", c)
	if err != nil {
		return nil, err
	}
	parents := strings.Fields(string(out))[1:]
	first := gitops.EmptyTree
	if len(parents) > 0 {
		first = parents[0]
	}
	changes, err := r.TreeChanges(first, c)
	if err != nil {
		return nil, err
	}
	var paths []string
	from := map[string]string{}
	for _, ch := range changes {
		if ch.Status == 'D' {
			continue
		}
		paths = append(paths, ch.Path)
		from[ch.Path] = ch.Path
		if ch.Status == 'R' {
			from[ch.Path] = ch.OldPath
		}
	}
	if len(paths) == 0 {
		return nil, nil
	}
	tree, err := r.TreeFS(c)
	if err != nil {
		return nil, err
	}
	now, err := adr.Load(tree, adr.LoadOptions{Lazy: true, NoSample: true, Only: paths})
	if err != nil {
		return nil, err
	}
	var made []*adr.Record
	for _, p := range paths {
		rec := now.ByPath(p)
		if rec == nil || now.Ensure(rec) != nil || rec.Status != adr.Accepted {
			continue
		}
		made = append(made, rec)
	}
	if len(made) == 0 {
		return nil, nil
	}
	var roots []string
	for _, rt := range now.Roots {
		roots = append(roots, rt.Path)
	}
	for i, p := range parents {
		pt, err := r.TreeFS(p)
		if err != nil {
			return nil, err
		}
		var look []string
		for _, rec := range made {
			if i == 0 {
				look = append(look, from[rec.Path])
			} else {
				look = append(look, rec.Path)
			}
		}
		// The parent is read with the commit's roots, so a root the
		// commit creates is simply empty there.
		was, err := adr.Load(pt, adr.LoadOptions{Lazy: true, NoSample: true, Only: look, Roots: roots, AllowMissing: true})
		if err != nil {
			return nil, err
		}
		kept := made[:0]
		for j, rec := range made {
			w := was.ByPath(look[j])
			if w != nil && was.Ensure(w) == nil && w.Status == adr.Accepted {
				continue // accepted before: not this commit's doing
			}
			kept = append(kept, rec)
		}
		if made = kept; len(made) == 0 {
			return nil, nil
		}
	}
	return made, nil
}

// unledgered is the problem of a commit without a ledger that makes
// records accepted, in strict mode.
func unledgered(c, msg string, recs []*adr.Record) govern.Problem {
	short := c
	if len(short) > 12 {
		short = short[:12]
	}
	var ids []string
	for _, r := range recs {
		ids = append(ids, r.ID)
	}
	return govern.Problem{Rule: RuleUnledgered, Path: recs[0].Path, Block: true,
		Message: fmt.Sprintf("strict mode: commit %s (%s) makes %s accepted without a decision ledger; only a signed acceptance commit accepts", short, firstLine(msg), strings.Join(ids, ", ")),
		Fix: fmt.Sprintf("take the status change out of the commit (`git rebase -i`, or `git revert %s` once it is pushed), then an approver accepts: `git adr decide %s accept` (one signed commit), or `git adr compaction --confirm PLAN@REVISION` for a consolidation's replacements",
			short, recs[0].ID)}
}
