package adr

import (
	"fmt"
	"strings"
	"testing"
)

// Tests of parse_sections.go, parse_status.go and parse_relations.go:
// status sections, relations, decision units.

func TestParseStatusSection(t *testing.T) {
	tests := []struct {
		name, src  string
		raw, field string
		status     Status
		rels       string
		empty      bool
	}{
		{
			name: "adr-tools with a link line",
			src: lines("# 5. Help comments", "", "Date: 2016-02-13", "", "## Status", "", "Accepted", "",
				"Amended by [9. Help scripts](0009-help-scripts.md)", "", "## Context", "", "x"),
			raw: "Accepted", field: "Accepted", status: Accepted, rels: "amended-by>0009-help-scripts.md",
		},
		{
			name: "adr-tools superseded",
			src:  lines("# 1. A", "", "## Status", "", "Superceded by [3. C](0003-c.md)", "", "## Context"),
			raw:  "Superceded by [3. C](0003-c.md)", field: "Superceded by [3. C](0003-c.md)", status: Superseded,
			rels: "superseded-by>0003-c.md",
		},
		{
			name: "adr-tools supersedes and a custom link",
			src: lines("# 3. C", "", "## Status", "", "Accepted", "", "Supersedes [1. A](0001-a.md)", "",
				"Clarifies [2. B](0002-b.md)", "", "## Context"),
			raw: "Accepted", field: "Accepted", status: Accepted, rels: "supersedes>0001-a.md Clarifies>0002-b.md",
		},
		{
			name: "quoted template guidance is skipped",
			src: lines("# ADR 039: Peer Behaviour Interface", "", "## Status", "",
				`> A decision may be "proposed" if it hasn't been agreed upon yet, or "accepted" once it is agreed.`,
				"> If a later ADR changes or reverses a decision, it may be marked as \"deprecated\".", "", "Accepted", "", "## Context"),
			raw: "Accepted", field: "Accepted", status: Accepted,
		},
		{
			name:  "empty section",
			src:   lines("# T", "", "## Status", "", "## Consequences", "", "x"),
			empty: true, status: Unknown,
		},
		{
			name:  "empty section at the end without a final newline",
			src:   "# T\n\n## Status",
			empty: true, status: Unknown,
		},
		{
			name: "value in the heading",
			src:  lines("# T", "", "## Status: Accepted", "", "## Context"),
			raw:  "Accepted", field: "Accepted", status: Accepted,
		},
		{
			name: "status after the decision",
			src: lines("# Architecture Decision Record: Configuration", "", "## Context", "", "x", "", "## Decision", "", "y", "",
				"## Status", "", "PROPOSED", "", "## Consequences", "", "z"),
			raw: "PROPOSED", field: "PROPOSED", status: Proposed,
		},
		{
			name: "a paragraph over two lines, indented",
			src:  lines("# T", "", "## Status", "", "  Partially implemented", "  (see #123)  ", "", "Later prose.", "", "## Context"),
			raw:  "Partially implemented (see #123)", field: "Partially implemented\n  (see #123)", status: Accepted,
		},
		{
			name: "setext heading, CRLF",
			src:  "T\r\n=====\r\n\r\nStatus\r\n------\r\n\r\nAccepted\r\n\r\nContext\r\n-------\r\n",
			raw:  "Accepted", field: "Accepted", status: Accepted,
		},
		{
			name: "unfilled template",
			src:  lines("# T", "", "## Status", "", "{Deprecated|Proposed|Accepted|Declined}", "", "## Context"),
			raw:  "{Deprecated|Proposed|Accepted|Declined}", field: "{Deprecated|Proposed|Accepted|Declined}", status: Unknown,
		},
		{
			name: "French and Chinese headings",
			src:  lines("# T", "", "## 状态", "", "已接受", "", "## 背景"),
			raw:  "已接受", field: "已接受", status: Accepted,
		},
		{
			name: "status in a fenced block is not the value",
			src:  lines("# T", "", "## Status", "", "```", "Accepted", "```", "", "Proposed", "", "## Context"),
			raw:  "Proposed", field: "Proposed", status: Proposed,
		},
		{
			name: "a metadata line wins over a later status section",
			src:  lines("# T", "", "Status: Accepted", "", "## Status", "", "Deprecated"),
			raw:  "Accepted", field: "Accepted", status: Accepted,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse([]byte(tt.src))
			if r.RawStatus != tt.raw || r.Status != tt.status {
				t.Errorf("status %q (%s); want %q (%s)", r.RawStatus, r.Status, tt.raw, tt.status)
			}
			if r.StatusField.Kind == FieldNone {
				t.Fatalf("no status field")
			}
			f := r.StatusField
			if f.Start < 0 || f.Start > f.End || f.End > len(r.Text().Src) {
				t.Fatalf("status field range [%d, %d) outside the %d-byte source", f.Start, f.End, len(r.Text().Src))
			}
			if tt.empty {
				if f.Start != f.End || r.RawStatus != "" {
					t.Errorf("an empty section has an empty range and raw text: [%d, %d) %q", f.Start, f.End, r.RawStatus)
				}
			} else if tt.field != "" && fieldText(r) != tt.field {
				t.Errorf("status field spans %q, want %q", fieldText(r), tt.field)
			}
			if got := relString(r.Relations); got != tt.rels {
				t.Errorf("relations %q, want %q", got, tt.rels)
			}
			if string(r.Text().Apply()) != tt.src {
				t.Errorf("round trip changed the source")
			}
		})
	}
}

