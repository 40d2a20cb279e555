package adr

import (
	"fmt"
	"strings"
	"testing"
)

// Forms seen in public ADR logs (issue 9): each case is the smallest
// record that shows one form, with what the parser must read from it.

// relLabels is relString with the label as written: "type>target(label)".
func relLabels(rs []Relation) string {
	var b []string
	for _, r := range rs {
		b = append(b, string(r.Type)+">"+r.Target+"("+r.Label+")")
	}
	return strings.Join(b, " ")
}

type wildCase struct {
	name   string
	src    string
	raw    string // RawStatus
	field  string // the status field's bytes ("-" when no field)
	status Status
	rels   string // relLabels
}

func checkWild(t *testing.T, tests []wildCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse([]byte(tt.src))
			if r.RawStatus != tt.raw || r.Status != tt.status {
				t.Errorf("status %q (%s), want %q (%s)", r.RawStatus, r.Status, tt.raw, tt.status)
			}
			field := "-"
			if r.StatusField.Kind != FieldNone {
				field = fieldText(r)
			}
			if field != tt.field {
				t.Errorf("status field %q, want %q", field, tt.field)
			}
			if got := relLabels(r.Relations); got != tt.rels {
				t.Errorf("relations\n got %s\nwant %s", got, tt.rels)
			}
			if got := string(r.Text().Apply()); got != tt.src {
				t.Errorf("round trip changed the record")
			}
		})
	}
}

// Item 1: an emoji (with or without U+FE0F) before a status that links
// its successor decorates the status and the label; it is neither.
func TestDecoratedStatusWithLink(t *testing.T) {
	checkWild(t, []wildCase{
		{
			name:   "section, emoji with variation selector, label with by",
			src:    lines("# 4. Old", "", "## Status", "", "⌛️ Superseded by [7. New approach](0007-new-approach.md)", "", "## Context", "", "x"),
			raw:    "⌛️ Superseded by [7. New approach](0007-new-approach.md)",
			field:  "⌛️ Superseded by [7. New approach](0007-new-approach.md)",
			status: Superseded,
			rels:   "superseded-by>0007-new-approach.md(Superseded by)",
		},
		{
			name:   "section, bare emoji, label without by",
			src:    lines("# 4. Old", "", "## Status", "", "⌛ Superseded [0019](0019-use-go.md)", "", "## Context", "", "x"),
			raw:    "⌛ Superseded [0019](0019-use-go.md)",
			field:  "⌛ Superseded [0019](0019-use-go.md)",
			status: Superseded,
			rels:   "superseded-by>0019-use-go.md(Superseded)",
		},
		{
			name:   "front matter",
			src:    lines("---", `status: "⌛️ Superseded by [ADR-0007](0007-new.md)"`, "---", "# Old"),
			raw:    "⌛️ Superseded by [ADR-0007](0007-new.md)",
			field:  `"⌛️ Superseded by [ADR-0007](0007-new.md)"`,
			status: Superseded,
			rels:   "superseded-by>0007-new.md(Superseded by)",
		},
		{
			name:   "metadata bullet",
			src:    lines("# Old", "", "- Status: ⌛️ Superseded by [New](0007-new.md)", "- Date: 2024-01-01"),
			raw:    "⌛️ Superseded by [New](0007-new.md)",
			field:  "⌛️ Superseded by [New](0007-new.md)",
			status: Superseded,
			rels:   "superseded-by>0007-new.md(Superseded by)",
		},
		{
			name:   "bold line",
			src:    lines("# Old", "", "**Status:** ⌛ Superseded by ADR-0007"),
			raw:    "⌛ Superseded by ADR-0007",
			field:  "⌛ Superseded by ADR-0007",
			status: Superseded,
			rels:   "superseded-by>ADR-0007(Superseded by)",
		},
		{
			name:   "table cell",
			src:    lines("# Old", "", "| Metadata | Value |", "|---|---|", "| Status | 🔄 Superseded by [ADR-7](0007-new.md) |"),
			raw:    "🔄 Superseded by [ADR-7](0007-new.md)",
			field:  "🔄 Superseded by [ADR-7](0007-new.md)",
			status: Superseded,
			rels:   "superseded-by>0007-new.md(Superseded by)",
		},
		{
			name:   "heading value",
			src:    lines("# Old", "", "## Status: ⌛️ Superseded by [New](0007-new.md)", "", "## Context"),
			raw:    "⌛️ Superseded by [New](0007-new.md)",
			field:  "⌛️ Superseded by [New](0007-new.md)",
			status: Superseded,
			rels:   "superseded-by>0007-new.md(Superseded by)",
		},
		{
			name:   "decorated link line below a status",
			src:    lines("# 3. C", "", "## Status", "", "✅ Accepted", "", "➡️ Supersedes [1. A](0001-a.md)", "", "## Context"),
			raw:    "✅ Accepted",
			field:  "✅ Accepted",
			status: Accepted,
			rels:   "supersedes>0001-a.md(Supersedes)",
		},
		{
			name:   "decorated accepted keeps its decoration in the raw text",
			src:    lines("# 1. A", "", "## Status", "", "✅ Accepted", "", "## Context"),
			raw:    "✅ Accepted",
			field:  "✅ Accepted",
			status: Accepted,
		},
	})
}

