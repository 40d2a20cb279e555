// Package govern decides what a commit may do to a decision log: the
// rules git-adr's pre-commit hook, pre-receive hook and
// `git adr check --since` enforce. It compares two states of a repository
// (the committed base and the proposed change, as file systems) and looks
// only at the paths that changed and the records they name, so a hook on a
// one-record change costs little however long the log.
//
// # Rules
//
//   - [RuleAcceptedEdit]: an accepted record's substance (its title and
//     every section but the status, relation lines left out) changed in
//     place. A decision changes by a new record that supersedes it.
//   - [RuleLifecycle]: a status change the lifecycle forbids (a superseded
//     record accepted again, an accepted one rejected, ...).
//   - [RuleDeleted]: a record was deleted (or moved out of every ADR root).
//     Records are archived, never deleted: their IDs are forever.
//   - [RuleArchivedInForce]: a record still accepted was moved into
//     archive/ by hand.
//   - [RuleDuplicateNumber]: a new or renumbered record takes a number
//     another record of its root holds, here or on another branch.
//   - [RuleStaleView]: the change makes a CURRENT view stale.
//   - [RuleIndexDrift]: a generated INDEX.md no longer matches the records.
package govern

import (
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
)

// Rule names a governance rule, as printed and as configured.
type Rule string

// The rules.
const (
	RuleAcceptedEdit    Rule = "accepted-edit"
	RuleLifecycle       Rule = "lifecycle"
	RuleDeleted         Rule = "deleted-record"
	RuleDuplicateNumber Rule = "duplicate-number"
	RuleStaleView       Rule = "stale-view"
	RuleIndexDrift      Rule = "index-drift"
)

// Problem is one rule a change breaks.
type Problem struct {
	Rule Rule   `json:"rule"`
	Path string `json:"path"`
	// Line is 1-based; 0 when no line applies.
	Line    int    `json:"line"`
	Message string `json:"message"`
	// Fix is the next command or edit.
	Fix string `json:"fix"`
	// Block is false for problems reported only (a stale view under the
	// default policy).
	Block bool `json:"block"`
}

// IndexFix is a generated INDEX.md brought up to date with the change.
type IndexFix struct {
	Path    string
	Old     []byte // nil when the index is new
	Content []byte
}

// Policy tunes what blocks (the [hooks] table of .adr.toml).
type Policy struct {
	// StaleView is "warn" (default) or "block".
	StaleView string
	// Index is "fix" (default: the caller updates INDEX.md with the
	// change) or "check" (a drifted INDEX.md blocks).
	Index string
}

// Input is the change to judge.
type Input struct {
	// Base is the committed state (nil before the first commit), Next the
	// proposed one: the index for a pre-commit hook, a commit's tree for
	// a push or a CI range.
	Base, Next fs.FS
	// Changes are the paths that differ between them.
	Changes []gitops.DiffEntry
	// Branches are other branches' trees, for numbers taken elsewhere.
	Branches []adr.BranchTree
	Policy   Policy
	// Cache, when set, serves the records both states read from the
	// parse cache (the index and a tree name every blob).
	Cache *adr.Cache
}

// Report is the outcome of [Judge].
type Report struct {
	Problems []Problem `json:"problems"`
	// Fixes are INDEX.md updates the change needs (Policy.Index "fix").
	Fixes []IndexFix `json:"-"`
	// Checked counts the records judged.
	Checked int `json:"checked"`
}

// Blocked reports whether any problem blocks the change.
func (r *Report) Blocked() bool { return Blocking(r.Problems) > 0 }

// Blocking counts the problems of ps that block the change.
func Blocking(ps []Problem) int {
	n := 0
	for _, p := range ps {
		if p.Block {
			n++
		}
	}
	return n
}

// Judge applies every rule to the change.
func Judge(in Input) (*Report, error) { return judgeChange(in, !wholeLogs) }

