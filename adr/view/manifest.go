// Package view is the reviewed CURRENT view of a root: CURRENT.md (prose
// reviewed by people) and CURRENT.sources.json (the manifest that says
// what the prose was made from), and the freshness check that decides, at
// read time and from blob hashes and membership only, whether the view
// still describes the log.
package view

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
	ID     string `json:"id"`
	Path   string `json:"path"`
	Blob   string `json:"blob"`
	Status string `json:"status"`
	Units  []Unit `json:"units"`
}

// Unit is a decision unit and how the view accounts for it.
type Unit struct {
	Locator  string `json:"locator"`
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
