package compaction

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Review is what a person reviews before publishing: the approval card and
// the changes, separated as the spec asks (§6.1): pure reorganisation,
// unresolved items, substantive changes.
type Review struct {
	Plan     string `json:"plan"`
	Revision int    `json:"revision"`
	Mode     Mode   `json:"mode"`
	State    State  `json:"state"`
	Scope    Scope  `json:"scope"`
	Base     string `json:"base"`
	Sources  int    `json:"sources"`
	Units    int    `json:"units"`
	// Coverage counts units per state.
	Coverage map[string]int `json:"coverage"`
	// Reorganisation lists units carried over unchanged, and where to.
	Reorganisation []ReviewItem `json:"reorganisation"`
	// Unresolved lists units left unresolved, conflicts the draft reports
	// and the plan's analysis issues.
	Unresolved []ReviewItem `json:"unresolved"`
	// Substantive lists deliberate changes and retirements, and new
	// replacement records: each needs conspicuous acceptance.
	Substantive []ReviewItem `json:"substantive"`
	// Blockers are validation issues: publication is refused until none.
	Blockers []Issue `json:"blockers"`
	// Outputs are the files publication would write.
	Outputs []string `json:"outputs"`
	// Candidate is the candidate commit (git diff BASE CANDIDATE).
	Candidate string `json:"candidate"`
	// Approval are the hashes an approval of this review names:
	// acceptance recomputes them and refuses any difference.
	Approval Hashes `json:"approval"`
	// Notes are the drafter's free text, shown as such: they never count
	// as anything but text.
	Notes string `json:"notes,omitempty"`
	// Documents are the full files a person reviews: every replacement
	// record as it will be accepted, the CURRENT view's prose and the
	// INDEX preview (not only the coverage lines).
	Documents []Document `json:"documents"`
	// ArchiveOnAccept is the archive part of a plan made with --archive,
	// computed when the review is shown (on the log as the acceptance
	// would leave it now); never stored, never read to decide anything.
	ArchiveOnAccept *ArchiveReview `json:"archive_on_accept,omitempty"`
}

// ArchiveReview is the archive part of a consolidation's acceptance as a
// review shows it: the archive plan (docs/json.md, "archive"), why it is
// not authorised ("" when it is) and the retired records that stay.
type ArchiveReview struct {
	Plan    json.RawMessage `json:"plan"`
	Blocked string          `json:"blocked"`
	Held    []string        `json:"held"`
}

// Hashes name exactly what was reviewed: the git tree of the candidate,
// what the plan read of its sources (SourcesHash) and the scope's record
// set (MembershipHash).
type Hashes struct {
	Candidate  string `json:"candidate_tree"`
	Sources    string `json:"sources"`
	Membership string `json:"membership"`
}

// Document is one full file of a review.
type Document struct {
	Path string `json:"path"`
	// Kind is "replacement", "current" or "index".
	Kind    string `json:"kind"`
	Content string `json:"content"`
}

// AddDocuments adds the proposal's files a person reads in full:
// replacement records (as accepted), CURRENT.md and INDEX.md files.
func (rv *Review) AddDocuments(p *Plan, pr *Proposal) {
	reserved := map[string]bool{}
	for _, r := range p.Reserved {
		reserved[r.Path] = true
	}
	for _, c := range pr.Changes {
		kind := ""
		switch {
		case reserved[c.Path]:
			kind = "replacement"
		case strings.HasSuffix(c.Path, "/CURRENT.md") || c.Path == "CURRENT.md":
			kind = "current"
		case pr.Kind(c.Path) == "index":
			kind = "index"
		default:
			continue
		}
		rv.Documents = append(rv.Documents, Document{Path: c.Path, Kind: kind, Content: string(c.Data)})
	}
	order := map[string]int{"replacement": 0, "current": 1, "index": 2}
	sort.SliceStable(rv.Documents, func(i, j int) bool { return order[rv.Documents[i].Kind] < order[rv.Documents[j].Kind] })
}

var documentTitles = map[string]string{
	"replacement": "replacement record (accepted on acceptance)",
	"current":     "CURRENT view",
	"index":       "INDEX preview",
}

// ReviewItem is one line of a review section.
type ReviewItem struct {
	Unit   string `json:"unit,omitempty"`
	What   string `json:"what"`
	Detail string `json:"detail,omitempty"`
}

