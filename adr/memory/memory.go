// Package memory keeps a team's durable, manually curated memory: short
// facts ("we use testscript for CLI tests") that a person saved with a
// topic and a source label, and may later correct, disable or delete.
//
// # Storage
//
// The memory is a chain of commits on [Ref]. Each commit's tree holds one
// JSON file per item, items/<id>.json ([Item]); every change (add, edit,
// disable, enable, remove) is a new commit whose parent is the state it
// changed, and the ref moves compare-and-swap, so a lost race is an error,
// never an overwrite, and the history of every item stays readable with
// git log. The ref is pushed and fetched like plans (refs/adr/*).
//
// # What memory is not
//
// An item is not a decision: it is never parsed as a record, never part of
// a CURRENT view, and `git adr context` shows it as its own kind, labelled
// with its topic, source and ID. Memory is stored unencrypted and is
// shared with everyone who can fetch the ref, so [Scan] refuses text that
// holds a secret in a recognisable format before anything is written.
//
// # Relevance
//
// [Relevant] ranks enabled items by the words of a task (the same analysis
// as decision retrieval: stemming, folding, a small thesaurus); it is
// deterministic and has no I/O.
package memory

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/git-adr/git-adr/internal/lazyre"
)

// Ref is the ref the memory lives on.
const Ref = "refs/adr/memory"

// Dir is the directory of the tree that holds one file per item.
const Dir = "items"

// Version is the format version of an item file.
const Version = 1

// Limits on an item's fields, in Unicode code points. Memory holds short
// facts: a longer text belongs in a decision record or in the docs.
const (
	MaxTopic  = 80
	MaxSource = 200
	MaxText   = 1000
)

// Item is one memory item, as stored in items/<id>.json.
type Item struct {
	Version int    `json:"version"`
	ID      string `json:"id"`
	// Seq orders items by when they were added (the largest existing Seq
	// plus one); ties, possible only after combining two memories, are
	// broken by ID.
	Seq     int    `json:"seq"`
	Topic   string `json:"topic"`
	Source  string `json:"source"`
	Text    string `json:"text"`
	Enabled bool   `json:"enabled"`
	// Revision counts the changes of this item: 1 when added, one more
	// for every edit, disable and enable.
	Revision int `json:"revision"`
}

// Path is the item's file in the memory tree.
func (it *Item) Path() string { return Path(it.ID) }

// Path is the file of the item with that ID in the memory tree.
func Path(id string) string { return Dir + "/" + id + ".json" }

// Encode is the item's file content: indented JSON with a final newline.
func (it *Item) Encode() []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(it); err != nil {
		panic(err) // an Item always encodes
	}
	return b.Bytes()
}

// idPattern is the form of an item ID: "m-" and eight lowercase hex digits.
var idPattern = lazyre.New(`^m-[0-9a-f]{8}$`)

// ValidID reports whether s has the form of an item ID.
func ValidID(s string) bool { return idPattern.MatchString(s) }

// Decode reads an item file, refusing anything git-adr would not have
// written: unknown fields or versions, a bad ID, fields out of bounds.
func Decode(data []byte) (*Item, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var it Item
	if err := dec.Decode(&it); err != nil {
		return nil, fmt.Errorf("memory item: %w", err)
	}
	if dec.More() {
		return nil, errors.New("memory item: trailing data after the JSON object")
	}
	if it.Version != Version {
		return nil, fmt.Errorf("memory item: unknown version %d (this git-adr reads version %d)", it.Version, Version)
	}
	if !ValidID(it.ID) {
		return nil, fmt.Errorf("memory item: bad ID %q", it.ID)
	}
	if it.Seq < 1 || it.Revision < 1 {
		return nil, fmt.Errorf("memory item %s: seq and revision must be at least 1", it.ID)
	}
	if err := (Fields{Topic: it.Topic, Source: it.Source, Text: it.Text}).Check(); err != nil {
		return nil, fmt.Errorf("memory item %s: %w", it.ID, err)
	}
	return &it, nil
}

// Fields are what a person writes: a topic, a source label and the text.
type Fields struct {
	Topic, Source, Text string
}

// FieldError is a field out of bounds or malformed; Field is "topic",
// "source" or "text".
type FieldError struct {
	Field   string
	Problem string
}

func (e *FieldError) Error() string { return e.Field + " " + e.Problem }

// Normalize trims the fields (the text keeps inner newlines; CRLF becomes
// LF).
func (f Fields) Normalize() Fields {
	f.Topic = strings.TrimSpace(f.Topic)
	f.Source = strings.TrimSpace(f.Source)
	f.Text = strings.TrimSpace(strings.ReplaceAll(f.Text, "\r\n", "\n"))
	return f
}

// Check validates normalized fields: every field present and UTF-8, topic
// and source on one line, no control characters other than newline and
// tab in the text, and the length limits.
func (f Fields) Check() error {
	for _, c := range []struct {
		name, v   string
		max       int
		multiline bool
	}{{"topic", f.Topic, MaxTopic, false}, {"source", f.Source, MaxSource, false}, {"text", f.Text, MaxText, true}} {
		if strings.TrimSpace(c.v) == "" {
			return &FieldError{c.name, "is empty"}
		}
		if !utf8.ValidString(c.v) {
			return &FieldError{c.name, "is not UTF-8"}
		}
		if n := utf8.RuneCountInString(c.v); n > c.max {
			return &FieldError{c.name, fmt.Sprintf("is %d characters; at most %d are allowed", n, c.max)}
		}
		for _, r := range c.v {
			if c.multiline && (r == '\n' || r == '\t') {
				continue
			}
			if unicode.IsControl(r) || isFormatControl(r) {
				what := "a control character"
				if r == '\n' {
					what = "a newline"
				}
				return &FieldError{c.name, fmt.Sprintf("holds %s (%U)", what, r)}
			}
		}
	}
	return nil
}

// isFormatControl reports the bidi controls and line separators that can
// reorder or break what a reader sees.
func isFormatControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029
}
