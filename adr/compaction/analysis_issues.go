package compaction

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/lazyre"
	"github.com/git-adr/git-adr/retrieve"
)

// analyzer holds the relation graph of a whole log and what blocks each
// record. Issues are found over the whole log, then reported when they
// name a record in scope.
type analyzer struct {
	l     *adr.Log
	in    map[*adr.Record]bool
	pos   map[*adr.Record]int
	links map[*adr.Record]*recordLinks
	// issues found so far, with the records each one names.
	issues []issue
	// blocks make a record unresolved; soft only keep it out of the
	// archive (a link that leads nowhere would break when it moves).
	blocks map[*adr.Record][]blocker
	soft   map[*adr.Record][]string
	// pending are the proposals that would supersede an accepted record.
	pending map[*adr.Record][]*adr.Record
	// ambiguousAt marks relation lines ("path:line") whose ID names
	// several records: ambiguous-id, not broken-reference.
	ambiguousAt map[string]bool
	settledMemo map[*adr.Record]uint8
	numbers     map[int]int
	// texts is what readTexts kept of each live record's text.
	texts map[*adr.Record]*textFacts
	// infer asks readTexts for what inferred groups need.
	infer bool
	// vocab numbers the terms of every subject readTexts analyses.
	vocab *retrieve.Vocabulary
}

type issue struct {
	Issue
	about []*adr.Record
}

type blocker struct {
	rank   int
	reason string
}

// recordLinks are one record's resolved relations, from either side.
type recordLinks struct {
	// successors supersede the record; predecessors are superseded by it.
	successors, predecessors []edge
	// near are amendment-like and other links (both directions).
	near []nearLink
	// partial are supersessions of one of its units only (a locator).
	partial []edge
}

// edge is a supersession with the places that state it.
type edge struct {
	r  *adr.Record
	at []loc
}

type loc struct {
	path string
	line int
}

func (l loc) String() string { return fmt.Sprintf("%s:%d", l.path, l.line) }

// nearLink is a link that may put two records into one consolidation
// cluster. phrase is written from the owning record's side ("amended by").
type nearLink struct {
	r      *adr.Record
	phrase string
	amend  bool
}

func newAnalyzer(l *adr.Log, scope []*adr.Record) *analyzer {
	a := &analyzer{
		l: l, in: make(map[*adr.Record]bool, len(scope)), pos: make(map[*adr.Record]int, len(l.Records)),
		links: make(map[*adr.Record]*recordLinks, len(l.Records)), blocks: map[*adr.Record][]blocker{},
		soft: map[*adr.Record][]string{}, pending: map[*adr.Record][]*adr.Record{},
		ambiguousAt: map[string]bool{}, settledMemo: map[*adr.Record]uint8{},
	}
	for _, r := range scope {
		a.in[r] = true
	}
	for i, r := range l.Records {
		a.pos[r] = i
		a.links[r] = &recordLinks{}
	}
	return a
}

func (a *analyzer) findIssues() {
	a.graph()
	a.checkFindings()
	for _, r := range a.l.Records {
		if r.Archived {
			continue
		}
		a.lifecycle(r)
		a.partial(r)
	}
}

// add records an issue naming about (in that order).
func (a *analyzer) add(is Issue, about ...*adr.Record) {
	is.IDs = []string{}
	seen, seenID := map[*adr.Record]bool{}, map[string]bool{}
	var ab []*adr.Record
	for _, r := range about {
		if r == nil || seen[r] {
			continue
		}
		seen[r] = true
		ab = append(ab, r)
		if !seenID[r.ID] {
			seenID[r.ID] = true
			is.IDs = append(is.IDs, r.ID)
		}
	}
	a.issues = append(a.issues, issue{is, ab})
}

func (a *analyzer) block(r *adr.Record, rank int, reason string) {
	for _, b := range a.blocks[r] {
		if b.rank == rank && b.reason == reason {
			return
		}
	}
	a.blocks[r] = append(a.blocks[r], blocker{rank, reason})
}