// NewReview builds the review of a candidate.
func NewReview(p *Plan, c *Candidate, blockers []Issue, outputs []string, candidate string) *Review {
	rv := &Review{Plan: p.ID, Revision: p.Revision, Mode: p.Mode, State: p.State, Scope: p.Scope, Base: p.Base,
		Sources: len(p.Sources), Coverage: map[string]int{}, Reorganisation: []ReviewItem{}, Unresolved: []ReviewItem{},
		Substantive: []ReviewItem{}, Blockers: uniqueIssues(blockers), Outputs: append([]string{}, outputs...), Candidate: candidate,
		Approval: Hashes{Candidate: p.CandidateTree, Sources: SourcesHash(p.Sources), Membership: p.Membership}, Documents: []Document{},
		Notes: strings.TrimSpace(c.Notes)}
	for _, s := range p.Sources {
		rv.Units += len(s.Units)
	}
	for _, cv := range c.Summary.Coverage {
		rv.Coverage[cv.State]++
		switch cv.State {
		case Retained:
			rv.Reorganisation = append(rv.Reorganisation, ReviewItem{Unit: cv.Unit, What: "retained", Detail: cv.Location})
		case Unresolved:
			rv.Unresolved = append(rv.Unresolved, ReviewItem{Unit: cv.Unit, What: "unresolved", Detail: cv.Reason})
		case Changed, Retired:
			rv.Substantive = append(rv.Substantive, ReviewItem{Unit: cv.Unit, What: cv.State, Detail: cv.Reason})
		}
	}
	for _, st := range c.Summary.Conflicts {
		rv.Unresolved = append(rv.Unresolved, ReviewItem{What: "conflict", Detail: st.Text + citations(st.Sources)})
	}
	for _, is := range p.Issues {
		rv.Unresolved = append(rv.Unresolved, ReviewItem{What: is.Kind, Detail: is.Message})
	}
	for _, t := range p.Transitions {
		if t.From == "new" {
			continue
		}
		rv.Substantive = append(rv.Substantive, ReviewItem{Unit: t.ID, What: "lifecycle", Detail: t.From + " → " + t.To + " on acceptance"})
	}
	for _, nr := range c.Records {
		d := "new record " + nr.Title
		if len(nr.Supersedes) > 0 {
			d += ", superseding " + strings.Join(nr.Supersedes, ", ")
		}
		rv.Substantive = append(rv.Substantive, ReviewItem{Unit: nr.ID, What: "replacement", Detail: d})
	}
	sort.SliceStable(rv.Reorganisation, func(i, j int) bool { return rv.Reorganisation[i].Unit < rv.Reorganisation[j].Unit })
	return rv
}

func citations(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return " (" + strings.Join(s, ", ") + ")"
}

// JSON renders the review as JSON.
func (rv *Review) JSON() []byte {
	data, _ := json.MarshalIndent(rv, "", "  ")
	return append(data, '\n')
}

// Markdown renders the review for a pull request description.
func (rv *Review) Markdown() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Compaction review: plan %s, revision %d (%s)\n\n", rv.Plan, rv.Revision, rv.Mode)
	fmt.Fprintf(&b, "- Scope: %s\n- Base: `%s`\n- Sources: %d records, %d decision units\n", scopeText(rv.Scope), short(rv.Base), rv.Sources, rv.Units)
	fmt.Fprintf(&b, "- Coverage: %s\n", coverageText(rv.Coverage))
	if rv.Candidate != "" {
		fmt.Fprintf(&b, "- Proposal: `git diff %s %s`\n", short(rv.Base), short(rv.Candidate))
	}
	fmt.Fprintf(&b, "- Publication writes: %s\n", strings.Join(quoteAll(rv.Outputs), ", "))
	section := func(title, empty string, items []ReviewItem) {
		fmt.Fprintf(&b, "\n## %s\n\n", title)
		if len(items) == 0 {
			b.WriteString(empty + "\n")
			return
		}
		for _, it := range items {
			line := "- "
			if it.Unit != "" {
				line += "`" + it.Unit + "` "
			}
			line += it.What
			if it.Detail != "" {
				line += ": " + it.Detail
			}
			b.WriteString(line + "\n")
		}
	}
	if len(rv.Blockers) > 0 {
		b.WriteString("\n## Blockers\n\nPublication is refused until these are fixed:\n\n")
		for _, is := range rv.Blockers {
			fmt.Fprintf(&b, "- %s: %s\n", is.Kind, is.Message)
		}
	}
	if rv.Notes != "" {
		b.WriteString("\n## Drafter's notes\n\nText from the drafter, for reviewers; it accepts and approves nothing:\n\n")
		for _, line := range strings.Split(rv.Notes, "\n") {
			b.WriteString("> " + line + "\n")
		}
	}
	section("Substantive changes", "None: no constraint is changed or retired.", rv.Substantive)
	section("Unresolved items", "None.", rv.Unresolved)
	section("Pure reorganisation", "None.", rv.Reorganisation)
	if len(rv.Documents) > 0 {
		b.WriteString("\n## Documents\n")
		for _, d := range rv.Documents {
			fence := "````"
			for strings.Contains(d.Content, fence) {
				fence += "`"
			}
			fmt.Fprintf(&b, "\n### `%s` (%s)\n\n%smarkdown\n%s", d.Path, documentTitles[d.Kind], fence, d.Content)
			if !strings.HasSuffix(d.Content, "\n") {
				b.WriteString("\n")
			}
			b.WriteString(fence + "\n")
		}
	}
	fmt.Fprintf(&b, "\n## Approval\n\nAccepting names exactly this content: candidate tree `%s`, sources `%s`, membership `%s`.\n",
		rv.Approval.Candidate, rv.Approval.Sources, rv.Approval.Membership)
	return []byte(b.String())
}

