package compaction

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// Issue kinds an analysis reports. docs/commands/compaction.md gives the
// rule behind each one.
const (
	KindUnknownStatus       = "unknown-status"
	KindAmbiguousID         = "ambiguous-id"
	KindCycle               = "cycle"
	KindBrokenReference     = "broken-reference"
	KindContradiction       = "contradiction"
	KindProposedSuccessor   = "proposed-successor"
	KindPartialSupersession = "partial-supersession"
)

// IssueKinds lists every issue kind in the order the documentation gives
// them.
var IssueKinds = []string{
	KindUnknownStatus, KindAmbiguousID, KindCycle, KindBrokenReference,
	KindContradiction, KindProposedSuccessor, KindPartialSupersession,
}

// Classes lists the classes in the order reports give them.
var Classes = []Class{RetainUnchanged, SummarizeClass, ConsolidateClass, UnresolvedClass, ArchivalCandidate}

// Analyze classifies every record of the scope opt selects and reports the
// issues that involve them. It reads only l (a lazily loaded log is parsed
// in full first): no model call, no write. The result is deterministic:
// roots in discovery order, records in root order then number, issues by
// path, line, kind and message. Its cost grows linearly with the records
// and relations of the log.
//
// A scope that cannot be served (an unknown domain; a source that is
// missing, ambiguous or archived) is a [*ScopeError].
func Analyze(l *adr.Log, opt AnalyzeOptions) (*Analysis, error) {
	for _, r := range l.Records {
		if err := l.Ensure(r); err != nil {
			return nil, err
		}
	}
	sc, err := selectScope(l, opt)
	if err != nil {
		return nil, err
	}
	a := newAnalyzer(l, sc.records)
	a.infer = opt.Infer
	// Progress counts the records read, then the records classified.
	var live []*adr.Record
	for _, r := range l.Records {
		if !r.Archived {
			live = append(live, r)
		}
	}
	done, total := 0, len(live)+len(sc.records)
	step := func() {
		done++
		if opt.Progress != nil {
			opt.Progress(done, total)
		}
	}
	a.readTexts(live, step)
	a.findIssues()
	clusters := a.clusters(sc.records)
	out := &Analysis{
		Roots:    sc.roots,
		Records:  make([]RecordClass, 0, len(sc.records)),
		Issues:   a.reported(),
		Inferred: []InferredGroup{},
	}
	for _, r := range sc.records {
		out.Records = append(out.Records, a.classify(r, clusters))
		step()
	}
	if opt.Infer {
		out.Inferred = a.inferGroups(sc.records, out.Records, clusters)
	}
	return out, nil
}

// Count returns how many records of the analysis have class c.
func (a *Analysis) Count(c Class) int {
	n := 0
	for _, r := range a.Records {
		if r.Class == c {
			n++
		}
	}
	return n
}

type scope struct {
	records []*adr.Record
	roots   []RootCount
}

// selectScope picks the records to classify. The whole-log scope lists
// every root, even one with no live record, so the preview shows every
// directory that was looked at; a domain or source scope lists only the
// roots that contribute records.
func selectScope(l *adr.Log, opt AnalyzeOptions) (scope, error) {
	var sc scope
	domain := strings.TrimSpace(opt.Domain)
	var pick func(*adr.Record) bool
	switch {
	case domain != "" && len(opt.Sources) > 0:
		return sc, &ScopeError{Msg: "a domain and exact sources are exclusive scopes", Hint: "choose one of them"}
	case len(opt.Sources) > 0:
		recs, err := resolveSources(l, opt.Sources)
		if err != nil {
			return sc, err
		}
		in := make(map[*adr.Record]bool, len(recs))
		for _, r := range recs {
			in[r] = true
		}
		pick = func(r *adr.Record) bool { return in[r] }
	case domain != "":
		if err := knownDomain(l, domain); err != nil {
			return sc, err
		}
		pick = func(r *adr.Record) bool { return !r.Archived && r.InDomain(domain) }
	default:
		pick = func(r *adr.Record) bool { return !r.Archived }
	}
	whole := domain == "" && len(opt.Sources) == 0
	sc.roots = []RootCount{}
	for _, root := range l.Roots {
		n := 0
		for _, r := range root.Records {
			if pick(r) {
				sc.records = append(sc.records, r)
				n++
			}
		}
		if n > 0 || whole {
			sc.roots = append(sc.roots, RootCount{Path: root.Dir(), Count: n})
		}
	}
	return sc, nil
}