// reported returns the issues that name a record in scope, sorted by path,
// line, kind and message, without duplicates.
func (a *analyzer) reported() []Issue {
	out := []Issue{}
	seen := map[string]bool{}
	for _, is := range a.issues {
		in := false
		for _, r := range is.about {
			in = in || a.in[r]
		}
		k := fmt.Sprintf("%s\x00%d\x00%s\x00%s", is.Path, is.Line, is.Kind, is.Message)
		if !in || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, is.Issue)
	}
	sort.SliceStable(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if x.Path != y.Path {
			return x.Path < y.Path
		}
		if x.Line != y.Line {
			return x.Line < y.Line
		}
		if x.Kind != y.Kind {
			return x.Kind < y.Kind
		}
		return x.Message < y.Message
	})
	return out
}

// amendLabels are link labels that change another record's decision
// without replacing it: they put both records into one cluster.
var amendLabels = map[string]string{
	"amends": "amended by", "amended by": "amends", "refines": "refined by", "refined by": "refines",
	"updates": "updated by", "updated by": "updates", "extends": "extended by", "extended by": "extends",
	"clarifies": "clarified by", "clarified by": "clarifies",
}

// graph resolves every relation of the log once.
func (a *analyzer) graph() {
	for _, r := range a.l.Records {
		for _, rel := range r.Relations {
			var t *adr.Record
			if rel.TargetID != "" {
				t = a.l.Target(r, rel.Target)
			}
			if t == nil {
				a.unresolvedRelation(r, rel)
				continue
			}
			if t == r {
				continue // a self-supersession is a cycle check reports
			}
			at := loc{r.Path, rel.Line}
			switch rel.Type {
			case adr.Supersedes:
				if _, anchor := adr.SplitLocator(rel.Target); anchor != "" {
					a.links[t].partial = addEdge(a.links[t].partial, r, at)
					continue
				}
				a.supersede(r, t, at)
			case adr.SupersededBy:
				a.supersede(t, r, at)
			default:
				label := strings.ToLower(rel.Type.Label())
				rev, amend := amendLabels[label]
				if !amend {
					label, rev = "relates to", "relates to"
				}
				a.links[r].near = append(a.links[r].near, nearLink{t, label, amend})
				a.links[t].near = append(a.links[t].near, nearLink{r, rev, amend})
			}
		}
	}
	for _, lk := range a.links {
		a.sortEdges(lk.successors)
		a.sortEdges(lk.predecessors)
		a.sortEdges(lk.partial)
		sort.SliceStable(lk.near, func(i, j int) bool { return a.pos[lk.near[i].r] < a.pos[lk.near[j].r] })
	}
}

func (a *analyzer) sortEdges(es []edge) {
	sort.SliceStable(es, func(i, j int) bool { return a.pos[es[i].r] < a.pos[es[j].r] })
}

// supersede records "from supersedes to", stated at at.
func (a *analyzer) supersede(from, to *adr.Record, at loc) {
	a.links[to].successors = addEdge(a.links[to].successors, from, at)
	a.links[from].predecessors = addEdge(a.links[from].predecessors, to, at)
}

func addEdge(es []edge, r *adr.Record, at loc) []edge {
	for i := range es {
		if es[i].r == r {
			es[i].at = append(es[i].at, at)
			return es
		}
	}
	return append(es, edge{r, []loc{at}})
}