// Text renders the review for a terminal.
func (rv *Review) Text() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "plan %s revision %d (%s, %s)\n", rv.Plan, rv.Revision, rv.Mode, rv.State)
	fmt.Fprintf(&b, "scope: %s; %d records, %d units; coverage: %s\n", scopeText(rv.Scope), rv.Sources, rv.Units, coverageText(rv.Coverage))
	if rv.Candidate != "" {
		fmt.Fprintf(&b, "proposal: git diff %s %s\n", short(rv.Base), short(rv.Candidate))
	}
	for _, is := range rv.Blockers {
		fmt.Fprintf(&b, "blocker: %s: %s\n", is.Kind, is.Message)
	}
	list := func(title string, items []ReviewItem) {
		fmt.Fprintf(&b, "\n%s (%d)\n", title, len(items))
		for _, it := range items {
			line := "  "
			if it.Unit != "" {
				line += it.Unit + " "
			}
			line += it.What
			if it.Detail != "" {
				line += ": " + it.Detail
			}
			b.WriteString(line + "\n")
		}
	}
	if rv.Notes != "" {
		fmt.Fprintf(&b, "\ndrafter's notes (text for reviewers; they accept nothing):\n")
		for _, line := range strings.Split(rv.Notes, "\n") {
			b.WriteString("  | " + line + "\n")
		}
	}
	list("substantive changes", rv.Substantive)
	list("unresolved items", rv.Unresolved)
	list("pure reorganisation", rv.Reorganisation)
	for _, d := range rv.Documents {
		fmt.Fprintf(&b, "\n--- %s: %s ---\n%s", documentTitles[d.Kind], d.Path, d.Content)
		if !strings.HasSuffix(d.Content, "\n") {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "--- end of %s ---\n", d.Path)
	}
	if rv.Approval.Candidate != "" {
		fmt.Fprintf(&b, "\napproval names: candidate tree %s, sources %s, membership %s\n", short(rv.Approval.Candidate), short(rv.Approval.Sources), short(rv.Approval.Membership))
		fmt.Fprintf(&b, "to approve exactly this: git adr compaction --confirm %s@%d:%s\n", rv.Plan, rv.Revision, short(rv.Approval.Candidate))
	}
	return []byte(b.String())
}

func scopeText(s Scope) string {
	switch {
	case s.Domain != "":
		return "domain " + s.Domain
	case len(s.Sources) > 0:
		return "sources " + strings.Join(s.Sources, ", ")
	}
	return "all unarchived records of " + strings.Join(s.Roots, ", ")
}

func coverageText(c map[string]int) string {
	var parts []string
	for _, k := range []string{Retained, Changed, Retired, Unresolved} {
		if c[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[k], k))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = "`" + s + "`"
	}
	return out
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// uniqueIssues keeps the first of issues that say the same thing (two
// checks may find one problem).
func uniqueIssues(is []Issue) []Issue {
	out := []Issue{}
	seen := map[string]bool{}
	for _, i := range is {
		k := i.Kind + "\x00" + i.Message
		if !seen[k] {
			seen[k] = true
			out = append(out, i)
		}
	}
	return out
}
