package compaction

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/view"
)

// Validation issue kinds: each blocks publication until fixed.
const (
	IssueCoverage  = "coverage"  // a source unit not accounted for, twice, or unknown
	IssueCitation  = "citation"  // a statement citing nothing, or a unit that does not exist
	IssueHash      = "hash"      // a source changed since the plan was made
	IssueReference = "reference" // a replacement links a record that does not exist
	IssueNamespace = "namespace" // a replacement's ID is not one the plan reserved
	IssueOwnership = "ownership" // the candidate writes a file it does not own
	IssueLifecycle = "lifecycle" // a replacement that is not a proposal, or a retirement the lifecycle forbids
	IssueStyle     = "style"     // a replacement not in the plan's style, or missing a required section
	IssueScope     = "scope"     // a view that would replace a wider one, dropping records from it
)

// requiredSections are the sections a complete replacement record has
// (anchors as adr names them), at any heading level (MADR 3 and 4 put
// "### Consequences" under "## Decision Outcome"): context, decision,
// consequences and the alternatives considered (rejected ones included).
// Rationale may live in any of them.
var requiredSections = []struct{ anchor, heading string }{
	{"context", "Context"}, {"decision", "Decision"}, {"consequences", "Consequences"},
	{"options", "Considered options (or Alternatives)"},
}

var coverageStates = map[string]bool{Retained: true, Changed: true, Retired: true, Unresolved: true}

// Validate checks a candidate against its plan and the current log
// mechanically: coverage of every source unit, citations, source hashes,
// and for consolidations the reserved IDs, links and file ownership. It
// cannot judge meaning: people review that.
func Validate(l *adr.Log, p *Plan, c *Candidate) []Issue {
	var issues []Issue
	add := func(kind, p string, ids []string, format string, args ...any) {
		issues = append(issues, Issue{Kind: kind, IDs: ids, Path: p, Message: fmt.Sprintf(format, args...)})
	}
	units := map[string]string{} // locator -> record path
	for _, s := range p.Sources {
		for _, u := range s.Units {
			units[u.Locator] = s.Path
		}
		r := l.ByPath(s.Path)
		switch {
		case r == nil:
			add(IssueHash, s.Path, []string{s.ID}, "%s no longer exists at %s; re-plan", s.ID, s.Path)
		case view.BlobHash(r.Text().Src) != s.Blob:
			add(IssueHash, s.Path, []string{s.ID}, "%s changed since the plan was made; re-plan", s.ID)
		}
	}
	known := map[string]bool{}
	for loc := range units {
		known[loc] = true
	}
	for _, e := range p.Evidence {
		for _, u := range e.Units {
			known[u.Locator] = true
		}
	}
	// A consolidation's view may cite its replacements' units.
	if p.Mode == Consolidate {
		for _, nr := range c.Records {
			rec := adr.Parse([]byte(nr.Content))
			for _, u := range rec.Units() {
				sep := "#"
				if strings.HasPrefix(u.Anchor, "§") {
					sep = ""
				}
				known[nr.ID+sep+u.Anchor] = true
			}
		}
	}
	seen := map[string]int{}
	for _, cv := range c.Summary.Coverage {
		seen[cv.Unit]++
		switch {
		case units[cv.Unit] == "":
			add(IssueCoverage, "", []string{cv.Unit}, "coverage names %q, which is not a source unit of the plan", cv.Unit)
		case !coverageStates[cv.State]:
			add(IssueCoverage, units[cv.Unit], []string{cv.Unit}, "%s has coverage state %q; use retained, changed, retired or unresolved", cv.Unit, cv.State)
		case cv.State == Retained && cv.Location == "":
			add(IssueCoverage, units[cv.Unit], []string{cv.Unit}, "%s is retained but says nowhere where", cv.Unit)
		case (cv.State == Changed || cv.State == Retired) && strings.TrimSpace(cv.Reason) == "":
			add(IssueCoverage, units[cv.Unit], []string{cv.Unit}, "%s is %s without a reason", cv.Unit, cv.State)
		}
	}
	var missing []string
	for loc := range units {
		switch seen[loc] {
		case 0:
			missing = append(missing, loc)
		case 1:
		default:
			add(IssueCoverage, units[loc], []string{loc}, "%s is accounted for %d times", loc, seen[loc])
		}
	}
	sort.Strings(missing)
	for _, loc := range missing {
		add(IssueCoverage, units[loc], []string{loc}, "%s is not accounted for: retain, change, retire or mark it unresolved", loc)
	}
	for _, sec := range []struct {
		name  string
		stmts []view.Statement
	}{{"constraint", c.Summary.Constraints}, {"rationale", c.Summary.Rationale}, {"risk", c.Summary.Risks},
		{"proposal", c.Summary.Proposals}, {"conflict", c.Summary.Conflicts}} {
		for i, st := range sec.stmts {
			if strings.TrimSpace(st.Text) == "" {
				add(IssueCitation, "", nil, "%s %d has no text", sec.name, i+1)
			}
			if len(st.Sources) == 0 && (sec.name == "constraint" || sec.name == "proposal") {
				add(IssueCitation, "", nil, "%s %d (%q) cites no unit", sec.name, i+1, clip(st.Text, 40))
			}
			for _, s := range st.Sources {
				if !known[s] {
					add(IssueCitation, "", []string{s}, "%s %d cites %q, which is not a unit of the plan's evidence", sec.name, i+1, s)
				}
			}
		}
	}
	if p.Mode == Consolidate {
		issues = append(issues, validateRecords(l, p, c)...)
	} else if len(c.Records) > 0 {
		add(IssueOwnership, "", nil, "a summary plan proposes %d records; only consolidation writes records", len(c.Records))
	}
	return issues
}

