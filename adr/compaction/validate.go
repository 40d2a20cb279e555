package compaction

import (
	"fmt"
	"path"
	"regexp"
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
)

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
		case view.BlobHash(r.Text.Src) != s.Blob:
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
			for _, u := range rec.Units {
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

var linkTarget = regexp.MustCompile(`\]\(\s*<?([^)\s>#]+\.md)`)

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
	for _, nr := range c.Records {
		res, ok := reserved[nr.ID]
		if !ok {
			continue
		}
		for _, m := range linkTarget.FindAllStringSubmatch(nr.Content, -1) {
			target := path.Clean(path.Join(path.Dir(res.Path), m[1]))
			if l.ByPath(target) == nil && !newPaths[target] {
				issues = append(issues, Issue{Kind: IssueReference, IDs: []string{nr.ID}, Path: res.Path, Message: fmt.Sprintf("%s links %q, which does not exist", nr.ID, m[1])})
			}
		}
	}
	return issues
}
