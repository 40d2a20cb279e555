package adr

import (
	"strings"
	"testing"
	"testing/fstest"
)

// newIn loads fsys and renders a new record titled "Test decision" in its
// first root, numbered as `git adr new` numbers it, with tmpl as the
// project template.
func newIn(t *testing.T, fsys fstest.MapFS, tmpl string, st Status) (*Record, string, []string) {
	t.Helper()
	l, err := Load(fsys, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	root := l.Roots[0]
	rec, changes, notes, err := l.NewRecord(NewOptions{Title: "Test decision", Root: root, Date: "2026-12-04",
		Number: NextNumber(root, nil, nil), Template: tmpl, Status: st})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		if c.Path == rec.Path {
			return rec, string(c.New), notes
		}
	}
	t.Fatalf("no change writes %s", rec.Path)
	return nil, "", nil
}

func TestNextNumberPastOtherFormats(t *testing.T) {
	// openedx/openedx-events: every record is reStructuredText.
	rst := fstest.MapFS{".adr.toml": file("[[roots]]\npath = \"docs/decisions\"\n")}
	for i, slug := range []string{"purpose", "events", "schemas"} {
		rst["docs/decisions/000"+itoa(i+1)+"-"+slug+".rst"] = file("Title\n=====\n\nStatus\n------\n\nAccepted\n")
	}
	rst["docs/decisions/archive/0004-old.rst"] = file("Old\n===\n")
	rec, _, notes := newIn(t, rst, "", "")
	if rec.Number != 5 || rec.Path != "docs/decisions/0005-test-decision.md" {
		t.Errorf("new record %s (%d), want docs/decisions/0005-test-decision.md past the .rst records", rec.Path, rec.Number)
	}
	want := `docs/decisions holds 4 numbered .rst files that git-adr does not read (it reads Markdown records); ADR-0005 is numbered past them`
	if !strings.Contains(strings.Join(notes, "\n"), want) {
		t.Errorf("notes %q, want one saying %q", notes, want)
	}

	// A Markdown log with a diagram named for its record: numbered past
	// it, and no note (record 2 carries the number).
	md := fstest.MapFS{
		"doc/adr/0001-a.md":        nygard(1, "A", "Accepted"),
		"doc/adr/0002-b.md":        nygard(2, "B", "Accepted"),
		"doc/adr/0002-b.png":       file("\x89PNG"),
		"doc/adr/0009-later.adoc":  file("= Later\n"),
		"doc/adr/.0012-swap.md":    file("x"),
		"doc/adr/0000-template.md": file("# NUMBER. TITLE\n"),
	}
	rec, _, notes = newIn(t, md, "", "")
	if rec.Number != 10 {
		t.Errorf("past 0009-later.adoc: %d, want 10 (a hidden file's number is no record's)", rec.Number)
	}
	if got := strings.Join(notes, "\n"); !strings.Contains(got, "1 numbered .adoc file that git-adr does not read (it reads Markdown records); ADR-0010 is numbered past it") || strings.Contains(got, ".png") {
		t.Errorf("notes %q, want the .adoc file named and the .png not", notes)
	}
	// SmartBear/git-en-boite: a record that lost its .md.
	md = fstest.MapFS{
		"doc/adr/0015-a.md":                             nygard(15, "A", "Accepted"),
		"doc/adr/0016-handle-concurrent-git-operations": file("# 16. Handle concurrent git operations\n"),
	}
	if rec, _, notes = newIn(t, md, "", ""); rec.Number != 17 || !strings.Contains(strings.Join(notes, "\n"), "holds 1 numbered file with no extension that") {
		t.Errorf("past a file with no extension: %d, notes %q", rec.Number, notes)
	}
}

