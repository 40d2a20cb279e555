package adr

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Style is the written form of a record; edits and new records follow it.
type Style string

// The styles git-adr reads and writes.
const (
	// StyleNygard is Michael Nygard's form as adr-tools writes it: "# N.
	// Title", a "Date:" line and a "## Status" section holding the status
	// word and link lines.
	StyleNygard Style = "nygard"
	// StyleMADR is MADR 3/4: YAML front matter (status, date, ...).
	StyleMADR Style = "madr"
	// StyleMADR2 is MADR 2 and log4brains: "- Status:" / "- Date:" bullets
	// under the title.
	StyleMADR2 Style = "madr2"
	// StyleTable keeps metadata in a "| Metadata | Value |" table.
	StyleTable Style = "table"
	// StyleOCP is a sectioned container: every H2 section is an
	// independently identified decision unit ("§N"), optionally with its
	// own status.
	StyleOCP Style = "ocp"
	// StylePlain is anything else: a title and prose.
	StylePlain Style = "plain"
	// StyleLog is a single-file log's: one Markdown file holding every
	// decision as a section. It is a root's style, never written.
	StyleLog Style = "single-file"
)

// WritableStyles are the styles `git adr new` and `init` can write.
var WritableStyles = writableStyles[:]

var writableStyles = [...]Style{StyleNygard, StyleMADR, StyleMADR2, StyleTable, StyleOCP}

// ParseStyle accepts a style name as given on the command line.
func ParseStyle(s string) (Style, bool) {
	switch strings.ToLower(s) {
	case "nygard", "adr-tools":
		return StyleNygard, true
	case "madr", "madr3", "madr4":
		return StyleMADR, true
	case "madr2", "log4brains":
		return StyleMADR2, true
	case "table":
		return StyleTable, true
	case "ocp", "sectioned":
		return StyleOCP, true
	}
	return "", false
}

// Record is one Architecture Decision Record as found in a root.
type Record struct {
	// ID is the display identity: the root's prefix and the zero-padded
	// number ("ADR-0007"), or the slug for logs that do not number records
	// ("20201016-use-the-adr-slug-as-its-unique-id").
	ID string
	// Number is the numeric identity; meaningful only when Numbered.
	Number   int
	Numbered bool
	// Suffix is the letter of a record inserted after another one
	// ("a" of "0004a-some-slug.md", ID "ADR-0004a"); "" for most records.
	Suffix string
	// Title is the heading without its number or "ADR n:" decoration;
	// RawTitle is the heading text as written.
	Title, RawTitle string
	// TitleNumber is the number written in the title (-1 when none).
	TitleNumber int
	// Status is normalised; RawStatus is the text as written ("" when the
	// record has no status or an empty one; see StatusField).
	Status    Status
	RawStatus string
	// StatusField says where the status lives, for minimal edits.
	StatusField Field
	// Date is ISO 8601 when the record's date could be read as one, the raw
	// text otherwise, "" when there is none.
	Date    string
	Domains []string
	// Iteration is the delivery iteration the record belongs to
	// ("Iteration:", "Sprint:" or "Milestone:" metadata), "" when none.
	Iteration string
	// Scope is the record's declared applicability ("Scope: system"),
	// lower case, "" when none.
	Scope string
	// AppliesTo are the path globs (doublestar syntax, relative to the
	// repository root) of the code the record governs: "Applies to:" in
	// its metadata, applies_to in front matter, or .adr.toml [[scope]].
	AppliesTo []string
	// ReviewBy is the date by which the decision should be reviewed
	// ("Review by:", review_by), ISO 8601 when it reads as a date.
	ReviewBy  string
	Relations []Relation
	Style     Style
	// Path is slash-separated and relative to the repository root.
	Path     string
	Root     *Root
	Archived bool
	// units are the record's decision units in text order (see Units);
	// lunits holds them still encoded when the parse cache served the
	// record.
	units  []Unit
	lunits *lazyUnits
	text   *Text
	// Problems are reasons the record could not be read fully (not UTF-8,
	// no title, ...). A record with problems is still listed.
	Problems []string

	// lazy marks a record known by its file name only (see Log.Ensure).
	lazy bool
	// span is the section of a single-file log the record is (nil for a
	// record file); see InLogFile.
	span *logSpan
	// src reads text on demand for a record the parse cache served.
	src *lazySource
	// blob is the git blob hash of the text, when the load knew it.
	blob string
	// sum is the SHA-256 of the text (32 bytes), when the parse cache
	// holds it.
	sum string
	// otherStatuses are statuses stated after the first one that differ
	// from it ("status: active" in the front matter, "Rejected" in the
	// Status section); check reports them.
	otherStatuses []statusMention
	// onlyTitle marks a record with a title and nothing else.
	onlyTitle bool
	// name is what the load read from the file name, when it did (the
	// conventions of the root are derived from it).
	name *fileName
	// bareTitle is the title as written when it starts with a number
	// without a separator ("29 Use Kafka"); see settleTitle.
	bareTitle string
	// tfacts are what check reads from the text (check_facts.go), and
	// factsEnc the parse cache's encoding of them, until they are asked.
	tfacts   *textFacts
	factsEnc string
}