// validateRecords checks replacement records: reserved IDs only, each
// once, superseding only sources of the plan, links that resolve.
func validateRecords(l *adr.Log, p *Plan, c *Candidate) []Issue {
	var issues []Issue
	reserved := map[string]Reservation{}
	for _, r := range p.Reserved {
		reserved[r.ID] = r
	}
	sources := map[string]bool{}
	for _, s := range p.Sources {
		sources[s.ID] = true
	}
	newPaths := map[string]bool{}
	used := map[string]bool{}
	for _, nr := range c.Records {
		res, ok := reserved[nr.ID]
		switch {
		case !ok:
			issues = append(issues, Issue{Kind: IssueNamespace, IDs: []string{nr.ID}, Message: fmt.Sprintf("replacement %q does not use an ID the plan reserved", nr.ID)})
			continue
		case used[nr.ID]:
			issues = append(issues, Issue{Kind: IssueNamespace, IDs: []string{nr.ID}, Message: fmt.Sprintf("%s is proposed twice", nr.ID)})
			continue
		}
		used[nr.ID] = true
		newPaths[res.Path] = true
		if strings.TrimSpace(nr.Title) == "" || strings.TrimSpace(nr.Content) == "" {
			issues = append(issues, Issue{Kind: IssueReference, IDs: []string{nr.ID}, Path: res.Path, Message: fmt.Sprintf("%s has no title or no content", nr.ID)})
		}
		for _, s := range nr.Supersedes {
			if !sources[s] {
				issues = append(issues, Issue{Kind: IssueReference, IDs: []string{nr.ID, s}, Path: res.Path, Message: fmt.Sprintf("%s supersedes %q, which is not a source of the plan", nr.ID, s)})
			}
		}
	}
	issues = append(issues, validateReplacements(l, p, c, reserved)...)
	for _, nr := range c.Records {
		res, ok := reserved[nr.ID]
		if !ok {
			continue
		}
		// The links check reads, read as check reads them: a URL, an
		// anchor, a link in code or leaving the repository is not one.
		for _, ln := range adr.NewText([]byte(nr.Content)).Links() {
			if !linkResolves(l, res, newPaths, ln.Dest) {
				issues = append(issues, Issue{Kind: IssueReference, IDs: []string{nr.ID}, Path: res.Path, Message: fmt.Sprintf("%s links %q, which does not exist", nr.ID, ln.Dest)})
			}
		}
	}
	return issues
}

