// Package jsonadr reads and writes JSON-ADR, the interchange format of
// joshrotenberg/adrs (schema/json-adr/v1.json, version 1.0.0): a bulk
// export {"version", "adrs": [...]}, a single {"version", "adr": {...}},
// or, as adrs also accepts, a bare ADR object.
//
// # Losslessness
//
// The schema's fields (number, title, status, date, context, decision,
// consequences, links, tags, ...) are what other tools read. What they
// cannot hold travels in the schema's one extension object,
// custom_sections, under keys starting "x-git-adr-": the record's exact
// bytes ([KeyBody], or [KeyBodyBase64] when they are not UTF-8), its ID,
// root and style, its own status, date and number where the schema's
// fields hold a normalised or stand-in value, and relations that
// name no exported number. Importing such an ADR writes the bytes back
// unchanged; an ADR without them (written by adrs) is rendered from its
// fields.
//
// # Strictness
//
// [Decode] follows the schema: every object is closed (an unknown field
// is an error naming it), required fields must be present, numbers are
// integers of at least 1, titles are not empty. consequences may be the
// schema's array or object, or a string as adrs 0.10 writes it.
package jsonadr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Version is the JSON-ADR version this package reads and writes.
const Version = "1.0.0"

// SchemaURL is the schema's $id.
const SchemaURL = "https://raw.githubusercontent.com/joshrotenberg/adrs/main/schema/json-adr/v1.json"

// The extension keys of custom_sections.
const (
	KeyPrefix     = "x-git-adr-"
	KeyBody       = "x-git-adr-body"        // the record's bytes (UTF-8)
	KeyBodyBase64 = "x-git-adr-body-base64" // the record's bytes, when not UTF-8
	KeyID         = "x-git-adr-id"          // "ADR-0007", "20201016-use-x", "core/use-x"
	KeyRoot       = "x-git-adr-root"        // the root directory, repository-relative
	KeyStyle      = "x-git-adr-style"       // nygard, madr, madr2, table, ocp, plain
	KeyRawStatus  = "x-git-adr-status"      // the status as written, when it differs from status
	KeyDate       = "x-git-adr-date"        // the date as written, when date is a stand-in
	KeyNumber     = "x-git-adr-number"      // the record's own number ("" for none), when number is a stand-in
	KeyRelations  = "x-git-adr-relations"   // JSON [{label, target}] of relations links cannot hold
	KeyArchived   = "x-git-adr-archived"    // "true" for an archived record
)

// Document is a JSON-ADR document: a bulk export, or a single ADR.
type Document struct {
	Schema      string      `json:"$schema,omitempty"`
	Version     string      `json:"version"`
	GeneratedAt string      `json:"generated_at,omitempty"`
	Tool        *Tool       `json:"tool,omitempty"`
	Repository  *Repository `json:"repository,omitempty"`
	ADRs        []ADR       `json:"adrs"`
}

// Tool names the program that wrote a bulk export.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Repository describes where a bulk export came from.
type Repository struct {
	Name         string `json:"name,omitempty"`
	ADRDirectory string `json:"adr_directory,omitempty"`
}

// ADR is one record.
type ADR struct {
	Number            int               `json:"number"`
	Title             string            `json:"title"`
	Status            string            `json:"status"`
	Date              string            `json:"date"`
	Deciders          []string          `json:"deciders,omitempty"`
	Consulted         []string          `json:"consulted,omitempty"`
	Informed          []string          `json:"informed,omitempty"`
	Tags              []string          `json:"tags,omitempty"`
	SourceURI         string            `json:"source_uri,omitempty"`
	Context           string            `json:"context,omitempty"`
	DecisionDrivers   []string          `json:"decision_drivers,omitempty"`
	ConsideredOptions []Option          `json:"considered_options,omitempty"`
	Decision          string            `json:"decision,omitempty"`
	Consequences      *Consequences     `json:"consequences,omitempty"`
	Confirmation      string            `json:"confirmation,omitempty"`
	Links             []Link            `json:"links,omitempty"`
	CustomSections    map[string]string `json:"custom_sections,omitempty"`
	Path              string            `json:"path,omitempty"`
}