// statusMention is a status stated in a record besides its status.
type statusMention struct {
	Raw    string
	Status Status
	// Line is 1-based.
	Line int
}

// TextRecord is a record made of a text alone, identified by its path (a
// CURRENT view answered as evidence): no metadata is read from it.
func TextRecord(path string, src []byte, root *Root) *Record {
	return &Record{ID: path, Path: path, text: NewText(src), Root: root}
}

// Unparseable returns why `git adr check` reports the record unparseable
// (nil when it does not): the parser's Problems, after NUL bytes (a binary
// file, or UTF-16 text) when the parser did not name them. Commands that
// edit refuse such a record.
func (r *Record) Unparseable() []string {
	if !r.facts().nul {
		return r.Problems
	}
	for _, p := range r.Problems {
		if strings.Contains(p, "NUL") || strings.Contains(p, "binary") || strings.Contains(p, "UTF-16") {
			return r.Problems
		}
	}
	return append([]string{ProblemNUL}, r.Problems...)
}

// ProblemNUL is the reason a record holding NUL bytes is unparseable.
const ProblemNUL = "holds NUL bytes (a binary file, or UTF-16 text)"

// hasUTF16BOM reports text that starts with a UTF-16 byte order mark.
func hasUTF16BOM(b []byte) bool {
	return len(b) >= 2 && (b[0] == 0xff && b[1] == 0xfe || b[0] == 0xfe && b[1] == 0xff)
}

// Units are the record's decision units (one section, or one numbered
// decision of a container), in text order. A record the parse cache
// served decodes them on the first call: a load of a long log for a
// command that never looks at units (list, index, a scope question)
// decodes none. The slice is shared: callers must not change it.
func (r *Record) Units() []Unit {
	if lu := r.lunits; lu != nil {
		return lu.get()
	}
	return r.units
}

// PeekUnits is Units for a caller that reads them once (the analysis of
// every record of a long log): units the load holds encoded, and nothing
// has decoded yet, are decoded for the caller alone and not kept. They
// may not be named after the record's ID yet.
func (r *Record) PeekUnits() []Unit {
	lu := r.lunits
	if lu == nil || lu.decoded.Load() {
		return r.Units()
	}
	us, err := decodeUnits(lu.enc)
	if err != nil {
		return lu.get()
	}
	return us
}

// SetUnits replaces the record's units.
func (r *Record) SetUnits(us []Unit) { r.units, r.lunits = us, nil }

// ownUnits are the record's units as a slice the record alone holds, for
// a change in place: lazily held units are decoded into the record first.
func (r *Record) ownUnits() []Unit {
	if lu := r.lunits; lu != nil {
		r.units, r.lunits = slices.Clone(lu.get()), nil
	}
	return r.units
}

// lazyUnits are the encoded units of a record the parse cache served.
// Copies of the record share them; they are decoded once, named after
// the ID of the record the load made them for (owner).
type lazyUnits struct {
	once  sync.Once
	enc   string
	owner *Record
	// id is the record ID the units are named after; set by the load
	// before anything reads them.
	id    string
	units []Unit
	// decoded is set once units are.
	decoded atomic.Bool
}