// Item 2: a status section whose only content is a quoted status word is
// that status; quoted guidance listing the choices is not.
func TestBlockquotedStatus(t *testing.T) {
	checkWild(t, []wildCase{
		{
			name:   "quoted status",
			src:    lines("# 1. A", "", "## Status", "", "> Accepted", "", "## Context", "", "x"),
			raw:    "Accepted",
			field:  "Accepted",
			status: Accepted,
		},
		{
			name:   "quoted, decorated and nested",
			src:    lines("# 1. A", "", "## Status", "", ">> ✅ **Accepted**", "", "## Context"),
			raw:    "✅ **Accepted**",
			field:  "✅ **Accepted**",
			status: Accepted,
		},
		{
			name:   "quoted supersession",
			src:    lines("# 1. A", "", "## Status", "", "> Superseded by [2. B](0002-b.md)", "", "## Context"),
			raw:    "Superseded by [2. B](0002-b.md)",
			field:  "Superseded by [2. B](0002-b.md)",
			status: Superseded,
			rels:   "superseded-by>0002-b.md(Superseded by)",
		},
		{
			name:   "unfilled guidance stays unknown",
			src:    lines("# 1. A", "", "## Status", "", "> Accepted or Rejected", "", "## Context"),
			field:  "",
			status: Unknown,
		},
		{
			name:   "guidance sentence stays unknown",
			src:    lines("# 1. A", "", "## Status", "", "> What is the status: proposed, accepted, rejected?", "", "## Context"),
			field:  "",
			status: Unknown,
		},
		{
			name:   "an unquoted status wins over a quoted one",
			src:    lines("# 1. A", "", "## Status", "", "> Proposed", "", "Accepted", "", "## Context"),
			raw:    "Accepted",
			field:  "Accepted",
			status: Accepted,
		},
	})
}

// Item 3: a status followed by a relation ("accepted; supersedes
// ADR-0012") yields both, wherever the status is written.
func TestCompoundStatus(t *testing.T) {
	checkWild(t, []wildCase{
		{
			name:   "front matter, semicolon",
			src:    lines("---", "status: accepted; supersedes ADR-0012", "---", "# New"),
			raw:    "accepted; supersedes ADR-0012",
			field:  "accepted; supersedes ADR-0012",
			status: Accepted,
			rels:   "supersedes>ADR-0012(supersedes)",
		},
		{
			name:   "section, comma and a link",
			src:    lines("# 15. New", "", "## Status", "", "Accepted, supersedes [12. Old, slow](0012-old.md)", "", "## Context"),
			raw:    "Accepted, supersedes [12. Old, slow](0012-old.md)",
			field:  "Accepted, supersedes [12. Old, slow](0012-old.md)",
			status: Accepted,
			rels:   "supersedes>0012-old.md(supersedes)",
		},
		{
			name:   "bullet, parenthesised, two relations",
			src:    lines("# New", "", "- Status: Proposed (amends ADR-3; relates to ADR-4)"),
			raw:    "Proposed (amends ADR-3; relates to ADR-4)",
			field:  "Proposed (amends ADR-3; relates to ADR-4)",
			status: Proposed,
			rels:   "amends>ADR-3(amends) relates-to>ADR-4(relates to)",
		},
		{
			name:   "the passive form still works alone",
			src:    lines("---", "status: superseded by ADR-0015", "---", "# Old"),
			raw:    "superseded by ADR-0015",
			field:  "superseded by ADR-0015",
			status: Superseded,
			rels:   "superseded-by>ADR-0015(superseded by)",
		},
		{
			name:   "prose after a status is no relation",
			src:    lines("---", "status: accepted; replaces the old process", "---", "# New"),
			raw:    "accepted; replaces the old process",
			field:  "accepted; replaces the old process",
			status: Accepted,
		},
	})
}

