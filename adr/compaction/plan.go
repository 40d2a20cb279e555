// Package compaction implements `git adr compaction`: read-only analysis of
// a decision log, deterministic plans stored on git refs, drafting through
// pluggable drafters, mechanical validation of candidates, review reports,
// and publication of reviewed summaries (CURRENT.md and its manifest).
//
// # Storage
//
// A plan is a series of commits on refs/adr/plans/<plan-id>: each revision
// is a commit whose tree holds plan.json, the evidence batches sent to the
// drafter and the review report. Candidates are one commit on
// refs/adr/candidates/<plan-id> whose parent is the plan's base commit, so
// `git diff <base> refs/adr/candidates/<plan-id>` is the whole proposal.
// Refs move compare-and-swap; numbers a consolidation will give new
// records are reserved with create-only refs in the same transaction, so
// two planners never reserve the same number.
package compaction

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr/plans"
	"github.com/git-adr/git-adr/internal/lazyre"
)

// Refs.
const (
	PlansRef        = "refs/adr/plans/"
	CandidatesRef   = "refs/adr/candidates/"
	ReservationsRef = "refs/adr/reservations/"
)

// SchemaVersion is the version of plan.json.
const SchemaVersion = 1

// Mode is what a plan drafts.
type Mode string

// Modes. An empty mode is read-only analysis and never makes a plan.
const (
	Summary     Mode = "summary"
	Consolidate Mode = "consolidate"
)

// State is where a plan is in its life.
type State string

// States, in order.
const (
	Planned   State = "planned"   // scope fixed, nothing drafted
	Drafted   State = "drafted"   // a candidate exists
	Validated State = "validated" // the candidate passed mechanical validation
	Published State = "published" // the view was committed
	Accepted  State = "accepted"  // the replacements were accepted in one commit
	Cancelled State = "cancelled"
)

// Scope is what a plan covers: a domain, exact sources, or (both empty)
// every unarchived canonical record of every root.
type Scope struct {
	Domain  string   `json:"domain,omitempty"`
	Sources []string `json:"sources,omitempty"`
	Roots   []string `json:"roots"`
}

// Flags is the scope as `git adr compaction` options (" --domain X",
// " --sources A,B", or "" for the whole log), for the commands hints print.
func (s Scope) Flags() string {
	switch {
	case s.Domain != "":
		return " --domain " + s.Domain
	case len(s.Sources) > 0:
		return " --sources " + strings.Join(s.Sources, ",")
	}
	return ""
}

// Plan is one compaction plan revision. Its JSON is deterministic: the
// same scope over the same log gives the same bytes.
type Plan struct {
	Schema   int    `json:"schema"`
	ID       string `json:"id"`
	Revision int    `json:"revision"`
	Mode     Mode   `json:"mode"`
	Scope    Scope  `json:"scope"`
	// Base is the commit the plan reads the log from (HEAD when planned).
	Base string `json:"base"`
	// Numbering and style for consolidation; never invented.
	Style     string `json:"style,omitempty"`
	Baseline  string `json:"baseline,omitempty"`
	Iteration string `json:"iteration,omitempty"`
	Archive   bool   `json:"archive,omitempty"`
	// AckExternalLinks acknowledges the external-link risks of the
	// archive part (with Archive): without it, a risk blocks the archive
	// part (never the acceptance).
	AckExternalLinks bool `json:"ack_external_links,omitempty"`
	// Sources are the records in scope with their blob hashes and units.
	Sources []Source `json:"sources"`
	// Membership is a hash of the scope's record set (paths and IDs):
	// adding or removing a record in scope changes it.
	Membership string `json:"membership"`
	// Evidence are records read as context but not targets (applicable
	// system constraints, referenced dependencies).
	Evidence    []Source      `json:"evidence"`
	Issues      []Issue       `json:"issues"`
	Transitions []Transition  `json:"transitions"`
	Reserved    []Reservation `json:"reservations"`
	Read        Volume        `json:"read"`
	Drafter     string        `json:"drafter,omitempty"`
	Feedback    []string      `json:"feedback,omitempty"`
	State       State         `json:"state"`
	// CandidateTree is the git tree of the candidate this revision
	// reviewed (refs/adr/candidates/<id> at the time): acceptance refuses
	// a candidate ref that points at any other tree.
	CandidateTree string `json:"candidate_tree,omitempty"`
}

// Done reports whether the plan was carried out (published or accepted).
func (p *Plan) Done() bool { return p.State == Published || p.State == Accepted }

// Source is a record in a plan.
type Source struct {
	ID     string `json:"id"`
	Path   string `json:"path"`
	Blob   string `json:"blob"`
	Status string `json:"status"`
	Class  string `json:"class,omitempty"`
	Units  []Unit `json:"units"`
}