func (lu *lazyUnits) get() []Unit {
	lu.once.Do(func() {
		us, err := decodeUnits(lu.enc)
		if err != nil {
			// The cache file passed its checksum, so this takes a bug or
			// a forgery: the record's own text says what its units are.
			us = nil
			if t := lu.owner.Text(); t != nil {
				us = Parse(t.Src).units
			}
		}
		if lu.id != "" {
			nameUnits(us, lu.id)
		}
		lu.units = us
		lu.decoded.Store(true)
	})
	return lu.units
}

// unitIDsAssigned reports whether every unit is already named after the
// record's ID.
func (r *Record) unitIDsAssigned() bool {
	if lu := r.lunits; lu != nil && lu.owner == r && lu.id == r.ID {
		return true
	}
	us := r.Units()
	for i := range us {
		id, a := us[i].ID, us[i].Anchor
		sep := 1
		if strings.HasPrefix(a, "§") {
			sep = 0
		}
		if len(id) != len(r.ID)+sep+len(a) || !strings.HasPrefix(id, r.ID) || !strings.HasSuffix(id, a) || sep == 1 && id[len(r.ID)] != '#' {
			return false
		}
	}
	return true
}

// assignUnitIDs names every unit after the record's ID. Units the load
// holds encoded are named when they are decoded.
func (r *Record) assignUnitIDs() {
	if lu := r.lunits; lu != nil && lu.owner == r && lu.units == nil {
		// Not decoded yet (a load names its records before anything
		// reads them; see lazyUnits.get).
		lu.id = r.ID
		return
	}
	if lu := r.lunits; lu != nil && lu.owner == r && lu.id == "" {
		// Decoded before the load named its records (a first task
		// question analyses each record as it is read): named in place,
		// as get names them, rather than copied.
		nameUnits(lu.get(), r.ID)
		lu.id = r.ID
		return
	}
	if r.unitIDsAssigned() {
		return // as the parse cache gave them
	}
	nameUnits(r.ownUnits(), r.ID)
}

// nameUnits names every unit after the record ID id. One string holds
// every unit's ID, each a slice of it: one allocation per record rather
// than one per unit.
func nameUnits(us []Unit, id string) {
	n := 0
	for i := range us {
		n += len(id) + 1 + len(us[i].Anchor)
	}
	var b strings.Builder
	b.Grow(n)
	var buf [16]int
	ends := buf[:0]
	for i := range us {
		b.WriteString(id)
		if !strings.HasPrefix(us[i].Anchor, "§") {
			b.WriteByte('#')
		}
		b.WriteString(us[i].Anchor)
		ends = append(ends, b.Len())
	}
	all, start := b.String(), 0
	for i := range us {
		us[i].ID = all[start:ends[i]]
		start = ends[i]
	}
}

// FieldKind says where a metadata value is written.
type FieldKind string

// Field kinds, one per way records carry metadata.
const (
	FieldNone        FieldKind = ""
	FieldFrontMatter FieldKind = "front-matter"
	FieldLine        FieldKind = "line"    // "Status: X", "- Status: X", "**Status:** X"
	FieldTable       FieldKind = "table"   // "| Status | X |"
	FieldSection     FieldKind = "section" // the first paragraph of "## Status"
	// FieldChangeLog is the state of the last entry of a change log
	// ("## Change Log" then "- [approved](PR) (2022-07-12)"); a decision
	// adds an entry, never rewrites one.
	FieldChangeLog FieldKind = "change-log"
)

// Field locates a metadata value in the source for minimal edits.
type Field struct {
	Kind FieldKind
	// Line is the 0-based line of the value (of the section heading for a
	// section without a value).
	Line int
	// Start and End delimit the value's bytes in Text.Src. For an empty
	// status section they are equal, at the point a value belongs.
	Start, End int
	// Section is the 0-based heading line of a status section.
	Section int
	// WordStart and WordEnd delimit the status words alone when relations
	// follow them in the same value ("accepted" in "accepted; supersedes
	// ADR-0012"), so that an edit keeps the relations; both are 0 when the
	// value is the status alone.
	WordStart, WordEnd int
}

