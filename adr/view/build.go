package view

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// DraftError lists everything that keeps a draft from becoming a view:
// units not accounted for, accounted for twice or unknown, statements
// without text or citations, citations of nothing. Problems are sorted
// and complete.
type DraftError struct {
	Root     string
	Problems []string
}

func (e *DraftError) Error() string {
	const show = 5
	msg := fmt.Sprintf("the summary draft for %s cannot be published: %s", e.Root, strings.Join(e.Problems[:min(show, len(e.Problems))], "; "))
	if len(e.Problems) > show {
		msg += fmt.Sprintf("; and %d more", len(e.Problems)-show)
	}
	return msg
}

// Build makes the CURRENT pair of one root from a reviewed summary draft:
// the manifest (schema, generator, plan and revision, selection,
// membership, every source with its blob hash, status and units with their
// hashes and coverage, the dependencies, the summary hash) and CURRENT.md
// as [Render] writes it. Write both files as they are returned, in one
// commit: the manifest pins CURRENT.md's exact bytes.
//
// sources must be exactly [Members] of sel in root; deps are records
// outside the scope the view relies on (system constraints, linked
// records), and a record a statement cites outside the sources becomes a
// dependency too. Every unit of every source must be accounted for exactly
// once in d.Coverage (retained, changed, retired or unresolved; changed
// and retired with a reason); constraints and proposals must cite at
// least one unit; every citation must name a unit (or an excerpt
// "ADR-0012#decision.2", or a whole record) of the log. Anything else is a
// *DraftError naming every problem. A CURRENT.md or manifest in root that
// git-adr did not write is a *ForeignError (see [Owned]). generator is
// the producing program and version ("git-adr 1.2.0").
//
// A multi-root plan publishes one pair per participating root: see
// [BuildAll].
func Build(l *adr.Log, root *adr.Root, sel Selection, sources, deps []*adr.Record, d Draft, plan string, revision int, generator string) (*Manifest, []byte, error) {
	return build(l, root, sel, sources, deps, d, plan, revision, generator, nil)
}

