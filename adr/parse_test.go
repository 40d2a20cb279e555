package adr

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// lines joins lines with LF and a final newline.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// fieldText is the source text a record's status field points at.
func fieldText(r *Record) string {
	f := r.StatusField
	return string(r.Text().Src[f.Start:f.End])
}

func relString(rs []Relation) string {
	var b []string
	for _, r := range rs {
		s := fmt.Sprintf("%s>%s", r.Type, r.Target)
		if r.Section != "" {
			s += "@" + r.Section
		}
		b = append(b, s)
	}
	return strings.Join(b, " ")
}

func TestParseFrontMatter(t *testing.T) {
	tests := []struct {
		name       string
		src        string
		raw, field string
		status     Status
		date       string
		domains    []string
		rels       string
		style      Style
		problem    string
		title      string
		kind       FieldKind
	}{
		{
			name: "madr 4",
			src: lines("---", "status: accepted", "date: 2024-01-02", "tags: [security, api]", "decision-makers: Ada, Grace", "---",
				"# Use Go", "", "## Context and Problem Statement", "", "Why.", "", "## Considered Options", "", "* Go", "", "## Decision Outcome", "", "Go."),
			raw: "accepted", field: "accepted", status: Accepted, date: "2024-01-02", domains: []string{"security", "api"},
			style: StyleMADR, title: "Use Go", kind: FieldFrontMatter,
		},
		{
			name: "quoted values and a comment",
			src:  lines("---", `status: "proposed"`, `date: '2024-03-05'`, "category: Platform # the area", "---", "# T"),
			raw:  "proposed", field: `"proposed"`, status: Proposed, date: "2024-03-05", domains: []string{"platform"},
			style: StyleMADR, title: "T", kind: FieldFrontMatter,
		},
		{
			name: "YAML escapes in a quoted value",
			src:  lines("---", `status: 'on hold, it''s late'`, "---", "# T"),
			raw:  "on hold, it's late", field: `'on hold, it''s late'`, status: Unknown,
			style: StyleMADR, title: "T", kind: FieldFrontMatter,
		},
		{
			name: "block lists, the last key included",
			src:  lines("---", "status: superseded", "superseded_by:", "  - 0007-x.md", "tags:", "  - a", "  - b", "---", "# T"),
			raw:  "superseded", field: "superseded", status: Superseded, domains: []string{"a", "b"},
			rels: "superseded-by>0007-x.md", style: StyleMADR, title: "T", kind: FieldFrontMatter,
		},
		{
			name: "flow list of relations",
			src:  lines("---", "status: accepted", "supersedes: [ADR-0001, ADR-0002]", "---", "# T"),
			raw:  "accepted", field: "accepted", status: Accepted, rels: "supersedes>ADR-0001 supersedes>ADR-0002",
			style: StyleMADR, title: "T", kind: FieldFrontMatter,
		},
		{
			name: "relations written as Markdown links",
			src: lines("---", `status: "superseded by [ADR-0005](0005-example.md)"`, `supersedes: "[A](0001-a.md), [B](0002-b.md)"`,
				"amends:", "  - \"[C](0003-c.md)\"", "  - ADR-0004", "---", "# T"),
			raw: "superseded by [ADR-0005](0005-example.md)", field: `"superseded by [ADR-0005](0005-example.md)"`, status: Superseded,
			rels:  "superseded-by>0005-example.md supersedes>0001-a.md supersedes>0002-b.md amends>0003-c.md amends>ADR-0004",
			style: StyleMADR, title: "T", kind: FieldFrontMatter,
		},
		{
			name: "title from front matter when there is no heading",
			src:  lines("---", "title: Use Go", "status: Accepted", "---", "", "Text."),
			raw:  "Accepted", field: "Accepted", status: Accepted, style: StyleMADR, title: "Use Go", kind: FieldFrontMatter,
		},
		{
			name:   "jekyll front matter without status",
			src:    lines("---", "parent: Decisions", "nav_order: 100", "---", "# Use Markdown", "", "## Context and Problem Statement", "", "x"),
			status: Unknown, style: StyleMADR, title: "Use Markdown",
		},
		{
			name: "invalid YAML is a problem, not a crash",
			src:  lines("---", "status: accepted", "tags: [unclosed", "---", "# T"),
			raw:  "accepted", field: "accepted", status: Accepted, domains: []string{"unclosed"}, style: StyleMADR, title: "T",
			problem: "front matter is not valid YAML", kind: FieldFrontMatter,
		},
		{
			name: "invalid YAML on the last line",
			src:  lines("---", "status: [unclosed", "---", "# T"),
			raw:  "[unclosed", field: "[unclosed", status: Unknown, style: StyleMADR, title: "T",
			problem: "front matter is not valid YAML", kind: FieldFrontMatter,
		},
		{
			name: "a repeated key keeps its own value; the first status wins",
			src:  lines("---", "status: proposed", "status: accepted", "---", "# T"),
			raw:  "proposed", field: "proposed", status: Proposed, style: StyleMADR, title: "T", kind: FieldFrontMatter,
		},
		{
			name: "an indented --- inside a block scalar does not end it",
			src:  lines("---", "description: |", "  before", "  ---", "  after", "status: accepted", "---", "# T"),
			raw:  "accepted", field: "accepted", status: Accepted, style: StyleMADR, title: "T", kind: FieldFrontMatter,
		},
		{
			name: "CRLF and BOM",
			src:  "\xef\xbb\xbf---\r\nstatus: accepted\r\ndate: 2024-01-02\r\n---\r\n# T\r\n",
			raw:  "accepted", field: "accepted", status: Accepted, date: "2024-01-02", style: StyleMADR, title: "T", kind: FieldFrontMatter,
		},
		{
			name: "status only inside a fenced example",
			src: lines("# Add Status Field", "", "## Decision Outcome", "", "Example:", "", "```markdown", "---", "status: accepted",
				"---", "## Status", "", "Accepted", "```"),
			status: Unknown, style: StylePlain, title: "Add Status Field",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse([]byte(tt.src))
			if r.RawStatus != tt.raw || r.Status != tt.status || r.StatusField.Kind != tt.kind {
				t.Errorf("status %q (%s, field %q); want %q (%s, field %q)", r.RawStatus, r.Status, r.StatusField.Kind, tt.raw, tt.status, tt.kind)
			}
			if tt.kind != FieldNone && fieldText(r) != tt.field {
				t.Errorf("status field spans %q, want %q", fieldText(r), tt.field)
			}
			if r.Date != tt.date {
				t.Errorf("date %q, want %q", r.Date, tt.date)
			}
			if !slices.Equal(r.Domains, tt.domains) {
				t.Errorf("domains %q, want %q", r.Domains, tt.domains)
			}
			if got := relString(r.Relations); got != tt.rels {
				t.Errorf("relations %q, want %q", got, tt.rels)
			}
			if r.Style != tt.style {
				t.Errorf("style %q, want %q", r.Style, tt.style)
			}
			if r.Title != tt.title {
				t.Errorf("title %q, want %q", r.Title, tt.title)
			}
			hasProblem := false
			for _, p := range r.Problems {
				hasProblem = hasProblem || tt.problem != "" && strings.Contains(p, tt.problem)
			}
			if tt.problem != "" && !hasProblem || tt.problem == "" && len(r.Problems) > 0 {
				t.Errorf("problems %q, want %q", r.Problems, tt.problem)
			}
			if string(r.Text().Apply()) != tt.src {
				t.Errorf("round trip changed the source")
			}
		})
	}
}