// Unit is an identified excerpt of a record: one section ("ADR-0012#decision")
// or, in a sectioned container, one numbered decision ("ADR-0042§4").
type Unit struct {
	ID      string `json:"id"`
	Anchor  string `json:"anchor"`
	Heading string `json:"heading"`
	// Start and End are 1-based inclusive lines.
	Start int `json:"start"`
	End   int `json:"end"`
	// Hash is the SHA-256 of the unit's text with line endings and
	// trailing whitespace normalised, so coverage and freshness can be
	// checked mechanically without being fooled by CRLF conversions.
	Hash string `json:"hash"`
	// Status and RawStatus are set for container sections that carry their
	// own status.
	Status    Status `json:"status,omitempty"`
	RawStatus string `json:"raw_status,omitempty"`
}

// UnitText returns the unit's text (lines Start..End, LF line endings).
func (r *Record) UnitText(u Unit) string { return r.UnitTextIn(r.Text(), u) }

// UnitTextIn is [Record.UnitText] read from t, the record's text as
// [Record.PeekText] returned it.
func (r *Record) UnitTextIn(t *Text, u Unit) string {
	var b strings.Builder
	for i := u.Start - 1; i < u.End && i < len(t.Lines); i++ {
		b.WriteString(t.LineText(i))
		b.WriteByte('\n')
	}
	return b.String()
}

// UnitViewIn is the text of unit u as t holds it, line endings included,
// without a copy: the string shares t's bytes (a Text never changes
// them). It is for a pass that reads a unit and keeps nothing of it, such
// as term analysis; [Record.UnitTextIn] is the unit as a string of its
// own, with "\n" line endings.
func (r *Record) UnitViewIn(t *Text, u Unit) string {
	from, to := u.Start-1, min(u.End, len(t.Lines))
	if from < 0 || from >= to {
		return ""
	}
	return view(t.Src[t.Lines[from].Start:t.Lines[to-1].End])
}

// view is b as a string that shares its bytes: b must not change while
// the string is used.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// ContentViewIn is [Record.ContentIn] as a string that shares t's bytes,
// for a pass that keeps nothing of it.
func (r *Record) ContentViewIn(t *Text) string { return view(r.ContentIn(t)) }

// hashLines hashes lines [from, to) of t normalised: LF endings, trailing
// whitespace dropped, trailing blank lines dropped.
func hashLines(t *Text, from, to int) string {
	// The lines are read in place: no copy of a line is made.
	line := func(i int) []byte { l := t.Lines[i]; return t.Src[l.Start:l.End] }
	for to > from && len(bytes.TrimSpace(line(to-1))) == 0 {
		to--
	}
	h := sha256.New()
	for i := from; i < to; i++ {
		h.Write(bytes.TrimRight(line(i), " \t"))
		h.Write(newline)
	}
	var sum [sha256.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0]))
}

var newline = []byte{'\n'}

// Unit finds a unit by anchor ("decision", "§3", "3"), case-insensitively.
func (r *Record) Unit(anchor string) (Unit, bool) { return FindUnit(r.Units(), anchor) }

// FindUnit is the unit of us with the anchor, as [Record.Unit] finds it:
// for a caller that holds a record's units from [Record.PeekUnits].
func FindUnit(us []Unit, anchor string) (Unit, bool) {
	a := strings.ToLower(strings.TrimPrefix(strings.TrimPrefix(anchor, "#"), "§"))
	for _, u := range us {
		ua := strings.ToLower(strings.TrimPrefix(u.Anchor, "§"))
		if ua == a {
			return u, true
		}
	}
	return Unit{}, false
}

// HasSection reports whether r has a section with the anchor at any
// heading level below the title: a unit, or a section within one, as
// MADR 3 and 4 write "### Consequences" under "## Decision Outcome".
func (r *Record) HasSection(anchor string) bool {
	if hasUnit(r, anchor) {
		return true
	}
	t := r.Text()
	if t == nil {
		return false
	}
	for _, h := range t.Headings() {
		if h.Level > 1 && h.Line+1 != titleLine(r) && canonicalAnchors[headingKey(h.Text)] == anchor {
			return true
		}
	}
	return false
}

// Link returns the relative link from record r's directory to record to,
// as written in Markdown links.
func (r *Record) Link(to *Record) string {
	return RelLink(r.Path, to.Path)
}