func judgeChange(in Input, narrow bool) (*Report, error) {
	rep := &Report{Problems: []Problem{}}
	if len(in.Changes) == 0 {
		return rep, nil
	}
	// Both states are read by name, and only the changed records become
	// records (the rest count by their names, for numbers): a one-record
	// change costs the same in a log of ten or ten thousand. A root whose
	// generated index or CURRENT view the change may affect is read
	// whole, as those list every record.
	var only []string
	if narrow {
		only = changedPaths(in.Changes)
	}
	next, err := adr.Load(in.Next, adr.LoadOptions{Lazy: true, NoSample: true, Only: only, Cache: in.Cache})
	if err != nil {
		return nil, err
	}
	var indexed []*adr.Root // roots whose index only a changed row could change
	if only != nil {
		whole := false
		if whole, indexed = listsRecords(in.Next, next, in.Changes); whole {
			only, indexed = nil, nil
			if next, err = adr.Load(in.Next, adr.LoadOptions{Lazy: true, NoSample: true, Cache: in.Cache}); err != nil {
				return nil, err
			}
		}
	}
	j := &judge{in: in, next: next, rep: rep, touched: map[*adr.Root]bool{}, moves: map[string]string{}, unindexed: map[string]bool{}}
	if in.Base != nil {
		// The base is read with the roots the change has, so discovery
		// runs once (a root the change creates is simply empty there).
		opt := adr.LoadOptions{Lazy: true, NoSample: true, Only: only, AllowMissing: true, Cache: in.Cache}
		for _, r := range next.Roots {
			opt.Roots = append(opt.Roots, r.Path)
			opt.RootNames = append(opt.RootNames, r.Name)
		}
		if len(opt.Roots) == 0 {
			opt = adr.LoadOptions{Lazy: true, NoSample: true, Only: only, Cache: in.Cache}
		}
		cfg, err := adr.LoadConfig(in.Base)
		if err != nil {
			return nil, err
		}
		j.loadBase = func() (*adr.Log, error) { return adr.LoadWithConfig(in.Base, cfg, opt) }
		// A change that only edits records has the base's names: the
		// base is the next state's listing over the other contents.
		if only != nil && onlyEdits(in.Changes) {
			j.base, _ = next.Derive(in.Base, only)
		}
		// A change that only adds files needs the base only if a view
		// turns stale (views loads it then): none of its paths is there.
		if !onlyAdds(in.Changes) {
			if j.base, err = j.baseLog(); err != nil {
				return nil, err
			}
		}
	}
	// An index lists every record of its root; an edit that keeps what
	// the index shows of the edited records (title, status, date, links)
	// cannot change it, and the index is left alone. Any other edit reads
	// the two states whole.
	if len(indexed) > 0 {
		same, err := j.sameRows(indexed)
		if err != nil {
			return nil, err
		}
		if !same {
			return judgeChange(in, false)
		}
		for _, r := range indexed {
			j.unindexed[r.Path] = true
		}
	}
	for _, c := range j.noteMoves(j.followIDs(j.pairMoves(in.Changes))) {
		if err := j.change(c); err != nil {
			return nil, err
		}
	}
	j.duplicates()
	if err := j.views(); err != nil {
		return nil, err
	}
	if err := j.indexes(); err != nil {
		return nil, err
	}
	sort.SliceStable(rep.Problems, func(a, b int) bool {
		pa, pb := rep.Problems[a], rep.Problems[b]
		if pa.Path != pb.Path {
			return pa.Path < pb.Path
		}
		return pa.Line < pb.Line
	})
	return rep, nil
}

// wholeLogs makes Judge list every record of both states (tests compare
// the two ways).
var wholeLogs = false

type judge struct {
	in         Input
	next, base *adr.Log
	// loadBase reads the base (nil without one); base is what it read.
	loadBase func() (*adr.Log, error)
	rep      *Report
	// added are records new at their path (created, renamed, copied).
	added []*adr.Record
	// touched are the roots of the next state the change touches.
	touched map[*adr.Root]bool
	// moves are the files the change moves, old path to new.
	moves map[string]string
	// unindexed are the roots (by path) whose index the change cannot
	// alter, left unchecked.
	unindexed map[string]bool
}

func (j *judge) add(p Problem) { j.rep.Problems = append(j.rep.Problems, p) }

