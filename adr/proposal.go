package adr

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits of one proposal: a record a person can review, an answer that
// fits an MCP message.
const (
	MaxProposalTitle   = 200   // code points
	MaxProposalText    = 20000 // code points, each of context, decision, consequences
	MaxProposalLinks   = 20    // relates to, amends, refines and supersedes together
	MaxProposalDomains = 10
)

// Proposal is what `git adr propose` and the MCP tool adr_propose write: a
// record with status proposed, in the log's own template and style, with
// the next free number, linked to the records it names. It never changes
// the status of another record: Supersedes only says what the proposal
// would replace once a person accepts it (`git adr decide ID accept`).
type Proposal struct {
	Title                           string
	Context, Decision, Consequences string
	RelatesTo, Amends, Refines      []string
	Supersedes                      []string
	Domains                         []string
	// Dir is the ADR root to write in ("": the first).
	Dir string
}

// ProposalError is a proposal refused before anything is written. A
// refused proposal (Refused false) was asked wrongly: the caller fixes
// its request; Refused true means the log itself does not allow it (its
// template, a linked record).
type ProposalError struct {
	Msg, Hint string
	Refused   bool
}

func (e *ProposalError) Error() string { return e.Msg }

func proposalErr(hint, format string, a ...any) *ProposalError {
	return &ProposalError{Msg: fmt.Sprintf(format, a...), Hint: hint}
}

// Clip shortens what a caller sent to quote it in an error: an answer
// must fit an MCP message whatever was sent.
func Clip(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}

// Check trims p's title and checks p against the limits: a title on one
// line, a context and a decision (consequences may be empty: MADR keeps
// them optional), domain names, the number of records linked. field names
// a field ("relates_to") as the caller takes it, for the messages. It
// returns the sections to write and the domains, lower-cased.
func (p *Proposal) Check(field func(name string) string) (secs []SectionText, domains []string, err error) {
	p.Title = strings.TrimSpace(p.Title)
	switch n := utf8.RuneCountInString(p.Title); {
	case p.Title == "":
		return nil, nil, proposalErr("a title says what is decided, for example \"Cache reads in Redis\"", "a proposal needs a title")
	case n > MaxProposalTitle:
		return nil, nil, proposalErr("say what is decided in a few words; details go in the context and decision",
			"the title is %d characters long; at most %d", n, MaxProposalTitle)
	case HasControl(p.Title):
		return nil, nil, proposalErr("write the title on one line without control characters; details go in the context and decision",
			"the title %q holds a control character", p.Title)
	}
	for _, t := range []struct{ anchor, text string }{{"context", p.Context}, {"decision", p.Decision}, {"consequences", p.Consequences}} {
		if strings.TrimSpace(t.text) == "" {
			if t.anchor == "consequences" {
				continue // MADR keeps consequences optional
			}
			return nil, nil, proposalErr("the context says why a decision is needed; the decision what is proposed",
				"%s is empty: a proposal states its %s", field(t.anchor), t.anchor)
		}
		if n := utf8.RuneCountInString(t.text); n > MaxProposalText {
			return nil, nil, proposalErr("a record states a decision and its reasons; link longer documents from it",
				"%s is %d characters long; at most %d", field(t.anchor), n, MaxProposalText)
		}
		secs = append(secs, SectionText{Anchor: t.anchor, Text: t.text})
	}
	for _, d := range p.Domains {
		if strings.TrimSpace(d) == "" || strings.ContainsAny(d, ",;|") || HasControl(d) || utf8.RuneCountInString(d) > 60 {
			return nil, nil, proposalErr("one word or two per domain, such as \"storage\"", "%s %q is not a domain name", field("domains"), Clip(d))
		}
		domains = append(domains, strings.ToLower(strings.TrimSpace(d)))
	}
	if len(domains) > MaxProposalDomains {
		return nil, nil, proposalErr("", "%s names %d domains; at most %d", field("domains"), len(domains), MaxProposalDomains)
	}
	if n := len(p.RelatesTo) + len(p.Amends) + len(p.Refines) + len(p.Supersedes); n > MaxProposalLinks {
		return nil, nil, proposalErr("link the records it depends on most; relate it to others later",
			"the proposal names %d records to link; at most %d", n, MaxProposalLinks)
	}
	return secs, domains, nil
}

