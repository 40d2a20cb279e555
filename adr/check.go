package adr

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/internal/lazyre"
)

// CheckOptions tunes [Log.Check]. The zero value checks the work tree alone.
type CheckOptions struct {
	// Branches are the numbered record files of other local and
	// remote-tracking branches (see [ScanBranches]).
	Branches []BranchRecord
	// MergeBase returns the tree of the merge base of HEAD and a branch
	// ref, or nil when there is none. A file already in the merge base was
	// renamed or deleted on one side, not added twice, so it is not a
	// duplicate. Optional.
	MergeBase func(ref string) fs.FS
	// OnDefaultBranch reports that the current branch is the default
	// branch; IsDefaultRef whether a branch ref (local or remote-tracking)
	// is. Together they decide which side of a duplicate must renumber:
	// always the side not yet merged into the default branch.
	OnDefaultBranch bool
	IsDefaultRef    func(ref string) bool
	// Ignore leaves kinds out, in addition to .adr.toml `[check] ignore`.
	Ignore []FindingKind
	// Extra are findings made elsewhere (the view package's for
	// --compaction), reported, ignored and counted like the log's own;
	// ExtraKinds are their kinds, counted even when zero.
	Extra      []Finding
	ExtraKinds []FindingKind
	// AllKinds reports every kind whatever .adr.toml `[check] ignore`
	// says: compaction must see every issue, even ones a team silences
	// in its hooks.
	AllKinds bool
}

// CheckReport is the result of [Log.Check].
type CheckReport struct {
	// Findings are sorted by path, line, kind and message.
	Findings []Finding
	// Counts has every kind, zero included.
	Counts map[FindingKind]int
	// Ignored counts findings left out by configuration or options.
	Ignored int
	// Notes say what check read in a way worth knowing but is no finding
	// (a log that records no statuses), once each.
	Notes []string
}

// Check finds the problems of the whole log. It reads only the log, its
// file system (for Markdown link targets) and opt; its cost grows linearly
// with the number of records and relations.
func (l *Log) Check(opt CheckOptions) *CheckReport {
	if l.byPath == nil {
		l.index()
	}
	c := &checker{l: l, opt: opt, dirs: map[string]*dirListing{}, mergeBases: map[string]fs.FS{}}
	c.resolve()
	for _, root := range l.Roots {
		if root.Refused != nil {
			c.add(Finding{Kind: KindRefusedRoot, Path: root.Dir(), Message: root.Refused.Error(),
				Fix: fmt.Sprintf("replace %s with the directory itself, inside the repository (or name another root in %s)", root.Dir(), ConfigFile)})
		}
	}
	c.duplicates()
	c.branchDuplicates()
	for _, r := range l.Records {
		c.record(r)
		c.links(r)
		c.prose(r)
		// Each text is needed once here: a long log's texts are not
		// all held at once.
		r.releaseText()
	}
	for _, root := range l.Roots {
		c.skipped(root)
		c.statusesOptional(root)
	}
	c.oneWay()
	c.cycles()

	ignore := map[FindingKind]bool{}
	for _, k := range opt.Ignore {
		ignore[k] = true
	}
	if l.Config != nil && !opt.AllKinds {
		for _, s := range l.Config.Check.Ignore {
			ignore[FindingKind(s)] = true
		}
	}
	rep := &CheckReport{Findings: []Finding{}, Counts: map[FindingKind]int{}, Notes: c.notes}
	for _, k := range append(append([]FindingKind(nil), FindingKinds...), opt.ExtraKinds...) {
		rep.Counts[k] = 0
	}
	for _, f := range append(c.out, opt.Extra...) {
		if ignore[f.Kind] {
			rep.Ignored++
			continue
		}
		if f.IDs == nil {
			f.IDs = []string{}
		}
		rep.Findings = append(rep.Findings, f)
		rep.Counts[f.Kind]++
	}
	SortFindings(rep.Findings)
	return rep
}