// baseLog is the base, read on first use (nil when there is none).
func (j *judge) baseLog() (*adr.Log, error) {
	if j.base != nil || j.loadBase == nil {
		return j.base, nil
	}
	b, err := j.loadBase()
	if err != nil {
		return nil, err
	}
	j.base = b
	return b, nil
}

// changedPaths are the paths a change touches, old and new.
func changedPaths(changes []gitops.DiffEntry) []string {
	out := make([]string, 0, len(changes))
	for _, c := range changes {
		out = append(out, c.Path)
		if c.OldPath != "" {
			out = append(out, c.OldPath)
		}
	}
	return out
}

// listsRecords reports whether a root the change touches has a file that
// lists all its records (a generated index, a CURRENT view and its
// manifest) in the proposed state: judging those needs every record
// (whole). indexed are the roots with an index whose change is only edits
// of records the load listed: their index needs every record only if an
// edit changes the rows of those records (see judge.sameRows).
func listsRecords(next fs.FS, l *adr.Log, changes []gitops.DiffEntry) (whole bool, indexed []*adr.Root) {
	for _, root := range l.Roots {
		if root.File {
			continue // a single-file log is read whole anyway
		}
		touched, edits := false, true
		for _, c := range changes {
			in := root.Holds(c.Path) || c.OldPath != "" && root.Holds(c.OldPath)
			touched = touched || in
			if in && (c.Status != 'M' || l.ByPath(c.Path) == nil) {
				edits = false // an added, removed or moved file, or no record
			}
		}
		if !touched {
			continue
		}
		for _, name := range []string{view.CurrentFile, view.ManifestFile} {
			if _, err := fs.Stat(next, root.Join(name)); err == nil {
				return true, nil
			}
		}
		if _, err := fs.Stat(next, root.Join(root.IndexName())); err == nil {
			if !edits {
				return true, nil
			}
			indexed = append(indexed, root)
		}
	}
	return false, indexed
}

// sameRows reports whether every edited record of the roots keeps what an
// index shows of it.
func (j *judge) sameRows(roots []*adr.Root) (bool, error) {
	if j.base == nil {
		return false, nil
	}
	for _, c := range j.in.Changes {
		in := false
		for _, r := range roots {
			in = in || r.Holds(c.Path)
		}
		if !in {
			continue
		}
		now, was := j.next.ByPath(c.Path), j.base.ByPath(c.Path)
		if now == nil || was == nil {
			return false, nil
		}
		if err := j.next.Ensure(now); err != nil {
			return false, err
		}
		if err := j.base.Ensure(was); err != nil {
			return false, err
		}
		if now.Title != was.Title || now.Status != was.Status || now.Date != was.Date || len(now.Relations) != len(was.Relations) {
			return false, nil
		}
		for i := range now.Relations {
			a, b := now.Relations[i], was.Relations[i]
			if a.Type != b.Type || a.Label != b.Label || a.Target != b.Target || a.TargetID != b.TargetID {
				return false, nil
			}
		}
	}
	return true, nil
}

// onlyEdits reports whether every change edits a file in place.
func onlyEdits(changes []gitops.DiffEntry) bool {
	for _, c := range changes {
		if c.Status != 'M' {
			return false
		}
	}
	return true
}

// onlyAdds reports whether every change creates its path (added or
// copied): then no path of the change is in the base.
func onlyAdds(changes []gitops.DiffEntry) bool {
	for _, c := range changes {
		if c.Status != 'A' && c.Status != 'C' {
			return false
		}
	}
	return true
}

// rootOf is the next state's root holding p (a record or not).
func (j *judge) rootOf(p string) *adr.Root {
	for _, r := range j.next.Roots {
		if r.Holds(p) {
			return r
		}
	}
	return nil
}