// Item 13: numbered status headings, a status heading nested under a
// metadata section, and a repeated status heading whose first copy is
// empty.
func TestNumberedAndRepeatedStatusHeadings(t *testing.T) {
	checkWild(t, []wildCase{
		{
			name:   "multi-level number",
			src:    lines("# 8. Choisir", "", "## 8.1 Statut", "", "Accepté", "", "## 8.2 Contexte", "", "x"),
			raw:    "Accepté",
			field:  "Accepté",
			status: Accepted,
		},
		{
			name:   "numbered with a full stop",
			src:    lines("# Title", "", "## 2. Status", "", "Proposed", "", "## 3. Context"),
			raw:    "Proposed",
			field:  "Proposed",
			status: Proposed,
		},
		{
			name:   "numbered with a parenthesis",
			src:    lines("# Title", "", "## 2) Status", "", "Rejected", "", "## 3) Context"),
			raw:    "Rejected",
			field:  "Rejected",
			status: Rejected,
		},
		{
			name:   "H3 under a metadata H2",
			src:    lines("# Title", "", "## Metadata", "", "### Status", "", "Accepted", "", "### Date", "", "2024-01-01", "", "## Context", "", "x"),
			raw:    "Accepted",
			field:  "Accepted",
			status: Accepted,
		},
		{
			name:   "status heading repeated, the first one empty",
			src:    lines("# Title", "", "## Status", "", "## Status", "", "Deprecated", "", "## Context"),
			raw:    "Deprecated",
			field:  "Deprecated",
			status: Deprecated,
		},
		{
			name:   "metadata lines under a metadata H2",
			src:    lines("# Title", "", "## Metadata", "", "- Status: Accepted", "- Date: 2024-01-01", "", "## Context", "", "x"),
			raw:    "Accepted",
			field:  "Accepted",
			status: Accepted,
		},
		{
			name:   "metadata table under a repeated metadata H2",
			src:    lines("# Title", "", "## Metadata", "", "Authors: Ann", "", "## Context", "", "x", "", "## Metadata", "", "| Status | Approved |", "|---|---|"),
			raw:    "Approved",
			field:  "Approved",
			status: Accepted,
		},
	})
}

// Item 7: a "Key: [link](url)" bullet under "More Information" is a
// reference, not a relation; adr-tools' custom labels still are.
func TestLinkBulletsAreNotRelations(t *testing.T) {
	src := lines("# 3. C", "", "## Status", "", "Accepted", "", "Clarifies [1. A](0001-a.md)", "",
		"## More Information", "",
		"* Source: [https://github.com/a/b](https://github.com/a/b)",
		"* Source: [https://github.com/a/b/blob/main/README.md](https://github.com/a/b/blob/main/README.md)",
		"* Background: [the design](../design/cache.md)",
		"* Clarifies [2. B](0002-b.md)",
		"* Superseded by [the new log](https://example.com/adr/0009-x.md)",
		"* Relates to [4. D](0004-d.md)")
	r := Parse([]byte(src))
	want := "Clarifies>0001-a.md(Clarifies) Clarifies>0002-b.md(Clarifies) superseded-by>https://example.com/adr/0009-x.md(Superseded by) relates-to>0004-d.md(Relates to)"
	if got := relLabels(r.Relations); got != want {
		t.Errorf("relations\n got %s\nwant %s", got, want)
	}
}