// Unit is a decision unit with its content hash and how a candidate
// accounts for it.
type Unit struct {
	Locator string `json:"locator"`
	Hash    string `json:"hash"`
	Lines   [2]int `json:"lines"`
	// Coverage is "" until drafted, then one of Retained, Changed,
	// Retired, Unresolved.
	Coverage string `json:"coverage,omitempty"`
	Location string `json:"location,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

// Coverage states of a unit in a candidate (spec §4).
const (
	Retained   = "retained"   // carried over; Location says where
	Changed    = "changed"    // deliberately changed; Reason says why
	Retired    = "retired"    // deliberately retired; Reason says why
	Unresolved = "unresolved" // not settled; blocks whole-record retirement
)

// Issue is something the analysis or validation found.
type Issue struct {
	Kind    string   `json:"kind"`
	IDs     []string `json:"ids"`
	Path    string   `json:"path"`
	Line    int      `json:"line"`
	Message string   `json:"message"`
}

// Transition is a lifecycle change acceptance would make.
type Transition struct {
	ID   string `json:"id"`
	From string `json:"from"`
	To   string `json:"to"`
}

// Reservation is a number a consolidation holds for a new record.
type Reservation struct {
	Root   string `json:"root"`
	Number int    `json:"number"`
	ID     string `json:"id"`
	Path   string `json:"path"`
}

// Volume is how much a drafter would read.
type Volume struct {
	Bytes       int `json:"bytes"`
	CodePoints  int `json:"code_points"`
	TokensO200k int `json:"tokens_o200k"`
	Batches     int `json:"batches"`
}

// MembershipHash hashes the scope's record set.
func MembershipHash(sources []Source) string {
	var keys []string
	for _, s := range sources {
		keys = append(keys, s.Path+"\x00"+s.ID)
	}
	sort.Strings(keys)
	h := sha256.Sum256([]byte(strings.Join(keys, "\n")))
	return hex.EncodeToString(h[:])
}

// SourcesHash hashes what the plan read of its sources: each record's ID,
// path, blob, status and every unit's locator and hash. An approval names
// it; acceptance recomputes it from the log as it is.
func SourcesHash(sources []Source) string {
	var lines []string
	for _, s := range sources {
		line := s.Path + "\x00" + s.ID + "\x00" + s.Blob + "\x00" + s.Status
		for _, u := range s.Units {
			line += "\x00" + u.Locator + "=" + u.Hash
		}
		lines = append(lines, line)
	}
	sort.Strings(lines)
	h := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(h[:])
}

// PlanID derives a plan's identity from what it is about: mode, scope,
// base and membership. Re-planning the same scope of the same log names
// the same plan; anything else names another.
func PlanID(mode Mode, scope Scope, base, membership string) string {
	return planID(mode, scope, base, membership, false, false)
}

// planID is PlanID of a plan that may carry an archive part: with one
// (and with its risks acknowledged) it is another plan.
func planID(mode Mode, scope Scope, base, membership string, archive, ack bool) string {
	data, _ := json.Marshal(struct {
		M Mode
		S Scope
		B string
		H string
	}{mode, scope, base, membership})
	if archive {
		data, _ = json.Marshal(struct {
			M    Mode
			S    Scope
			B, H string
			A, K bool
		}{mode, scope, base, membership, archive, ack})
	}
	h := sha256.Sum256(data)
	prefix := "s"
	if mode == Consolidate {
		prefix = "c"
	}
	return fmt.Sprintf("%s-%s", prefix, hex.EncodeToString(h[:])[:10])
}

// Encode renders plan.json (the shared codec, [plans.Encode]).
func (p *Plan) Encode() []byte { return plans.Encode(p) }

// DecodePlan reads plan.json.
func DecodePlan(data []byte) (*Plan, error) {
	var p Plan
	if err := plans.Decode(data, &p, p.check); err != nil {
		return nil, err
	}
	return &p, nil
}

// check refuses a plan this git-adr cannot read or must not trust.
func (p *Plan) check() error {
	if p.Schema != SchemaVersion {
		return fmt.Errorf("schema %d is not supported (this git-adr reads %d)", p.Schema, SchemaVersion)
	}
	// The ID names files and directories under $GIT_DIR/adr (receipts,
	// the drafting worktree): a plan fetched from elsewhere must not name
	// a path outside it.
	if !planIDPattern.MatchString(p.ID) {
		return fmt.Errorf("id %q is not a plan ID (such as \"s-0123456789\")", p.ID)
	}
	switch p.Mode {
	case Summary, Consolidate:
	default:
		return fmt.Errorf("mode %q is not summary or consolidate", p.Mode)
	}
	switch p.State {
	case Planned, Drafted, Validated, Published, Accepted, Cancelled:
	default:
		return fmt.Errorf("state %q is not a plan state", p.State)
	}
	if p.Revision < 0 {
		return fmt.Errorf("revision %d", p.Revision)
	}
	return nil
}

// planIDPattern is what PlanID makes, loosely: one safe path element.
var planIDPattern = lazyre.New(`^[a-z0-9][a-z0-9-]{0,63}$`)