// linkResolves reports whether a link of the replacement at res reaches
// a record, a replacement, or a file of the log's file system; a
// site-absolute one may name a record of its root by file name (see
// adr.LinkedFile).
func linkResolves(l *adr.Log, res Reservation, newPaths map[string]bool, dest string) bool {
	file, site, ok := adr.LinkedFile(res.Path, dest)
	if !ok || l.ByPath(file) != nil || newPaths[file] {
		return true
	}
	if _, err := fs.Stat(l.FS, file); err == nil {
		return true
	}
	if site {
		base := path.Base(file)
		for p := range newPaths {
			if path.Base(p) == base {
				return true
			}
		}
		if root := rootOfReservation(l, res); root != nil {
			for _, r := range root.Records {
				if path.Base(r.Path) == base {
					return true
				}
			}
		}
	}
	return false
}

// validateReplacements checks what acceptance of the replacements would
// do: each is a complete proposal in the plan's style; a source it retires
// has no unresolved unit (unresolved units block whole-record retirement);
// a source no replacement retires stays in force, so none of its units
// may be changed or retired (only an accepted successor retires a
// decision: a proposal never does).
func validateReplacements(l *adr.Log, p *Plan, c *Candidate, reserved map[string]Reservation) []Issue {
	var issues []Issue
	add := func(kind, at string, ids []string, format string, args ...any) {
		issues = append(issues, Issue{Kind: kind, IDs: ids, Path: at, Message: fmt.Sprintf(format, args...)})
	}
	retiredBy := map[string][]string{} // source ID -> replacement IDs
	for _, nr := range c.Records {
		res, ok := reserved[nr.ID]
		if !ok || strings.TrimSpace(nr.Content) == "" {
			continue
		}
		rec := adr.Parse([]byte(nr.Content))
		switch {
		case rec.Status == adr.Proposed:
		case rec.Status == "" || rec.RawStatus == "":
			add(IssueLifecycle, res.Path, []string{nr.ID}, "%s has no status: write it as a proposal (Proposed); acceptance accepts it", nr.ID)
		default:
			add(IssueLifecycle, res.Path, []string{nr.ID}, "%s is written as %s: a drafter never decides, replacements are proposals (Proposed) until a person accepts them", nr.ID, rec.Status)
		}
		if rec.TitleNumber >= 0 && rec.TitleNumber != res.Number {
			add(IssueNamespace, res.Path, []string{nr.ID}, "%s's title says number %d, but the plan reserved %d", nr.ID, rec.TitleNumber, res.Number)
		}
		want := adr.Style(p.Style)
		if want != "" && !sameStyle(rec.Style, want) {
			add(IssueStyle, res.Path, []string{nr.ID}, "%s is written in %s style, but the plan's style is %s", nr.ID, rec.Style, want)
		}
		if rec.Style == adr.StyleOCP || want == adr.StyleOCP {
			if len(rec.Units()) == 0 {
				add(IssueStyle, res.Path, []string{nr.ID}, "%s has no § section: a sectioned container states each decision in its own section", nr.ID)
			}
		} else {
			var missing []string
			for _, sec := range requiredSections {
				if !rec.HasSection(sec.anchor) {
					missing = append(missing, sec.heading)
				}
			}
			if len(missing) > 0 {
				add(IssueStyle, res.Path, []string{nr.ID}, "%s is not a complete record: it has no %s section; a replacement must support ordinary work on its own (context, decision, consequences, rejected alternatives)", nr.ID, strings.Join(missing, ", "))
			}
		}
		for _, s := range nr.Supersedes {
			retiredBy[s] = append(retiredBy[s], nr.ID)
		}
	}
	cov := map[string]string{}
	for _, cv := range c.Summary.Coverage {
		cov[cv.Unit] = cv.State
	}
	for _, s := range p.Sources {
		by := retiredBy[s.ID]
		for _, u := range s.Units {
			st := cov[u.Locator]
			switch {
			case len(by) > 0 && st == Unresolved:
				add(IssueCoverage, s.Path, []string{s.ID, u.Locator}, "%s would retire %s, but %s is unresolved: unresolved units block whole-record retirement; settle it or do not supersede %s", strings.Join(by, ", "), s.ID, u.Locator, s.ID)
			case len(by) == 0 && (st == Changed || st == Retired) && s.Status == string(adr.Accepted):
				add(IssueLifecycle, s.Path, []string{s.ID, u.Locator}, "%s is %s, but no replacement supersedes %s, which stays accepted and in force: only an accepted successor retires a decision (supersede %s in a replacement, or retain the unit)", u.Locator, st, s.ID, s.ID)
			}
		}
	}
	return issues
}