type checker struct {
	l   *Log
	opt CheckOptions
	out []Finding
	// targets[r][i] is the record r.Relations[i] resolves to (nil: none).
	targets map[*Record][]*Record
	// linked holds every resolved pair, for reverse lookups: the known
	// types of its relations, and whether it has any.
	linked map[[2]*Record]relTypes
	// supersededBy[r] are the records whose "Supersedes" names r.
	supersededBy map[*Record][]*Record
	// dirs caches directory listings by directory.
	dirs       map[string]*dirListing
	mergeBases map[string]fs.FS
	notes      []string
	// reported is the links one record's findings name (see links).
	reported map[lineTarget]bool
}

type relKey struct {
	from, to *Record
	typ      RelationType
}

// relTypes is a set of the known relation types one record has to
// another, with relAny for any relation at all (a custom label's too):
// one byte per linked pair, where a map keyed by pair and type held the
// type's string in every key.
type relTypes uint8

const relAny relTypes = 1 << 7

// relBit is t's member of a [relTypes] (0 for a custom label's type).
func relBit(t RelationType) relTypes {
	switch t {
	case Supersedes:
		return 1 << 0
	case SupersededBy:
		return 1 << 1
	case Amends:
		return 1 << 2
	case AmendedBy:
		return 1 << 3
	case Refines:
		return 1 << 4
	case RefinedBy:
		return 1 << 5
	case RelatesTo:
		return 1 << 6
	}
	return 0
}

func (c *checker) add(f Finding) { c.out = append(c.out, f) }

// resolve maps every relation to its target record once.
func (c *checker) resolve() {
	related := 0
	for _, r := range c.l.Records {
		if len(r.Relations) > 0 {
			related++
		}
	}
	c.targets = make(map[*Record][]*Record, related)
	c.linked = map[[2]*Record]relTypes{}
	c.supersededBy = map[*Record][]*Record{}
	for _, r := range c.l.Records {
		if len(r.Relations) == 0 {
			continue
		}
		ts := make([]*Record, len(r.Relations))
		for i, rel := range r.Relations {
			if rel.TargetID == "" {
				continue
			}
			t := c.l.Target(r, rel.Target)
			ts[i] = t
			if t == nil {
				continue
			}
			c.linked[[2]*Record{r, t}] |= relAny | relBit(rel.Type)
			if rel.Type == Supersedes && t != r {
				c.supersededBy[t] = append(c.supersededBy[t], r)
			}
		}
		c.targets[r] = ts
	}
}

// ref names a record in a command: its ID, or its path when the ID is
// ambiguous.
func (c *checker) ref(r *Record) string {
	if len(c.l.byID[strings.ToLower(r.ID)]) == 1 {
		return r.ID
	}
	return r.Path
}

// duplicates reports numbers used twice in one root. The record to keep is
// an archived one (IDs of archived records are never reused), otherwise the
// first by path; every other one gets the renumber command.
func (c *checker) duplicates() {
	for _, all := range c.l.byNumber {
		if len(all) < 2 {
			continue
		}
		// The log groups numbers across roots: 0004a is not 0004, nor is
		// another root's 0004.
		for len(all) > 0 {
			var group, rest []*Record
			for _, r := range all {
				if r.Root == all[0].Root && r.Suffix == all[0].Suffix {
					group = append(group, r)
				} else {
					rest = append(rest, r)
				}
			}
			c.duplicatesOf(group)
			all = rest
		}
	}
}

// duplicatesOf reports the records of group, which share a root, a
// number and a suffix, but the one to keep. It sorts group, its own.
func (c *checker) duplicatesOf(group []*Record) {
	if len(group) < 2 {
		return
	}
	sort.SliceStable(group, func(i, j int) bool {
		if group[i].Archived != group[j].Archived {
			return group[i].Archived
		}
		return group[i].Path < group[j].Path
	})
	keep := group[0]
	for _, r := range group[1:] {
		f := Finding{
			Kind: KindDuplicateID, Path: r.Path, Line: titleLine(r), IDs: []string{r.ID},
			Message: fmt.Sprintf("%s is also used by %s%s", r.ID, keep.Locus(), archivedNote(keep)),
			Fix:     "git adr renumber " + r.Path,
		}
		if r.InLogFile() {
			f.Fix = fmt.Sprintf("give the section on line %d a free number by hand (git-adr does not rewrite single-file logs)", titleLine(r))
		}
		c.add(f)
	}
}

