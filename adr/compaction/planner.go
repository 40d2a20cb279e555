package compaction

import (
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/view"
)

// PlanOptions fix what a plan drafts.
type PlanOptions struct {
	Mode      Mode
	Domain    string
	Sources   []string
	Style     string
	Baseline  string
	Iteration string
	Archive   bool
	// AckExternalLinks acknowledges the archive part's external-link
	// risks (with Archive).
	AckExternalLinks bool
	Drafter          string
	// Base is the commit the log was read from.
	Base string
	// Tokens counts o200k tokens of a text (nil: not counted).
	Tokens func(string) int
	// Batch bounds evidence batches (zero: defaults).
	Batch BatchLimits
}

// NewPlan makes the first revision of a plan from an analysis of l: the
// records in scope become sources with their blob hashes and units; the
// system constraints and the records they link outside the scope become
// evidence; membership, read volume and batch count are computed. It is
// deterministic: the same options over the same log give the same plan.
func NewPlan(l *adr.Log, a *Analysis, o PlanOptions) (*Plan, error) {
	if o.Mode != Summary && o.Mode != Consolidate {
		return nil, fmt.Errorf("mode %q cannot be planned", o.Mode)
	}
	byPath := map[string]*adr.Record{}
	for _, r := range l.Records {
		byPath[r.Path] = r
	}
	classOf := map[string]Class{}
	var inScope []*adr.Record
	for _, rc := range a.Records {
		r := byPath[rc.Path]
		if r == nil {
			return nil, fmt.Errorf("analysis names %q, which the log does not have", rc.Path)
		}
		inScope = append(inScope, r)
		classOf[r.Path] = rc.Class
	}
	if len(inScope) == 0 {
		return nil, &ScopeError{Msg: "no record is in scope", Hint: "widen the scope: drop --domain or --sources"}
	}
	p := &Plan{Schema: SchemaVersion, Mode: o.Mode, Base: o.Base, Style: o.Style, Baseline: o.Baseline,
		Iteration: o.Iteration, Archive: o.Archive, AckExternalLinks: o.AckExternalLinks, Drafter: o.Drafter, State: Planned,
		Scope:  Scope{Domain: o.Domain, Sources: append([]string(nil), o.Sources...)},
		Issues: append([]Issue{}, a.Issues...), Transitions: []Transition{}, Reserved: []Reservation{}}
	for _, rc := range a.Roots {
		p.Scope.Roots = append(p.Scope.Roots, rc.Path)
	}
	if p.Mode == Consolidate && p.Style == "" {
		// The project's configuration: the style the first source's root
		// writes new records in.
		switch st := inScope[0].Root.Style; st {
		case adr.StyleNygard, adr.StyleMADR, adr.StyleMADR2, adr.StyleOCP, adr.StyleTable:
			p.Style = string(st)
		}
	}
	in := map[*adr.Record]bool{}
	for _, r := range inScope {
		in[r] = true
		src := sourceOf(r)
		src.Class = string(classOf[r.Path])
		p.Sources = append(p.Sources, src)
	}
	// Evidence: applicable system constraints and what the sources link
	// outside the scope. Archive bodies are read one hop away only.
	seen := map[*adr.Record]bool{}
	addEvidence := func(r *adr.Record) {
		if r == nil || in[r] || seen[r] {
			return
		}
		seen[r] = true
		p.Evidence = append(p.Evidence, sourceOf(r))
	}
	for _, r := range l.Records {
		if r.IsSystemConstraint() {
			addEvidence(r)
		}
	}
	for _, r := range inScope {
		for _, rel := range r.Relations {
			addEvidence(l.Target(r, rel.Target))
		}
	}
	sort.Slice(p.Evidence, func(i, j int) bool { return p.Evidence[i].Path < p.Evidence[j].Path })
	if p.Evidence == nil {
		p.Evidence = []Source{}
	}
	p.Membership = MembershipHash(p.Sources)
	p.ID = planID(p.Mode, p.Scope, p.Base, p.Membership, p.Archive, p.AckExternalLinks)
	// Read volume: every source and evidence body once.
	for _, r := range append(append([]*adr.Record(nil), inScope...), evidenceRecords(l, p.Evidence)...) {
		text := string(r.Content())
		p.Read.Bytes += len(text)
		p.Read.CodePoints += utf8.RuneCountInString(text)
		if o.Tokens != nil {
			p.Read.TokensO200k += o.Tokens(text)
		}
	}
	p.Read.Batches = len(Batches(l, p, o.Batch))
	return p, nil
}

// SourceOf is a record as a plan lists it: ID, path, blob, status and
// units.
func SourceOf(r *adr.Record) Source { return sourceOf(r) }

func sourceOf(r *adr.Record) Source {
	s := Source{ID: r.ID, Path: r.Path, Blob: view.BlobHash(r.Text().Src), Status: string(r.Status), Units: []Unit{}}
	for _, u := range r.Units() {
		s.Units = append(s.Units, Unit{Locator: u.ID, Hash: u.Hash, Lines: [2]int{u.Start, u.End}})
	}
	return s
}

func evidenceRecords(l *adr.Log, ev []Source) []*adr.Record {
	var out []*adr.Record
	for _, e := range ev {
		if r := l.ByPath(e.Path); r != nil {
			out = append(out, r)
		}
	}
	return out
}