func rootOfReservation(l *adr.Log, res Reservation) *adr.Root {
	for _, r := range l.Roots {
		if r.Dir() == res.Root || (res.Root == "" || res.Root == ".") && r.Dir() == "." {
			return r
		}
	}
	return nil
}

// sameStyle reports whether a record written in got is in the style want
// asks for (madr covers MADR 2, 3 and 4).
func sameStyle(got, want adr.Style) bool {
	if got == want {
		return true
	}
	return want == adr.StyleMADR && got == adr.StyleMADR2 || want == adr.StyleMADR2 && got == adr.StyleMADR
}

// ReservationIssues checks that every number the plan reserved is still
// its own: no record of the log takes it but the plan's own draft at the
// reserved path (drafts, as [Drafts] writes them), no other branch has
// another record with that number, and its reservation ref still names the
// plan. A concurrent allocation invalidates the plan; it is never
// renumbered.
func ReservationIssues(l *adr.Log, p *Plan, drafts map[string][]byte, branches []adr.BranchRecord, owner func(ref string) string) []Issue {
	var issues []Issue
	for _, res := range p.Reserved {
		root := rootOfReservation(l, res)
		fix := "; the plan cannot use it (numbers are never changed after review): cancel it (`git adr compaction cancel " + p.ID + "`) and plan again"
		if owner != nil {
			switch who := owner(ReservationRef(res.Root, res.Number)); who {
			case p.ID:
			case "":
				// A plan adopted from a remote without its reservations
				// is still valid: the ref is fetched, not the plan
				// cancelled.
				ref := ReservationRef(res.Root, res.Number)
				issues = append(issues, Issue{Kind: IssueNamespace, IDs: []string{res.ID}, Path: res.Path,
					Message: fmt.Sprintf("%s is no longer reserved (%s is gone); a plan adopted from a remote needs it fetched too (`git fetch REMOTE %s`)", res.ID, ref, adr.ShellWord(ref+":"+ref)) +
						"; if no remote has it, the plan cannot use it (numbers are never changed after review): cancel it (`git adr compaction cancel " + p.ID + "`) and plan again"})
			default:
				issues = append(issues, Issue{Kind: IssueNamespace, IDs: []string{res.ID}, Path: res.Path,
					Message: fmt.Sprintf("%s is reserved by plan %s", res.ID, who) + fix})
			}
		}
		if root == nil {
			continue
		}
		for _, r := range root.Records {
			if !r.Numbered || r.Number != res.Number || r.Suffix != "" {
				continue
			}
			if r.Path == res.Path {
				if d, ok := drafts[r.Path]; ok && r.Text() != nil && string(r.Text().Src) == string(d) {
					continue // the plan's own draft, saved or on its branch
				}
				issues = append(issues, Issue{Kind: IssueNamespace, IDs: []string{res.ID}, Path: r.Path,
					Message: fmt.Sprintf("%s is taken: %s exists and is not the plan's draft", res.ID, r.Path) + fix})
				continue
			}
			issues = append(issues, Issue{Kind: IssueNamespace, IDs: []string{res.ID, r.ID}, Path: r.Path,
				Message: fmt.Sprintf("%s is taken: %s has number %d", res.ID, r.Path, res.Number) + fix})
		}
		seen := map[string]bool{}
		for _, b := range branches {
			if b.Root != root || b.Number != res.Number || b.Path == res.Path || seen[b.Path] {
				continue
			}
			seen[b.Path] = true
			issues = append(issues, Issue{Kind: IssueNamespace, IDs: []string{res.ID}, Path: b.Path,
				Message: fmt.Sprintf("%s is taken on %s: %s has number %d", res.ID, shortRef(b.Ref), b.Path, res.Number) + fix})
		}
	}
	return issues
}

func shortRef(ref string) string {
	for _, p := range []string{"refs/heads/", "refs/remotes/"} {
		if strings.HasPrefix(ref, p) {
			return strings.TrimPrefix(ref, p)
		}
	}
	return ref
}
