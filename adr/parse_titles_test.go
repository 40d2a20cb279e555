package adr

import (
	"slices"
	"strings"
	"testing"
)

// hasProblem reports a problem of r that contains part.
func hasProblem(r *Record, part string) bool {
	return slices.ContainsFunc(r.Problems, func(p string) bool { return strings.Contains(p, part) })
}

// TestReadTitle: a heading's title is what a renderer shows.
func TestReadTitle(t *testing.T) {
	tests := []struct {
		raw   string
		title string
		num   int
	}{
		// A trailing attribute block (Pandoc, kramdown, Doxygen, MkDocs) is
		// no part of the title; Markdown escapes read as they render.
		{"Use cache in the short form {#adr_0000}", "Use cache in the short form", -1},
		{"Termbox ParserCache Integration  {#adr_0003}", "Termbox ParserCache Integration", -1},
		{"ADR-4: Make it so {#adr-4 .unnumbered}", "Make it so", 4},
		{"Appendix {-}", "Appendix", -1},
		{"Use kramdown {: #use-kramdown}", "Use kramdown", -1},
		{"Exception Handling and \\@throws Annotations {#rest_adr_0011}", "Exception Handling and @throws Annotations", -1},
		{"57. Reduce Heap Allocations with Span\\<T\\> and Memory\\<T\\>", "Reduce Heap Allocations with Span<T> and Memory<T>", 57},
		{"Snake\\_case names", "Snake_case names", -1},
		{"A literal \\\\ backslash", "A literal \\ backslash", -1},
		{"Keep `a\\_b` in code", "Keep `a\\_b` in code", -1},
		{"Windows paths C:\\temp", "Windows paths C:\\temp", -1},
		{"Sets {a, b} and maps", "Sets {a, b} and maps", -1},
		{"Braces at the end {x}", "Braces at the end {x}", -1},
		{"{#only-an-attribute}", "{#only-an-attribute}", -1},
	}
	for _, tt := range tests {
		title, num := readTitle(tt.raw)
		if title != tt.title || num != tt.num {
			t.Errorf("readTitle(%q) = %q, %d; want %q, %d", tt.raw, title, num, tt.title, tt.num)
		}
	}
}