// sameNumber are the numbered records of root numbered n with suffix.
func (c *checker) sameNumber(root *Root, n int, suffix string) []*Record {
	var out []*Record
	for _, r := range c.l.byNumber[n] {
		if r.Root == root && r.Suffix == suffix {
			out = append(out, r)
		}
	}
	return out
}

func archivedNote(r *Record) string {
	if r.Archived {
		return " (archived; archived IDs are never reused)"
	}
	return ""
}

// ignored reports a kind .adr.toml or the options leave out.
func (c *checker) ignored(k FindingKind) bool {
	for _, x := range c.opt.Ignore {
		if x == k {
			return true
		}
	}
	if c.l.Config != nil && !c.opt.AllKinds {
		for _, x := range c.l.Config.Check.Ignore {
			if FindingKind(x) == k {
				return true
			}
		}
	}
	return false
}

// requireStatus reports whether .adr.toml asks for a status on every
// record (true), for none (false), or leaves it to the log (unset).
func (c *checker) requireStatus() (require, set bool) {
	if c.l.Config == nil || c.l.Config.Check.RequireStatus == nil {
		return false, false
	}
	return *c.l.Config.Check.RequireStatus, true
}

// statusesOptional says once per root that its records record no status,
// unless .adr.toml has settled it.
func (c *checker) statusesOptional(root *Root) {
	none, total, ok := root.StatusesOptional()
	if _, set := c.requireStatus(); !ok || set || c.ignored(KindUnknownStatus) {
		return
	}
	c.notes = append(c.notes, fmt.Sprintf("%s: %d of %d records state no status (MADR makes it optional); check reads them as \"status not recorded\" and reports none of them. Silence this note with `require_status = false` under [check] in %s, or report each one with `require_status = true`",
		root.Dir(), none, total, ConfigFile))
}

// skipped reports the entries of a root that discovery had to leave out
// because of what they are: a FIFO, a socket or a device named like a
// record, a name that is not UTF-8.
func (c *checker) skipped(root *Root) {
	for _, s := range root.Skipped {
		if !s.Problem {
			continue
		}
		fix := fmt.Sprintf("replace %s with a regular file, or move it out of %s", s.Path, root.Dir())
		if strings.Contains(s.Reason, "UTF-8") {
			fix = fmt.Sprintf("rename it with a UTF-8 name (`ls -b %s` shows its bytes; `git mv` keeps its history)", ShellWord(root.Dir()))
		}
		c.add(Finding{Kind: KindUnparseable, Path: s.Path, Message: "skipped: " + s.Reason, Fix: fix})
	}
}

// linkCommand is the `git adr link` command that writes both sides of a
// known relation.
func linkCommand(from string, t RelationType, to string) string {
	return fmt.Sprintf("git adr link %s %s %s %s", ShellWord(from), ShellWord(t.Label()), ShellWord(to), ShellWord(t.Reverse().Label()))
}

// activeLinkCommand writes the link command in the active direction: "B
// Superseded by A" becomes `git adr link A Supersedes B "Superseded by"`.
func activeLinkCommand(from string, t RelationType, to string) string {
	switch t {
	case SupersededBy, AmendedBy, RefinedBy:
		return linkCommand(to, t.Reverse(), from)
	}
	return linkCommand(from, t, to)
}