// Option is a considered option.
type Option struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Pros        []string `json:"pros,omitempty"`
	Cons        []string `json:"cons,omitempty"`
}

// Link is a relation to another ADR, by number.
type Link struct {
	Type        string `json:"type"`
	Target      int    `json:"target"`
	Description string `json:"description,omitempty"`
}

// Consequences are a list, or positive/negative/risks lists. A string
// (as adrs 0.10 writes) is read as a one-item list.
type Consequences struct {
	List     []string
	Positive []string
	Negative []string
	Risks    []string
	// Structured: the object form.
	Structured bool
}

// Texts are all the consequences, in order.
func (c *Consequences) Texts() []string {
	if c == nil {
		return nil
	}
	if !c.Structured {
		return c.List
	}
	return append(append(append([]string(nil), c.Positive...), c.Negative...), c.Risks...)
}

// MarshalJSON writes the schema's array form, or its object form.
func (c Consequences) MarshalJSON() ([]byte, error) {
	if !c.Structured {
		list := c.List
		if list == nil {
			list = []string{}
		}
		return json.Marshal(list)
	}
	return json.Marshal(struct {
		Positive []string `json:"positive,omitempty"`
		Negative []string `json:"negative,omitempty"`
		Risks    []string `json:"risks,omitempty"`
	}{c.Positive, c.Negative, c.Risks})
}

