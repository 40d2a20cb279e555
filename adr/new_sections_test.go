package adr

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// proposalSections are the three texts of a proposal.
var proposalSections = []SectionText{
	{"context", "Reads take 800 ms at p99.\n\n- the database is remote"},
	{"decision", "We cache reads in Redis.\n\n#### TTL\n\n60 s."},
	{"consequences", "* Good, because reads are fast\n* Bad, because one more service runs"},
}

// TestFillSectionsBuiltIn fills each built-in template: the texts replace
// the template's under the style's own headings, MADR's consequences stay
// a subsection of Decision Outcome, and a template without a section gets
// one where the style keeps it.
func TestFillSectionsBuiltIn(t *testing.T) {
	for _, c := range []struct {
		style    Style
		want     []string // in this order in the record
		template []string // TemplateSections
	}{
		{StyleNygard, []string{"## Status\n\nProposed\n\n## Context\n\nReads take 800 ms at p99.\n\n- the database is remote\n\n## Decision\n\nWe cache reads in Redis.\n\n#### TTL\n\n60 s.\n\n## Consequences\n\n* Good, because reads are fast\n* Bad, because one more service runs\n"}, nil},
		{StyleMADR, []string{"## Context and Problem Statement\n\nReads take 800 ms at p99.\n\n- the database is remote\n\n## Considered Options\n",
			"## Decision Outcome\n\nWe cache reads in Redis.\n\n#### TTL\n\n60 s.\n\n### Consequences\n\n* Good, because reads are fast\n* Bad, because one more service runs\n"}, []string{"Considered Options"}},
		// MADR 2 has no consequences: they join Decision Outcome, as MADR 3 keeps them.
		{StyleMADR2, []string{"## Decision Outcome\n\nWe cache reads in Redis.\n\n#### TTL\n\n60 s.\n\n### Consequences\n\n* Good, because reads are fast\n* Bad, because one more service runs\n"}, []string{"Considered Options"}},
		{StyleTable, []string{"## Context\n\nReads take 800 ms at p99.\n", "## Decision\n\nWe cache reads in Redis.\n", "## Consequences\n\n* Good"}, nil},
	} {
		t.Run(string(c.style), func(t *testing.T) {
			tmpl := Fill(templates[c.style], "4", "ADR-0004", "Cache reads", "2026-01-15", "Proposed")
			out, err := fillSections(tmpl, c.style, proposalSections)
			if err != nil {
				t.Fatal(err)
			}
			at := 0
			for _, w := range c.want {
				i := strings.Index(out[at:], w)
				if i < 0 {
					t.Fatalf("no %q after offset %d in\n%s", w, at, out)
				}
				at += i + len(w)
			}
			if !strings.HasSuffix(out, "\n") || strings.HasSuffix(out, "\n\n") {
				t.Errorf("the record does not end with one line end: %q", out[max(0, len(out)-20):])
			}
			before, after := Parse([]byte(tmpl)), Parse([]byte(out))
			if after.Title != before.Title || after.Status != Proposed || after.Date != before.Date {
				t.Errorf("metadata changed: %q %s %s", after.Title, after.Status, after.Date)
			}
			if got := TemplateSections(after, proposalSections); !slices.Equal(got, c.template) {
				t.Errorf("TemplateSections = %q, want %q", got, c.template)
			}
		})
	}
}