// TestFrontMatterTitle: a front matter "title:" is the record's title.
// The first H1 is its title line only when it says the same (with the
// record's number, or formatted: Brighter writes "title: X" above "# 28.
// X"); any other H1 ("# Abstract", "# Participants") is a section.
func TestFrontMatterTitle(t *testing.T) {
	tests := []struct {
		name, src string
		title     string
		number    int
		raw       string
		status    Status
	}{
		{
			name:  "an H1 that is a section",
			src:   lines("---", "adr: 102", "title: Decentraland Protocol for Explorers", "status: Draft", "---", "", "# Abstract", "", "This document.", "", "## What is it?", "", "Text."),
			title: "Decentraland Protocol for Explorers", number: -1, raw: "Decentraland Protocol for Explorers", status: Proposed,
		},
		{
			name:  "the only H1 far down the record",
			src:   lines("---", "title: State sync for builder-in-world", "status: Withdrawn", "---", "", "## Context and Problem Statement", "", "Why.", "", "## Decision Outcome", "", "X.", "", "# Participants", "", "- A"),
			title: "State sync for builder-in-world", number: -1, raw: "State sync for builder-in-world", status: Rejected,
		},
		{
			name:  "an H1 that is the status section",
			src:   lines("---", "title: New endpoints", "---", "", "# Status", "", "Accepted", "", "# Context", "", "Why."),
			title: "New endpoints", number: -1, raw: "New endpoints", status: Accepted,
		},
		{
			name:  "an H1 repeating the title with the number",
			src:   lines("---", "title: Support Circuit Breaking for Topics in Outbox Sweeper", "---", "", "# 28. Support Circuit Breaking for `Topics` in Outbox Sweeper", "", "## Status", "", "Accepted"),
			title: "Support Circuit Breaking for `Topics` in Outbox Sweeper", number: 28, raw: "28. Support Circuit Breaking for `Topics` in Outbox Sweeper", status: Accepted,
		},
		{
			name:  "an H1 saying the title in other words",
			src:   lines("---", "title: Use BibEntry.getId for BibEntry at indexing", "---", "", "# Use `BibEntry.getId` for BibEntries at Indexing", "", "## Decision Outcome", "", "X."),
			title: "Use `BibEntry.getId` for BibEntries at Indexing", number: -1, raw: "Use `BibEntry.getId` for BibEntries at Indexing", status: Unknown,
		},
		{
			name:  "an H1 with an ID is the title line",
			src:   lines("---", "title: Kafka", "---", "", "# ADR-7: Adopt an event bus", "", "## Status", "", "Accepted"),
			title: "Adopt an event bus", number: 7, raw: "ADR-7: Adopt an event bus", status: Accepted,
		},
		{
			name:  "a numbered front matter title and no H1",
			src:   lines("---", "slug: 29", "title: |", "  29. EventSource & EventSink abstractions", "---", "", "## Status", "Accepted"),
			title: "EventSource & EventSink abstractions", number: 29, raw: "29. EventSource & EventSink abstractions", status: Accepted,
		},
		{
			name:  "an H1 after the first sections",
			src:   lines("---", "title: Player Components", "---", "", "## Abstract", "", "X.", "", "## Proposal", "", "# Player Data Components", "", "Y."),
			title: "Player Components", number: -1, raw: "Player Components", status: Unknown,
		},
		{
			name:  "a numbered section",
			src:   lines("---", "title: Use Kafka", "---", "", "# 1. Introduction", "", "X."),
			title: "Use Kafka", number: -1, raw: "Use Kafka", status: Unknown,
		},
		{
			name:  "an H1 naming a section word of the title",
			src:   lines("---", "title: Status page", "---", "", "# Status", "", "Accepted"),
			title: "Status page", number: -1, raw: "Status page", status: Accepted,
		},
	}
	for _, tt := range tests {
		r := Parse([]byte(tt.src))
		if r.Title != tt.title || r.TitleNumber != tt.number || r.RawTitle != tt.raw || r.Status != tt.status {
			t.Errorf("%s: title %q (%d), raw %q, status %s; want %q (%d), raw %q, %s", tt.name, r.Title, r.TitleNumber, r.RawTitle, r.Status, tt.title, tt.number, tt.raw, tt.status)
		}
		if hasProblem(r, "title") {
			t.Errorf("%s: problems %q", tt.name, r.Problems)
		}
	}

	// The section keeps its place: its lines are no preamble and its
	// subsections still are the record's units.
	r := Parse([]byte(tests[0].src))
	if _, ok := r.Unit("what-is-it"); !ok {
		t.Errorf("units %v", r.Units())
	}
	// check finds the title line in the front matter.
	if l := titleLine(r); l != 3 {
		t.Errorf("title line %d, want 3", l)
	}
}