// knownDomain fails with the known domains when no unarchived record has
// domain d.
func knownDomain(l *adr.Log, d string) error {
	live, archived := map[string]bool{}, false
	for _, r := range l.Records {
		for _, x := range r.Domains {
			if r.Archived {
				archived = archived || strings.EqualFold(x, d)
				continue
			}
			if strings.EqualFold(x, d) {
				return nil
			}
			live[x] = true
		}
	}
	msg := fmt.Sprintf("no unarchived record has domain %q", d)
	if archived {
		msg += " (only archived records do, and they are never compaction sources)"
	}
	if len(live) == 0 {
		return &ScopeError{Msg: msg, Hint: "no record declares a domain; name exact records instead"}
	}
	names := make([]string, 0, len(live))
	for x := range live {
		names = append(names, x)
	}
	sort.Strings(names)
	const shown = 20
	hint := "known domains: " + strings.Join(names[:min(shown, len(names))], ", ")
	if len(names) > shown {
		hint += fmt.Sprintf(" (and %d more: `git adr list --json` shows every record's domains)", len(names)-shown)
	}
	return &ScopeError{Msg: msg, Hint: hint}
}

// resolveSources finds the records exact sources name. Every source that
// cannot be used is named with its reason, not just the first.
func resolveSources(l *adr.Log, ids []string) ([]*adr.Record, error) {
	var bad, hints []string
	hinted := map[string]bool{}
	hint := func(h string) {
		if !hinted[h] {
			hinted[h] = true
			hints = append(hints, h)
		}
	}
	seen := map[*adr.Record]bool{}
	var out []*adr.Record
	for _, raw := range ids {
		id := strings.TrimSpace(raw)
		if id == "" {
			bad = append(bad, "an empty ID")
			hint("separate IDs with commas and nothing else: ADR-0001,ADR-0004")
			continue
		}
		if _, anchor := adr.SplitLocator(id); anchor != "" {
			bad = append(bad, fmt.Sprintf("%q names a unit, not a record", id))
			hint("sources are whole records: drop the #unit or §N part")
			continue
		}
		r, err := l.Resolve(id)
		var amb *adr.AmbiguousError
		switch {
		case errors.As(err, &amb):
			bad = append(bad, fmt.Sprintf("%q is ambiguous (%s)", id, amb.Paths()))
			hint("name an ambiguous record by its path")
		case err != nil:
			bad = append(bad, fmt.Sprintf("%q names no record", id))
			hint("`git adr list` shows every ID")
		case r.Archived:
			bad = append(bad, fmt.Sprintf("%q is archived (%s)", id, r.Path))
			hint("archived records are history: compaction reads them only as evidence, never as sources")
		case !seen[r]:
			seen[r] = true
			out = append(out, r)
		}
	}
	if len(bad) > 0 {
		what := "a source cannot"
		if len(bad) > 1 {
			what = fmt.Sprintf("%d sources cannot", len(bad))
		}
		return nil, &ScopeError{Msg: fmt.Sprintf("%s be compacted: %s", what, strings.Join(bad, "; ")), Hint: strings.Join(hints, "\n")}
	}
	return out, nil
}

// Blocker ranks: the reason a record is unresolved is its blocker of the
// lowest rank, so the most fundamental problem is named first.
const (
	rankUnknown = iota
	rankAmbiguous
	rankCycle
	rankContradiction
	rankProposed
	rankPartial
	rankBroken
	rankDependent
)