// Error is a document that does not follow the schema; Path says where
// ("adrs[3].links[0].target").
type Error struct {
	Path string
	Msg  string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Encode writes d as indented JSON with a final newline; HTML characters
// are not escaped, so record text reads as written.
func Encode(w io.Writer, d *Document) error {
	if d.ADRs == nil {
		c := *d
		c.ADRs = []ADR{}
		d = &c
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(d)
}

// EncodeEach writes d as [Encode] does with n ADRs, made one at a time
// by adr (d.ADRs is not read): each is encoded and let go of before the
// next is made. The bytes are Encode's (TestEncodeEachAsEncode).
func EncodeEach(w io.Writer, d *Document, n int, adr func(i int) ADR) error {
	head := *d
	head.ADRs = []ADR{}
	var b bytes.Buffer
	if err := Encode(&b, &head); err != nil {
		return err
	}
	// The ADRs are the last field: the envelope ends with them, empty.
	const empty = "[]\n}\n"
	out := b.Bytes()
	if n == 0 || !bytes.HasSuffix(out, []byte(empty)) {
		if n != 0 {
			return fmt.Errorf("jsonadr: an envelope that does not end with its ADRs")
		}
		_, err := w.Write(out)
		return err
	}
	if _, err := w.Write(append(out[:len(out)-len(empty)], "[\n"...)); err != nil {
		return err
	}
	// An ADR inside the document's array is indented two levels.
	var one bytes.Buffer
	enc := json.NewEncoder(&one)
	enc.SetIndent("    ", "  ")
	enc.SetEscapeHTML(false)
	for i := range n {
		one.Reset()
		if i > 0 {
			one.WriteString(",\n")
		}
		one.WriteString("    ")
		if err := enc.Encode(adr(i)); err != nil {
			return err
		}
		one.Truncate(one.Len() - 1) // the encoder's newline
		if _, err := w.Write(one.Bytes()); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "\n  ]\n}\n")
	return err
}

// Decode reads a bulk export, a single ADR document or a bare ADR object,
// checking it against the schema. A single or bare ADR is returned as a
// document of one.
func Decode(data []byte) (*Document, error) {
	var top map[string]json.RawMessage
	if firstByte(data) != '{' {
		return nil, &Error{Msg: "not a JSON object"}
	}
	if err := strictUnmarshal(data, &top); err != nil {
		return nil, &Error{Msg: "not a JSON object: " + jsonMsg(err)}
	}
	if top == nil {
		return nil, &Error{Msg: "not a JSON object"}
	}
	d := &Document{}
	switch {
	case has(top, "adrs"):
		if err := closed(top, "", "$schema", "version", "generated_at", "tool", "repository", "adrs"); err != nil {
			return nil, err
		}
		if err := field(top, "", "$schema", &d.Schema, false); err != nil {
			return nil, err
		}
		if err := version(top, d); err != nil {
			return nil, err
		}
		if err := field(top, "", "generated_at", &d.GeneratedAt, false); err != nil {
			return nil, err
		}
		if raw, ok := top["tool"]; ok {
			obj, err := object(raw, "tool")
			if err != nil {
				return nil, err
			}
			if err := closed(obj, "tool", "name", "version"); err != nil {
				return nil, err
			}
			d.Tool = &Tool{}
			if err := field(obj, "tool", "name", &d.Tool.Name, true); err != nil {
				return nil, err
			}
			if err := field(obj, "tool", "version", &d.Tool.Version, true); err != nil {
				return nil, err
			}
		}
		if raw, ok := top["repository"]; ok {
			obj, err := object(raw, "repository")
			if err != nil {
				return nil, err
			}
			if err := closed(obj, "repository", "name", "adr_directory"); err != nil {
				return nil, err
			}
			d.Repository = &Repository{}
			if err := field(obj, "repository", "name", &d.Repository.Name, false); err != nil {
				return nil, err
			}
			if err := field(obj, "repository", "adr_directory", &d.Repository.ADRDirectory, false); err != nil {
				return nil, err
			}
		}
		var items []json.RawMessage
		if err := strictUnmarshal(top["adrs"], &items); err != nil || items == nil {
			return nil, &Error{Path: "adrs", Msg: "must be an array"}
		}
		d.ADRs = []ADR{}
		for i, raw := range items {
			a, err := decodeADR(raw, fmt.Sprintf("adrs[%d]", i))
			if err != nil {
				return nil, err
			}
			d.ADRs = append(d.ADRs, a)
		}
	case has(top, "adr"):
		if err := closed(top, "", "$schema", "version", "adr"); err != nil {
			return nil, err
		}
		if err := field(top, "", "$schema", &d.Schema, false); err != nil {
			return nil, err
		}
		if err := version(top, d); err != nil {
			return nil, err
		}
		a, err := decodeADR(top["adr"], "adr")
		if err != nil {
			return nil, err
		}
		d.ADRs = []ADR{a}
	default:
		a, err := decodeADR(data, "")
		if err != nil {
			return nil, err
		}
		d.Version = Version
		d.ADRs = []ADR{a}
	}
	return d, nil
}

func version(top map[string]json.RawMessage, d *Document) error {
	if err := field(top, "", "version", &d.Version, true); err != nil {
		return err
	}
	if d.Version != Version {
		return &Error{Path: "version", Msg: fmt.Sprintf("%q is not JSON-ADR version %s", d.Version, Version)}
	}
	return nil
}

var adrFields = []string{"number", "title", "status", "date", "deciders", "consulted", "informed", "tags",
	"source_uri", "context", "decision_drivers", "considered_options", "decision", "consequences",
	"confirmation", "links", "custom_sections", "path"}

func decodeADR(raw json.RawMessage, at string) (ADR, error) {
	var a ADR
	obj, err := object(raw, at)
	if err != nil {
		return a, err
	}
	if err := closed(obj, at, adrFields...); err != nil {
		return a, err
	}
	if err := number(obj, at, "number", &a.Number, true); err != nil {
		return a, err
	}
	for _, f := range []struct {
		name     string
		dst      *string
		required bool
	}{{"title", &a.Title, true}, {"status", &a.Status, true}, {"date", &a.Date, true},
		{"source_uri", &a.SourceURI, false}, {"context", &a.Context, false}, {"decision", &a.Decision, false},
		{"confirmation", &a.Confirmation, false}, {"path", &a.Path, false}} {
		if err := field(obj, at, f.name, f.dst, f.required); err != nil {
			return a, err
		}
	}
	if a.Title == "" {
		return a, &Error{Path: join(at, "title"), Msg: "must not be empty"}
	}
	for _, f := range []struct {
		name string
		dst  *[]string
	}{{"deciders", &a.Deciders}, {"consulted", &a.Consulted}, {"informed", &a.Informed},
		{"tags", &a.Tags}, {"decision_drivers", &a.DecisionDrivers}} {
		if err := strings_(obj, at, f.name, f.dst); err != nil {
			return a, err
		}
	}
	if raw, ok := obj["considered_options"]; ok {
		var items []json.RawMessage
		if err := strictUnmarshal(raw, &items); err != nil || items == nil {
			return a, &Error{Path: join(at, "considered_options"), Msg: "must be an array"}
		}
		for i, item := range items {
			p := fmt.Sprintf("%s[%d]", join(at, "considered_options"), i)
			o, err := object(item, p)
			if err != nil {
				return a, err
			}
			if err := closed(o, p, "name", "description", "pros", "cons"); err != nil {
				return a, err
			}
			var opt Option
			if err := field(o, p, "name", &opt.Name, true); err != nil {
				return a, err
			}
			if opt.Name == "" {
				return a, &Error{Path: join(p, "name"), Msg: "must not be empty"}
			}
			if err := field(o, p, "description", &opt.Description, false); err != nil {
				return a, err
			}
			if err := strings_(o, p, "pros", &opt.Pros); err != nil {
				return a, err
			}
			if err := strings_(o, p, "cons", &opt.Cons); err != nil {
				return a, err
			}
			a.ConsideredOptions = append(a.ConsideredOptions, opt)
		}
	}
	if raw, ok := obj["consequences"]; ok {
		c, err := decodeConsequences(raw, join(at, "consequences"))
		if err != nil {
			return a, err
		}
		a.Consequences = c
	}
	if raw, ok := obj["links"]; ok {
		var items []json.RawMessage
		if err := strictUnmarshal(raw, &items); err != nil || items == nil {
			return a, &Error{Path: join(at, "links"), Msg: "must be an array"}
		}
		for i, item := range items {
			p := fmt.Sprintf("%s[%d]", join(at, "links"), i)
			o, err := object(item, p)
			if err != nil {
				return a, err
			}
			if err := closed(o, p, "type", "target", "description"); err != nil {
				return a, err
			}
			var l Link
			if err := field(o, p, "type", &l.Type, true); err != nil {
				return a, err
			}
			if err := number(o, p, "target", &l.Target, true); err != nil {
				return a, err
			}
			if err := field(o, p, "description", &l.Description, false); err != nil {
				return a, err
			}
			a.Links = append(a.Links, l)
		}
	}
	if raw, ok := obj["custom_sections"]; ok {
		var m map[string]json.RawMessage
		if err := strictUnmarshal(raw, &m); err != nil || m == nil {
			return a, &Error{Path: join(at, "custom_sections"), Msg: "must be an object"}
		}
		a.CustomSections = map[string]string{}
		for k := range m {
			var s string
			if err := field(m, join(at, "custom_sections"), k, &s, true); err != nil {
				return a, err
			}
			a.CustomSections[k] = s
		}
	}
	return a, nil
}

func decodeConsequences(raw json.RawMessage, at string) (*Consequences, error) {
	switch firstByte(raw) {
	case '"':
		var s string
		if err := strictUnmarshal(raw, &s); err != nil {
			return nil, &Error{Path: at, Msg: jsonMsg(err)}
		}
		return &Consequences{List: []string{s}}, nil
	case '[':
		c := &Consequences{}
		m := map[string]json.RawMessage{"consequences": raw}
		if err := strings_(m, strings.TrimSuffix(at, "consequences"), "consequences", &c.List); err != nil {
			return nil, err
		}
		if c.List == nil {
			c.List = []string{}
		}
		return c, nil
	case '{':
		obj, err := object(raw, at)
		if err != nil {
			return nil, err
		}
		if err := closed(obj, at, "positive", "negative", "risks"); err != nil {
			return nil, err
		}
		c := &Consequences{Structured: true}
		for _, f := range []struct {
			name string
			dst  *[]string
		}{{"positive", &c.Positive}, {"negative", &c.Negative}, {"risks", &c.Risks}} {
			if err := strings_(obj, at, f.name, f.dst); err != nil {
				return nil, err
			}
		}
		return c, nil
	}
	return nil, &Error{Path: at, Msg: "must be an array of strings or an object {positive, negative, risks}"}
}

func firstByte(raw json.RawMessage) byte {
	b := bytes.TrimLeft(raw, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

func has(m map[string]json.RawMessage, k string) bool { _, ok := m[k]; return ok }

func join(at, name string) string {
	if at == "" {
		return name
	}
	return at + "." + name
}

// strictUnmarshal is json.Unmarshal that also refuses trailing data.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("data after the JSON value")
	}
	return nil
}

func jsonMsg(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%v (at byte %d)", se, se.Offset)
	}
	return err.Error()
}

func object(raw json.RawMessage, at string) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if firstByte(raw) != '{' {
		return nil, &Error{Path: at, Msg: "must be an object"}
	}
	if err := strictUnmarshal(raw, &m); err != nil {
		return nil, &Error{Path: at, Msg: jsonMsg(err)}
	}
	return m, nil
}

