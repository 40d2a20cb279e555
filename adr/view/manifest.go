// Package view is the reviewed CURRENT view of a root: CURRENT.md (prose
// reviewed by people) and CURRENT.sources.json (the manifest that says
// what the prose was made from), and the freshness check that decides, at
// read time and from blob hashes and membership only, whether the view
// still describes the log. docs/current.md documents both files.
//
// # Publishing
//
// A reviewed summary [Draft] becomes a pair with [Build] (one root) or
// [BuildAll] (one [Pair] per participating root of a multi-root plan).
// Both validate the draft (every source unit accounted for exactly once,
// citations that name units), pin every source's blob hash and units, the
// membership of the selection ([Members]) and CURRENT.md's SHA-256, and
// refuse to overwrite files git-adr did not write ([Owned]). The caller
// writes the returned bytes as they are, in one commit.
//
// # Reading
//
// [Check] says whether a root's pair is fresh, stale, missing, corrupt or
// unsupported, with reasons; `git adr context` uses only fresh views and
// `git adr check --compaction` reports the others ([Findings]).
// [Relocate] repairs a view after renames that kept the records' bytes.
package view

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
)

// File names, in each participating root.
const (
	CurrentFile  = "CURRENT.md"
	ManifestFile = "CURRENT.sources.json"
)

// Schema is the manifest schema this git-adr writes and reads.
const Schema = "git-adr/current-sources/v1"

// Manifest is CURRENT.sources.json (documented in docs/current.md).
type Manifest struct {
	Schema    string `json:"schema"`
	Generator string `json:"generator"`
	Root      string `json:"root"`
	Plan      string `json:"plan"`
	Revision  int    `json:"revision"`
	// Selection says which records the view covers, so membership can be
	// recomputed: mode, domain or exact sources, and the statuses in
	// scope.
	Selection Selection `json:"selection"`
	// Membership hashes the set of records the selection chose.
	Membership string   `json:"membership"`
	Sources    []Source `json:"sources"`
	// Dependencies are records outside the scope the view relies on
	// (system constraints, referenced records); changing them also makes
	// the view stale.
	Dependencies []Source `json:"dependencies"`
	Summary      Summary  `json:"summary"`
	// Views are the CURRENT.md files of other roots this view links to
	// (module views linked from the main root's view); informational,
	// not part of freshness.
	Views []string `json:"views,omitempty"`
}

// Selection is the rule that chose the view's records.
type Selection struct {
	Mode    string   `json:"mode"`
	Domain  string   `json:"domain,omitempty"`
	Sources []string `json:"sources,omitempty"`
	// Archived records are never in a view's scope.
	Rule string `json:"rule"`
}

// Source is one record the view was made from.
type Source struct {
	ID string `json:"id"`
	// Title is the record's title when the view was built, for the
	// Sources section of CURRENT.md.
	Title  string `json:"title"`
	Path   string `json:"path"`
	Blob   string `json:"blob"`
	Status string `json:"status"`
	Units  []Unit `json:"units"`
}

// Unit is a decision unit and how the view accounts for it.
type Unit struct {
	Locator string `json:"locator"`
	// Heading is the unit's heading as written; CURRENT.md links to the
	// unit with its GitHub-style anchor.
	Heading  string `json:"heading"`
	Hash     string `json:"hash"`
	Coverage string `json:"coverage"`
	Location string `json:"location,omitempty"`
	Reason   string `json:"reason,omitempty"`
}

// Summary pins CURRENT.md: a hand edit of the prose breaks the pair.
type Summary struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// BlobHash is the object name git gives data ("blob <size>\0" + data).
func BlobHash(data []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(data))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// SummaryHash is the SHA-256 of CURRENT.md's bytes.
func SummaryHash(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// Encode renders the manifest deterministically.
func (m *Manifest) Encode() []byte {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic(err) // a Manifest always encodes
	}
	return append(data, '\n')
}

// Selection modes.
const (
	// ModeAll selects every record of the root.
	ModeAll = "all"
	// ModeDomain selects the records tagged with Selection.Domain
	// (compared without regard to case).
	ModeDomain = "domain"
	// ModeSources selects the records named in Selection.Sources.
	ModeSources = "sources"
)

// RuleUnarchived is the only selection rule of schema v1: the records the
// mode selects among the root's unarchived canonical records, whatever
// their status (accepted records are constraints, proposals stay
// proposals, the others are history the view may cite). Mirrors,
// generated files and drafts are never records.
const RuleUnarchived = "unarchived"

// Coverage states of a source unit (spec §4), and the state of a
// dependency's unit that a statement cites.
const (
	Retained   = "retained"   // restated in the view; Location says where
	Changed    = "changed"    // deliberately stated differently; Reason says why
	Retired    = "retired"    // deliberately left out as no longer in force; Reason says why
	Unresolved = "unresolved" // not settled; listed under Coverage in CURRENT.md
	Cited      = "cited"      // a dependency's unit a statement cites (no coverage)
)

// ErrUnsupported means a manifest of a schema or selection rule this
// git-adr does not know.
var ErrUnsupported = errors.New("unsupported CURRENT manifest")

// DecodeManifest reads CURRENT.sources.json. A schema, selection mode or
// rule this git-adr does not know is ErrUnsupported (wrapped); anything
// that is not a well-formed manifest is another error (a
// *json.SyntaxError for bad JSON).
func DecodeManifest(data []byte) (*Manifest, error) {
	// One pass for a well-formed manifest; a second only to tell an
	// unknown schema (whose layout may differ) from a broken file.
	var m Manifest
	err := json.Unmarshal(data, &m)
	var head struct {
		Schema *string `json:"schema"`
	}
	if err != nil {
		if json.Unmarshal(data, &head) != nil || head.Schema == nil || *head.Schema == Schema {
			return nil, err
		}
	} else if m.Schema != "" {
		head.Schema = &m.Schema
	}
	if head.Schema == nil {
		return nil, fmt.Errorf("no \"schema\" field")
	}
	if *head.Schema != Schema {
		return nil, fmt.Errorf("%w: schema %q (this git-adr reads %q)", ErrUnsupported, *head.Schema, Schema)
	}
	// Fields a later generator of the same schema adds are ignored.
	switch m.Selection.Mode {
	case ModeAll, ModeDomain, ModeSources:
	default:
		return nil, fmt.Errorf("%w: selection mode %q", ErrUnsupported, m.Selection.Mode)
	}
	if m.Selection.Rule != RuleUnarchived {
		return nil, fmt.Errorf("%w: selection rule %q", ErrUnsupported, m.Selection.Rule)
	}
	switch {
	case m.Selection.Mode == ModeDomain && m.Selection.Domain == "":
		return nil, fmt.Errorf("selection mode %q without a domain", ModeDomain)
	case m.Selection.Mode == ModeSources && len(m.Selection.Sources) == 0:
		return nil, fmt.Errorf("selection mode %q without sources", ModeSources)
	case m.Summary.Path == "" || len(m.Summary.SHA256) != 64:
		return nil, fmt.Errorf("the summary needs a path and a SHA-256")
	}
	for _, s := range append(append([]Source(nil), m.Sources...), m.Dependencies...) {
		if s.ID == "" || s.Path == "" || len(s.Blob) != 40 {
			return nil, fmt.Errorf("source %q needs an id, a path and a 40-digit blob hash", s.ID)
		}
	}
	return &m, nil
}