// unresolvedRelation reports a relation written as an ID that names
// several records; check reports the other unresolved relations.
func (a *analyzer) unresolvedRelation(r *adr.Record, rel adr.Relation) {
	if strings.ContainsAny(rel.Target, "/.") {
		return // a link, not an ID
	}
	id, _ := adr.SplitLocator(rel.Target)
	// Only a number that several records share can be ambiguous; asking
	// the log about every other unresolved ID would scan it each time.
	m := trailingNumber.FindStringSubmatch(id)
	if m == nil {
		return
	}
	if n, err := strconv.Atoi(m[1]); err != nil || a.numbered()[n] < 2 {
		return
	}
	_, err := a.l.Resolve(id)
	var amb *adr.AmbiguousError
	if !errors.As(err, &amb) {
		return
	}
	var paths []string
	for _, c := range amb.Candidates {
		paths = append(paths, c.Locus())
	}
	a.ambiguousAt[loc{r.Path, rel.Line}.String()] = true
	phrase := strings.TrimSpace(rel.Label + " " + rel.Target)
	a.add(Issue{Kind: KindAmbiguousID, Path: r.Path, Line: rel.Line,
		Message: fmt.Sprintf("%q names several records (%s)", phrase, strings.Join(paths, ", "))}, append([]*adr.Record{r}, amb.Candidates...)...)
	a.block(r, rankAmbiguous, fmt.Sprintf("%q on line %d names several records: link the one meant by its path", phrase, rel.Line))
}

var trailingNumber = lazyre.New(`(\d+)$`)

// numbered counts the records of the log per number, once.
func (a *analyzer) numbered() map[int]int {
	if a.numbers == nil {
		a.numbers = map[int]int{}
		for _, r := range a.l.Records {
			if r.Numbered {
				a.numbers[r.Number]++
			}
		}
	}
	return a.numbers
}

// checkFindings turns the findings of adr's check that matter to
// compaction into issues: unknown statuses, duplicate numbers, supersession
// cycles and broken references. .adr.toml's [check] ignore does not hide
// them here.
func (a *analyzer) checkFindings() {
	rep := a.l.Check(adr.CheckOptions{AllKinds: true})
	for _, f := range rep.Findings {
		r := a.l.ByPath(f.Path)
		if r == nil {
			continue
		}
		is := Issue{Path: f.Path, Line: f.Line, Message: f.Message}
		switch f.Kind {
		case adr.KindUnknownStatus:
			is.Kind = KindUnknownStatus
			a.add(is, r)
			reason := "no status: a person must set one (proposed, accepted, rejected, deprecated or superseded)"
			if r.RawStatus != "" {
				reason = fmt.Sprintf("status %q is not one git-adr knows: a person must set proposed, accepted, rejected, deprecated or superseded", shorten(r.RawStatus, 40))
			}
			a.block(r, rankUnknown, reason)
		case adr.KindDuplicateID:
			group := a.sameNumber(r)
			is.Kind = KindAmbiguousID
			is.Message += ": references to " + r.ID + " are ambiguous"
			a.add(is, group...)
			for _, g := range group {
				var others []string
				for _, o := range group {
					if o != g {
						others = append(others, o.Path)
					}
				}
				a.block(g, rankAmbiguous, fmt.Sprintf("its ID %s also names %s: give one of them a new number (%s)", g.ID, strings.Join(others, ", "), f.Fix))
			}
		case adr.KindCycle:
			members := a.byIDs(f.IDs, r.Root)
			is.Kind = KindCycle
			if is.Line == 0 {
				is.Line = cycleLine(r, members)
			}
			a.add(is, members...)
			for _, m := range members {
				a.block(m, rankCycle, f.Message+": decide which record is current and remove one supersession (`git adr check` names every line)")
			}
		case adr.KindBrokenReference:
			if a.ambiguousAt[loc{f.Path, f.Line}.String()] {
				continue
			}
			is.Kind = KindBrokenReference
			a.add(is, r)
			if rel, ok := brokenRelationAt(r, f.Line); ok {
				a.block(r, rankBroken, fmt.Sprintf("%q on line %d names no record: correct or remove the relation", strings.TrimSpace(rel.Label+" "+rel.Target), f.Line))
			} else {
				a.soft[r] = append(a.soft[r], fmt.Sprintf("a link on line %d leads nowhere", f.Line))
			}
		}
	}
}