// TestFillSectionsTemplates fills templates of other shapes: a log's own
// headings and language, a template without a context section, CRLF line
// ends (kept), an OCP container (refused).
func TestFillSectionsTemplates(t *testing.T) {
	fr := "# TITLE\n\n## Statut\n\nSTATUS\n\n## Contexte\n\n_À remplir._\n\n## Décision\n\n_À remplir._\n\n## Conséquences\n\n_À remplir._\n"
	out, err := fillSections(Fill(fr, "1", "1", "T", "2026-01-15", "Proposé"), StyleNygard, proposalSections[:2])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "## Contexte\n\nReads take 800 ms at p99.\n\n- the database is remote\n\n## Décision\n\nWe cache reads in Redis.") ||
		!strings.Contains(out, "## Conséquences\n\n_À remplir._\n") {
		t.Errorf("French headings:\n%s", out)
	}
	if got := TemplateSections(Parse([]byte(out)), proposalSections[:2]); !slices.Equal(got, []string{"Conséquences"}) {
		t.Errorf("TemplateSections = %q", got)
	}

	noContext := "# NUMBER. TITLE\n\n## Status\n\nSTATUS\n\n## Decision\n\nTBD\n"
	out, err = fillSections(Fill(noContext, "1", "1", "T", "2026-01-15", "Proposed"), StyleNygard, proposalSections)
	if err != nil {
		t.Fatal(err)
	}
	if want := "## Status\n\nProposed\n\n## Context\n\nReads take 800 ms at p99.\n\n- the database is remote\n\n## Decision\n\nWe cache reads in Redis.\n\n#### TTL\n\n60 s.\n\n## Consequences\n\n* Good"; !strings.Contains(out, want) {
		t.Errorf("sections added:\n%s", out)
	}

	crlf := strings.ReplaceAll(templates[StyleNygard], "\n", "\r\n")
	out, err = fillSections(Fill(crlf, "1", "1", "T", "2026-01-15", "Proposed"), StyleNygard, proposalSections)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(out, "\n") != strings.Count(out, "\r\n") || !strings.Contains(out, "We cache reads in Redis.\r\n\r\n#### TTL") {
		t.Errorf("CRLF lost:\n%q", out)
	}

	if _, err := fillSections(Fill(templates[StyleOCP], "1", "1", "T", "2026-01-15", "Proposed"), StyleOCP, proposalSections); err == nil {
		t.Error("an OCP container took context sections")
	}
}

// TestFillSectionsRefuses: text that would end its section, swallow the
// rest of the record, carry control characters or change the record's
// metadata is refused, naming the section and the line.
func TestFillSectionsRefuses(t *testing.T) {
	for _, c := range []struct {
		style       Style
		text, error string
	}{
		{StyleNygard, "", "the context text: it is empty"},
		{StyleNygard, "Fine.\n\n## Status\n\nAccepted", `the context text, line 3: "## Status" is a heading of level 2, which would end the section; use ### or deeper`},
		{StyleNygard, "Intro\n\nStatus\n------\n\nAccepted", `the context text, line 3: "Status" is a heading of level 2`},
		{StyleNygard, "# Other title", `line 1: "# Other title" is a heading of level 1`},
		{StyleMADR, "Fine.\n\n```go\nfunc main() {", "it leaves a code fence open, which would swallow the rest of the record"},
		{StyleNygard, "<!-- a note\nthat never ends", "it leaves an HTML comment open"},
		{StyleNygard, "Red \x1b[31mtext", "line 1: it holds the control character U+001B"},
		{StyleNygard, "ok\n\nreversed \u202etxt", "line 3: it holds the control character U+202E"},
		// Relation lines under a heading the parser reads links from.
		{StyleNygard, "### Links\n\n* Supersedes [1. X](0001-x.md)", "it changes what the record's title, status, date, domains or relations say"},
		{StyleMADR, "### More Information\n\n* Superseded by [X](0009-x.md)", "it changes what the record's title, status, date, domains or relations say"},
	} {
		tmpl := Fill(templates[c.style], "4", "ADR-0004", "T", "2026-01-15", "Proposed")
		_, err := fillSections(tmpl, c.style, []SectionText{{"context", c.text}, {"decision", "We decide."}})
		var se *SectionTextError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), c.error) {
			t.Errorf("%q: %v, want %q", c.text, err, c.error)
		}
	}
	// The text that changes the metadata is named, not the first.
	tmpl := Fill(templates[StyleNygard], "4", "ADR-0004", "T", "2026-01-15", "Proposed")
	_, err := fillSections(tmpl, StyleNygard, []SectionText{{"context", "Fine."}, {"decision", "### Links\n\n* Supersedes [1. X](0001-x.md)"}})
	if err == nil || !strings.HasPrefix(err.Error(), "the decision text") {
		t.Errorf("blamed: %v", err)
	}
}