func build(l *adr.Log, root *adr.Root, sel Selection, sources, deps []*adr.Record, d Draft, plan string, revision int, generator string, views []string) (*Manifest, []byte, error) {
	switch {
	case plan == "":
		return nil, nil, fmt.Errorf("a view needs the plan it was reviewed in")
	case revision < 1:
		return nil, nil, fmt.Errorf("plan %s: revision %d is not a revision", plan, revision)
	}
	switch sel.Mode {
	case ModeAll, ModeDomain, ModeSources:
	default:
		return nil, nil, fmt.Errorf("unknown selection mode %q", sel.Mode)
	}
	if sel.Rule == "" {
		sel.Rule = RuleUnarchived
	}
	if sel.Rule != RuleUnarchived {
		return nil, nil, fmt.Errorf("unknown selection rule %q", sel.Rule)
	}
	if sel.Mode == ModeSources {
		// Exact sources select themselves, by their canonical IDs.
		var ids []string
		for _, r := range sources {
			ids = append(ids, r.ID)
		}
		sel = NewSelection("", ids)
	}
	for _, r := range append(append([]*adr.Record(nil), sources...), deps...) {
		if err := l.Ensure(r); err != nil {
			return nil, nil, err
		}
	}
	if err := Owned(l, root); err != nil {
		return nil, nil, err
	}
	members := Members(l, root, sel)
	if err := sameRecords(root, members, sources); err != nil {
		return nil, nil, err
	}
	if len(members) == 0 {
		return nil, nil, fmt.Errorf("the selection chooses no record in %s", root.Dir())
	}
	var problems []string
	problem := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	inScope := map[*adr.Record]bool{}
	for _, r := range members {
		inScope[r] = true
	}
	// Units by canonical locator.
	type unitOf struct {
		rec  *adr.Record
		unit adr.Unit
	}
	// The root's own records win when roots share an ID prefix.
	units := map[string]unitOf{}
	for _, recs := range [][]*adr.Record{root.Records, l.Records} {
		for _, r := range recs {
			for _, u := range r.Units() {
				if _, ok := units[u.ID]; !ok {
					units[u.ID] = unitOf{r, u}
				}
			}
		}
	}
	// canonical resolves a locator as the drafter wrote it: exactly, or by
	// resolving its record (preferring this root) and anchor.
	canonical := func(loc string) (string, *adr.Record, bool) {
		if u, ok := units[loc]; ok {
			return loc, u.rec, true
		}
		ref, anchor := adr.SplitLocator(loc)
		r, err := l.Resolve(ref)
		if err != nil || r == nil {
			return "", nil, false
		}
		if err := l.Ensure(r); err != nil {
			return "", nil, false
		}
		if anchor == "" {
			return r.ID, r, true
		}
		if u, ok := r.Unit(anchor); ok {
			return u.ID, r, true
		}
		if u, _, ok := r.Excerpt(anchor); ok {
			return u.ID, r, true
		}
		return "", nil, false
	}

	// Coverage: every unit of every source exactly once.
	cov := map[string]UnitCoverage{}
	for _, c := range d.Coverage {
		loc, r, ok := canonical(c.Unit)
		switch {
		case !ok:
			problem("coverage names %q, which is no unit", c.Unit)
			continue
		case !inScope[r]:
			problem("coverage names %s, which is not a unit of a source in %s", c.Unit, root.Dir())
			continue
		}
		if _, isUnit := units[loc]; !isUnit {
			problem("coverage names %q: name whole units (%s has %s)", c.Unit, r.ID, unitList(r))
			continue
		}
		if _, dup := cov[loc]; dup {
			problem("%s is accounted for more than once", loc)
			continue
		}
		switch c.State {
		case Retained, Unresolved:
		case Changed, Retired:
			if strings.TrimSpace(c.Reason) == "" {
				problem("%s is %s without a reason", loc, c.State)
			}
		default:
			problem("%s has coverage state %q; use retained, changed, retired or unresolved", loc, c.State)
		}
		c.Unit = loc
		cov[loc] = c
	}
	for _, r := range members {
		for _, u := range r.Units() {
			if _, ok := cov[u.ID]; !ok {
				problem("%s is not accounted for: retain, change, retire or mark it unresolved", u.ID)
			}
		}
	}

	// Statements: text, citations resolved to canonical locators; cited
	// records outside the scope become dependencies.
	depSet := map[*adr.Record]bool{}
	for _, r := range deps {
		if !inScope[r] {
			depSet[r] = true
		}
	}
	cited := map[*adr.Record]map[string]bool{}
	norm := d
	for _, sec := range []struct {
		name     string
		sts      *[]Statement
		mustCite bool
	}{
		{"constraint", &norm.Constraints, true}, {"rationale", &norm.Rationale, false}, {"risk", &norm.Risks, false},
		{"proposal", &norm.Proposals, true}, {"conflict", &norm.Conflicts, false},
	} {
		out := make([]Statement, len(*sec.sts))
		for i, st := range *sec.sts {
			if strings.TrimSpace(st.Text) == "" {
				problem("%s %d has no text", sec.name, i+1)
			}
			if sec.mustCite && len(st.Sources) == 0 {
				problem("%s %d (%q) cites no unit", sec.name, i+1, clip(st.Text, 40))
			}
			st.Sources = append([]string(nil), st.Sources...)
			for j, loc := range st.Sources {
				c, r, ok := canonical(loc)
				if !ok {
					problem("%s %d cites %q, which is no unit", sec.name, i+1, loc)
					continue
				}
				st.Sources[j] = c
				if !inScope[r] {
					depSet[r] = true
				}
				if cited[r] == nil {
					cited[r] = map[string]bool{}
				}
				cited[r][c] = true
			}
			out[i] = st
		}
		*sec.sts = out
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return nil, nil, &DraftError{Root: root.Dir(), Problems: problems}
	}

	m := &Manifest{
		Schema: Schema, Generator: generator, Root: root.Dir(), Plan: plan, Revision: revision,
		Selection: sel, Membership: MembershipHash(members),
		Sources: []Source{}, Dependencies: []Source{},
		Summary: Summary{Path: root.Join(CurrentFile)},
		Views:   views,
	}
	for _, r := range members {
		s := sourceOf(r)
		for _, u := range r.Units() {
			c := cov[u.ID]
			s.Units = append(s.Units, Unit{Locator: u.ID, Heading: u.Heading, Hash: u.Hash, Coverage: c.State,
				Location: oneLine(c.Location), Reason: oneLine(c.Reason)})
		}
		m.Sources = append(m.Sources, s)
	}
	var depList []*adr.Record
	for r := range depSet {
		depList = append(depList, r)
	}
	sortRecords(l, depList)
	for _, r := range depList {
		s := sourceOf(r)
		for _, u := range r.Units() {
			if cited[r][u.ID] || citesExcerptOf(cited[r], u.ID) {
				s.Units = append(s.Units, Unit{Locator: u.ID, Heading: u.Heading, Hash: u.Hash, Coverage: Cited})
			}
		}
		m.Dependencies = append(m.Dependencies, s)
	}
	current := Render(norm, m, root.Name)
	m.Summary.SHA256 = SummaryHash(current)
	return m, current, nil
}