func TestStatusHeadingClosingSequence(t *testing.T) {
	for _, src := range []string{"# T\n\n## Status: Accepted ##\n", "# T\n\n## Status: # ##\n", "# T\n\n  ## Status:   ## ###\n"} {
		r := Parse([]byte(src))
		colon := strings.Index(src, ":")
		want := colon + 1 + len(src[colon+1:]) - len(strings.TrimLeft(src[colon+1:], " "))
		if r.StatusField.Start != want || fieldText(r) != r.RawStatus {
			t.Errorf("Parse(%q): field [%d, %d) %q, raw %q; want the value right after the colon at %d", src, r.StatusField.Start, r.StatusField.End, fieldText(r), r.RawStatus, want)
		}
	}
}

func TestStatusFieldEdit(t *testing.T) {
	// The field range is what a minimal status edit replaces.
	for _, src := range []string{
		lines("# 1. A", "", "## Status", "", "Proposed", "", "## Context"),
		lines("---", "status: proposed", "---", "# A"),
		lines("# A", "", "- Status: proposed"),
		lines("# A", "", "Status: **proposed**"),
		lines("# A", "", "**Status: proposed**"),
		lines("# A", "", "| Status | proposed |"),
		"# A\r\n\r\n## Status\r\n\r\nProposed\r\n",
	} {
		r := Parse([]byte(src))
		out := r.Text().Apply(Edit{Start: r.StatusField.Start, End: r.StatusField.End, New: "accepted"})
		r2 := Parse(out)
		if r2.Status != Accepted || len(out) != len(src) || strings.Count(string(out), "*") != strings.Count(src, "*") {
			t.Errorf("editing the status field of %q gave %q (%s)", src, out, r2.Status)
		}
	}
}

func TestParseRelations(t *testing.T) {
	src := lines(
		"# 12. Everything linked",
		"",
		"Superseded by ADR-0020",
		"",
		"## Status",
		"",
		"Accepted",
		"",
		"## Context",
		"",
		"This ADR supersedes [1. A](0001-a.md) in part, as prose; it is no relation.",
		"",
		"## Links",
		"",
		"- Supersedes [1. A](0001-a.md)",
		"- Superseded by [2. B](0002-b.md)",
		"- Superceded by [3. C](0003-c.md)",
		"- Amends [4. D](0004-d.md)",
		"- Amended by [5. E](0005-e.md), [6. F](0006-f.md)",
		"- Refines [7. G](0007-g.md)",
		"- Refined by [8. H](0008-h.md)",
		"- Relates to [9. I](0009-i.md)",
		"- Clarifies [10. J](0010-j.md)",
		"- Related: ADR-0011",
		"- A link to [the docs](https://example.com) is no relation",
		"",
	)
	r := Parse([]byte(src))
	want := "superseded-by>ADR-0020 supersedes>0001-a.md superseded-by>0002-b.md superseded-by>0003-c.md " +
		"amends>0004-d.md amended-by>0005-e.md amended-by>0006-f.md refines>0007-g.md refined-by>0008-h.md " +
		"relates-to>0009-i.md Clarifies>0010-j.md relates-to>ADR-0011"
	if got := relString(r.Relations); got != want {
		t.Errorf("relations\n got %s\nwant %s", got, want)
	}
	for _, rel := range r.Relations {
		if rel.Line < 1 || rel.Line > len(r.Text().Lines) {
			t.Errorf("relation %+v has line %d outside the record", rel, rel.Line)
		}
		if rel.Target == "0003-c.md" && rel.Label != "Superceded by" {
			t.Errorf("label %q: the spelling as written must be kept", rel.Label)
		}
	}
}