// RelLink is the relative link from the file at from to the file at to
// (both repository-relative, slash-separated).
func RelLink(from, to string) string {
	fd := strings.Split(dirOf(from), "/")
	td := strings.Split(to, "/")
	if dirOf(from) == "" {
		fd = nil
	}
	i := 0
	for i < len(fd) && i < len(td)-1 && fd[i] == td[i] {
		i++
	}
	var parts []string
	for j := i; j < len(fd); j++ {
		parts = append(parts, "..")
	}
	parts = append(parts, td[i:]...)
	return strings.Join(parts, "/")
}

func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

func baseOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// Excerpt resolves a unit locator: "decision", "§3", or "decision.2" for
// the second block (paragraph, list item, table or code block) of a
// section. It returns the unit (with the excerpt's line range) and its text.
func (r *Record) Excerpt(anchor string) (Unit, string, bool) {
	base, sub := anchor, 0
	if i := strings.LastIndexByte(anchor, '.'); i > 0 {
		if n, err := strconv.Atoi(anchor[i+1:]); err == nil && n > 0 {
			base, sub = anchor[:i], n
		}
	}
	u, ok := r.Unit(base)
	if !ok {
		return Unit{}, "", false
	}
	if sub == 0 {
		return u, r.UnitText(u), true
	}
	blocks := r.blocks(u)
	if sub > len(blocks) {
		return Unit{}, "", false
	}
	b := blocks[sub-1]
	ex := u
	ex.ID = u.ID + "." + strconv.Itoa(sub)
	ex.Anchor = u.Anchor + "." + strconv.Itoa(sub)
	ex.Start, ex.End = b[0]+1, b[1]
	ex.Hash = hashLines(r.Text(), b[0], b[1])
	return ex, r.UnitText(ex), true
}

// blocks splits a unit's body (heading excluded) into top-level blocks:
// paragraphs separated by blank lines, each top-level list item, fenced
// code blocks whole. Ranges are 0-based [start, end).
func (r *Record) blocks(u Unit) [][2]int {
	t := r.Text()
	var out [][2]int
	start := -1
	flush := func(end int) {
		if start >= 0 {
			out = append(out, [2]int{start, end})
			start = -1
		}
	}
	from := u.Start // u.Start is the 1-based heading: the body starts there
	if r.InLogFile() && from > 0 && from <= len(t.Lines) && t.Lines[from-1].Kind != LineHeading {
		from-- // a labelled bullet of a single-file log's section holds text itself
	}
	for i := from; i < u.End && i < len(t.Lines); i++ {
		k := t.Lines[i].Kind
		s := t.LineText(i)
		switch {
		case k == LineBlank:
			flush(i)
		case k == LineFence || k == LineCode:
			if start < 0 {
				start = i
			}
		case k == LineHeading:
			flush(i)
			start = i
		case isListItem(s) && len(s)-len(strings.TrimLeft(s, " \t")) < 2:
			flush(i)
			start = i
		default:
			if start < 0 {
				start = i
			}
		}
	}
	flush(min(u.End, len(t.Lines)))
	return out
}

// systemWords mark a record whose decision binds the whole system.
var systemWords = map[string]bool{"system": true, "global": true, "cross-cutting": true, "crosscutting": true, "all": true, "system-wide": true, "platform-wide": true, "repository": true, "organisation": true, "organization": true}

// InDomain reports whether the record carries domain d (case-insensitive).
func (r *Record) InDomain(d string) bool {
	for _, x := range r.Domains {
		if strings.EqualFold(x, d) {
			return true
		}
	}
	return false
}

// IsSystemConstraint reports an accepted record that declares itself
// system-wide: a "Scope: system" (or global, all, cross-cutting) line, or a
// domain tag with one of those words. Such records apply to every task and
// come before incidental matches in context.
func (r *Record) IsSystemConstraint() bool {
	if r.Status != Accepted || r.Archived {
		return false
	}
	if systemWords[r.Scope] {
		return true
	}
	for _, d := range r.Domains {
		if systemWords[d] {
			return true
		}
	}
	return false
}

// fileName is the record's parsed file name: the one kept from its
// listing, else parsed from its path.
func (r *Record) fileName() fileName {
	if r.name != nil {
		return *r.name
	}
	return nameOf(r.Path)
}