// pairMoves turns a deleted record and an added one with the same file
// name and ID, one of them archived, into the rename it is: archival (and
// restore) moves a record and rewrites its links, and across a range of
// commits a small record may change too much for git's rename detection
// to pair the two sides.
func (j *judge) pairMoves(changes []gitops.DiffEntry) []gitops.DiffEntry {
	if j.base == nil {
		return changes
	}
	deleted := map[string]int{} // file name -> index of its D entry
	for i, c := range changes {
		if c.Status == 'D' && j.base.ByPath(c.Path) != nil {
			deleted[path.Base(c.Path)] = i
		}
	}
	if len(deleted) == 0 {
		return changes
	}
	drop := map[int]bool{}
	out := make([]gitops.DiffEntry, 0, len(changes))
	for _, c := range changes {
		i, ok := deleted[path.Base(c.Path)]
		if c.Status != 'A' || !ok || drop[i] {
			out = append(out, c)
			continue
		}
		was, now := j.base.ByPath(changes[i].Path), j.next.ByPath(c.Path)
		if now == nil || was.ID != now.ID || was.Archived == now.Archived {
			out = append(out, c)
			continue
		}
		drop[i] = true
		out = append(out, gitops.DiffEntry{Status: 'R', OldPath: changes[i].Path, Path: c.Path})
	}
	kept := out[:0]
	for _, c := range out {
		if i, ok := deleted[path.Base(c.Path)]; ok && c.Status == 'D' && drop[i] && changes[i].Path == c.Path {
			continue
		}
		kept = append(kept, c)
	}
	return kept
}

// noteMoves records the renames of changes.
func (j *judge) noteMoves(changes []gitops.DiffEntry) []gitops.DiffEntry {
	for _, c := range changes {
		if c.Status == 'R' {
			j.moves[c.OldPath] = c.Path
		}
	}
	return changes
}

func (j *judge) change(c gitops.DiffEntry) error {
	if root := j.rootOf(c.Path); root != nil {
		j.touched[root] = true
	}
	if j.logFile(c.Path) || c.Status == 'R' && j.logFile(c.OldPath) {
		j.logChange(c)
		return nil
	}
	var was *adr.Record
	if j.base != nil {
		from := c.Path
		if c.Status == 'R' {
			from = c.OldPath
		}
		if c.Status != 'A' && c.Status != 'C' {
			was = j.base.ByPath(from)
		}
	}
	now := j.next.ByPath(c.Path)
	if c.Status == 'D' {
		now = nil
	}
	switch {
	case was != nil && now == nil:
		j.deleted(was, c)
		return nil
	case now == nil:
		return nil
	}
	if err := j.next.Ensure(now); err != nil {
		return err
	}
	j.rep.Checked++
	if was == nil || c.Status == 'R' && !sameNumber(was, now) {
		j.added = append(j.added, now)
	}
	if was == nil {
		return nil
	}
	if err := j.base.Ensure(was); err != nil {
		return err
	}
	j.archivedInForce(was, now)
	j.edited(was, now)
	return nil
}

func sameNumber(a, b *adr.Record) bool {
	return a.Numbered == b.Numbered && a.Number == b.Number
}

func (j *judge) deleted(was *adr.Record, c gitops.DiffEntry) {
	fix := fmt.Sprintf("records are archived, never deleted (their IDs are forever): restore it with `git restore --staged --worktree -- %s`, then `git adr archive %s`", adr.ShellWord(was.Path), was.ID)
	msg := fmt.Sprintf("%s (%s) is deleted", was.ID, was.Title)
	if c.Status == 'R' {
		msg = fmt.Sprintf("%s (%s) is moved out of the ADR folders to %s", was.ID, was.Title, c.Path)
	}
	j.add(Problem{Rule: RuleDeleted, Path: was.Path, Message: msg, Fix: fix, Block: true})
}

// edited judges a record changed in place (or renamed with changes).
func (j *judge) edited(was, now *adr.Record) {
	if was.Status != now.Status {
		succ := false
		for _, rel := range now.Relations {
			if rel.Type == adr.SupersededBy {
				succ = true
			}
		}
		if te := adr.CheckTransition(was, was.Status, now.Status, succ); te != nil {
			j.add(Problem{Rule: RuleLifecycle, Path: now.Path, Line: now.StatusField.Line + 1,
				Message: te.Msg, Fix: te.Hint + "; restore the status with `git restore --staged --worktree -- " + adr.ShellWord(now.Path) + "`", Block: true})
		}
	}
	if was.Status != adr.Accepted {
		return
	}
	changed, line := substanceChanges(was, now, j.moves)
	if len(changed) == 0 {
		return
	}
	j.add(Problem{Rule: RuleAcceptedEdit, Path: now.Path, Line: line,
		Message: fmt.Sprintf("%s is accepted, and the change edits what it decided (%s)", was.ID, strings.Join(changed, ", ")),
		Fix: fmt.Sprintf("an accepted decision changes by a new record: `git adr new TITLE --supersedes %s` (or a consolidation: `git adr compaction --mode consolidate`); to keep the record as it was: `git restore --staged --worktree -- %s`",
			was.ID, adr.ShellWord(now.Path)),
		Block: true})
}

