package adr

import (
	"regexp"
	"strings"
	"testing"
)

func TestCleanTitle(t *testing.T) {
	tests := []struct {
		raw   string
		title string
		num   int
	}{
		{"5. Help comments", "Help comments", 5},
		{"10. Terraform directory structure", "Terraform directory structure", 10},
		{"ADR 035: Documentation", "Documentation", 35},
		{"ADR 025 Commit", "Commit", 25},
		{"ADR 45 - ABCI Evidence Handling", "ABCI Evidence Handling", 45},
		{"ADR 1: Logging", "Logging", 1},
		{"ADR-0007: Use Go", "Use Go", 7},
		{"ADR-7 - Use Go", "Use Go", 7},
		{"**ADR-1: Bold title**", "Bold title", 1},
		{"**Bold** and **more**", "**Bold** and **more**", -1},
		{"adr 12. Lower case", "Lower case", 12},
		{"3) Parenthesis", "Parenthesis", 3},
		{"RFC 7: Process", "Process", 7},
		{"DR000: Recording our project decisions", "Recording our project decisions", 0},
		{"DDR-12 Use events", "Use events", 12},
		{"dr_3 - Lower", "Lower", 3},
		{"Dr. Strangelove", "Dr. Strangelove", -1},
		{"DR12abc", "DR12abc", -1},
		{"Drop the cache", "Drop the cache", -1},
		{"Architecture Decision Record: Configuration", "Configuration", -1},
		{"ADR: Use Markdown", "Use Markdown", -1},
		{"Decision: Use Go", "Use Go", -1},
		{"  Use Markdown Architectural Decision Records  ", "Use Markdown Architectural Decision Records", -1},
		// Titles that merely start with a prefix word stay whole.
		{"ADR Review Process", "ADR Review Process", -1},
		{"ADR-tools compatibility", "ADR-tools compatibility", -1},
		{"Decision-making process", "Decision-making process", -1},
		{"RFC-style reviews", "RFC-style reviews", -1},
		{"Decisions about logging", "Decisions about logging", -1},
		{"Architecture overview", "Architecture overview", -1},
		{"", "", -1},
		// A bracketed status before the title is no part of it.
		{"[Superseded by [ADR-0019](0019-push-metrics-via-thanos.md)] Push Metrics via InfluxDB", "Push Metrics via InfluxDB", -1},
		{"[Deprecated] 4. Use Consul", "Use Consul", 4},
		{"[superseded]Use Consul", "Use Consul", -1},
		{"[WIP] Use Consul", "[WIP] Use Consul", -1},
		{"[Deprecated](0004-x.md) notes", "[Deprecated](0004-x.md) notes", -1},
		{"[Superseded by ADR-9]", "[Superseded by ADR-9]", -1},
		{"[Superseded by [ADR-9](x.md) Use Consul", "[Superseded by [ADR-9](x.md) Use Consul", -1},
		{"[Supersededness] Use Consul", "[Supersededness] Use Consul", -1},
		// A lone number or prefix is not stripped to nothing.
		{"5.", "5.", -1},
		{"ADR", "ADR", -1},
	}
	for _, tt := range tests {
		title, num := cleanTitle(tt.raw)
		if title != tt.title || num != tt.num {
			t.Errorf("cleanTitle(%q) = %q, %d; want %q, %d", tt.raw, title, num, tt.title, tt.num)
		}
	}
}