func sourceOf(r *adr.Record) Source {
	return Source{ID: r.ID, Title: r.Title, Path: r.Path, Blob: BlobHash(r.Text().Src), Status: string(r.Status), Units: []Unit{}}
}

func citesExcerptOf(cited map[string]bool, unit string) bool {
	for c := range cited {
		if strings.HasPrefix(c, unit+".") {
			return true
		}
	}
	return false
}

// sameRecords reports the difference between the selection's members and
// the sources a caller passed.
func sameRecords(root *adr.Root, members, sources []*adr.Record) error {
	in := map[*adr.Record]bool{}
	for _, r := range sources {
		in[r] = true
	}
	var missing, extra []string
	for _, r := range members {
		if !in[r] {
			missing = append(missing, r.ID)
		}
		delete(in, r)
	}
	for _, r := range sources {
		if in[r] {
			extra = append(extra, r.ID+" ("+r.Path+")")
			delete(in, r)
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return nil
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "in scope but not a source: "+strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		parts = append(parts, "a source but not in scope: "+strings.Join(extra, ", "))
	}
	return fmt.Errorf("the sources do not match the selection in %s (%s); re-plan", root.Dir(), strings.Join(parts, "; "))
}

// sortRecords orders records by root order, then the root's own order.
func sortRecords(l *adr.Log, recs []*adr.Record) {
	pos := map[*adr.Record]int{}
	for i, r := range l.Records {
		pos[r] = i
	}
	sort.SliceStable(recs, func(i, j int) bool { return pos[recs[i]] < pos[recs[j]] })
}

func unitList(r *adr.Record) string {
	var ids []string
	for _, u := range r.Units() {
		ids = append(ids, u.ID)
	}
	return strings.Join(ids, ", ")
}

func clip(s string, n int) string {
	s = oneLine(s)
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n]) + "…"
}

// ForeignError means a root holds a CURRENT.md or CURRENT.sources.json
// that git-adr did not write; publication never overwrites it.
type ForeignError struct{ Path string }

func (e *ForeignError) Error() string {
	return fmt.Sprintf("%s was not written by git-adr", e.Path)
}

