// Package evidence implements `git adr context`: bounded decision context
// for a coding agent or a person, with provenance on every excerpt.
//
// # Selectors
//
// A [Request] names what is wanted: nothing (an overview), a record ID with
// an optional unit locator, a domain, an iteration, or a free-text task
// (optionally with a file that gets priority). The intent says which part
// of a decision matters: the current decision (default), its rationale, or
// its history.
//
// # Budget
//
// Every [Response], envelope included, holds at most MaxUnits units and
// MaxChars Unicode code points in the format it is printed in, or as
// [Service.Measure] counts it (for MCP, the whole JSON-RPC message). Long units
// are split into identified parts ("ADR-0012#decision[2/3]") at line
// boundaries, never clipped; what does not fit is counted in Omitted and
// reachable through a cursor bound to the log's fingerprint.
//
// # Order
//
// Within a response: what was asked for (leading with the accepted
// successor when a superseded record was asked for), then applicable
// system constraints, then explicit dependencies (relations, at most three
// hops; archived bodies at most one hop), then incidental same-domain or
// same-iteration records. A task answer is made of decision units first,
// records in force before those that are not, and sends less when its
// confidence is low (see [Service.Answer] and docs/commands/context.md).
//
// # Standing
//
// Every unit of a record says whether the record is in force
// ([Unit.InForce]) and, when it is not or may not be, why ([Unit.Note]):
// its status (in any form the parser reads), or its own text saying that
// another record replaces it.
package evidence

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// Intent says which part of a decision a request is after.
type Intent string

// Intents.
const (
	Current   Intent = "current"
	Rationale Intent = "rationale"
	History   Intent = "history"
)

// Defaults of the budget (tunable per request and in .adr.toml).
const (
	DefaultMaxUnits = 8
	// DefaultTaskMaxUnits bounds a task answer, which packs short
	// windows of many records: relevance and the code points stop it
	// first.
	DefaultTaskMaxUnits = 16
	// DefaultTaskMaxChars is a task answer's budget: what an agent reads
	// with every question it asks.
	DefaultTaskMaxChars = 5000
	DefaultMaxChars     = 12000
	// MaxHops bounds relation traversal; ArchiveHops bounds how far from
	// the request an archived record's body may be included.
	MaxHops     = 3
	ArchiveHops = 1
)

// Limits of the budget: a request (a flag, an MCP argument, .adr.toml or a
// cursor) outside them is refused.
const (
	MaxUnitsLimit = 100
	MinCharsLimit = 2000
	MaxCharsLimit = 1000000
)

// Format is the rendering a budget is measured in.
type Format string

// Formats.
const (
	// JSON is compact JSON: no indentation, which would cost as much as
	// the metadata of every unit.
	JSON Format = "json"
	Text Format = "text"
	// CompactJSON is JSON as a transport embeds it in a message (MCP):
	// compact, as JSON is.
	CompactJSON Format = "compact-json"
	// PrettyJSON is JSON indented for people (context --json --pretty).
	PrettyJSON Format = "pretty-json"
)

// Request is one context question.
type Request struct {
	// Selector: at most one of ID, Domain, Iteration and Task; none means
	// an overview. File may accompany Task.
	ID        string `json:"id,omitempty"`
	Domain    string `json:"domain,omitempty"`
	Iteration string `json:"iteration,omitempty"`
	Task      string `json:"task,omitempty"`
	File      string `json:"file,omitempty"`
	// Paths are changed or selected files (context --file without --task,
	// --diff): the decisions that govern them come first; alone they are
	// the selector "paths".
	Paths []string `json:"paths,omitempty"`
	// Diff names what Paths came from, when they are a diff's changed
	// files: a revision ("HEAD~1") or "staged". A diff that changes no
	// file is said so in the warnings.
	Diff     string `json:"diff,omitempty"`
	Intent   Intent `json:"intent,omitempty"`
	MaxUnits int    `json:"max_units,omitempty"`
	MaxChars int    `json:"max_chars,omitempty"`
	// Format is how the response will be printed; the budget is measured
	// in it.
	Format Format `json:"-"`
	// Cursor continues an earlier response.
	Cursor string `json:"-"`
}