// Link resolves the records p names through target (field is the
// proposal's field, "relates_to") and adds them to opt and res, in the
// order relates to, amends, refines, supersedes: linked both ways, or,
// for a supersession, only named as what the proposal would supersede
// once a person accepts it. target's error is returned as it is.
func (p *Proposal) Link(opt *NewOptions, res *ProposalResult, target func(field, ref string) (*Record, error)) error {
	for _, group := range []struct {
		field string
		refs  []string
		typ   RelationType
	}{{"relates_to", p.RelatesTo, RelatesTo}, {"amends", p.Amends, Amends}, {"refines", p.Refines, Refines}, {"supersedes", p.Supersedes, Supersedes}} {
		for _, ref := range group.refs {
			r, err := target(group.field, ref)
			if err != nil {
				return err
			}
			if group.typ == Supersedes {
				opt.Supersedes = append(opt.Supersedes, r)
				res.WouldSupersede = append(res.WouldSupersede, r.ID)
				continue
			}
			opt.Links = append(opt.Links, LinkSpec{Target: r, Label: group.typ.Label(), Reverse: group.typ.Reverse().Label()})
			res.Links = append(res.Links, ProposedLink{Relation: group.typ.Label(), Target: r.ID, Path: r.Path})
		}
	}
	return nil
}

// ProposedLink is one link a proposal wrote.
type ProposedLink struct {
	Relation string `json:"relation"`
	Target   string `json:"target"`
	Path     string `json:"path"`
}

// ProposalStep is something to do after a proposal, and who does it.
type ProposalStep struct {
	Who     string `json:"who"`
	Do      string `json:"do"`
	Command string `json:"command,omitempty"`
}

// ProposalResult is what a proposal answers (--json, adr_propose).
type ProposalResult struct {
	ID     string `json:"id"`
	Path   string `json:"path"`
	Title  string `json:"title"`
	Status string `json:"status"`
	// Links are the relations written both ways.
	Links []ProposedLink `json:"links"`
	// WouldSupersede are the records the proposal names as superseded:
	// unchanged until a person accepts it.
	WouldSupersede []string `json:"would_supersede"`
	// Updated are the files written: the record, the records it links,
	// generated indexes.
	Updated []string `json:"updated"`
	// TemplateSections are sections that still hold the template's text.
	TemplateSections []string       `json:"template_sections"`
	Notes            []string       `json:"notes"`
	Next             []ProposalStep `json:"next"`
	// Records counts the record files among Updated (the rest are
	// indexes, which their refresh reports itself).
	Records int `json:"-"`
}

// NewProposalResult is an empty result: every list present, none null.
func NewProposalResult() *ProposalResult {
	return &ProposalResult{Status: string(Proposed), Links: []ProposedLink{}, WouldSupersede: []string{},
		TemplateSections: []string{}, Notes: []string{}}
}

// ProposalOnly is the proposal's promise, checked on what is about to be
// written rather than trusted to the template: the new record says
// proposed, and no other record's status or title changes (they gain
// relation lines only). The error is a *ProposalError with Refused set.
func ProposalOnly(rec *Record, changes []FileChange) error {
	if rec.Status != Proposed {
		return &ProposalError{Refused: true, Msg: fmt.Sprintf("the log's template writes the status %q, not a proposal; nothing was written", rec.RawStatus),
			Hint: "a person makes the template's status a placeholder (STATUS, {{status}}) or a list of words that holds proposed"}
	}
	if path := RetitledBy(changes); path != "" {
		return &ProposalError{Refused: true, Msg: fmt.Sprintf("linking %s would change what %s says of its status or title; nothing was written", rec.ID, path),
			Hint: "link it by hand and review the change: `git adr link`"}
	}
	return nil
}

// ProposalNext says what a person does with a proposal: review it, commit
// it, and accept or reject it in their own terminal (an agent cannot).
// show turns a repository-relative path into the one the caller shows.
func ProposalNext(res *ProposalResult, show func(string) string) []ProposalStep {
	id := ShellWord(res.ID)
	steps := []ProposalStep{{Who: "a person", Do: "review the proposal", Command: "git adr show " + id}}
	if len(res.TemplateSections) > 0 {
		steps = append(steps, ProposalStep{Who: "the author", Do: "fill in or remove the sections that still hold the template's text (" +
			strings.Join(res.TemplateSections, "; ") + ") in " + show(res.Path)})
	}
	var paths []string
	for _, p := range res.Updated {
		paths = append(paths, ShellWord(show(p)))
	}
	steps = append(steps,
		ProposalStep{Who: "the author", Do: "check the log", Command: "git adr check"},
		ProposalStep{Who: "the author", Do: "commit the proposal for review", Command: "git add -- " + strings.Join(paths, " ") + " && git commit -m " + ShellWord("Propose "+res.ID)})
	accept := "accept it, in their own terminal (an agent cannot)"
	if len(res.WouldSupersede) > 0 {
		accept += "; this marks " + strings.Join(res.WouldSupersede, ", ") + " superseded"
	}
	steps = append(steps,
		ProposalStep{Who: "a person", Do: accept, Command: "git adr decide " + id + " accept"},
		ProposalStep{Who: "a person", Do: "or reject it", Command: "git adr decide " + id + " reject"})
	return steps
}