// substance is what a record decides: its title and the text of every
// unit but its status, without relation and status lines and with blank
// lines and trailing spaces ignored, keyed by unit anchor. Each line keeps
// its 1-based line number.
//
// A relative link destination counts by the file it reaches, so that a
// move that only rewrites where links point (archival, restore) is no
// edit: moves maps the old paths of files the change moves to their new
// ones (applied to the record as it was).
func substance(r *adr.Record, moves map[string]string) map[string][]numbered {
	dests := map[int][]adr.Link{}
	for _, l := range r.Text().Links() {
		dests[l.Line] = append(dests[l.Line], l)
	}
	skip := map[int]bool{}
	for _, rel := range r.Relations {
		skip[rel.Line-1] = true
	}
	if r.StatusField.Kind != adr.FieldNone {
		skip[r.StatusField.Line] = true
	}
	out := map[string][]numbered{"title": {{strings.TrimSpace(r.Title), 1}}}
	for _, u := range r.Units() {
		if u.Anchor == "status" {
			continue
		}
		var lines []numbered
		for i := u.Start - 1; i < u.End && i < len(r.Text().Lines); i++ {
			if skip[i] {
				continue
			}
			if line := strings.TrimRight(linkTargets(r, i, dests[i], moves), " \t\r"); line != "" {
				lines = append(lines, numbered{line, i + 1})
			}
		}
		out[u.Anchor] = lines
	}
	return out
}

// linkTargets is line i of r with each relative link destination replaced
// by the repository path it reaches (through moves), fragment kept.
func linkTargets(r *adr.Record, i int, links []adr.Link, moves map[string]string) string {
	line := r.Text().LineText(i)
	if len(links) == 0 {
		return line
	}
	start := r.Text().Lines[i].Start
	var b strings.Builder
	at := 0
	for _, l := range links {
		d, frag, _ := strings.Cut(l.Dest, "#")
		if d == "" || strings.Contains(d, ":") || strings.HasPrefix(d, "/") {
			continue
		}
		if u, err := url.PathUnescape(d); err == nil {
			d = u
		}
		target := path.Join(path.Dir(r.Path), d)
		if to, ok := moves[target]; ok {
			target = to
		}
		b.WriteString(line[at : l.Start-start])
		b.WriteString("<" + target + "#" + frag + ">")
		at = l.End - start
	}
	b.WriteString(line[at:])
	return b.String()
}

type numbered struct {
	text string
	line int
}

// firstDifference is the line (in b) where two units' texts part, or 0
// when they are the same; when b is a prefix of a, b's last line.
func firstDifference(a, b []numbered) int {
	for i := range b {
		if i >= len(a) || a[i].text != b[i].text {
			return b[i].line
		}
	}
	switch {
	case len(a) == len(b):
		return 0
	case len(b) > 0:
		return b[len(b)-1].line
	}
	return -1 // emptied
}

// substanceChanges names the parts of an accepted record a change edited,
// and the first line concerned in the new version.
func substanceChanges(was, now *adr.Record, moves map[string]string) ([]string, int) {
	a, b := substance(was, moves), substance(now, nil)
	var changed []string
	line := 0
	note := func(k string, l int) {
		changed = append(changed, k)
		if l > 0 && (line == 0 || l < line) {
			line = l
		}
	}
	for k, old := range a {
		if l := firstDifference(old, b[k]); l != 0 {
			if l < 0 {
				if u, ok := now.Unit(k); ok {
					l = u.Start
				} else {
					l = 0
				}
			}
			note(k, l)
		}
	}
	for k, lines := range b {
		if _, ok := a[k]; !ok {
			l := 0
			if len(lines) > 0 {
				l = lines[0].line
			}
			note(k, l)
		}
	}
	sort.Strings(changed)
	for i, k := range changed {
		if k == "title" {
			changed[i] = "the title"
		} else {
			changed[i] = now.ID + "#" + k
		}
	}
	return changed, line
}