// Selector names the kind of request.
func (r Request) Selector() string {
	switch {
	case r.ID != "":
		return "id"
	case r.Domain != "":
		return "domain"
	case r.Iteration != "":
		return "iteration"
	case r.Task != "":
		return "task"
	case len(r.Paths) > 0:
		return "paths"
	}
	return "overview"
}

// Unit is one piece of evidence with its provenance.
type Unit struct {
	// ID is the unit ("ADR-0012#decision", "ADR-0042§3",
	// "ADR-0012#decision[2/3]" for a part) or, for source, "path#L10-L21".
	ID    string `json:"id"`
	Path  string `json:"path"`
	Lines [2]int `json:"lines"`
	// Status is the record's (or container section's) status; "" for
	// source excerpts.
	Status string `json:"status"`
	// Kind is "decision" (a whole unit), "excerpt" (a part of a unit),
	// "source" (lines of a repository file), "current" (a section, or
	// a part of one, of a fresh reviewed CURRENT view: status "derived")
	// or "memory" (a memory item: ID, Topic and Source label it; status
	// empty, lines [0, 0]; never a decision).
	Kind  string `json:"kind"`
	Title string `json:"title,omitempty"`
	// Topic and Source label a memory unit.
	Topic  string `json:"topic,omitempty"`
	Source string `json:"source,omitempty"`
	// Role says why the unit is here: "requested", "successor of
	// ADR-0003", "system constraint", "dependency (amends ADR-0007)",
	// "match", "selected file".
	Role string `json:"role"`
	// InForce says whether the record (or container section) is in
	// force: accepted and not marked superseded. Absent for source and
	// CURRENT units.
	InForce *bool `json:"in_force,omitempty"`
	// Note labels a unit whose record is not in force ("superseded by
	// ADR-0002", "proposed", "status unknown") or whose text says it is
	// being replaced ("possibly superseded: ... (see ADR-0009)").
	Note string `json:"note,omitempty"`
	// Stale are the record's staleness signals ("review due: review_by
	// 2025-12-31 has passed", "stale proposal: ...", "scope unmatched:
	// ...", "scope churn: ..."), as `git adr check` reports them.
	Stale []string `json:"stale,omitempty"`
	Text  string   `json:"text"`
}

// Reference names a record without its body: related records that were
// not included, successors, candidates.
type Reference struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Status   string `json:"status"`
	Path     string `json:"path"`
	Relation string `json:"relation"`
}

// Freshness says what the answer was built from.
type Freshness struct {
	// Basis is "current" when the answer leads with sections of a fresh
	// reviewed CURRENT view (the original evidence follows), "records"
	// when it comes from the original ADRs alone.
	Basis string `json:"basis"`
	// View is "none" when no root has a CURRENT view, else the state of
	// the views of the roots the request concerns (the worst of them):
	// "fresh", "missing", "stale", "unsupported" or "corrupt".
	View string `json:"view"`
	// Fingerprint is the start of the log's fingerprint (16 hex digits,
	// the part a cursor is bound to): any change to the log changes it.
	Fingerprint string `json:"fingerprint"`
	Records     int    `json:"records"`
	// Views lists every root's view state when some root has a view
	// (optional: absent otherwise).
	Views []ViewState `json:"views,omitempty"`
}

// Coverage says how much of what the request selected is in this
// response.
type Coverage struct {
	Selected int `json:"selected"`
	Included int `json:"included"`
	// Before counts units delivered by earlier pages of the same cursor.
	Before int `json:"before"`
	// EssentialRemaining counts essential units (the requested record,
	// system constraints) still to come.
	EssentialRemaining int  `json:"essential_remaining"`
	Complete           bool `json:"complete"`
}

// Size reports the response's size in separate figures; tokens are counted
// with the OpenAI o200k_base encoding (no client-side tokenizer exists for
// current Claude models: treat other models' counts as estimates).
type Size struct {
	Bytes         int `json:"bytes"`
	CodePoints    int `json:"code_points"`
	TokensO200k   int `json:"tokens_o200k"`
	MaxCodePoints int `json:"max_code_points"`
	MaxUnits      int `json:"max_units"`
}

