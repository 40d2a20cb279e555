package compaction

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
)

// Proposal is what a candidate proposes, derived mechanically from a log
// and the candidate: the files the candidate commit changes, by what they
// are, the lifecycle transitions and the issues validation finds. Drafting
// builds it over the plan's base to make the candidate commit; acceptance
// builds it again over the log as it is and refuses any difference from
// the candidate that was reviewed.
type Proposal struct {
	// Changes are every file, sorted by path.
	Changes []gitops.TreeChange
	// Records are the replacement records and the predecessors they
	// retire (consolidation).
	Records []string
	// Drafts are the replacement records as proposals (consolidation):
	// what Save drafts only writes.
	Drafts map[string][]byte
	// Views are the CURRENT.md and CURRENT.sources.json files.
	Views []string
	// Indexes are the generated INDEX.md files that change.
	Indexes []string
	// Transitions are the lifecycle changes acceptance makes.
	Transitions []Transition
	// Issues are validation blockers.
	Issues []Issue
	// Future is the log after acceptance (consolidation).
	Future *adr.Log
}

// Outputs lists the paths the proposal writes, sorted.
func (pr *Proposal) Outputs() []string {
	out := []string{}
	for _, c := range pr.Changes {
		out = append(out, c.Path)
	}
	return out
}

// Kind says what a path of the proposal is: "record", "view", "index" or
// "" for a path it does not write.
func (pr *Proposal) Kind(p string) string {
	for _, k := range []struct {
		name  string
		paths []string
	}{{"record", pr.Records}, {"view", pr.Views}, {"index", pr.Indexes}} {
		for _, q := range k.paths {
			if q == p {
				return k.name
			}
		}
	}
	return ""
}

// Propose builds the proposal of candidate c for plan p over log l: for a
// summary, the CURRENT pair of every participating root; for a
// consolidation, the replacement records at their reserved paths, the
// predecessors marked superseded, the CURRENT view after acceptance and
// the generated INDEX files that change. revision and generator are
// written into the manifests. [Validate]'s issues and the view builder's
// are in Issues.
func Propose(l *adr.Log, p *Plan, c *Candidate, revision int, generator string) (*Proposal, error) {
	pr := &Proposal{Issues: Validate(l, p, c), Transitions: []Transition{}}
	add := func(kind *[]string, path string, data []byte) {
		pr.Changes = append(pr.Changes, gitops.TreeChange{Path: path, Data: data})
		*kind = append(*kind, path)
	}
	if p.Mode == Summary {
		sources, deps := PlanRecords(l, p)
		var ids []string
		if len(p.Scope.Sources) > 0 {
			for _, s := range p.Sources {
				ids = append(ids, s.ID)
			}
		}
		pairs, err := view.BuildAll(l, view.NewSelection(p.Scope.Domain, ids), sources, deps, c.Summary, p.ID, revision, generator)
		if err := viewIssues(err, "", &pr.Issues); err != nil {
			return nil, err
		}
		for _, pair := range pairs {
			cur, man := pair.Paths()
			if is := narrowing(l, man, pair.ManifestJSON); is != nil {
				pr.Issues = append(pr.Issues, *is)
			}
			add(&pr.Views, cur, pair.Current)
			add(&pr.Views, man, pair.ManifestJSON)
		}
		sortChanges(pr)
		return pr, nil
	}
	drafts, err := Drafts(l, p, c)
	if err != nil {
		return nil, err
	}
	pr.Drafts = drafts
	files, future, err := Future(l, p, c)
	if err != nil {
		pr.Issues = append(pr.Issues, Issue{Kind: IssueReference, Message: err.Error()})
		return pr, nil
	}
	pr.Future = future
	var paths []string
	for path := range files {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		add(&pr.Records, path, files[path])
	}
	pr.Transitions = transitions(l, future, p)
	if ixs, err := future.Indexes(); err == nil {
		for _, ix := range ixs {
			if ix.State == adr.IndexStale {
				add(&pr.Indexes, ix.Path, ix.Content)
			}
		}
	}
	if len(c.Summary.Constraints) == 0 {
		pr.Issues = append(pr.Issues, Issue{Kind: IssueCoverage,
			Message: "the candidate has no CURRENT view (summary.constraints is empty): a consolidation drafts the view after acceptance with its replacements"})
	} else {
		pairs, err := FutureView(future, p, c, revision, generator)
		if err := viewIssues(err, "CURRENT after acceptance: ", &pr.Issues); err != nil {
			return nil, err
		}
		for _, pair := range pairs {
			cur, man := pair.Paths()
			if is := uncovered(future, p, pair); is != nil {
				pr.Issues = append(pr.Issues, *is)
			}
			add(&pr.Views, cur, pair.Current)
			add(&pr.Views, man, pair.ManifestJSON)
		}
	}
	sortChanges(pr)
	return pr, nil
}

func sortChanges(pr *Proposal) {
	sort.Slice(pr.Changes, func(i, j int) bool { return pr.Changes[i].Path < pr.Changes[j].Path })
}

// viewIssues turns a view builder's refusal into issues; other errors are
// returned.
func viewIssues(err error, prefix string, issues *[]Issue) error {
	var de *view.DraftError
	var fe *view.ForeignError
	switch {
	case err == nil:
	case errors.As(err, &de):
		for _, pr := range de.Problems {
			*issues = append(*issues, Issue{Kind: IssueCoverage, Message: prefix + pr})
		}
	case errors.As(err, &fe):
		*issues = append(*issues, Issue{Kind: IssueOwnership, Path: fe.Path, Message: prefix + fe.Error() + "; git-adr never overwrites it: rename it or remove it"})
	default:
		return err
	}
	return nil
}