// duplicates: a record new at its path must not take a number its root
// holds (archived records included) or another branch holds for a
// different file.
func (j *judge) duplicates() {
	if len(j.added) == 0 {
		return
	}
	branch := adr.ScanBranches(j.in.Branches, j.next.Roots)
	for _, r := range j.added {
		if !r.Numbered || r.Root == nil {
			continue
		}
		var others []string
		for _, p := range r.Root.Holders(r.Number) {
			if p != r.Path {
				others = append(others, p)
			}
		}
		for _, b := range branch {
			if b.Root == r.Root && b.Number == r.Number && b.Path != r.Path && !contains(others, b.Path) {
				others = append(others, b.Path+" on "+strings.TrimPrefix(strings.TrimPrefix(b.Ref, "refs/heads/"), "refs/remotes/"))
			}
		}
		if len(others) == 0 {
			continue
		}
		j.add(Problem{Rule: RuleDuplicateNumber, Path: r.Path, Line: 1,
			Message: fmt.Sprintf("%s takes number %d, which %s already holds", r.ID, r.Number, strings.Join(others, ", ")),
			Fix:     fmt.Sprintf("give it the next free number: `git adr renumber %s`, then `git add -A %s`", adr.ShellWord(r.Path), adr.ShellWord(r.Root.Dir())),
			Block:   true})
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// views reports CURRENT views of touched roots that the change makes
// stale (they were fresh before it).
func (j *judge) views() error {
	for _, root := range j.next.Roots {
		if !j.touched[root] {
			continue
		}
		f := view.Check(j.next, root)
		if f.State != view.Stale {
			continue
		}
		base, err := j.baseLog()
		if err != nil {
			return err
		}
		if base != nil {
			if br := baseRoot(base, root); br != nil && view.Check(base, br).State != view.Fresh {
				continue // already stale before: not this change's doing
			}
		}
		p := Problem{Rule: RuleStaleView, Path: f.ManifestPath, Message: "the change makes the CURRENT view stale: " + f.Summary(),
			Fix: f.Fix(), Block: j.in.Policy.StaleView == "block"}
		if len(f.Reasons) > 0 {
			p.Line = f.Reasons[0].Line
		}
		j.add(p)
	}
	return nil
}

func baseRoot(l *adr.Log, r *adr.Root) *adr.Root {
	for _, b := range l.Roots {
		if b.Path == r.Path {
			return b
		}
	}
	return nil
}

// indexes finds generated INDEX.md files of touched roots that no longer
// match the records: a fix under the default policy, a block under
// "check".
func (j *judge) indexes() error {
	var roots []*adr.Root
	for _, root := range j.next.Roots {
		if j.touched[root] && !j.unindexed[root.Path] {
			if _, err := fs.Stat(j.in.Next, root.Join(root.IndexName())); err == nil {
				roots = append(roots, root)
			}
		}
	}
	if len(roots) == 0 {
		return nil
	}
	// An index lists every record of its root: these must be parsed.
	for _, root := range roots {
		for _, r := range root.Records {
			if err := j.next.Ensure(r); err != nil {
				return err
			}
		}
	}
	ixs, err := j.next.Indexes()
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, r := range roots {
		want[r.Path] = true
	}
	for _, ix := range ixs {
		if !want[ix.Root.Path] || ix.State != adr.IndexStale {
			continue
		}
		if j.in.Policy.Index == "check" {
			j.add(Problem{Rule: RuleIndexDrift, Path: ix.Path, Message: ix.Path + " no longer lists the records as they are",
				Fix: "run `git adr index`, then `git add " + adr.ShellWord(ix.Path) + "`", Block: true})
			continue
		}
		j.rep.Fixes = append(j.rep.Fixes, IndexFix{Path: ix.Path, Old: ix.Current, Content: ix.Content})
	}
	return nil
}