// sameNumber returns the records of r's root numbered like r.
func (a *analyzer) sameNumber(r *adr.Record) []*adr.Record {
	var out []*adr.Record
	if r.Root == nil || !r.Numbered {
		return []*adr.Record{r}
	}
	for _, o := range r.Root.Records {
		if o.Numbered && o.Number == r.Number {
			out = append(out, o)
		}
	}
	return out
}

// byIDs maps IDs back to records, preferring root.
func (a *analyzer) byIDs(ids []string, root *adr.Root) []*adr.Record {
	var out []*adr.Record
	for _, id := range ids {
		var found *adr.Record
		if root != nil {
			for _, r := range root.Records {
				if r.ID == id {
					found = r
					break
				}
			}
		}
		if found == nil {
			found, _ = a.l.Resolve(id)
		}
		if found != nil {
			out = append(out, found)
		}
	}
	return out
}

// cycleLine is the first line of r that states a supersession with another
// member of its cycle (check names a line only when r writes the first
// link of the cycle itself).
func cycleLine(r *adr.Record, members []*adr.Record) int {
	in := map[string]bool{}
	for _, m := range members {
		in[m.ID] = m != r
	}
	for _, rel := range r.Relations {
		if (rel.Type == adr.Supersedes || rel.Type == adr.SupersededBy) && in[rel.TargetID] {
			return rel.Line
		}
	}
	return 0
}

func brokenRelationAt(r *adr.Record, line int) (adr.Relation, bool) {
	for _, rel := range r.Relations {
		if rel.Line == line && rel.TargetID == "" {
			return rel, true
		}
	}
	return adr.Relation{}, false
}

func statusLine(r *adr.Record) int {
	if r.StatusField.Kind == adr.FieldNone {
		return 0
	}
	return r.StatusField.Line + 1
}

// settled reports whether r's place in the lifecycle is decided: accepted
// or deprecated, or superseded by a record that is settled. Cycles are not
// settled.
func (a *analyzer) settled(r *adr.Record) bool {
	switch a.settledMemo[r] {
	case 1: // on the current path: a cycle
		return false
	case 2:
		return true
	case 3:
		return false
	}
	ok := false
	switch r.Status {
	case adr.Accepted, adr.Deprecated:
		ok = true
	case adr.Superseded:
		a.settledMemo[r] = 1
		for _, e := range a.links[r].successors {
			if a.settled(e.r) {
				ok = true
				break
			}
		}
	}
	a.settledMemo[r] = 3
	if ok {
		a.settledMemo[r] = 2
	}
	return ok
}