func TestParseSectionedContainer(t *testing.T) {
	src := lines(
		"# ADR-0042: Platform decisions",
		"",
		"## §1 Use Go",
		"",
		"Status: accepted",
		"",
		"Go everywhere.",
		"",
		"## §2 Use Postgres",
		"",
		"- Status: superseded",
		"- Superseded by: ADR-0050§1",
		"",
		"Postgres.",
		"",
		"### Detail",
		"",
		"Status: this is prose",
		"",
		"## §3 Open question",
		"",
		"No status here.",
	)
	r := Parse([]byte(src))
	if r.Style != StyleOCP {
		t.Errorf("style %q, want ocp", r.Style)
	}
	if r.StatusField.Kind != FieldNone || r.Status != Unknown {
		t.Errorf("a container's sections carry the status, not the record: %q (%s)", r.RawStatus, r.Status)
	}
	type u struct {
		anchor     string
		start, end int
		raw        string
		status     Status
	}
	var got []u
	for _, x := range r.Units() {
		got = append(got, u{x.Anchor, x.Start, x.End, x.RawStatus, x.Status})
	}
	want := []u{{"§1", 3, 8, "accepted", Accepted}, {"§2", 9, 19, "superseded", Superseded}, {"§3", 20, 22, "", ""}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("units\n got %v\nwant %v", got, want)
	}
	if rels := relString(r.Relations); rels != "superseded-by>ADR-0050§1@§2" {
		t.Errorf("relations %q", rels)
	}
	ex, text, ok := r.Excerpt("§2")
	if !ok || ex.Start != 9 || !strings.HasPrefix(text, "## §2 Use Postgres\n") {
		t.Errorf("Excerpt(§2) = %+v %q %v", ex, text, ok)
	}

	// "style: ocp" in front matter makes numbered sections units even
	// without "§".
	r = Parse([]byte(lines("---", "style: ocp", "---", "# Decisions", "", "## 1. First", "", "x", "", "## 2. Second", "", "y")))
	if r.Style != StyleOCP || len(r.Units()) != 2 || r.Units()[0].Anchor != "§1" || r.Units()[1].Anchor != "§2" {
		t.Errorf("style %q units %+v", r.Style, r.Units())
	}
}

func TestUnits(t *testing.T) {
	src := lines(
		"# 7. Use Go",
		"",
		"Date: 2020-01-01",
		"",
		"## Status",
		"",
		"Accepted",
		"",
		"## Context",
		"",
		"We need a language.   ",
		"",
		"## Decision",
		"",
		"We will use Go.",
		"",
		"- item one",
		"- item two",
		"  continued",
		"",
		"```go",
		"",
		"package main",
		"```",
		"",
		"## Consequences",
		"",
		"### Positive",
		"",
		"Fast builds.",
		"",
		"## Decision",
		"",
		"A second decision section.",
	)
	r := Parse([]byte(src))
	var anchors []string
	for _, u := range r.Units() {
		anchors = append(anchors, fmt.Sprintf("%s:%d-%d", u.Anchor, u.Start, u.End))
	}
	if got, want := strings.Join(anchors, " "), "status:5-8 context:9-12 decision:13-25 consequences:26-31 decision-2:32-34"; got != want {
		t.Errorf("units %s, want %s", got, want)
	}

	// The same record with CRLF endings and trailing spaces removed hashes
	// the same; a changed word does not.
	crlf := Parse([]byte(strings.ReplaceAll(strings.ReplaceAll(src, "   \n", "\n"), "\n", "\r\n")))
	changed := Parse([]byte(strings.Replace(src, "use Go.", "use Rust.", 1)))
	for i, u := range r.Units() {
		if len(u.Hash) != 64 {
			t.Errorf("unit %s hash %q", u.Anchor, u.Hash)
		}
		if crlf.Units()[i].Hash != u.Hash {
			t.Errorf("unit %s: CRLF version hashes differently", u.Anchor)
		}
		if (changed.Units()[i].Hash == u.Hash) != (u.Anchor != "decision") {
			t.Errorf("unit %s: a changed decision must change only its own hash", u.Anchor)
		}
	}

	tests := []struct {
		anchor     string
		start, end int
		text       string
	}{
		{"decision", 13, 25, ""},
		{"#Decision", 13, 25, ""},
		{"decision.1", 15, 15, "We will use Go.\n"},
		{"decision.2", 17, 17, "- item one\n"},
		{"decision.3", 18, 19, "- item two\n  continued\n"},
		{"decision.4", 21, 24, "```go\n\npackage main\n```\n"},
		{"consequences.1", 28, 28, "### Positive\n"},
		{"decision-2.1", 34, 34, "A second decision section.\n"},
	}
	for _, tt := range tests {
		u, text, ok := r.Excerpt(tt.anchor)
		if !ok || u.Start != tt.start || u.End != tt.end || tt.text != "" && text != tt.text {
			t.Errorf("Excerpt(%q) = %d-%d %q %v; want %d-%d %q", tt.anchor, u.Start, u.End, text, ok, tt.start, tt.end, tt.text)
		}
		if ok && tt.text != "" && u.Hash != hashLines(r.Text(), u.Start-1, u.End) {
			t.Errorf("Excerpt(%q) hash does not cover its lines", tt.anchor)
		}
	}
	for _, bad := range []string{"decision.5", "decision.0", "decision.-1", "nothing", "nothing.1", ""} {
		if u, _, ok := r.Excerpt(bad); ok {
			t.Errorf("Excerpt(%q) = %+v, want not found", bad, u)
		}
	}

	// A record without sections is one "body" unit.
	r = Parse([]byte(lines("# T", "", "Only prose.")))
	if len(r.Units()) != 1 || r.Units()[0].Anchor != "body" || r.Units()[0].Start != 2 || r.Units()[0].End != 3 {
		t.Errorf("units %+v", r.Units())
	}
}

