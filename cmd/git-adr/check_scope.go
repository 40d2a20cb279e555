package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
)

// Defaults of the staleness signals ([check] in .adr.toml).
const (
	defaultStaleProposalDays = 90
	defaultChurnCommits      = 50
)

// scopeFindings are check's staleness signals, all warnings: review_by
// dates passed, proposals left open, code scope that no longer resolves,
// markers naming no record, and decisions in force whose code changed a
// lot since they were accepted.
func scopeFindings(env *Env, l *adr.Log) ([]adr.Finding, error) {
	r, err := env.Repo()
	if err != nil {
		return nil, err
	}
	cfg := l.Config
	if cfg == nil {
		cfg = &adr.Config{}
	}
	var out []adr.Finding
	warn := func(k adr.FindingKind, rec *adr.Record, path string, line int, msg, fix string) {
		ids := []string{}
		if rec != nil {
			ids = []string{rec.ID}
		}
		out = append(out, adr.Finding{Kind: k, Path: path, Line: line, IDs: ids, Message: msg, Fix: fix, Warning: true})
	}
	now, err := time.Parse("2006-01-02", today())
	if err != nil {
		now = time.Now()
	}
	staleDays := cfg.Check.StaleProposalDays
	if staleDays == 0 {
		staleDays = defaultStaleProposalDays
	}
	for _, rec := range l.Records {
		if rec.Archived {
			continue
		}
		if d, err := time.Parse("2006-01-02", rec.ReviewBy); err == nil && d.Before(now) && rec.Status != adr.Superseded && rec.Status != adr.Rejected {
			warn(adr.KindReviewDue, rec, rec.Path, 0, fmt.Sprintf("%s was to be reviewed by %s", rec.ID, rec.ReviewBy),
				fmt.Sprintf("review it: confirm it with a new review_by date, or supersede it (`git adr new TITLE --supersedes %s`)", rec.ID))
		}
		if rec.Status == adr.Proposed && staleDays > 0 {
			if d, err := time.Parse("2006-01-02", rec.Date); err == nil && now.Sub(d) > time.Duration(staleDays)*24*time.Hour {
				warn(adr.KindStaleProposal, rec, rec.Path, 0, fmt.Sprintf("%s has been proposed since %s (%d days)", rec.ID, rec.Date, int(now.Sub(d).Hours()/24)),
					fmt.Sprintf("decide it: `git adr decide %s accept` or `git adr decide %s reject`", rec.ID, rec.ID))
			}
		}
	}
	x, err := scopeIndex(env, l)
	if err != nil {
		return nil, err
	}
	for _, p := range x.Problems {
		fix := "correct the pattern (doublestar syntax: `payments/**`, `cmd/*.go`)"
		if p.Record == nil {
			fix = "correct the ID in the [[scope]] table of " + adr.ConfigFile + " (`git adr list` shows the IDs)"
		}
		warn(adr.KindScopeInvalid, p.Record, p.Path, 0, p.Message, fix)
	}
	for _, m := range x.Unknown {
		warn(adr.KindMarkerUnknown, nil, m.Path, m.Line, fmt.Sprintf("the marker %q names no record", m.Ref), "correct or remove the marker (`git adr list` shows the IDs)")
	}
	files, err := trackedFiles(r)
	if err != nil {
		return nil, err
	}
	for _, m := range x.Unmatched(files) {
		warn(adr.KindScopeUnmatched, m.Record, m.Record.Path, 0, fmt.Sprintf("%s declares %s, which matches no tracked file", m.Record.ID, m.Why),
			"correct the pattern, or remove it if the code is gone (and consider whether the decision still holds)")
	}
	churn := cfg.Check.ChurnCommits
	if churn == 0 {
		churn = defaultChurnCommits
	}
	if churn > 0 && !r.Bare {
		out = append(out, churnFindings(r, l, churn)...)
	}
	return out, nil
}

// churnFindings reports accepted records with a declared scope whose paths
// changed in more than limit commits since the record was added.
func churnFindings(r *gitops.Repo, l *adr.Log, limit int) []adr.Finding {
	var out []adr.Finding
	for _, rec := range l.Records {
		if rec.Archived || rec.Status != adr.Accepted || len(rec.AppliesTo) == 0 {
			continue
		}
		added, err := r.Git("log", "--diff-filter=A", "--format=%H", "-1", "--", rec.Path)
		since := strings.TrimSpace(string(added))
		if err != nil || since == "" {
			continue
		}
		args := []string{"rev-list", "--count", since + "..HEAD", "--"}
		for _, g := range rec.AppliesTo {
			args = append(args, ":(glob)"+strings.TrimPrefix(g, "./"))
		}
		n, err := r.Git(args...)
		if err != nil {
			continue
		}
		var count int
		fmt.Sscan(strings.TrimSpace(string(n)), &count)
		if count > limit {
			out = append(out, adr.Finding{Kind: adr.KindScopeChurn, Path: rec.Path, IDs: []string{rec.ID}, Warning: true,
				Message: fmt.Sprintf("%s is in force, and the code it governs (%s) changed in %d commits since it was recorded", rec.ID, strings.Join(rec.AppliesTo, ", "), count),
				Fix:     fmt.Sprintf("check that it still describes the code (`git adr log %s`, `git log --oneline %s..HEAD -- %s`); the threshold is [check] churn_commits", rec.ID, short(since), strings.Join(rec.AppliesTo, " "))})
		}
	}
	return out
}

// trackedFiles lists the repository's tracked files (HEAD's in a bare
// repository).
func trackedFiles(r *gitops.Repo) ([]string, error) {
	var out []byte
	var err error
	if r.Bare {
		out, err = r.Git("ls-tree", "-r", "-z", "--name-only", "HEAD")
	} else {
		out, err = r.Git("ls-files", "-z")
	}
	if err != nil {
		return nil, err
	}
	return strings.FieldsFunc(string(out), func(c rune) bool { return c == 0 }), nil
}