// Owned checks that root's CURRENT pair may be written: each file is
// absent or was written by git-adr (CURRENT.md starts with git-adr's
// generated-file comment; the manifest names a git-adr schema). Call it
// before writing a pair; a *ForeignError names the file to rename.
func Owned(l *adr.Log, root *adr.Root) error {
	if data, err := fs.ReadFile(l.FS, root.Join(CurrentFile)); err == nil && !Generated(data) {
		return &ForeignError{Path: root.Join(CurrentFile)}
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if data, err := fs.ReadFile(l.FS, root.Join(ManifestFile)); err == nil {
		var head struct {
			Schema string `json:"schema"`
		}
		if json.Unmarshal(data, &head) != nil || !strings.HasPrefix(head.Schema, "git-adr/current-sources/") {
			// A broken manifest of ours is still ours when CURRENT.md is.
			if cur, err := fs.ReadFile(l.FS, root.Join(CurrentFile)); err != nil || !Generated(cur) {
				return &ForeignError{Path: root.Join(ManifestFile)}
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Pair is one root's CURRENT pair, ready to be written.
type Pair struct {
	Root     *adr.Root
	Manifest *Manifest
	// Current is CURRENT.md; ManifestJSON is CURRENT.sources.json.
	Current, ManifestJSON []byte
}

// Paths returns the repository-relative paths of CURRENT.md and
// CURRENT.sources.json.
func (p Pair) Paths() (current, manifest string) {
	return p.Root.Join(CurrentFile), p.Root.Join(ManifestFile)
}

// BuildAll publishes a plan that spans several roots as one pair per
// participating root (spec §3: no hierarchy of domain views). A root
// participates when it holds at least one source. For each, the draft is
// narrowed with [DraftFor] to the statements that cite that root's
// sources and the coverage of its units; a statement citing sources of
// two roots appears in both views, and the other root's records it cites
// become dependencies. The selection is sel restricted to each root (for
// exact sources: the IDs of that root). The view of the first
// participating root in log order links to the others under "Module
// views".
func BuildAll(l *adr.Log, sel Selection, sources, deps []*adr.Record, d Draft, plan string, revision int, generator string) ([]Pair, error) {
	byRoot := map[*adr.Root][]*adr.Record{}
	for _, r := range sources {
		byRoot[r.Root] = append(byRoot[r.Root], r)
	}
	var roots []*adr.Root
	for _, root := range l.Roots {
		if len(byRoot[root]) > 0 {
			roots = append(roots, root)
		}
	}
	if len(roots) == 0 {
		return nil, fmt.Errorf("plan %s has no source in any root", plan)
	}
	var out []Pair
	var problems []string
	seen := map[string]bool{}
	for i, root := range roots {
		rsel := sel
		if sel.Mode == ModeSources {
			var ids []string
			for _, r := range byRoot[root] {
				ids = append(ids, r.ID)
			}
			rsel = NewSelection("", ids)
		}
		var views []string
		if i == 0 {
			for _, other := range roots[1:] {
				views = append(views, other.Join(CurrentFile))
			}
		}
		m, cur, err := build(l, root, rsel, byRoot[root], deps, DraftFor(l, root, d, i == 0), plan, revision, generator, views)
		var de *DraftError
		switch {
		case errors.As(err, &de):
			for _, p := range de.Problems {
				if !seen[p] {
					seen[p] = true
					problems = append(problems, p)
				}
			}
			continue
		case err != nil:
			return nil, err
		}
		out = append(out, Pair{Root: root, Manifest: m, Current: cur, ManifestJSON: m.Encode()})
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return nil, &DraftError{Root: "the plan's roots", Problems: problems}
	}
	return out, nil
}

// DraftFor narrows a multi-root draft to one root: the statements citing
// at least one unit of a record in root (all of their citations kept),
// the statements citing nothing when uncited is set (BuildAll gives them
// to the first participating root), and the coverage of root's units.
// Locators that name no record are kept, so that Build reports them.
func DraftFor(l *adr.Log, root *adr.Root, d Draft, uncited bool) Draft {
	inRoot := func(loc string) (known, in bool) {
		ref, _ := adr.SplitLocator(loc)
		for _, r := range root.Records {
			if strings.EqualFold(r.ID, ref) {
				return true, true
			}
		}
		r, err := l.Resolve(ref)
		if err != nil || r == nil {
			return false, false
		}
		return true, r.Root == root
	}
	keep := func(sts []Statement) []Statement {
		var out []Statement
		for _, st := range sts {
			if len(st.Sources) == 0 && uncited {
				out = append(out, st)
			}
			for _, s := range st.Sources {
				if known, in := inRoot(s); in || !known {
					out = append(out, st)
					break
				}
			}
		}
		return out
	}
	out := Draft{
		Constraints: keep(d.Constraints), Rationale: keep(d.Rationale), Risks: keep(d.Risks),
		Proposals: keep(d.Proposals), Conflicts: keep(d.Conflicts),
	}
	for _, c := range d.Coverage {
		if known, in := inRoot(c.Unit); in || !known {
			out.Coverage = append(out.Coverage, c)
		}
	}
	return out
}