// TestTemplateTitle: a title left as the template wrote it ("# Title",
// MADR's "{short title ...}") is no title: the record is named after its
// file, and check reports the placeholder. The heading stays the title
// line, so that git adr new still fills it in a template.
func TestTemplateTitle(t *testing.T) {
	for _, raw := range []string{
		"Title",
		"TITLE",
		"Title of the Decision Record",
		"[short title of solved problem and solution]",
		"{short title of solved problem and solution}",
		"{short title, representative of solved problem and found solution}",
		"short title of solved problem and solution",
		"ADR Title",
		"NUMBER. TITLE",
		"ADR-XXX: Title",
		"ADRxxx: Decision Record Title (a description of the decision, not the problem)",
		"<Title>",
		"[Title]",
		"{title}",
		"21. Title",
	} {
		r := Parse([]byte(lines("# "+raw, "", "## Status", "", "ACCEPTED", "", "## Context", "", "Why.")))
		if r.Title != "" || r.RawTitle != raw || !hasProblem(r, "placeholder") {
			t.Errorf("%q: title %q, raw %q, problems %q", raw, r.Title, r.RawTitle, r.Problems)
			continue
		}
		r.settleTitle(nameOf("knowledge-base/adr/0021-odata-url-builder.md"))
		if r.Title != "Odata url builder" {
			t.Errorf("%q: settled title %q", raw, r.Title)
		}
		if l := titleLine(r); l != 1 {
			t.Errorf("%q: title line %d", raw, l)
		}
	}
	for _, raw := range []string{"[Design Guideline]", "Title case for headings", "Use titles in links", "Titles", "Short titles for records", "[WIP] Use Consul"} {
		r := Parse([]byte(lines("# "+raw, "", "## Status", "", "Accepted")))
		if r.Title == "" || hasProblem(r, "placeholder") {
			t.Errorf("%q: title %q, problems %q", raw, r.Title, r.Problems)
		}
	}
	// A placeholder heading under a front matter title: the front matter
	// names the record, the heading is still reported.
	r := Parse([]byte(lines("---", "title: Use Kafka", "---", "", "# {short title, representative of solved problem and found solution}", "", "## Context and Problem Statement", "", "Why.")))
	if r.Title != "Use Kafka" || !hasProblem(r, "placeholder") {
		t.Errorf("front matter and placeholder: title %q, problems %q", r.Title, r.Problems)
	}
}

// TestTemplateTitleIsFilled: git adr new fills the title heading of a
// template whose front matter names the template ("title: ADR Template"
// above "# {short title ...}", as JabRef's does), and the front matter
// title with it.
func TestTemplateTitleIsFilled(t *testing.T) {
	tmpl := lines("---", "title: ADR Template", "nav_order: 0", "---", "", "# {short title, representative of solved problem and found solution}", "", "## Context and Problem Statement", "", "{Describe the context}")
	got := completeTemplateAs(tmpl, 7, "Use Kafka", "2026-01-02", "proposed", Proposed, false)
	if !strings.Contains(got, "\n# Use Kafka\n") || !strings.Contains(got, "title: Use Kafka\n") {
		t.Errorf("template not filled:\n%s", got)
	}
	tmpl = lines("---", "title: Template", "---", "", "# short title of solved problem and solution", "", "## Context and Problem Statement")
	got = completeTemplateAs(tmpl, 7, "Use Kafka", "2026-01-02", "proposed", Proposed, false)
	if !strings.Contains(got, "\n# Use Kafka\n") {
		t.Errorf("unbracketed template title not filled:\n%s", got)
	}
}

// TestLeadingSectionIsNoTitle: a record that starts at H2 with one of the
// usual opening sections ("## Motivation", "## Abstract") has no title
// heading; an H2 that names the decision is its title.
func TestLeadingSectionIsNoTitle(t *testing.T) {
	for src, want := range map[string]string{
		lines("## Motivation", "", "Typescript allows variadic functions.", "", "## Decision", "", "X."): "",
		lines("## Summary", "", "We cache.", "", "## Decision", "", "X."):                                "",
		lines("## Abstract", "", "This document."):                                                       "",
		lines("## Background", "", "Why."):                                                               "",
		lines("# Abstract", "", "This document.", "", "## Decision", "", "X."):                           "",
		lines("## Use variadic functions", "", "## Motivation", "", "Why."):                              "Use variadic functions",
		lines("## Motivation for the cache", "", "Why."):                                                 "Motivation for the cache",
		lines("# 9. Motivation", "", "Why."):                                                             "Motivation",
	} {
		r := Parse([]byte(src))
		if r.Title != want || (want == "") != hasProblem(r, "no title heading") {
			t.Errorf("%q: title %q, problems %q; want %q", src, r.Title, r.Problems, want)
		}
	}
}

// TestTitleComment: a title's trailing HTML comment (a template's note
// on what to write) is no part of it.
func TestTitleComment(t *testing.T) {
	r := Parse([]byte("# Use Scalar <!-- short title, representative of solved problem and found solution -->\n\n## Status\n\nAccepted\n"))
	if r.Title != "Use Scalar" {
		t.Errorf("title %q", r.Title)
	}
}