// classify gives r its class and reason (see docs/commands/compaction.md
// for the rules, in this order).
func (a *analyzer) classify(r *adr.Record, clusters map[*adr.Record][]*adr.Record) RecordClass {
	rc := RecordClass{ID: r.ID, Path: r.Path, Status: string(r.Status)}
	if bs := a.blocks[r]; len(bs) > 0 {
		b := bs[0]
		for _, x := range bs[1:] {
			if x.rank < b.rank {
				b = x
			}
		}
		rc.Class, rc.Reason = UnresolvedClass, b.reason
		if len(bs) > 1 {
			rc.Reason += fmt.Sprintf(" (+%d more)", len(bs)-1)
		}
		return rc
	}
	switch r.Status {
	case adr.Proposed:
		rc.Class = RetainUnchanged
		rc.Reason = fmt.Sprintf("open proposal: stays a proposal until decided (git adr decide %s accept, or reject); CURRENT lists it apart from the decisions in force", r.ID)
	case adr.Rejected, adr.Deprecated, adr.Superseded:
		rc.Class, rc.Reason = ArchivalCandidate, a.retiredReason(r)
		if soft := a.soft[r]; len(soft) > 0 {
			rc.Class = UnresolvedClass
			rc.Reason = "wholly retired, but " + soft[0] + ": repair it before the record can move to the archive"
		}
	case adr.Accepted:
		switch {
		case clusters[r] != nil:
			rc.Class, rc.Reason = ConsolidateClass, a.clusterReason(r, clusters[r])
		case !a.hasDecisionText(r):
			rc.Class = RetainUnchanged
			rc.Reason = "accepted, but every section is empty: nothing to summarize or merge; write the decision down or deprecate it"
		default:
			rc.Class, rc.Reason = SummarizeClass, a.inForceReason(r)
		}
	default:
		if r.StatusNotRecorded() {
			// A log that records no statuses (MADR makes them optional):
			// nothing says whether the record is in force.
			rc.Class = RetainUnchanged
			rc.Reason = "status not recorded (its log keeps no statuses, as MADR allows): kept as it is; record a status to summarize, merge or archive it"
			break
		}
		// The unknown-status issue blocks such a record; this is a guard.
		rc.Class, rc.Reason = UnresolvedClass, "status unknown: a person must set it"
	}
	return rc
}

func (a *analyzer) retiredReason(r *adr.Record) string {
	switch r.Status {
	case adr.Rejected:
		return "rejected: historical evidence, not in force; can move to the archive"
	case adr.Deprecated:
		return "deprecated: no longer in force; can move to the archive"
	}
	for _, e := range a.links[r].successors {
		if !a.settled(e.r) {
			continue
		}
		switch e.r.Status {
		case adr.Accepted:
			return fmt.Sprintf("superseded by %s, which is in force: wholly retired, can move to the archive", e.r.ID)
		case adr.Deprecated:
			return fmt.Sprintf("superseded by %s, since deprecated: nothing of it is in force; can move to the archive", e.r.ID)
		}
		return fmt.Sprintf("superseded by %s, itself superseded by a record in force: wholly retired, can move to the archive", e.r.ID)
	}
	return "superseded: can move to the archive"
}

func (a *analyzer) inForceReason(r *adr.Record) string {
	var b strings.Builder
	if r.IsSystemConstraint() {
		b.WriteString("accepted system-wide constraint")
	} else {
		b.WriteString("accepted and in force")
	}
	if live, total := liveSections(r); live < total {
		fmt.Fprintf(&b, " (%d of %d sections in force)", live, total)
	}
	if ps := a.pending[r]; len(ps) > 0 {
		fmt.Fprintf(&b, "; proposal %s would supersede it once accepted", idList(ps, 3))
	}
	b.WriteString(": a CURRENT summary would state it")
	return b.String()
}

func (a *analyzer) clusterReason(r *adr.Record, members []*adr.Record) string {
	in := make(map[*adr.Record]bool, len(members))
	for _, m := range members {
		in[m] = true
	}
	var direct []string
	seen := map[string]bool{}
	for _, n := range a.links[r].near {
		if !in[n.r] || !a.clusterEdge(r, n) {
			continue
		}
		p := n.phrase + " " + n.r.ID
		if !n.amend {
			p += " (domain " + sharedDomain(r, n.r) + ")"
		}
		if !seen[p] {
			seen[p] = true
			direct = append(direct, p)
		}
	}
	if len(direct) > 3 {
		direct = append(direct[:3], fmt.Sprintf("%d more", len(direct)-3))
	}
	return fmt.Sprintf("%s: one of %d accepted records (%s) a replacement ADR could merge",
		strings.Join(direct, ", "), len(members), idList(members, 6))
}

// idList names records by ID, at most n of them.
func idList(rs []*adr.Record, n int) string {
	var ids []string
	for i, r := range rs {
		if i == n {
			ids = append(ids, fmt.Sprintf("and %d more", len(rs)-n))
			break
		}
		ids = append(ids, r.ID)
	}
	return strings.Join(ids, ", ")
}