// transitions lists the lifecycle changes acceptance of a consolidation
// makes (sources whose status changes in the future log, and each
// replacement's).
func transitions(l, future *adr.Log, p *Plan) []Transition {
	out := []Transition{}
	for _, s := range p.Sources {
		now, then := l.ByPath(s.Path), future.ByPath(s.Path)
		if now != nil && then != nil && now.Status != then.Status {
			out = append(out, Transition{ID: s.ID, From: string(now.Status), To: string(then.Status)})
		}
	}
	for _, r := range p.Reserved {
		if rec := future.ByPath(r.Path); rec != nil {
			out = append(out, Transition{ID: r.ID, From: "new", To: string(rec.Status)})
		}
	}
	return out
}

// FutureView renders the CURRENT view a consolidation publishes: over the
// future log, with the drafter's summary, the replacement records' units
// counted as retained in their own records.
func FutureView(future *adr.Log, p *Plan, c *Candidate, revision int, generator string) ([]view.Pair, error) {
	d := c.Summary
	d.Coverage = append([]view.UnitCoverage(nil), d.Coverage...)
	var ids []string
	for _, s := range p.Sources {
		ids = append(ids, s.ID)
	}
	for _, r := range p.Reserved {
		rec := future.ByPath(r.Path)
		if rec == nil {
			continue
		}
		ids = append(ids, r.ID)
		for _, u := range rec.Units() {
			d.Coverage = append(d.Coverage, view.UnitCoverage{Unit: u.ID, State: Retained, Location: "replacement " + r.ID})
		}
	}
	if len(p.Scope.Sources) == 0 {
		ids = nil
	}
	sel := view.NewSelection(p.Scope.Domain, ids)
	var sources, deps []*adr.Record
	for _, root := range future.Roots {
		sources = append(sources, view.Members(future, root, sel)...)
	}
	for _, e := range p.Evidence {
		if r := future.ByPath(e.Path); r != nil {
			deps = append(deps, r)
		}
	}
	return view.BuildAll(future, sel, sources, deps, d, p.ID, revision, generator)
}

// PlanRecords returns the plan's sources and evidence as records of l.
func PlanRecords(l *adr.Log, p *Plan) (sources, deps []*adr.Record) {
	for _, s := range p.Sources {
		if r := l.ByPath(s.Path); r != nil {
			sources = append(sources, r)
		}
	}
	for _, e := range p.Evidence {
		if r := l.ByPath(e.Path); r != nil {
			deps = append(deps, r)
		}
	}
	return sources, deps
}

// uncovered refuses a consolidation whose view after acceptance leaves
// out a decision in force in its root: the view replaces the root's, so
// publishing it would drop that decision from what CURRENT says binds
// (a first consolidation's replacement, when a second one covers other
// records only), without anyone deciding so.
func uncovered(future *adr.Log, p *Plan, pair view.Pair) *Issue {
	out := view.Outside(future, pair.Root, pair.Manifest.Selection)
	if len(out) == 0 {
		return nil
	}
	var missing, scope []string
	seen := map[string]bool{}
	for _, s := range p.Sources {
		if !seen[s.ID] {
			seen[s.ID] = true
			scope = append(scope, s.ID)
		}
	}
	for _, r := range out {
		missing = append(missing, r.ID)
		if !seen[r.ID] {
			seen[r.ID] = true
			scope = append(scope, r.ID)
		}
	}
	shown := missing
	if len(shown) > 10 {
		shown = append(shown[:10:10], fmt.Sprintf("and %d more", len(missing)-10))
	}
	_, man := pair.Paths()
	return &Issue{Kind: IssueScope, Path: man, IDs: missing,
		Message: fmt.Sprintf("CURRENT after acceptance: %s would not cover %s, in force in %s; the view a consolidation publishes replaces the root's and must state every decision in force there: plan them into its scope (`git adr compaction --mode consolidate --sources %s`) or plan the whole root (`git adr compaction --mode consolidate`)",
			pair.Root.Join(view.CurrentFile), strings.Join(shown, ", "), pair.Root.Dir(), strings.Join(scope, ","))}
}

// narrowing refuses a view that would replace a wider one: a root has one
// CURRENT pair, so publishing a view of fewer records over it would drop
// the others from the view without anyone deciding so. Records the old
// view covered that are no longer live (deleted, archived) do not count.
func narrowing(l *adr.Log, manPath string, newManifest []byte) *Issue {
	old, err := fs.ReadFile(l.FS, manPath)
	if err != nil {
		return nil // no view yet
	}
	was, err := view.DecodeManifest(old)
	if err != nil {
		return nil // a broken or foreign pair is the ownership check's
	}
	now, err := view.DecodeManifest(newManifest)
	if err != nil {
		return nil
	}
	keep := map[string]bool{}
	for _, s := range now.Sources {
		keep[s.Path] = true
	}
	var dropped []string
	for _, s := range was.Sources {
		if keep[s.Path] {
			continue
		}
		if r := l.ByPath(s.Path); r == nil || r.Archived {
			continue
		}
		dropped = append(dropped, s.ID)
	}
	if len(dropped) == 0 {
		return nil
	}
	shown := dropped
	if len(shown) > 10 {
		shown = append(shown[:10:10], fmt.Sprintf("and %d more", len(dropped)-10))
	}
	return &Issue{Kind: IssueScope, Path: manPath,
		Message: fmt.Sprintf("%s covers %d records; this view covers %d, so publishing it would drop %s from the root's view: plan the whole root (`git adr compaction --mode summary` without --domain or --sources) or a scope that keeps them",
			manPath, len(was.Sources), len(now.Sources), strings.Join(shown, ", "))}
}