func TestParseMetadataLines(t *testing.T) {
	tests := []struct {
		name, src  string
		raw, field string
		status     Status
		date       string
		domains    []string
		rels       string
		style      Style
	}{
		{
			name: "log4brains bullets",
			src: lines("# Use Markdown Architectural Decision Records", "", "- Status: accepted", "- Date: 2020-09-24",
				"- Tags: doc, process", "", "## Context and Problem Statement", "", "x"),
			raw: "accepted", field: "accepted", status: Accepted, date: "2020-09-24", domains: []string{"doc", "process"}, style: StyleMADR2,
		},
		{
			name: "star bullets",
			src:  lines("# T", "", "* Status: proposed", "* Date: 2020-09-24", "* Deciders: Ada"),
			raw:  "proposed", field: "proposed", status: Proposed, date: "2020-09-24", style: StyleMADR2,
		},
		{
			name: "bold key",
			src:  lines("# T", "", "**Status:** Accepted", "**Date:** 2021-02-03"),
			raw:  "Accepted", field: "Accepted", status: Accepted, date: "2021-02-03", style: StylePlain,
		},
		{
			name: "bold key, colon outside",
			src:  lines("# T", "", "**Status**: Deprecated  ", "__Date__: 3 March 2021"),
			raw:  "Deprecated", field: "Deprecated", status: Deprecated, date: "2021-03-03", style: StylePlain,
		},
		{
			name: "bold value",
			src:  lines("# T", "", "Status: **Accepted**", "Date: __2021-02-03__"),
			raw:  "Accepted", field: "Accepted", status: Accepted, date: "2021-02-03", style: StylePlain,
		},
		{
			name: "bold line",
			src:  lines("# T", "", "**Status: Superseded**", "", "**Superseded by: ADR-0007**"),
			raw:  "Superseded", field: "Superseded", status: Superseded, rels: "superseded-by>ADR-0007", style: StylePlain,
		},
		{
			name: "French spacing before the colon",
			src:  lines("# 1. Style d'architecture", "", "Date : 2020-09-28", "Statut : Obsolète", "", "## Contexte", "", "x", "", "## Décision", "", "y"),
			raw:  "Obsolète", field: "Obsolète", status: Deprecated, date: "2020-09-28", style: StyleNygard,
		},
		{
			name: "plain line, CRLF",
			src:  "# T\r\n\r\nStatus: Accepted\r\nDate: 2016-02-12\r\n\r\n## Context\r\n",
			raw:  "Accepted", field: "Accepted", status: Accepted, date: "2016-02-12", style: StylePlain,
		},
		{
			name: "superseded by in the preamble",
			src:  lines("# T", "", "Status: Superseded by ADR-0009", "Supersedes: ADR-0002, ADR-0003"),
			raw:  "Superseded by ADR-0009", field: "Superseded by ADR-0009", status: Superseded,
			rels: "superseded-by>ADR-0009 supersedes>ADR-0002 supersedes>ADR-0003", style: StylePlain,
		},
		{
			name: "fullwidth colon and Chinese key",
			src:  lines("# 使用 Go", "", "状态：已接受", "日期：2024-01-02"),
			raw:  "已接受", field: "已接受", status: Accepted, date: "2024-01-02", style: StylePlain,
		},
		{
			name:   "a status line below the first heading is prose",
			src:    lines("# T", "", "## Context", "", "Status: this is not the record's"),
			status: Unknown, style: StylePlain,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse([]byte(tt.src))
			if r.RawStatus != tt.raw || r.Status != tt.status {
				t.Errorf("status %q (%s); want %q (%s)", r.RawStatus, r.Status, tt.raw, tt.status)
			}
			if tt.raw != "" && (r.StatusField.Kind != FieldLine || fieldText(r) != tt.field) {
				t.Errorf("status field %q spans %q, want a line field spanning %q", r.StatusField.Kind, fieldText(r), tt.field)
			}
			if r.Date != tt.date {
				t.Errorf("date %q, want %q", r.Date, tt.date)
			}
			if !slices.Equal(r.Domains, tt.domains) {
				t.Errorf("domains %q, want %q", r.Domains, tt.domains)
			}
			if got := relString(r.Relations); got != tt.rels {
				t.Errorf("relations %q, want %q", got, tt.rels)
			}
			if r.Style != tt.style {
				t.Errorf("style %q, want %q", r.Style, tt.style)
			}
		})
	}
}