func TestTemplateFileNames(t *testing.T) {
	for name, template := range map[string]bool{
		// Names that are a template.
		"template.md": true, "TEMPLATE.md": true, "Template.md": true, "adr-template.md": true,
		"0000-template.md": true, "000-template.md": true, "rfc-000-template.md": true, "_template.md": true,
		"_TEMPLATE.md": true, "GRFC-TEMPLATE.md": true, "ODH-ADR-0000-template.md": true, "NNNN-adr-template.md": true,
		"0000-ladr-template.md": true, "PLANTILLA.md": true, "plantilla-adr.md": true, "Vorlage.md": true,
		"modèle.md": true, "adr-plantilla.md": true, "ADRXXX-title.md": true,
		// Records whose slug mentions templates.
		"rfc-145-unarchive-govuk_admin_template.md": false, "0039-use-apache-velocity-as-template-engine.md": false,
		"0002-use-pull-request-template.md": false, "adr-014-project-template.md": false,
		"2021-03-04-use-a-template.md": false, "0007-template.md": false,
	} {
		if got := nonRecordReason(name) == reasonTemplate; got != template {
			t.Errorf("%s: template %v, want %v (reason %q)", name, got, template, nonRecordReason(name))
		}
	}
}

func TestRecordNamedForTemplates(t *testing.T) {
	// alphagov/govuk-rfcs: record 145 is about govuk_admin_template.
	l, err := Load(fstest.MapFS{
		"rfc-000-template.md": file("# Title\n\n## Summary\n"),
		"rfc-144-x.md":        file("---\nstatus: accepted\n---\n# X\n\n## Summary\n\nx\n"),
		"rfc-145-unarchive-govuk_admin_template.md": file("---\nstatus: accepted\n---\n# Unarchive govuk_admin_template Bootstrap project\n\n## Summary\n\nx\n"),
	}, LoadOptions{Roots: []string{"."}})
	if err != nil {
		t.Fatal(err)
	}
	root := l.Roots[0]
	if len(root.Records) != 2 || root.Records[1].Title != "Unarchive govuk_admin_template Bootstrap project" {
		t.Errorf("records %v, want rfc-144 and rfc-145", recordIDs(root.Records))
	}
	if got := root.LogTemplate(); got != "rfc-000-template.md" {
		t.Errorf("LogTemplate = %q, want rfc-000-template.md", got)
	}
}

func TestFillMustache(t *testing.T) {
	// log4brains' template (SSWConsulting/SSW.CleanArchitecture).
	tmpl := "# {{ SHORT TITLE }} <!-- short title of solved problem and solution -->\n\n" +
		"- Status: {{ STATUS }} <!-- optional: draft | proposed -->\n- Deciders: {{ DECIDERS }}\n" +
		"- Date: {{ LAST MODIFIED YYYY-MM-DD }} <!-- optional -->\n\nRecord {{ NUMBER }} ({{id}}), {{title}}.\n"
	want := "# Use DATE types <!-- short title of solved problem and solution -->\n\n" +
		"- Status: proposed <!-- optional: draft | proposed -->\n- Deciders: {{ DECIDERS }}\n" +
		"- Date: {{ LAST MODIFIED YYYY-MM-DD }} <!-- optional -->\n\nRecord 7 (ADR-0007), Use DATE types.\n"
	if got := Fill(tmpl, "7", "ADR-0007", "Use DATE types", "2026-12-04", "proposed"); got != want {
		t.Errorf("Fill:\n%s\nwant:\n%s", got, want)
	}
	// adr-tools' placeholders: the first of each on a line, and never
	// inside the title just put in.
	if got := Fill("# NUMBER. TITLE\n\nDate: DATE\n", "3", "ADR-0003", "Use DATE and TITLE", "2026-12-04", "x"); got != "# 3. Use DATE and TITLE\n\nDate: 2026-12-04\n" {
		t.Errorf("Fill adr-tools = %q", got)
	}
}