// Overview is the map of the log returned when nothing is selected.
type Overview struct {
	Records   int            `json:"records"`
	Archived  int            `json:"archived"`
	ByStatus  map[string]int `json:"by_status"`
	Roots     []string       `json:"roots"`
	Domains   []DomainCount  `json:"domains"`
	Recent    []Reference    `json:"recent"`
	NextSteps []string       `json:"next_steps"`
}

// DomainCount is a domain with its number of live records.
type DomainCount struct {
	Domain  string `json:"domain"`
	Records int    `json:"records"`
}

// Response is the answer to a Request.
type Response struct {
	Selector   string         `json:"selector"`
	Query      string         `json:"query,omitempty"`
	Intent     Intent         `json:"intent"`
	Confidence string         `json:"confidence,omitempty"`
	Overview   *Overview      `json:"overview,omitempty"`
	Units      []Unit         `json:"units"`
	References []Reference    `json:"references,omitempty"`
	Cursor     *string        `json:"cursor,omitempty"`
	Omitted    map[string]int `json:"omitted,omitempty"`
	Coverage   Coverage       `json:"coverage"`
	Freshness  Freshness      `json:"freshness"`
	Warnings   []string       `json:"warnings,omitempty"`
	Next       []string       `json:"next,omitempty"`
	Size       Size           `json:"size"`

	// Memory names the memory items among Units (absent when none).
	Memory []MemoryUsed `json:"memory,omitempty"`
	// Retrieval names how a task answer's records were found when an
	// embeddings endpoint is configured: "lexical+embeddings (MODEL at
	// HOST)", or "lexical" when the endpoint failed (a warning says why).
	// Absent otherwise: the ranking is lexical.
	Retrieval string `json:"retrieval,omitempty"`
}

// RequestError is a bad request: an unknown ID or domain, a stale or
// foreign cursor, conflicting selectors. Hint says what to do instead.
type RequestError struct {
	Msg  string
	Hint string
}

func (e *RequestError) Error() string { return e.Msg }

func badRequest(hint, format string, args ...any) error {
	return &RequestError{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// MarshalJSON writes a unit without what its ID, path or kind already
// say: in_force only when the record is not in force, kind only for
// units that are not a record's text (source, current, memory), role
// only when it is not a plain match, and title only when the file name
// does not already say it. Every figure an answer sends is spent on
// evidence first.
func (u Unit) MarshalJSON() ([]byte, error) {
	type lean struct {
		ID      string   `json:"id"`
		Path    string   `json:"path"`
		Lines   [2]int   `json:"lines"`
		Status  string   `json:"status,omitempty"`
		Kind    string   `json:"kind,omitempty"`
		Title   string   `json:"title,omitempty"`
		Topic   string   `json:"topic,omitempty"`
		Source  string   `json:"source,omitempty"`
		Role    string   `json:"role,omitempty"`
		InForce *bool    `json:"in_force,omitempty"`
		Note    string   `json:"note,omitempty"`
		Stale   []string `json:"stale,omitempty"`
		Text    string   `json:"text"`
	}
	l := lean{ID: u.ID, Path: u.Path, Lines: u.Lines, Status: u.Status, Kind: u.Kind, Title: u.Title, Topic: u.Topic,
		Source: u.Source, Role: u.Role, InForce: u.InForce, Note: u.Note, Stale: u.Stale, Text: u.Text}
	if l.Kind == KindDecision || l.Kind == KindExcerpt {
		l.Kind = ""
	}
	if l.Role == "match" {
		l.Role = ""
	}
	if l.InForce != nil && *l.InForce {
		l.InForce = nil
	}
	if l.Kind == "" && titleInPath(l.Title, l.Path) {
		l.Title = ""
	}
	return json.Marshal(l)
}

// Kinds of units that are a record's text.
const (
	KindDecision = "decision"
	KindExcerpt  = "excerpt"
)

// titleInPath reports whether a file name says a title: every word of
// the title (letters and digits, any case) is a word of the file's name.
func titleInPath(title, path string) bool {
	if title == "" {
		return true
	}
	name := path
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	words := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	}
	have := map[string]bool{}
	for _, w := range words(name) {
		have[w] = true
	}
	tw := words(title)
	if len(tw) == 0 {
		return false
	}
	for _, w := range tw {
		if !have[w] {
			return false
		}
	}
	return true
}