// liveSections counts the units of a sectioned container that are in force
// (accepted, or without a status of their own); other records count as one
// live unit.
func liveSections(r *adr.Record) (live, total int) {
	if r.Style != adr.StyleOCP {
		return 1, 1
	}
	for _, u := range r.Units() {
		if !strings.HasPrefix(u.Anchor, "§") {
			continue
		}
		total++
		if u.Status == "" || u.Status == adr.Accepted {
			live++
		}
	}
	if total == 0 {
		return 1, 1
	}
	return live, total
}

// clusters groups the in-scope accepted records that nothing blocks into
// connected components of amendment-like links (amends, refines, updates,
// extends, clarifies; either side's link), and of any other link between
// two records that share a domain, within one root. Components of two or
// more records are returned, each member mapped to its sorted component.
func (a *analyzer) clusters(scope []*adr.Record) map[*adr.Record][]*adr.Record {
	cand := map[*adr.Record]bool{}
	for _, r := range scope {
		if r.Status == adr.Accepted && len(a.blocks[r]) == 0 {
			cand[r] = true
		}
	}
	parent := map[*adr.Record]*adr.Record{}
	var find func(*adr.Record) *adr.Record
	find = func(r *adr.Record) *adr.Record {
		for parent[r] != nil && parent[r] != r {
			if gp := parent[parent[r]]; gp != nil {
				parent[r] = gp
			}
			r = parent[r]
		}
		return r
	}
	for _, r := range scope {
		if !cand[r] {
			continue
		}
		for _, n := range a.links[r].near {
			if !cand[n.r] || n.r.Root != r.Root || !a.clusterEdge(r, n) {
				continue
			}
			x, y := find(r), find(n.r)
			if x == y {
				continue
			}
			// The earlier record becomes the representative, so the result
			// does not depend on link order.
			if a.pos[y] < a.pos[x] {
				x, y = y, x
			}
			parent[x], parent[y] = x, x
		}
	}
	groups := map[*adr.Record][]*adr.Record{}
	for _, r := range scope {
		if cand[r] && parent[r] != nil {
			root := find(r)
			groups[root] = append(groups[root], r)
		}
	}
	out := map[*adr.Record][]*adr.Record{}
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		for _, r := range g {
			out[r] = g
		}
	}
	return out
}

func (a *analyzer) clusterEdge(r *adr.Record, n nearLink) bool {
	return n.amend || sharedDomain(r, n.r) != ""
}

// sharedDomain is the first domain of r that o has too, "" when none.
func sharedDomain(r, o *adr.Record) string {
	for _, d := range r.Domains {
		if o.InDomain(d) {
			return d
		}
	}
	return ""
}

// Cluster is a group of records a consolidation could merge into one
// replacement: records classed consolidate that link each other, in one
// root.
type Cluster struct {
	Root *adr.Root
	IDs  []string
}

// Clusters returns the clusters of an analysis's scope in log order (the
// same grouping Analyze used to class records consolidate).
func Clusters(l *adr.Log, an *Analysis) []Cluster {
	var scope []*adr.Record
	for _, rc := range an.Records {
		if r := l.ByPath(rc.Path); r != nil {
			scope = append(scope, r)
		}
	}
	a := newAnalyzer(l, scope)
	a.findIssues()
	groups := a.clusters(scope)
	seen := map[*adr.Record]bool{}
	var out []Cluster
	for _, r := range scope {
		g := groups[r]
		if g == nil || seen[g[0]] {
			continue
		}
		seen[g[0]] = true
		cl := Cluster{Root: r.Root}
		for _, m := range g {
			cl.IDs = append(cl.IDs, m.ID)
		}
		out = append(out, cl)
	}
	return out
}

// LogFileScope refuses a mode run over analysis a of log l when its scope holds
// records of a single-file log: drafting rewrites and supersedes records,
// not sections of a log file. It returns the refusal for the first such
// root, nil when every record in scope is a file.
func LogFileScope(l *adr.Log, a *Analysis, mode Mode) *adr.SectionError {
	for _, rc := range a.Roots {
		for _, root := range l.LogFiles() {
			if root.Dir() == rc.Path && rc.Count > 0 {
				return adr.WritableRoot(root, "compaction --mode "+string(mode)).(*adr.SectionError)
			}
		}
	}
	return nil
}
