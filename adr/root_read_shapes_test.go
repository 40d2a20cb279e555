package adr_test

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/adr"
)

// TestRecordShapesBesideRecords: a slug-named record that weighs its
// options without a Decision section is read beside records with ADR
// structure (and not alone), and a numbered log's "adr-draft-…" record
// with ADR structure is a record still to be numbered, while other
// unnumbered files stay documentation.
func TestRecordShapesBesideRecords(t *testing.T) {
	md := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	framed := md("---\ntitle: \"ADR: Conditionals in JSX\"\n---\n\n## Background\n\nWhy.\n\n## Options considered\n\nTernaries.\n\n## Consequences\n\nFewer wrappers.\n")
	ids := func(fsys fstest.MapFS) []string {
		l, err := adr.Load(fsys, adr.LoadOptions{Roots: []string{"adrs"}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range l.Records {
			got = append(got, r.ID)
		}
		slices.Sort(got)
		return got
	}
	got := ids(fstest.MapFS{
		"adrs/preferred-export.md":  md("# Preferred export\n\n## Background\n\nWhy.\n\n## Decision\n\nNamed exports.\n"),
		"adrs/jsx-conditionals.md":  framed,
		"adrs/contributor-notes.md": md("# Notes\n\n## Background\n\nSome prose.\n"),
	})
	if want := "jsx-conditionals preferred-export"; strings.Join(got, " ") != want {
		t.Errorf("beside a record: %v, want %s", got, want)
	}
	if got := ids(fstest.MapFS{"adrs/jsx-conditionals.md": framed, "adrs/other.md": framed}); len(got) != 0 {
		t.Errorf("with no record that has ADR structure, framed files are not records: %v", got)
	}

	rec := func(n string) *fstest.MapFile {
		return md("# " + n + ". R\n\n## Status\n\nAccepted\n\n## Context\n\nC.\n\n## Decision\n\nD.\n")
	}
	got = ids(fstest.MapFS{
		"adrs/adr-001-a.md":            rec("1"),
		"adrs/adr-002-b.md":            rec("2"),
		"adrs/adr-003-c.md":            rec("3"),
		"adrs/adr-draft-spectrum.md":   md("# ADR: Spectrum\n\n## Status\n\nProposed\n\n## Context\n\nC.\n\n## Decision\n\nD.\n"),
		"adrs/adr-draft-notes.md":      md("# Notes on drafting\n\nProse only.\n"),
		"adrs/process.md":              rec("0"),
		"adrs/adr-drafting-process.md": md("# Drafting\n\n## Context\n\nC.\n\n## Decision\n\nD.\n"),
	})
	if want := "ADR-001 ADR-002 ADR-003 adr-draft-spectrum"; strings.Join(got, " ") != want {
		t.Errorf("numbered log: %v, want %s", got, want)
	}
}