// Item 7: two places that state different statuses are kept for check to
// report; the first one is the record's status.
func TestConflictingStatuses(t *testing.T) {
	r := Parse([]byte(lines("---", "status: active", "---", "# T", "", "## Status", "", "Rejected", "", "## Context")))
	if r.Status != Accepted || r.RawStatus != "active" {
		t.Errorf("status %s %q, want the first one (accepted %q)", r.Status, r.RawStatus, "active")
	}
	if len(r.otherStatuses) != 1 || r.otherStatuses[0].Status != Rejected || r.otherStatuses[0].Line != 8 {
		t.Errorf("other statuses %+v, want Rejected on line 8", r.otherStatuses)
	}
	same := Parse([]byte(lines("# T", "", "Status: Accepted", "", "## Status", "", "Accepted.", "", "## Context")))
	if len(same.otherStatuses) != 0 {
		t.Errorf("the same status twice is no conflict: %+v", same.otherStatuses)
	}
}

// Several fields on one line, separated by "|": each is read, and the
// status field is only the status's own word (an edit keeps the rest).
func TestFieldsOnOneLine(t *testing.T) {
	checkWild(t, []wildCase{
		{name: "bold keys", src: "# ADR 005: Secrets\n\n**Status:** Accepted | **Date:** 2025-02-25 | **Review:** 2026-02-25\n\n## Context\n\nx\n",
			raw: "Accepted", field: "Accepted", status: Accepted},
		{name: "plain keys", src: "# T\n\nStatus: Superseded by [ADR-2](0002-x.md) | Date: 2024-01-02\n",
			raw: "Superseded by [ADR-2](0002-x.md)", field: "Superseded by [ADR-2](0002-x.md)", status: Superseded, rels: "superseded-by>0002-x.md(Superseded by)"},
		// A "|" inside a value that is not followed by a key stays in it.
		{name: "pipe in value", src: "# T\n\nStatus: Accepted | partly\n", raw: "Accepted | partly", field: "Accepted | partly", status: Accepted},
	})
	r := Parse([]byte("# ADR 005: Secrets\n\n**Status:** Accepted | **Date:** 2025-02-25 | **Review:** 2026-02-25\n"))
	if r.Date != "2025-02-25" || r.ReviewBy != "2026-02-25" {
		t.Errorf("date %q, review %q", r.Date, r.ReviewBy)
	}
	if r := Parse([]byte("# T\n\nReview: approved by the board\n")); r.ReviewBy != "" {
		t.Errorf("a bare Review that is not a date read as review-by %q", r.ReviewBy)
	}
	if got := string(r.WithStatus("deprecated")); !strings.Contains(got, "**Status:** deprecated | **Date:** 2025-02-25 | **Review:** 2026-02-25\n") {
		t.Errorf("status edit:\n%s", got)
	}
}

// A record that states no date takes the one in its status value
// (Cadasta's "- **Status:** Accepted, 2016-11-23"); a date of its own wins.
func TestStatusValueDate(t *testing.T) {
	for _, c := range []struct{ src, status, date string }{
		{lines("# 0001: Blocking", "", "- **Author:** Ada", "- **Status:** Accepted, 2016-11-23", "", "## Context"), "accepted", "2016-11-23"},
		{lines("# T", "", "## Status", "", "Proposed on 3 May 2021", "", "## Context"), "proposed", "2021-05-03"},
		{lines("# T", "", "Date: 2020-01-02", "", "## Status", "", "Accepted 2021-05-03"), "accepted", "2020-01-02"},
		{lines("# T", "", "## Status", "", "Accepted", "", "## Context", "", "Since 2019-01-01 we ..."), "accepted", ""},
		{lines("# T", "", "Status: Accepted (ADR-2021)"), "accepted", ""},
		// The date it was first decided, not the date it was edited.
		{lines("# 8. Load Testing", "", "Initial date: 2022-12-21", "Updated: 2025-01-07", "", "## Decision", "", "x", "", "## Status", "", "Accepted."), "accepted", "2022-12-21"},
		{lines("# T", "", "Updated: 2025-01-07", "Date created: 2021-03-04", "", "## Status", "", "Accepted"), "accepted", "2021-03-04"},
	} {
		r := Parse([]byte(c.src))
		if string(r.Status) != c.status || r.Date != c.date {
			t.Errorf("%q: status %s, date %q; want %s, %q", c.src, r.Status, r.Date, c.status, c.date)
		}
	}
}