// closed refuses fields the schema does not list (additionalProperties:
// false), naming the first in sorted order.
func closed(m map[string]json.RawMessage, at string, allowed ...string) error {
	var extra []string
	for k := range m {
		ok := false
		for _, a := range allowed {
			if k == a {
				ok = true
				break
			}
		}
		if !ok {
			extra = append(extra, k)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	sort.Strings(extra)
	return &Error{Path: join(at, extra[0]), Msg: "is not a JSON-ADR field"}
}

func field(m map[string]json.RawMessage, at, name string, dst *string, required bool) error {
	raw, ok := m[name]
	if !ok {
		if required {
			return &Error{Path: join(at, name), Msg: "is required"}
		}
		return nil
	}
	if firstByte(raw) != '"' {
		return &Error{Path: join(at, name), Msg: "must be a string"}
	}
	if err := strictUnmarshal(raw, dst); err != nil {
		return &Error{Path: join(at, name), Msg: jsonMsg(err)}
	}
	return nil
}

func number(m map[string]json.RawMessage, at, name string, dst *int, required bool) error {
	raw, ok := m[name]
	if !ok {
		if required {
			return &Error{Path: join(at, name), Msg: "is required"}
		}
		return nil
	}
	if c := firstByte(raw); c != '-' && (c < '0' || c > '9') {
		return &Error{Path: join(at, name), Msg: "must be an integer"}
	}
	var n json.Number
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&n); err != nil {
		return &Error{Path: join(at, name), Msg: "must be an integer"}
	}
	v, err := n.Int64()
	if err != nil || v < 1 || v > 999_999_999 {
		return &Error{Path: join(at, name), Msg: fmt.Sprintf("must be an integer from 1 to 999999999, got %s", n)}
	}
	*dst = int(v)
	return nil
}

func strings_(m map[string]json.RawMessage, at, name string, dst *[]string) error {
	raw, ok := m[name]
	if !ok {
		return nil
	}
	var items []json.RawMessage
	if firstByte(raw) != '[' || strictUnmarshal(raw, &items) != nil {
		return &Error{Path: join(at, name), Msg: "must be an array of strings"}
	}
	out := []string{}
	for i, item := range items {
		var s string
		if firstByte(item) != '"' || strictUnmarshal(item, &s) != nil {
			return &Error{Path: fmt.Sprintf("%s[%d]", join(at, name), i), Msg: "must be a string"}
		}
		out = append(out, s)
	}
	*dst = out
	return nil
}
