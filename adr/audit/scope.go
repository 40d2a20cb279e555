package audit

import (
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/scope"
	"github.com/git-adr/git-adr/gitops"
)

// ScopeIndex builds the scope index of l: declared globs and the markers
// git grep finds in the tracked files outside the ADR roots, those of
// commit rev ("" for the work tree, or HEAD in a bare repository).
func ScopeIndex(r *gitops.Repo, l *adr.Log, rev string) (*scope.Index, error) {
	exclude := append([]string{}, scope.MarkerExclude...)
	for _, root := range l.Roots {
		if d := root.Dir(); d != "." {
			exclude = append(exclude, d)
		}
	}
	if rev == "" && r.Bare {
		rev = "HEAD"
	}
	out, err := r.Grep(scope.MarkerPattern, rev, nil, exclude, scope.MarkersPerFile, scope.MarkersMax)
	if err != nil {
		return nil, err
	}
	return scope.New(l, scope.ParseMarkers(out, scope.MarkersMax)), nil
}

// scopeFindings are check's staleness signals, all warnings: review_by
// dates passed, proposals left open, code scope that no longer resolves,
// markers naming no record, and decisions in force whose code changed a
// lot since they were accepted. rev is the commit l was read from ("" for
// the work tree, or HEAD in a bare repository): the files, markers and
// history are that commit's.
func scopeFindings(r *gitops.Repo, l *adr.Log, rev string) ([]adr.Finding, error) {
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
	now := adr.TodayTime()
	for _, rec := range l.Records {
		for _, st := range rec.OwnStaleness(now, cfg.Check.StaleProposalDays) {
			switch st.Kind {
			case adr.KindReviewDue:
				warn(st.Kind, rec, rec.Path, 0, fmt.Sprintf("%s was to be reviewed by %s", rec.ID, st.Date),
					fmt.Sprintf("review it: confirm it with a new review_by date, or supersede it (`git adr new TITLE --supersedes %s`)", rec.ID))
			case adr.KindStaleProposal:
				warn(st.Kind, rec, rec.Path, 0, fmt.Sprintf("%s has been proposed since %s (%d days)", rec.ID, st.Date, st.Days),
					fmt.Sprintf("decide it: `git adr decide %s accept` or `git adr decide %s reject`", rec.ID, rec.ID))
			}
		}
	}
	x, err := ScopeIndex(r, l, rev)
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
	files, err := r.TrackedFiles(rev)
	if err != nil {
		return nil, err
	}
	for _, m := range x.Unmatched(files) {
		warn(adr.KindScopeUnmatched, m.Record, m.Record.Path, 0, fmt.Sprintf("%s declares %s, which matches no tracked file", m.Record.ID, m.Why),
			"correct the pattern, or remove it if the code is gone (and consider whether the decision still holds)")
	}
	if churn := ChurnLimit(cfg); churn > 0 && !r.Bare {
		out = append(out, churnFindings(r, l, x, churn, rev)...)
	}
	return out, nil
}
