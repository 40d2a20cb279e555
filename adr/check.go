package adr

import (
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/git-adr/git-adr/internal/lazyre"
)

// FindingKind names a kind of problem [Log.Check] reports.
type FindingKind string

// The kinds of findings, as printed and as named in .adr.toml
// `[check] ignore`.
const (
	// KindDuplicateID: two records of one root share a number.
	KindDuplicateID FindingKind = "duplicate-id"
	// KindDuplicateIDBranch: another branch uses one of our numbers for a
	// different file in the same root; merging would duplicate it.
	KindDuplicateIDBranch FindingKind = "duplicate-id-branch"
	// KindBrokenReference: a relation or a Markdown link names nothing.
	KindBrokenReference FindingKind = "broken-reference"
	// KindCycle: records supersede each other in a circle.
	KindCycle FindingKind = "cycle"
	// KindOneWayLink: a relation whose target does not link back.
	KindOneWayLink FindingKind = "one-way-link"
	// KindStatusMismatch: the status contradicts the relations.
	KindStatusMismatch FindingKind = "status-mismatch"
	// KindStatusConflict: the record states two different statuses (front
	// matter "active", a Status section "Rejected").
	KindStatusConflict FindingKind = "status-conflict"
	// KindUnknownStatus: the status is missing or not one git-adr knows.
	KindUnknownStatus FindingKind = "unknown-status"
	// KindIDMismatch: the number in the title is not the file's number.
	KindIDMismatch FindingKind = "id-mismatch"
	// KindUnparseable: the record could not be read fully.
	KindUnparseable FindingKind = "unparseable"
	// KindPendingChange: a write was interrupted and its journal is not
	// finished; the log may be half changed. Always listed first, and
	// never left out by configuration.
	KindPendingChange FindingKind = "pending-change"
	// KindTempFile: a temporary file an interrupted run left in an ADR
	// folder.
	KindTempFile FindingKind = "temp-file"
	// KindRefusedRoot: an ADR root was not read, being a symbolic link
	// that leads outside the repository (see Root.Refused).
	KindRefusedRoot FindingKind = "refused-root"
	// KindReservedNumber: a record holds a number a consolidation plan
	// reserved for one of its replacements (refs/adr/reservations/);
	// found by the compaction package, which reads the plans.
	KindReservedNumber FindingKind = "reserved-number"
)

// Kinds reported by `git adr check --compaction` only (see the view
// package, which finds them).
const (
	// KindViewStale: a CURRENT view no longer describes the log.
	KindViewStale FindingKind = "view-stale"
	// KindViewCorrupt: a CURRENT pair is broken: the manifest is not one,
	// a file of the pair is missing, or CURRENT.md was edited by hand.
	KindViewCorrupt FindingKind = "view-corrupt"
	// KindViewUnsupported: a manifest of a schema this git-adr cannot read.
	KindViewUnsupported FindingKind = "view-unsupported"
	// KindIndexStale: a generated INDEX.md differs from what the records
	// give.
	KindIndexStale FindingKind = "index-stale"
)

// FindingKinds lists every kind `git adr check` reports by default, in
// the order the documentation gives them.
var FindingKinds = []FindingKind{
	KindDuplicateID, KindDuplicateIDBranch, KindReservedNumber, KindBrokenReference, KindCycle, KindOneWayLink,
	KindStatusMismatch, KindStatusConflict, KindUnknownStatus, KindIDMismatch, KindUnparseable, KindTempFile, KindRefusedRoot,
	KindLikelySupersession,
}

// CompactionKinds lists the kinds `git adr check --compaction` adds.
var CompactionKinds = []FindingKind{KindViewStale, KindViewCorrupt, KindViewUnsupported, KindIndexStale}

// ParseFindingKind returns the kind named exactly by s.
func ParseFindingKind(s string) (FindingKind, bool) {
	for _, k := range append(append(append([]FindingKind(nil), FindingKinds...), CompactionKinds...), ScopeKinds...) {
		if s == string(k) {
			return k, true
		}
	}
	return "", false
}