func TestCompleteTemplateSetextTitle(t *testing.T) {
	// grpc/proposal's GRFC-TEMPLATE.md.
	tmpl := "Title\n----\n* Author(s): [Author Name]\n* Last updated: [YYYY-MM-DD]\n\n## Abstract\n\n[A short summary.]\n"
	rec, got, _ := newIn(t, fstest.MapFS{"doc/adr/0001-a.md": nygard(1, "A", "Accepted")}, tmpl, "")
	want := "Test decision\n----\n* Author(s): [Author Name]\n* Last updated: 2026-12-04\n\n## Abstract\n\n[A short summary.]\n"
	if got != want || rec.Title != "Test decision" {
		t.Errorf("record %q:\n%s\nwant:\n%s", rec.Title, got, want)
	}
	// fluxcd/flux2's RFC-0000: "# RFC-NNNN Title".
	_, got, _ = newIn(t, fstest.MapFS{"doc/adr/0001-a.md": nygard(1, "A", "Accepted")}, "# RFC-NNNN Title\n\n**Status:** provisional\n\n**Creation date:** YYYY-MM-DD\n\n**Last update:** YYYY-MM-DD\n", "")
	if want := "# RFC-0002 Test decision\n\n**Status:** provisional\n\n**Creation date:** 2026-12-04\n\n**Last update:** 2026-12-04\n"; got != want {
		t.Errorf("RFC-NNNN template:\n%s\nwant:\n%s", got, want)
	}
}

func TestLogTemplates(t *testing.T) {
	recs := func(dir string) fstest.MapFS {
		return fstest.MapFS{
			dir + "/0001-a.md": nygard(1, "A", "Accepted"),
			dir + "/0002-b.md": nygard(2, "B", "Accepted"),
		}
	}
	load := func(fsys fstest.MapFS, roots ...string) *Root {
		t.Helper()
		l, err := Load(fsys, LoadOptions{Roots: roots})
		if err != nil {
			t.Fatal(err)
		}
		return l.Roots[0]
	}
	// A template named in another language, beside the records.
	fsys := recs("docs/adr")
	fsys["docs/adr/PLANTILLA.md"] = file("# Plantilla ADR\n\n- Estado: propuesto\n")
	if got := load(fsys).LogTemplate(); got != "docs/adr/PLANTILLA.md" {
		t.Errorf("LogTemplate = %q, want docs/adr/PLANTILLA.md", got)
	}
	// fluxcd/flux2: a folder per record, and RFC-0000/ the placeholder.
	fsys = fstest.MapFS{
		"rfcs/0001-a/README.md":    file("# RFC-0001 A\n\n**Status:** implemented\n\n## Summary\n\nx\n"),
		"rfcs/0002-b/README.md":    file("# RFC-0002 B\n\n**Status:** implemented\n\n## Summary\n\nx\n"),
		"rfcs/RFC-0000/README.md":  file("# RFC-NNNN Title\n\n**Status:** provisional\n"),
		"rfcs/0000-intro/note.txt": file("x"),
	}
	if got := load(fsys, "rfcs").LogTemplate(); got != "rfcs/RFC-0000/README.md" {
		t.Errorf("LogTemplate = %q, want rfcs/RFC-0000/README.md", got)
	}
	fsys["rfcs/RFC-0000/README.md"] = file("# Introduction to our RFCs\n")
	if got := load(fsys, "rfcs").LogTemplate(); got != "" {
		t.Errorf("LogTemplate = %q: a 0000 folder whose title is no placeholder is no template", got)
	}
	// Anthony-Nolan/Atlas, GridTools/gt4py: a log of component folders
	// keeps its template above them.
	fsys = recs("adr/Phase0")
	fsys["adr/Phase1/0001-c.md"] = nygard(1, "C", "Accepted")
	fsys["adr/000-template.md"] = file("# Title\n\n## Status\n\nWhat is the status, such as proposed, accepted?\n\n## Decision\n\nx\n")
	fsys["adr/README.md"] = file("# Our decisions\n")
	root := load(fsys, "adr/Phase0")
	if got := root.ParentTemplate(fsys); got != "adr/000-template.md" {
		t.Errorf("ParentTemplate = %q, want adr/000-template.md", got)
	}
	fsys["adr/template-short.md"] = file("# Title\n\n## Status\n\nSTATUS\n")
	if got := root.ParentTemplate(fsys); got != "" {
		t.Errorf("ParentTemplate = %q with two templates, want none", got)
	}
	delete(fsys, "adr/template-short.md")
	fsys["adr/000-template.md"] = file("# Title\n\nWrite here.\n")
	if got := root.ParentTemplate(fsys); got != "" {
		t.Errorf("ParentTemplate = %q: a file with no ADR structure is not the log's template", got)
	}
	// Any root's parent, not only a folder of component logs: a
	// docs/template.md with ADR structure above docs/adr (as documented).
	fsys = recs("docs/adr")
	fsys["docs/template.md"] = file("# Title\n\n## Status\n\nproposed\n\n## Decision\n\nx\n")
	if got := load(fsys, "docs/adr").ParentTemplate(fsys); got != "docs/template.md" {
		t.Errorf("ParentTemplate = %q, want docs/template.md", got)
	}
	// The repository root is no log's parent.
	fsys = recs("adr")
	fsys["template.md"] = file("# Title\n\n## Status\n\nSTATUS\n\n## Decision\n")
	if got := load(fsys, "adr").ParentTemplate(fsys); got != "" {
		t.Errorf("ParentTemplate = %q, want none above a top-level root", got)
	}
}