// oneWay reports relations whose target has no relation back: the reverse
// type for known relations, any relation for custom labels.
func (c *checker) oneWay() {
	// One record's relations at a time: a relation written twice is
	// reported once.
	seen := map[relKey]bool{}
	for _, r := range c.l.Records {
		clear(seen)
		for i, t := range c.targets[r] {
			if t == nil || t == r {
				continue
			}
			rel := r.Relations[i]
			k := relKey{r, t, rel.Type}
			if seen[k] {
				continue
			}
			seen[k] = true
			if rel.Type.Known() {
				rev := rel.Type.Reverse()
				if c.linked[[2]*Record{t, r}]&relBit(rev) != 0 || rel.Type != Supersedes && rel.Type != SupersededBy && c.phraseBack(t, r) {
					continue
				}
				if rel.Type == Supersedes && r.Status == Proposed && t.Status != Superseded {
					// A proposal's supersession is written back when it is
					// accepted; until then the record it names stays in
					// force, as it should.
					continue
				}
				fix := activeLinkCommand(c.ref(r), rel.Type, c.ref(t))
				if r.InLogFile() || t.InLogFile() {
					fix = sectionLinkFix(t, rev, r)
				}
				c.add(Finding{
					Kind: KindOneWayLink, Path: r.Path, Line: rel.Line, IDs: []string{r.ID, t.ID},
					Message: fmt.Sprintf("%s %s %s but %s (%s) has no %q link back", r.ID, strings.ToLower(rel.Type.Label()), t.ID, t.ID, t.Locus(), rev.Label()),
					Fix:     fix,
				})
				continue
			}
			if c.linked[[2]*Record{t, r}]&relAny != 0 {
				continue
			}
			c.add(Finding{
				Kind: KindOneWayLink, Path: r.Path, Line: rel.Line, IDs: []string{r.ID, t.ID},
				Message: fmt.Sprintf("%s %q %s but %s (%s) has no link back", r.ID, rel.Label, t.ID, t.ID, t.Path),
				Fix: fmt.Sprintf("add a line \"%s [%s](%s)\" to %s",
					ReverseLabel(rel.Label), recordLinkText(r), LinkDest(t.Link(r)), t.Path),
			})
		}
	}
}

// phraseBack reports a link from t back to r under a label of the log's
// own, one git-adr knows no meaning of: adr-tools lets a team name both
// sides of a link (`adr new -l "2:Relates to:Related by"`), and the
// phrase it chose for the reverse is the reverse. Not for supersession,
// which decides what is in force: its reverse is "Superseded by" in any
// of the spellings git-adr reads.
func (c *checker) phraseBack(t, r *Record) bool {
	for i, back := range c.targets[t] {
		if back == r && !t.Relations[i].Type.Known() {
			return true
		}
	}
	return false
}

// sectionLinkFix is the fix for a missing link when a record is a section
// of a single-file log: `git adr link` does not write those, so the line
// to add by hand.
func sectionLinkFix(r *Record, t RelationType, to *Record) string {
	where := r.Path
	if r.InLogFile() {
		where = fmt.Sprintf("the section of %s on line %d of %s", r.ID, titleLine(r), r.Path)
	}
	return fmt.Sprintf("add \"%s %s\" to %s by hand (git-adr does not rewrite single-file logs)", t.Label(), to.ID, where)
}

// recordLinkText is how adr-tools writes a link to a record: "N. Title".
func recordLinkText(r *Record) string {
	if r.Numbered {
		return fmt.Sprintf("%d. %s", r.Number, r.Title)
	}
	return r.Title
}

// ReverseLabel guesses the reverse of a custom one-word label the way
// adr-tools users write pairs ("Clarifies" / "Clarified by"); anything else
// gets a neutral "Linked from".
func ReverseLabel(label string) string {
	w := strings.TrimSpace(label)
	if strings.ContainsAny(w, " \t") || len(w) < 4 {
		return "Linked from"
	}
	switch {
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "ied by"
	case strings.HasSuffix(w, "es") && !strings.HasSuffix(w, "ses"):
		return w[:len(w)-1] + "d by"
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1] + "ed by"
	}
	return "Linked from"
}

// titleLine returns the 1-based line of the record's title, 0 when it has
// none.
func titleLine(r *Record) int {
	if r.Text() == nil || r.RawTitle == "" {
		return 0
	}
	for _, h := range r.Text().Headings() {
		if h.Text == r.RawTitle {
			return h.Line + 1
		}
	}
	for i, ln := range r.Text().Lines {
		if ln.Kind != LineFrontMatter {
			break
		}
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(r.Text().LineText(i))), "title:") {
			return i + 1
		}
	}
	return 0
}

var (
	digitRun = lazyre.New(`\d+`)
	yamlLine = lazyre.New(`yaml: line (\d+):`)
)