// lifecycle finds contradictions and proposed successors around r.
func (a *analyzer) lifecycle(r *adr.Record) {
	succ := a.links[r].successors
	line := statusLine(r)
	byStatus := func(st adr.Status) []edge {
		var out []edge
		for _, e := range succ {
			if e.r.Status == st {
				out = append(out, e)
			}
		}
		return out
	}
	switch r.Status {
	case adr.Accepted, adr.Proposed:
		if acc := byStatus(adr.Accepted); len(acc) > 0 {
			a.add(Issue{Kind: KindContradiction, Path: r.Path, Line: line,
				Message: fmt.Sprintf("the status is %s but %s: both cannot be in force", r.Status, supersedePhrase(acc))}, append([]*adr.Record{r}, edgeRecords(acc)...)...)
			a.block(r, rankContradiction, fmt.Sprintf("%s, yet accepted %s supersedes it: decide which is in force (mark %s superseded, or remove the link at %s)",
				r.Status, acc[0].r.ID, r.ID, acc[0].at[0]))
		}
		if r.Status != adr.Accepted {
			return
		}
		for _, p := range byStatus(adr.Proposed) {
			at := p.at[0]
			for _, l := range p.at {
				if l.path == p.r.Path {
					at = l
					break
				}
			}
			a.add(Issue{Kind: KindProposedSuccessor, Path: at.path, Line: at.line,
				Message: fmt.Sprintf("%s is proposed and supersedes accepted %s: %s stays binding until %s is accepted", p.r.ID, r.ID, r.ID, p.r.ID)}, p.r, r)
			a.block(p.r, rankProposed, fmt.Sprintf("proposes to supersede accepted %s, which stays binding: accept it (git adr decide %s accept) or reject it", r.ID, p.r.ID))
			a.pending[r] = append(a.pending[r], p.r)
		}
	case adr.Superseded:
		switch {
		case len(succ) == 0:
			if hasUnresolved(r, adr.SupersededBy) {
				return // the broken or ambiguous link blocks it already
			}
			a.add(Issue{Kind: KindContradiction, Path: r.Path, Line: line,
				Message: "the status is superseded but no record supersedes it"}, r)
			a.block(r, rankContradiction, fmt.Sprintf("superseded, but no record names itself its successor: link the successor (git adr link NEW Supersedes %s 'Superseded by') or correct the status", r.ID))
		case !a.anySettled(succ):
			var bad []string
			for _, e := range succ {
				switch e.r.Status {
				case adr.Rejected:
					bad = append(bad, e.r.ID+" was rejected")
				case adr.Proposed:
					bad = append(bad, e.r.ID+" is only proposed")
				}
			}
			if len(bad) > 0 {
				a.add(Issue{Kind: KindContradiction, Path: r.Path, Line: line,
					Message: "the status is superseded but nothing in force replaces it: " + strings.Join(bad, ", ")}, append([]*adr.Record{r}, edgeRecords(succ)...)...)
				a.block(r, rankContradiction, fmt.Sprintf("superseded, but %s: restore its status, or accept or name the record that replaces it", strings.Join(bad, ", ")))
				break
			}
			a.block(r, rankDependent, fmt.Sprintf("superseded by %s, which is not in force (status %s): settle %s first", succ[0].r.ID, succ[0].r.Status, succ[0].r.ID))
		}
		if acc := byStatus(adr.Accepted); len(acc) > 1 {
			a.add(Issue{Kind: KindContradiction, Path: r.Path, Line: line,
				Message: fmt.Sprintf("%d accepted records supersede it (%s): which one replaces it?", len(acc), idList(edgeRecords(acc), 6))}, append([]*adr.Record{r}, edgeRecords(acc)...)...)
			a.block(r, rankContradiction, fmt.Sprintf("superseded by %d accepted records (%s): say which one replaces it, or record each as a partial supersession", len(acc), idList(edgeRecords(acc), 6)))
		}
	}
}

func (a *analyzer) anySettled(es []edge) bool {
	for _, e := range es {
		if a.settled(e.r) {
			return true
		}
	}
	return false
}

func edgeRecords(es []edge) []*adr.Record {
	out := make([]*adr.Record, len(es))
	for i, e := range es {
		out[i] = e.r
	}
	return out
}

// supersedePhrase says who supersedes a record and where: "ADR-0002
// supersedes it (doc/adr/0002-b.md:9)".
func supersedePhrase(es []edge) string {
	var parts []string
	for _, e := range es {
		parts = append(parts, fmt.Sprintf("%s (%s)", e.r.ID, e.at[0]))
	}
	verb := " supersedes it"
	if len(parts) > 1 {
		verb = " supersede it"
	}
	return joinAnd(parts) + verb
}

func joinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func hasUnresolved(r *adr.Record, t adr.RelationType) bool {
	for _, rel := range r.Relations {
		if rel.Type == t && rel.TargetID == "" {
			return true
		}
	}
	return false
}

// shorten cuts s to n runes, marking the cut with "...".
func shorten(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return strings.TrimSpace(string(rs[:n])) + "..."
}