func TestNewFromLogTemplateStatus(t *testing.T) {
	log := fstest.MapFS{
		"adr/Phase0/001-a.md": file("# A\n\n## Status\n\nAccepted.\n\n## Context\n\nx\n\n## Decision\n\ny\n"),
		"adr/Phase0/002-b.md": file("# B\n\n## Status\n\nAccepted.\n\n## Context\n\nx\n\n## Decision\n\ny\n"),
	}
	tmpl := "# Title\n\n## Status\n\nWhat is the status, such as proposed, accepted, rejected, deprecated, superseded, etc.?\n\n## Decision\n\nWhat is the change?\n"
	// A nygard log: accepted is adr-tools' default, but the log's
	// template proposes.
	rec, got, _ := newIn(t, log, tmpl, "")
	want := "# Test decision\n\n## Status\n\nProposed\n\n## Decision\n\nWhat is the change?\n"
	if got != want || rec.Status != Proposed {
		t.Errorf("from the log's template (%s):\n%s\nwant:\n%s", rec.Status, got, want)
	}
	// The template's word for the status, in the log's case.
	tmpl = "# Title\n\n- Status: draft | accepted | valid\n"
	if _, got, _ = newIn(t, log, tmpl, ""); got != "# Test decision\n\n- Status: Draft\n" {
		t.Errorf("template's word: %q", got)
	}
	// A template that states a status keeps it; --status changes it to
	// the log's own word.
	es := fstest.MapFS{
		"docs/adr/0001-a.md": file("# 0001 - A\n\n- Estado: aceptado\n- Fecha: 16/02/26\n\n## Contexto\n\nx\n\n## Decisión\n\ny\n"),
		"docs/adr/0002-b.md": file("# 0002 - B\n\n- Estado: aceptado\n- Fecha: 17/02/26\n\n## Contexto\n\nx\n\n## Decisión\n\ny\n"),
	}
	tmpl = "# Plantilla ADR\n\n- Estado: propuesto\n- Fecha: dd/mm/aa\n\n## Contexto\n\nDescribir.\n"
	if _, got, _ = newIn(t, es, tmpl, ""); got != "# 0003 - Test decision\n\n- Estado: propuesto\n- Fecha: 2026-12-04\n\n## Contexto\n\nDescribir.\n" {
		t.Errorf("Spanish template:\n%s", got)
	}
	if _, got, _ = newIn(t, es, tmpl, Accepted); !strings.Contains(got, "- Estado: aceptado\n") {
		t.Errorf("--status accepted in a Spanish log:\n%s", got)
	}
}