func TestUnitAnchorsUnique(t *testing.T) {
	r := Parse([]byte(lines("# T", "", "## Decision", "", "a", "", "## Decision", "", "b", "", "## Decision 2", "", "c", "", "## Decision-2", "", "d")))
	seen := map[string]bool{}
	for _, u := range r.Units() {
		if seen[u.Anchor] {
			t.Errorf("anchor %q used twice: %+v", u.Anchor, r.Units())
		}
		seen[u.Anchor] = true
		got, ok := r.Unit(u.Anchor)
		if !ok || got.Start != u.Start {
			t.Errorf("Unit(%q) = %+v, want the unit at line %d", u.Anchor, got, u.Start)
		}
	}
}

// A metadata table inside the Status section is read as in the preamble:
// its status row is the status, its relation rows are relations.
func TestStatusSectionTable(t *testing.T) {
	r := Parse([]byte("# 2. Y\n\n## Status\n\n| Status | Accepted |\n|---|---|\n| Relates to | ADR-1 |\n\n## Decision\n\nY.\n"))
	if r.Status != Accepted || r.StatusField.Kind != FieldTable || r.StatusField.Line != 4 {
		t.Errorf("status %q field %+v", r.Status, r.StatusField)
	}
	if len(r.Relations) != 1 || r.Relations[0].Type != RelatesTo || r.Relations[0].Target != "ADR-1" || r.Relations[0].Line != 7 {
		t.Errorf("relations %+v", r.Relations)
	}
	r = Parse([]byte("# 2. Y\n\n## Status\n\nAccepted\n\n| Supersedes | ADR-1 |\n|---|---|\n"))
	if r.Status != Accepted || r.RawStatus != "Accepted" || len(r.Relations) != 1 || r.Relations[0].Type != Supersedes {
		t.Errorf("status %q (raw %q), relations %+v", r.Status, r.RawStatus, r.Relations)
	}
}

// TestJoinFields compares joinFields with strings.Join(strings.Fields(s),
// " ") on generated strings of spaces of every kind and words.
func TestJoinFields(t *testing.T) {
	pieces := []string{" ", "  ", "\t", "\n", "\v", "\f", "\r", "\u0085", "\u00a0", "\u2003", "a", "Status", "é", "x y"}
	rng := uint64(9)
	for n := 0; n < 100000; n++ {
		var b strings.Builder
		for k := 0; k < n%7; k++ {
			rng = rng*6364136223846793005 + 1442695040888963407
			b.WriteString(pieces[(rng>>33)%uint64(len(pieces))])
		}
		s := b.String()
		if got, want := joinFields(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("joinFields(%q) = %q, want %q", s, got, want)
		}
	}
}