func TestParseMetadataTable(t *testing.T) {
	src := lines(
		"# TTL Support for Key-Value Buckets",
		"",
		"| Metadata | Value                                   |",
		"|----------|-----------------------------------------|",
		"| Date     | 2025-04-09                              |",
		"| Author   | @ripienaar                              |",
		"| Status   | Implemented                             |",
		"| Tags     | jetstream, client, kv                   |",
		"| Updates  | ADR-8                                   |",
		"",
		"",
		"| Revision | Date       | Author    | Info                             |",
		"|----------|------------|-----------|----------------------------------|",
		"| 1        | 2025-06-30 | @scottf   | Clarify purge and error handling |",
		"| Date     | 2030-01-01 | @x        | not metadata                     |",
		"",
		"## Revision History",
		"",
		"| Revision | Date       | Description                  |",
		"|----------|------------|------------------------------|",
		"| final    | 2024/07/17 | Deprecate in favor of ADR-37 |",
		"",
		"## Context",
		"",
		"x",
	)
	r := Parse([]byte(src))
	if r.RawStatus != "Implemented" || r.Status != Accepted || r.StatusField.Kind != FieldTable || fieldText(r) != "Implemented" {
		t.Errorf("status %q (%s, %q spanning %q)", r.RawStatus, r.Status, r.StatusField.Kind, fieldText(r))
	}
	if r.Date != "2025-04-09" {
		t.Errorf("date %q: the revision table must not override the metadata date", r.Date)
	}
	if !slices.Equal(r.Domains, []string{"jetstream", "client", "kv"}) {
		t.Errorf("domains %q", r.Domains)
	}
	if got := relString(r.Relations); got != "Updates>ADR-8" {
		t.Errorf("relations %q, want only the Updates row", got)
	}
	if r.Style != StyleTable {
		t.Errorf("style %q", r.Style)
	}

	// An escaped pipe stays inside its cell.
	r = Parse([]byte(lines("# T", "", "| Status | Accepted \\| final |")))
	if r.RawStatus != `Accepted \| final` {
		t.Errorf("escaped pipe: raw %q", r.RawStatus)
	}
}