func TestParseFileName(t *testing.T) {
	tests := []struct {
		name string
		want fileName
	}{
		{"0001-record-architecture-decisions.md", fileName{Digits: "0001", Number: 1, Numbered: true, Sep: "-", Slug: "record-architecture-decisions", Ext: ".md", Stem: "0001-record-architecture-decisions"}},
		{"adr-017-simplify-chimera-model.md", fileName{Lead: "adr-", Digits: "017", Number: 17, Numbered: true, Sep: "-", Slug: "simplify-chimera-model", Ext: ".md", Stem: "adr-017-simplify-chimera-model"}},
		{"ADR-48.md", fileName{Lead: "ADR-", Digits: "48", Number: 48, Numbered: true, Ext: ".md", Stem: "ADR-48"}},
		{"001_snake_case.markdown", fileName{Digits: "001", Number: 1, Numbered: true, Sep: "_", Slug: "snake_case", Ext: ".markdown", Stem: "001_snake_case"}},
		{"0042-Mixed.MD", fileName{Digits: "0042", Number: 42, Numbered: true, Sep: "-", Slug: "Mixed", Ext: ".MD", Stem: "0042-Mixed"}},
		{"12.md", fileName{Digits: "12", Number: 12, Numbered: true, Ext: ".md", Stem: "12"}},
		{"rfc0003-x.mdx", fileName{Lead: "rfc", Digits: "0003", Number: 3, Numbered: true, Sep: "-", Slug: "x", Ext: ".mdx", Stem: "rfc0003-x"}},
		// log4brains' date prefix is part of the slug, not a number.
		{"20200926-use-the-adr-number-as-its-unique-id.md", fileName{Slug: "20200926-use-the-adr-number-as-its-unique-id", Ext: ".md", Stem: "20200926-use-the-adr-number-as-its-unique-id"}},
		// Eight digits that are no date are a number.
		{"20201399-x.md", fileName{Digits: "20201399", Number: 20201399, Numbered: true, Sep: "-", Slug: "x", Ext: ".md", Stem: "20201399-x"}},
		{"use-markdown.md", fileName{Slug: "use-markdown", Ext: ".md", Stem: "use-markdown"}},
		{"notes.txt", fileName{Slug: "notes.txt", Stem: "notes.txt"}},
		{"1234567890-too-long.md", fileName{Slug: "1234567890-too-long", Ext: ".md", Stem: "1234567890-too-long"}},
		// A date, then the record's number: the date leads the number.
		{"2022-03-28_017-udp-networking.md", fileName{Lead: "2022-03-28_", Digits: "017", Number: 17, Numbered: true, Sep: "-", Slug: "udp-networking", Ext: ".md", Stem: "2022-03-28_017-udp-networking"}},
		{"2023-10-16_028_offline_adr.md", fileName{Lead: "2023-10-16_", Digits: "028", Number: 28, Numbered: true, Sep: "_", Slug: "offline_adr", Ext: ".md", Stem: "2023-10-16_028_offline_adr"}},
		{"2021-06-05-001-record.md", fileName{Lead: "2021-06-05-", Digits: "001", Number: 1, Numbered: true, Sep: "-", Slug: "record", Ext: ".md", Stem: "2021-06-05-001-record"}},
		{"20220328_017.md", fileName{Lead: "20220328_", Digits: "017", Number: 17, Numbered: true, Ext: ".md", Stem: "20220328_017"}},
		{"2027-01-04_100-faster.md", fileName{Lead: "2027-01-04_", Digits: "100", Number: 100, Numbered: true, Sep: "-", Slug: "faster", Ext: ".md", Stem: "2027-01-04_100-faster"}},
		// After a dash, only a padded number is one: "100-percent" is words.
		{"2023-01-05-100-percent-coverage.md", fileName{Slug: "2023-01-05-100-percent-coverage", Ext: ".md", Stem: "2023-01-05-100-percent-coverage"}},
		{"2023-01-05-2fa-for-admins.md", fileName{Slug: "2023-01-05-2fa-for-admins", Ext: ".md", Stem: "2023-01-05-2fa-for-admins"}},
		{"20230926-use-keycloak.md", fileName{Slug: "20230926-use-keycloak", Ext: ".md", Stem: "20230926-use-keycloak"}},
	}
	for _, tt := range tests {
		if got := parseFileName(tt.name); got != tt.want {
			t.Errorf("parseFileName(%q)\n got %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
}

func TestIsRecordFileName(t *testing.T) {
	for name, want := range map[string]bool{
		"0001-x.md":                true,
		"adr-017-x.md":             true,
		"ADR-48.md":                true,
		"20200926-slug.md":         true,
		"use-markdown.markdown":    true,
		"README.md":                false,
		"readme.md":                false,
		"index.md":                 false,
		"INDEX.md":                 false,
		"CURRENT.md":               false,
		"template.md":              false,
		"adr-template.md":          false,
		"adr_template.md":          false,
		"madr-template.md":         false,
		"template-short.md":        false,
		"_sidebar.md":              false,
		".0001-hidden.md":          false,
		"0001-x.txt":               false,
		"0001-x.md.orig":           false,
		"decisions.md":             false,
		"CHANGELOG.md":             false,
		"0001-template-for-use.md": true,
		"0000-template.md":         false,
		"adr-template-minimal.md":  false,
		"ADRXXX-title.md":          false,
		"adr-xxx-title.md":         false,
		"XXXX-short-title.md":      false,
		"0004a-inserted.md":        true,
	} {
		if got := isRecordFileName(name); got != want {
			t.Errorf("isRecordFileName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestSlugify(t *testing.T) {
	for in, want := range map[string]string{
		"Use Markdown Architectural Decision Records": "use-markdown-architectural-decision-records",
		"  Help -- comments!  ":                       "help-comments",
		"Création de releases quotidiennes":           "création-de-releases-quotidiennes",
		"使用 Go 语言":                                    "使用-go-语言",
		"ISO 8601":                                    "iso-8601",
		"???":                                         "",
	} {
		if got := slugify(in); got != want {
			t.Errorf("slugify(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSplitLocator(t *testing.T) {
	tests := []struct{ ref, rec, anchor string }{
		{"ADR-0012#decision", "ADR-0012", "decision"},
		{"ADR-0012#decision.3", "ADR-0012", "decision.3"},
		{"ADR-0042§4", "ADR-0042", "§4"},
		{"ADR-0042§4.2", "ADR-0042", "§4.2"},
		{"ADR-0012", "ADR-0012", ""},
		{"docs/adr/0001-x.md#context", "docs/adr/0001-x.md", "context"},
		{"#decision", "#decision", ""},
		{"§4", "§4", ""},
		{"", "", ""},
	}
	for _, tt := range tests {
		rec, anchor := SplitLocator(tt.ref)
		if rec != tt.rec || anchor != tt.anchor {
			t.Errorf("SplitLocator(%q) = %q, %q; want %q, %q", tt.ref, rec, anchor, tt.rec, tt.anchor)
		}
	}
}

func TestParseIDNumber(t *testing.T) {
	tests := []struct {
		in     string
		prefix string
		n      int
		ok     bool
	}{
		{"ADR-0007", "ADR", 7, true},
		{"adr-7", "adr", 7, true},
		{"adr 7", "adr", 7, true},
		{"7", "", 7, true},
		{"0007", "", 7, true},
		{"#7", "", 7, true},
		{"RFC_12", "RFC", 12, true},
		{"ADR-", "", 0, false},
		{"use-markdown", "", 0, false},
		{"1234567890", "", 0, false},
	}
	for _, tt := range tests {
		prefix, n, _, ok := parseIDNumber(tt.in)
		if prefix != tt.prefix || n != tt.n || ok != tt.ok {
			t.Errorf("parseIDNumber(%q) = %q, %d, %v; want %q, %d, %v", tt.in, prefix, n, ok, tt.prefix, tt.n, tt.ok)
		}
	}
}

func TestFormatIDAndLinks(t *testing.T) {
	root := &Root{Prefix: "ADR-", Digits: 4}
	if got := root.FormatID(7); got != "ADR-0007" {
		t.Errorf("FormatID(7) = %q", got)
	}
	if got := root.FormatID(12345); got != "ADR-12345" {
		t.Errorf("FormatID(12345) = %q", got)
	}
	for _, tt := range []struct{ from, to, want string }{
		{"docs/adr/0001-a.md", "docs/adr/0002-b.md", "0002-b.md"},
		{"docs/adr/0001-a.md", "docs/adr/archive/0002-b.md", "archive/0002-b.md"},
		{"docs/adr/archive/0002-b.md", "docs/adr/0001-a.md", "../0001-a.md"},
		{"packages/core/docs/adr/x.md", "docs/adr/y.md", "../../../../docs/adr/y.md"},
		{"0001-a.md", "docs/0002-b.md", "docs/0002-b.md"},
	} {
		if got := RelLink(tt.from, tt.to); got != tt.want {
			t.Errorf("RelLink(%q, %q) = %q, want %q", tt.from, tt.to, got, tt.want)
		}
	}
}

func TestParseStyle(t *testing.T) {
	for in, want := range map[string]Style{
		"nygard": StyleNygard, "adr-tools": StyleNygard, "MADR": StyleMADR, "madr3": StyleMADR, "madr4": StyleMADR,
		"madr2": StyleMADR2, "log4brains": StyleMADR2, "table": StyleTable, "ocp": StyleOCP, "sectioned": StyleOCP,
	} {
		if got, ok := ParseStyle(in); !ok || got != want {
			t.Errorf("ParseStyle(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "plain", "fancy"} {
		if got, ok := ParseStyle(bad); ok {
			t.Errorf("ParseStyle(%q) = %q, want no style", bad, got)
		}
	}
}

// The hand-written parser agrees with the regular expression it replaced,
// kept here as its specification.
// A lead of two to four words ("ODH-ADR-Operator-") must hold a lead
// word; an inserted record's letter ("0004a-x.md") needs a lead or a
// padded number.
var (
	numberedNameSpec = regexp.MustCompile(`^(?i:(adr|rfc|dr|decision)([-_ ]?))?(\d{1,9})([a-z])?(?:([-_ .]+)(.*?))?(\.(?i:md|markdown|mdx))$`)
	projectNameSpec  = regexp.MustCompile(`^((?:[A-Za-z]{1,24}[-_]){2,4})(\d{1,9})([a-z])?(?:([-_ .]+)(.*?))?(\.(?i:md|markdown|mdx))$`)
	leadWordSpec     = regexp.MustCompile(`(?i)(?:^|[-_])(?:adr|rfc|dr|decision)[-_]`)
	// A date, then the number: after "_" any number, after "-" a padded
	// one ("2023-01-05-100-percent" is a dated slug).
	datedNameSpec = regexp.MustCompile(`^((\d{4})-?(\d\d)-?(\d\d)([-_]))(\d{1,9})([a-z])?(?:([-_ .]+)(.*?))?(\.(?i:md|markdown|mdx))$`)
)

func parseFileNameSpec(name string) (lead, digits, suffix, sep, slug string, ok bool) {
	stem := strings.TrimSuffix(name, recordExt(name))
	if d := datedNameSpec.FindStringSubmatch(name); d != nil && (len(d[1]) == 11 && d[1][4] == '-' && d[1][7] == '-' || len(d[1]) == 9) && isDate(d[2], d[3], d[4]) {
		if (d[5] == "_" || d[6][0] == '0' && len(d[6]) >= 2) && !isDatePrefix(d[6]) {
			return d[1], d[6], d[7], d[8], d[9], true
		}
		return "", "", "", "", "", false
	}
	var m []string
	if n := numberedNameSpec.FindStringSubmatch(name); n != nil {
		m = []string{n[1] + n[2], n[3], n[4], n[5], n[6]}
	} else if p := projectNameSpec.FindStringSubmatch(name); p != nil && leadWordSpec.MatchString(p[1]) {
		m = []string{p[1], p[2], p[3], p[4], p[5]}
	}
	if m == nil || isDatePrefix(m[1]) || dashedDate(stem) || partialDate(stem) || m[2] != "" && m[0] == "" && len(m[1]) < 3 {
		return "", "", "", "", "", false
	}
	return m[0], m[1], m[2], m[3], m[4], true
}

func FuzzParseFileNameAgreesWithSpec(f *testing.F) {
	for _, s := range []string{"2021-03-04-use-x.md", "0001-x.md", "adr-017-x.md", "ADR-48.md", "20200926-x.md", "adr--5.md", "dr5_x.MD", "decision-0001.markdown", "1a-x.md", "0001.x.y.md", "1234567890-x.md", "adr.md", "0001-.mdx", "ODH-ADR-0003-use-x.md", "ODH-ADR-Operator-0007-auth.md", "ODH-ADR-ART-001.md", "ADR-MS-12-x.md", "my-notes-0001-x.md", "a-b-c-d-e-1-x.md", "2022-03-28_017-udp.md", "2021-06-05-001-x.md", "2023-01-05-100-percent.md", "20220328_17a.md", "2026-01-plan.md", "2022-03-28_20220101-x.md"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		lead, digits, suffix, sep, slug, ok := parseFileNameSpec(name)
		got := parseFileName(name)
		if got.Numbered != ok || ok && (got.Lead != lead || got.Digits != digits || got.Suffix != suffix || got.Sep != sep || got.Slug != slug) {
			t.Fatalf("%q: got %+v, spec lead=%q digits=%q suffix=%q sep=%q slug=%q ok=%v", name, got, lead, digits, suffix, sep, slug, ok)
		}
	})
}

// Issue 9, item 12: an inserted record's letter, partial dates.
func TestFileNameForms(t *testing.T) {
	tests := []struct {
		name     string
		numbered bool
		number   int
		suffix   string
		slug     string
	}{
		{"0004a-some-slug.md", true, 4, "a", "some-slug"},
		{"0004a.md", true, 4, "a", ""},
		{"adr-48b-x.md", true, 48, "b", "x"},
		{"3d-printing.md", false, 0, "", "3d-printing"},
		{"0004ab-x.md", false, 0, "", "0004ab-x"},
		{"2026-01-some-slug.md", false, 0, "", "2026-01-some-slug"},
		{"2026-13-not-a-month.md", true, 2026, "", "13-not-a-month"},
		{"2021-03-04-use-postgres.md", false, 0, "", "2021-03-04-use-postgres"},
	}
	for _, tt := range tests {
		fn := parseFileName(tt.name)
		if fn.Numbered != tt.numbered || fn.Number != tt.number || fn.Suffix != tt.suffix || fn.Slug != tt.slug {
			t.Errorf("parseFileName(%q) = %+v, want numbered %v %d%s slug %q", tt.name, fn, tt.numbered, tt.number, tt.suffix, tt.slug)
		}
	}
}

func TestDateDigits(t *testing.T) {
	for _, c := range []struct {
		s  string
		n  int
		ok bool
	}{{"0", 0, true}, {"2024", 2024, true}, {"007", 7, true}, {"", 0, false}, {"+1", 0, false}, {"-1", 0, false}, {"1a", 0, false}, {"1234567890", 0, false}} {
		if n, ok := digitsValue(c.s); n != c.n || ok != c.ok {
			t.Errorf("digitsValue(%q) = %d, %v; want %d, %v", c.s, n, ok, c.n, c.ok)
		}
	}
	for name, want := range map[string]bool{
		"20201016-use-slugs": true, "2021-03-04-use-x": true, "2026-01-some-slug": true,
		"19691231-x": false, "2021-13-04-x": false, "2021-+1-04-x": false, "2026-+1-slug": false, "0013-decision-13": false,
	} {
		if got := isDateSlug(name); got != want {
			t.Errorf("isDateSlug(%q) = %v, want %v", name, got, want)
		}
	}
}