func TestNewTitleConvention(t *testing.T) {
	bw := func(n int, title string) *fstest.MapFile {
		d := padNumber(n, 4)
		return file("---\nadr: \"" + d + "\"\nstatus: Accepted\ndate: 2022-07-0" + itoa(n) + "\ntags: [clients]\n---\n\n# " + d + " - " + title + "\n\n## Context and problem statement\n\nx\n\n## Decision outcome\n\ny\n")
	}
	// bitwarden/contributing-docs.
	fsys := fstest.MapFS{"docs/adr/0001-a.md": bw(1, "A"), "docs/adr/0002-b.md": bw(2, "B"), "docs/adr/0003-c.md": bw(3, "C")}
	_, got, _ := newIn(t, fsys, "", "")
	if !strings.HasPrefix(got, "---\nadr: \"0004\"\nstatus: proposed\ndate: 2026-12-04\n---\n# 0004 - Test decision\n") {
		t.Errorf("bitwarden-like log:\n%s", got)
	}
	// One record that writes it otherwise: no convention.
	fsys["docs/adr/0002-b.md"] = file("---\nstatus: Accepted\n---\n\n# B\n\n## Context and problem statement\n\nx\n")
	if _, got, _ = newIn(t, fsys, "", ""); !strings.HasPrefix(got, "---\nstatus: proposed\ndate: 2026-12-04\n---\n# Test decision\n") {
		t.Errorf("mixed log:\n%s", got)
	}
	for name, c := range map[string]struct{ first, second, want string }{
		"ADR-007: Title": {"# ADR-001: A", "# ADR-002: B", "# ADR-003: Test decision\n"},
		"7. Title":       {"# 1. A", "# 2. B", "# 3. Test decision\n"},
		"unnumbered":     {"# A", "# B", "# Test decision\n"},
		// arachne-framework/architecture.
		"lead without a number": {"# Architecture Decision Record: Use ADRs", "# Architecture Decision Record: Configuration", "# Architecture Decision Record: Test decision\n"},
		"bare number":           {"# 1 Use ADRs", "# 2 Configuration", "# 3 Test decision\n"},
	} {
		fsys := fstest.MapFS{
			"doc/adr/0001-a.md": file(c.first + "\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nx\n\n## Decision\n\ny\n"),
			"doc/adr/0002-b.md": file(c.second + "\n\nDate: 2020-01-02\n\n## Status\n\nAccepted\n\n## Context\n\nx\n\n## Decision\n\ny\n"),
		}
		if _, got, _ := newIn(t, fsys, "", ""); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %q, want it to start %q", name, got, c.want)
		}
	}
}

func TestNewRecordEndsItsLastLine(t *testing.T) {
	// Anthony-Nolan/Atlas's template ends without a newline.
	_, got, _ := newIn(t, fstest.MapFS{"doc/adr/0001-a.md": nygard(1, "A", "Accepted")}, "# Title\n\n## Status\n\nSTATUS", "")
	if got != "# Test decision\n\n## Status\n\nAccepted\n" {
		t.Errorf("new record %q", got)
	}
}

// With the built-in template, a new record's status is the word the
// log's records agree on for it; a log of several words gets the usual
// one.
func TestNewAgreedStatusWord(t *testing.T) {
	rec := func(n int, status string) *fstest.MapFile {
		return file("# " + itoa(n) + ". R\n\nDate: 2020-01-01\n\n## Status\n\n" + status + "\n\n## Context\n\nx\n\n## Decision\n\ny\n")
	}
	for _, c := range []struct {
		name, first, second, want string
	}{
		{"agreed", "Accepté", "Accepté", "Accepté"},
		{"several words", "Implemented", "Accepted", "Accepted"},
	} {
		fsys := fstest.MapFS{"doc/adr/0001-a.md": rec(1, c.first), "doc/adr/0002-b.md": rec(2, c.second)}
		if _, got, _ := newIn(t, fsys, "", ""); !strings.Contains(got, "## Status\n\n"+c.want+"\n") {
			t.Errorf("%s: %q, want the status %q", c.name, got, c.want)
		}
	}
}