func TestParseTitle(t *testing.T) {
	for src, want := range map[string][2]string{
		lines("# 5. Help comments"):                          {"Help comments", "5"},
		lines("# ADR 035: Documentation"):                    {"Documentation", "35"},
		lines("", "Use Go", "======", "", "x"):               {"Use Go", "-1"},
		lines("## Starts at H2", "", "x"):                    {"Starts at H2", "-1"},
		lines("Just prose."):                                 {"", "-1"},
		lines("## Status", "", "Accepted", "", "## Context"): {"", "-1"},
		lines("Intro.", "", "## Not a title"):                {"", "-1"},
		lines("<!-- comment -->", "# After a comment"):       {"After a comment", "-1"},
		lines("```", "# not a title", "```", "# The title"):  {"The title", "-1"},
	} {
		r := Parse([]byte(src))
		if r.Title != want[0] || fmt.Sprint(r.TitleNumber) != want[1] {
			t.Errorf("Parse(%q): title %q %d, want %q %s", src, r.Title, r.TitleNumber, want[0], want[1])
		}
		if (r.RawTitle == "") != slices.Contains(r.Problems, "no title heading") {
			t.Errorf("Parse(%q): problems %q", src, r.Problems)
		}
	}
	if r := Parse([]byte("# T\xff\n")); !slices.Contains(r.Problems, "not valid UTF-8") {
		t.Errorf("invalid UTF-8 not reported: %q", r.Problems)
	}
}

func TestParseDates(t *testing.T) {
	for in, want := range map[string]string{
		"2016-02-12":          "2016-02-12",
		"2021/07/17":          "2021-07-17",
		"*2018-09-01*":        "2018-09-01",
		"18-09-2018":          "2018-09-18",
		"03/04/2021":          "2021-04-03", // day first when both readings are dates
		"11/23/2021":          "2021-11-23", // month first only when day first is no date
		"1/31/2020":           "2020-01-31",
		"31/1/2020":           "2020-01-31",
		"13/13/2020":          "13/13/2020",
		"March 3rd, 2021":     "2021-03-03",
		"3 march 2021":        "2021-03-03",
		"2024-01-02 (review)": "2024-01-02",
		"sometime in 2020":    "sometime in 2020",
		"":                    "",
	} {
		if got := normalizeDate(in); got != want {
			t.Errorf("normalizeDate(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStatusChecklistAndBracketedTitles(t *testing.T) {
	r := Parse([]byte("# [ADR-0007] Use queues\n\n## Status\n\n- [ ] Proposed\n- [x] Accepted\n- [ ] Rejected\n\n## Decision\n\nQueues.\n"))
	if r.Status != Accepted || r.RawStatus != "Accepted" || r.Title != "Use queues" || r.TitleNumber != 7 {
		t.Errorf("status %s (%q), title %q (%d)", r.Status, r.RawStatus, r.Title, r.TitleNumber)
	}
	// Editing the status edits the checked item only.
	if got := string(r.WithStatus("Deprecated")); !strings.Contains(got, "- [x] Deprecated\n- [ ] Rejected") {
		t.Errorf("edit:\n%s", got)
	}
	r = Parse([]byte("# Use queues\n\n## Status\n\n- [ ] Proposed\n- [ ] Accepted\n"))
	if r.Status != Unknown || r.StatusField.Kind != FieldSection {
		t.Errorf("nothing checked: %s %+v", r.Status, r.StatusField)
	}
}

// TestSectionHeadingIsNoTitle: a record that opens with one of its
// sections as a level-1 heading ("# Context and Problem Statement", as
// MADR's template starts when the title line is left out) has no title
// heading: its title comes from its file name, and check says so. A
// title that merely starts with a section word is a title.
func TestSectionHeadingIsNoTitle(t *testing.T) {
	for src, want := range map[string]string{
		"# Context and Problem Statement\n\nWe need releases.\n\n## Decision Outcome\n\nChosen option: a.\n": "",
		"# Décision\n\nOn garde Go.\n":                              "",
		"# Context for the cache\n\n## Decision\n\nUse Redis.\n":    "Context for the cache",
		"# 4. Context and Problem Statement\n\n## Decision\n\nX.\n": "Context and Problem Statement",
	} {
		r := Parse([]byte(src))
		if r.Title != want {
			t.Errorf("%q: title %q, want %q", src, r.Title, want)
		}
		if (want == "") != slices.Contains(r.Problems, "no title heading") {
			t.Errorf("%q: problems %q", src, r.Problems)
		}
	}
}