// A status that is its history ("Deprecated → Superseded by ADR 018:
// Errors Management"): the last entry is the status, and its relation,
// named by ID and title, is read.
func TestStatusHistoryArrow(t *testing.T) {
	r := Parse([]byte(lines("# ADR 001: Use Centralized Errors", "", "## Status", "",
		"**Deprecated** → **Superseded by ADR 018: Errors Management**", "", "## Context", "", "x")))
	if r.Status != Superseded || len(r.Relations) != 1 || r.Relations[0].Type != SupersededBy || r.Relations[0].Target != "ADR 018" {
		t.Errorf("status %s, relations %+v", r.Status, r.Relations)
	}
	r = Parse([]byte(lines("# T", "", "Status: Proposed -> Accepted (amends ADR-7 - Use Go)")))
	if r.Status != Accepted || len(r.Relations) != 1 || r.Relations[0].Type != Amends || r.Relations[0].Target != "ADR-7" {
		t.Errorf("status %s, relations %+v", r.Status, r.Relations)
	}
}

// TestUnspacedTitle: a first line written "#25. Title" (no space after the
// "#") is the record's title, with a problem naming its line; a "#" run
// later in the file, a shebang or a lone "#" is not.
func TestUnspacedTitle(t *testing.T) {
	for _, c := range []struct {
		src, title string
		num        int
		problem    bool
	}{
		{lines("#25. Automatic code merging", "", "**Date:** 2022-03-15", "", "## Context", "", "x"), "Automatic code merging", 25, true},
		{lines("---", "tags: [a]", "---", "", "##Use Kafka", "", "x"), "Use Kafka", -1, true},
		{lines("# 25. Spaced", "", "#hashtag"), "Spaced", 25, false},
		{lines("Intro text", "", "#NotTitle"), "", -1, false},
		{lines("#!/bin/sh", "", "x"), "", -1, false},
		{lines("###Three", "", "x"), "", -1, false},
		{lines("#", "", "x"), "", -1, false},
	} {
		r := Parse([]byte(c.src))
		has := false
		for _, p := range r.Problems {
			has = has || strings.Contains(p, "no space after")
		}
		if r.Title != c.title || r.TitleNumber != c.num || has != c.problem {
			t.Errorf("%q: title %q (number %d), problem %v %v; want %q (%d), %v", c.src, r.Title, r.TitleNumber, has, r.Problems, c.title, c.num, c.problem)
		}
	}
	if n := titleProblemLine(fmt.Sprintf(ProblemUnspacedTitle, 5)); n != 5 {
		t.Errorf("titleProblemLine read %d, want 5", n)
	}
}

// TestInvalidatedBy: "Invalidated by [link]" in a status section is a
// supersession: the status is superseded and the link a Superseded by
// relation.
func TestInvalidatedBy(t *testing.T) {
	r := Parse([]byte(lines("# CF Resource GUID Prefixing", "", "Date: 2022-01-14", "", "## Status", "",
		"Invalidated by [0018-uuid-resource-names.md](./0018-uuid-resource-names.md)", "", "## Context", "", "x")))
	if r.Status != Superseded {
		t.Errorf("status %q, want superseded", r.Status)
	}
	if len(r.Relations) != 1 || r.Relations[0].Type != SupersededBy || r.Relations[0].Target != "./0018-uuid-resource-names.md" {
		t.Errorf("relations %+v, want one superseded-by ./0018-uuid-resource-names.md", r.Relations)
	}
}