// Finding is one problem in the log, with the exact command or edit that
// resolves it.
type Finding struct {
	Kind FindingKind `json:"kind"`
	// Path is the repository-relative file the finding is about.
	Path string `json:"path"`
	// Line is 1-based; 0 only when no line applies (the problem is the file
	// name or something missing).
	Line    int      `json:"line"`
	IDs     []string `json:"ids"`
	Message string   `json:"message"`
	Fix     string   `json:"fix"`
	// Warning marks a staleness signal: reported, but it makes check exit
	// 1 only with [check] warnings = "error".
	Warning bool `json:"warning,omitempty"`
}

// Staleness and code-scope kinds (warnings; see [Finding.Warning]).
const (
	// KindReviewDue: a record's review_by date has passed.
	KindReviewDue FindingKind = "review-due"
	// KindStaleProposal: a proposal older than [check]
	// stale_proposal_days.
	KindStaleProposal FindingKind = "stale-proposal"
	// KindScopeUnmatched: an applies_to glob matches no tracked file.
	KindScopeUnmatched FindingKind = "scope-unmatched"
	// KindScopeInvalid: an applies_to glob that is not a pattern, or a
	// [[scope]] table naming no record.
	KindScopeInvalid FindingKind = "scope-invalid"
	// KindMarkerUnknown: a source comment names an ADR that is no record.
	KindMarkerUnknown FindingKind = "marker-unknown"
	// KindScopeChurn: the paths a record in force governs changed in
	// more commits since it was accepted than [check] churn_commits.
	KindScopeChurn FindingKind = "scope-churn"
)

// ScopeKinds lists the staleness and scope kinds `git adr check` adds.
var ScopeKinds = []FindingKind{KindReviewDue, KindStaleProposal, KindScopeUnmatched, KindScopeInvalid, KindMarkerUnknown, KindScopeChurn}

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
	c := &checker{l: l, opt: opt, dirs: map[string]map[string][]string{}, mergeBases: map[string]fs.FS{}}
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

// SortFindings orders findings by path, line, kind, then message.
func SortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Message < b.Message
	})
}

type checker struct {
	l   *Log
	opt CheckOptions
	out []Finding
	// targets[r][i] is the record r.Relations[i] resolves to (nil: none).
	targets map[*Record][]*Record
	// rels holds every resolved relation, for reverse lookups.
	rels map[relKey]bool
	// linked holds every resolved pair, whatever the type.
	linked map[[2]*Record]bool
	// supersededBy[r] are the records whose "Supersedes" names r.
	supersededBy map[*Record][]*Record
	// byNumber groups numbered records per root.
	byNumber map[rootNumber][]*Record
	// dirs caches directory listings: lower-case name -> names.
	dirs       map[string]map[string][]string
	mergeBases map[string]fs.FS
	notes      []string
}

type relKey struct {
	from, to *Record
	typ      RelationType
}

type rootNumber struct {
	root   *Root
	n      int
	suffix string // an inserted record's letter: 0004a is not 0004
}

func (c *checker) add(f Finding) { c.out = append(c.out, f) }

// resolve maps every relation to its target record once.
func (c *checker) resolve() {
	c.targets = make(map[*Record][]*Record, len(c.l.Records))
	c.rels = map[relKey]bool{}
	c.linked = map[[2]*Record]bool{}
	c.supersededBy = map[*Record][]*Record{}
	c.byNumber = map[rootNumber][]*Record{}
	for _, r := range c.l.Records {
		if r.Numbered {
			k := rootNumber{r.Root, r.Number, r.Suffix}
			c.byNumber[k] = append(c.byNumber[k], r)
		}
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
			c.rels[relKey{r, t, rel.Type}] = true
			c.linked[[2]*Record{r, t}] = true
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
	for _, group := range c.byNumber {
		if len(group) < 2 {
			continue
		}
		g := append([]*Record(nil), group...)
		sort.SliceStable(g, func(i, j int) bool {
			if g[i].Archived != g[j].Archived {
				return g[i].Archived
			}
			return g[i].Path < g[j].Path
		})
		keep := g[0]
		for _, r := range g[1:] {
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
}

func archivedNote(r *Record) string {
	if r.Archived {
		return " (archived; archived IDs are never reused)"
	}
	return ""
}

// record reports what one record says about itself: status, title number,
// problems.
func (c *checker) record(r *Record) {
	statusLine := 0
	if r.StatusField.Kind != FieldNone {
		statusLine = r.StatusField.Line + 1
	}
	for _, p := range r.Unparseable() {
		c.add(problemFinding(r, p))
	}
	if r.Numbered && r.TitleNumber >= 0 && r.TitleNumber != r.Number {
		line := titleLine(r)
		fix := fmt.Sprintf("change the number in the title to %d", r.Number)
		if line > 0 {
			fix = fmt.Sprintf("change line %d to %q", line, renumberTitleLine(r.Text().LineText(line-1), r.TitleNumber, r.Number))
		}
		c.add(Finding{
			Kind: KindIDMismatch, Path: r.Path, Line: line, IDs: []string{r.ID},
			Message: fmt.Sprintf("the title says %d but the file name says %d (%s)", r.TitleNumber, r.Number, r.ID),
			Fix:     fix,
		})
	}
	for _, o := range r.otherStatuses {
		if o.Status == r.Status {
			continue
		}
		c.add(Finding{
			Kind: KindStatusConflict, Path: r.Path, Line: o.Line, IDs: []string{r.ID},
			Message: fmt.Sprintf("line %d says %q but the status on line %d is %q; git-adr reads the first (%s)", o.Line, shorten(o.Raw, 40), statusLine, shorten(r.RawStatus, 40), r.Status),
			Fix:     fmt.Sprintf("keep one status: correct or remove line %d or line %d", o.Line, statusLine),
		})
	}
	if require, _ := c.requireStatus(); r.StatusNotRecorded() && !require {
		return // the log records no statuses; see statusesOptional
	}
	switch r.Status {
	case Unknown:
		msg := "no status"
		fix := fmt.Sprintf("write one of Proposed, Accepted, Rejected, Deprecated, Superseded under the status heading on line %d", statusLine)
		if r.RawStatus != "" {
			msg = fmt.Sprintf("unknown status %q", shorten(r.RawStatus, 60))
			fix = fmt.Sprintf("change the status on line %d to one of: proposed, accepted, rejected, deprecated, superseded", statusLine)
		} else if statusLine == 0 || r.StatusField.Kind != FieldSection {
			style := r.Style
			if r.StatusField.Kind == FieldNone && !hasFrontMatter(r) && r.Root != nil && r.Root.Style != "" && r.Root.Style != StylePlain && r.Root.Style != StyleLog {
				// A record with no status field and no front matter shows
				// no way of writing one: its log's way is the one to
				// follow (MADR 2's "- Status:" bullets, not MADR 3's
				// front matter, in a log of bullets).
				style = r.Root.Style
			}
			fix = addStatusFix(style)
		}
		c.add(Finding{Kind: KindUnknownStatus, Path: r.Path, Line: statusLine, IDs: []string{r.ID}, Message: msg, Fix: fix})
	case Superseded:
		if hasRelation(r, SupersededBy) {
			break
		}
		f := Finding{
			Kind: KindStatusMismatch, Path: r.Path, Line: statusLine, IDs: []string{r.ID},
			Message: "the status is superseded but no \"Superseded by\" link names the successor",
			Fix:     fmt.Sprintf("add a line \"Superseded by [N. Title](NNNN-title.md)\" naming the successor to %s, or correct the status", r.Path),
		}
		if by := c.supersededBy[r]; len(by) > 0 {
			s := firstRecord(by)
			f.IDs = append(f.IDs, s.ID)
			f.Message = fmt.Sprintf("the status is superseded and %s supersedes it, but it has no \"Superseded by\" link back", s.ID)
			f.Fix = linkCommand(c.ref(s), Supersedes, c.ref(r))
			if r.InLogFile() || s.InLogFile() {
				f.Fix = sectionLinkFix(r, SupersededBy, s)
			}
		} else if s, line, _ := c.proseSuccessor(r); s != nil {
			// "Superseded by ADR-0019" in prose: the successor is named.
			f.IDs = append(f.IDs, s.ID)
			f.Message = fmt.Sprintf("the status is superseded and line %d names %s as the successor, but no \"Superseded by\" link records it", line, s.ID)
			f.Fix = linkCommand(c.ref(s), Supersedes, c.ref(r))
			if r.InLogFile() || s.InLogFile() {
				f.Fix = sectionLinkFix(r, SupersededBy, s)
			}
		}
		c.add(f)
	case Accepted, Proposed:
		if !hasRelation(r, SupersededBy) {
			break
		}
		// The successor says so too, or only the record itself does
		// ("- Superseded by [X](x.md)" under an accepted status).
		var s *Record
		msg := ""
		if by := c.supersededBy[r]; len(by) > 0 {
			s = firstRecord(by)
			msg = fmt.Sprintf("the status is %s but %s supersedes it", r.Status, s.ID)
		} else if s = c.ownSuccessor(r); s != nil {
			msg = fmt.Sprintf("the status is %s but its \"Superseded by\" link names %s", r.Status, s.ID)
		} else {
			break // a link to no record: broken-reference says so
		}
		fix := fmt.Sprintf("change the status of %s to \"Superseded\"", r.Path)
		if statusLine > 0 {
			fix = fmt.Sprintf("change the status on line %d from %q to \"Superseded\"", statusLine, r.RawStatus)
		}
		c.add(Finding{
			Kind: KindStatusMismatch, Path: r.Path, Line: statusLine, IDs: []string{r.ID, s.ID},
			Message: msg,
			Fix:     fix,
		})
	}
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

// shorten cuts s to n runes, marking the cut with "...".
func shorten(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return strings.TrimSpace(string(rs[:n])) + "..."
}

// titleProblemLine is the line ProblemUnspacedTitle names in p.
func titleProblemLine(p string) int {
	var n int
	if _, err := fmt.Sscanf(p, ProblemUnspacedTitle, &n); err != nil {
		return 0
	}
	return n
}

func problemFinding(r *Record, p string) Finding {
	f := Finding{Kind: KindUnparseable, Path: r.Path, IDs: []string{r.ID}, Message: p,
		Fix: fmt.Sprintf("edit %s so that it has a title heading, a status and valid UTF-8", r.Path)}
	switch {
	case p == ProblemNUL:
		f.Fix = fmt.Sprintf("replace %s with UTF-8 text; if it is UTF-16, convert it with iconv -f UTF-16 -t UTF-8", r.Path)
	case strings.Contains(p, "UTF-8") && r.Text() != nil && hasUTF16BOM(r.Text().Src):
		f.Fix = fmt.Sprintf("re-encode %s as UTF-8, for example with iconv -f UTF-16 -t UTF-8", r.Path)
	case strings.Contains(p, "only its title"):
		f.Line = titleLine(r)
		f.Fix = fmt.Sprintf("write the status, context and decision below the title of %s, or remove the file", r.Path)
	case strings.Contains(p, "UTF-8"):
		f.Fix = fmt.Sprintf("re-encode %s as UTF-8, for example with iconv -f ISO-8859-1 -t UTF-8", r.Path)
	case strings.Contains(p, "no space after"):
		f.Line = titleProblemLine(p)
		if t := r.Text(); t != nil && f.Line > 0 && f.Line <= len(t.Lines) {
			if marks, text, ok := unspacedHeading(t.LineText(f.Line - 1)); ok {
				f.Fix = fmt.Sprintf("put a space after %q on line %d of %s: %q", marks, f.Line, r.Path, marks+" "+text)
			}
		}
	case strings.Contains(p, "no-break space"):
		if _, err := fmt.Sscanf(p, ProblemNoBreakHeading, &f.Line); err == nil {
			if t := r.Text(); t != nil && f.Line > 0 && f.Line <= len(t.Lines) {
				line := t.LineText(f.Line - 1)
				if marks, ok := noBreakHeading(line); ok {
					fixed := marks + " " + strings.TrimLeft(strings.TrimPrefix(strings.TrimLeft(line, " "), marks), "\u00a0 \t")
					f.Fix = fmt.Sprintf("replace the no-break space after %q on line %d of %s by a space: %q", marks, f.Line, r.Path, fixed)
				}
			}
		}
	case strings.Contains(p, "template's placeholder"):
		f.Line = titleLine(r)
		f.Fix = fmt.Sprintf("write the record's title in place of the placeholder on line %d of %s", f.Line, r.Path)
	case strings.Contains(p, "title"):
		f.Fix = fmt.Sprintf("add a title heading such as \"# %d. Title\" at the top of %s", max(r.Number, 1), r.Path)
		if !r.Numbered {
			f.Fix = fmt.Sprintf("add a title heading such as \"# Title\" at the top of %s", r.Path)
		}
	case strings.Contains(p, "front matter"):
		f.Line = 1
		// The YAML parser counts from the first line inside the "---".
		if m := yamlLine.FindStringSubmatch(p); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				f.Line = n + 1
			}
		}
		f.Fix = fmt.Sprintf("fix the YAML between the --- lines at the top of %s", r.Path)
	}
	return f
}

// hasFrontMatter reports whether r's file starts with front matter.
func hasFrontMatter(r *Record) bool {
	t := r.Text()
	return t != nil && len(t.Lines) > 0 && t.Lines[0].Kind == LineFrontMatter
}

func addStatusFix(s Style) string {
	switch s {
	case StyleMADR:
		return "add \"status: accepted\" (or proposed, rejected, deprecated, superseded) to the front matter"
	case StyleMADR2:
		return "add a line \"- Status: accepted\" (or proposed, rejected, deprecated, superseded) under the title"
	case StyleTable:
		return "add a row \"| Status | Accepted |\" (or Proposed, Rejected, Deprecated, Superseded) to the metadata table"
	}
	return "add a \"## Status\" section whose first line is Accepted (or Proposed, Rejected, Deprecated, Superseded)"
}

// ownSuccessor is the first record r's own "Superseded by" links name.
func (c *checker) ownSuccessor(r *Record) *Record {
	for _, rel := range r.Relations {
		if rel.Type == SupersededBy {
			if s := c.l.Target(r, rel.Target); s != nil && s != r {
				return s
			}
		}
	}
	return nil
}

func hasRelation(r *Record, t RelationType) bool {
	for _, rel := range r.Relations {
		if rel.Type == t {
			return true
		}
	}
	return false
}

func firstRecord(rs []*Record) *Record {
	best := rs[0]
	for _, r := range rs[1:] {
		if recordLess(r, best) {
			best = r
		}
	}
	return best
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

// ShellWord quotes s for a POSIX shell when it needs quoting, for the
// commands that hints print.
func ShellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n\"'`$\\|&;<>()*?[]#~!{}") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// oneWay reports relations whose target has no relation back: the reverse
// type for known relations, any relation for custom labels.
func (c *checker) oneWay() {
	seen := map[relKey]bool{}
	for _, r := range c.l.Records {
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
				if c.rels[relKey{t, r, rev}] || rel.Type != Supersedes && rel.Type != SupersededBy && c.phraseBack(t, r) {
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
			if c.linked[[2]*Record{t, r}] {
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

// renumberTitleLine replaces the title's number in a heading line, keeping
// its padding.
func renumberTitleLine(line string, old, n int) string {
	done := false
	return digitRun.ReplaceAllStringFunc(line, func(d string) string {
		if v, err := strconv.Atoi(d); done || err != nil || v != old {
			return d
		}
		done = true
		return padNumber(n, len(d))
	})
}
