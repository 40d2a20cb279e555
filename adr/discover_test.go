package adr

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// nygard returns a small adr-tools record.
func nygard(n int, title, status string, extra ...string) *fstest.MapFile {
	s := lines("# "+itoa(n)+". "+title, "", "Date: 2020-01-0"+itoa(n%9+1), "", "## Status", "", status, "")
	s += strings.Join(extra, "\n")
	s += lines("", "## Context", "", "Why "+title+".", "", "## Decision", "", "We do "+title+".", "", "## Consequences", "", "Fine.")
	return &fstest.MapFile{Data: []byte(s)}
}

func itoa(n int) string { return padNumber(n, 0) }

func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }

func rootPaths(roots []*Root) string {
	var ps []string
	for _, r := range roots {
		s := r.Dir() + "(" + r.Source
		if r.Name != "" {
			s += " " + r.Name
		}
		ps = append(ps, s+")")
	}
	return strings.Join(ps, " ")
}

func TestDiscoverPrecedence(t *testing.T) {
	all := fstest.MapFS{
		".adr.toml":                 file("[[roots]]\npath = \"records\"\n"),
		"src/.adr-dir":              file("../decisions\n"),
		".adr-dir":                  file("adr-dir-root\n"),
		".log4brains.yml":           file("project:\n  adrFolder: ./l4b\n  packages:\n    - name: core\n      adrFolder: ./packages/core/adr\n    - name: web\n      adrFolder: ./packages/web/adr\n"),
		"doc/adr/0001-a.md":         nygard(1, "A", "Accepted"),
		"doc/adr/0002-b.md":         nygard(2, "B", "Accepted"),
		"l4b/20200101-x.md":         file(lines("# X", "", "- Status: accepted")),
		"packages/core/adr/.keep":   file(""),
		"records/0001-a.md":         nygard(1, "A", "Accepted"),
		"decisions/0001-a.md":       nygard(1, "A", "Accepted"),
		"adr-dir-root/0001-a.md":    nygard(1, "A", "Accepted"),
		"other/decisions/0001-a.md": nygard(1, "A", "Accepted"),
		"other/decisions/0002-b.md": nygard(2, "B", "Accepted"),
	}
	without := func(names ...string) fstest.MapFS {
		m := fstest.MapFS{}
		for k, v := range all {
			m[k] = v
		}
		for _, n := range names {
			delete(m, n)
		}
		return m
	}
	tests := []struct {
		name string
		fsys fstest.MapFS
		opt  DiscoverOptions
		want string
	}{
		{"--root beats everything", all, DiscoverOptions{Roots: []string{"./custom/", "custom"}}, "custom(--root)"},
		{".adr.toml beats .adr-dir", all, DiscoverOptions{Cwd: "src"}, "records(.adr.toml)"},
		{".adr-dir walking up from the working directory", without(".adr.toml"), DiscoverOptions{Cwd: "src/pkg"},
			"decisions(.adr-dir) l4b(.log4brains.yml) packages/core/adr(.log4brains.yml core)"},
		{".adr-dir at the top", without(".adr.toml"), DiscoverOptions{},
			"adr-dir-root(.adr-dir) l4b(.log4brains.yml) packages/core/adr(.log4brains.yml core)"},
		{".log4brains.yml", without(".adr.toml", ".adr-dir"), DiscoverOptions{},
			"l4b(.log4brains.yml) packages/core/adr(.log4brains.yml core)"},
		{"conventional and detected", without(".adr.toml", ".adr-dir", ".log4brains.yml"), DiscoverOptions{},
			"decisions(conventional) doc/adr(conventional) other/decisions(detected)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := LoadConfig(tt.fsys)
			if err != nil {
				t.Fatal(err)
			}
			roots, notes, err := Discover(tt.fsys, cfg, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := rootPaths(roots); got != tt.want {
				t.Errorf("roots %s, want %s (notes %q)", got, tt.want, notes)
			}
			if strings.Contains(tt.want, "core") && !strings.Contains(strings.Join(notes, "\n"), "packages/web/adr") {
				t.Errorf("a missing log4brains folder must be noted: %q", notes)
			}
			if strings.Contains(tt.want, "detected") && !strings.Contains(strings.Join(notes, "\n"), "other/decisions") {
				t.Errorf("a detected root must be noted: %q", notes)
			}
		})
	}
}

func TestDiscoverConfigRoots(t *testing.T) {
	fsys := fstest.MapFS{
		".adr.toml": file(`prefix = "DEC-"
digits = 3
[[roots]]
path = "docs/adr"
[[roots]]
path = "services/api/adr"
name = "api"
prefix = "API-"
digits = 2
style = "madr"
`),
		"docs/adr/0001-a.md":         nygard(1, "A", "Accepted"),
		"services/api/adr/0001-b.md": nygard(1, "B", "Accepted"),
	}
	l, err := Load(fsys, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := rootPaths(l.Roots); got != "docs/adr(.adr.toml) services/api/adr(.adr.toml api)" {
		t.Fatalf("roots %s", got)
	}
	if ids := recordIDs(l.Records); ids != "DEC-001 API-01" {
		t.Errorf("ids %s", ids)
	}
	if l.Roots[1].Style != StyleMADR || l.Roots[0].Style != StyleNygard {
		t.Errorf("styles %q %q", l.Roots[0].Style, l.Roots[1].Style)
	}
	if r, err := l.RootFor("api"); err != nil || r != l.Roots[1] {
		t.Errorf("RootFor(api) = %v, %v", r, err)
	}
	if r, err := l.RootFor("./services/api/adr/"); err != nil || r != l.Roots[1] {
		t.Errorf("RootFor(path) = %v, %v", r, err)
	}
	if _, err := l.RootFor("nowhere"); err == nil {
		t.Errorf("RootFor(nowhere) succeeded")
	}
}

func recordIDs(rs []*Record) string {
	var ids []string
	for _, r := range rs {
		id := r.ID
		if r.Archived {
			id += "(archived)"
		}
		ids = append(ids, id)
	}
	return strings.Join(ids, " ")
}

func TestLoadNeverCountsNonRecords(t *testing.T) {
	fsys := fstest.MapFS{
		"docs/adr/0001-a.md":          nygard(1, "A", "Accepted"),
		"docs/adr/0002-b.md":          nygard(2, "B", "Accepted"),
		"docs/adr/README.md":          file(lines("# Decisions", "", "## Status", "", "Accepted", "", "## Context", "", "x", "", "## Decision", "", "y")),
		"docs/adr/index.md":           file(lines("# Index")),
		"docs/adr/INDEX.md":           file(lines("# Index")),
		"docs/adr/CURRENT.md":         file(lines("# Current")),
		"docs/adr/template.md":        nygard(0, "Template", "{Proposed|Accepted}"),
		"docs/adr/adr-template.md":    nygard(0, "Template", "Proposed"),
		"docs/adr/overview-notes.md":  file(lines("# Notes", "", "## Context", "", "x", "", "## Decision", "", "y")),
		"docs/adr/zh/0001-a.md":       nygard(1, "甲", "已接受"),
		"docs/adr/zh/0002-b.md":       nygard(2, "乙", "已接受"),
		"docs/adr/archive/0003-c.md":  nygard(3, "C", "Superseded by [4. D](../0004-d.md)"),
		"docs/adr/archive/README.md":  file("# Archive\n"),
		"docs/adr/images/0001-a.png":  file("png"),
		"docs/adr/0004-d.md":          nygard(4, "D", "Accepted", "Supersedes [3. C](0003-c.md)", ""),
		"docs/adr/drafts/0005-x.md":   nygard(5, "X", "Proposed"),
		"docs/adr/drafts/0006-y.md":   nygard(6, "Y", "Proposed"),
		"node_modules/adr/0001-a.md":  nygard(1, "A", "Accepted"),
		"node_modules/adr/0002-b.md":  nygard(2, "B", "Accepted"),
		"0001-top-level-is-no-adr.md": nygard(1, "A", "Accepted"),
		"0002-top-level-is-no-adr.md": nygard(2, "B", "Accepted"),
	}
	l, err := Load(fsys, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := rootPaths(l.Roots); got != "docs/adr(conventional)" {
		t.Errorf("roots %s", got)
	}
	if ids := recordIDs(l.Records); ids != "ADR-0001 ADR-0002 ADR-0003(archived) ADR-0004" {
		t.Errorf("records %s", ids)
	}
	root := l.Roots[0]
	if ids := recordIDs(root.Live()); ids != "ADR-0001 ADR-0002 ADR-0004" {
		t.Errorf("live %s", ids)
	}
	c := l.ByPath("docs/adr/archive/0003-c.md")
	if c == nil || !c.Archived || c.Status != Superseded {
		t.Fatalf("archived record %+v", c)
	}
	if c.Relations[0].TargetID != "ADR-0004" {
		t.Errorf("archived record's link out of the archive resolves to %q", c.Relations[0].TargetID)
	}
	d := l.ByPath("docs/adr/0004-d.md")
	if len(d.Relations) != 1 || d.Relations[0].TargetID != "ADR-0003" {
		t.Errorf("a link to a record that moved to the archive: %+v", d.Relations)
	}
	if root.Digits != 4 || root.Lead != "" || root.Sep != "-" || root.Style != StyleNygard || root.DateSlugs || root.NoSlug {
		t.Errorf("conventions %+v", root)
	}
	for _, r := range l.Records {
		for _, u := range r.Units() {
			if !strings.HasPrefix(u.ID, r.ID+"#") {
				t.Errorf("unit ID %q of %s", u.ID, r.ID)
			}
		}
	}
}

func TestLoadConventions(t *testing.T) {
	tests := []struct {
		name  string
		fsys  fstest.MapFS
		ids   string
		check func(*Root) bool
	}{
		{"adr-NNN at the repository root", fstest.MapFS{
			"adr-001-use-adrs.md": file(lines("# Architecture Decision Record: Use ADRs", "", "## Context", "", "x", "", "## Decision", "", "y", "", "## Status", "", "Accepted")),
			"adr-002-config.md":   file(lines("# Architecture Decision Record: Config", "", "## Context", "", "x", "", "## Decision", "", "y", "", "## Status", "", "PROPOSED")),
			"README.md":           file("# Project\n"),
		}, "ADR-001 ADR-002", func(r *Root) bool { return r.Path == "" && r.Lead == "adr-" && r.Digits == 3 }},
		{"DR_NNNN_ decision records at the repository root", fstest.MapFS{
			"DR_0001_blocking-upload.md": file(lines("# 0001: Blocking upload", "", "- **Status:** Accepted, 2016-11-23", "", "## Context", "", "x", "", "## Decision", "", "y")),
			"DR_0002_map-upgrades.md":    file(lines("# 0002: Map upgrades", "", "- **Status:** Proposed", "", "## Context", "", "x", "", "## Decision", "", "y")),
			"README.md":                  file("# Decision records\n"),
		}, "ADR-0001 ADR-0002", func(r *Root) bool { return r.Path == "" && r.Lead == "DR_" }},
		{"unpadded ADR-N.md", fstest.MapFS{
			"adr/ADR-1.md":  file(lines("# One", "", "| Metadata | Value |", "|---|---|", "| Status | Approved |")),
			"adr/ADR-2.md":  file(lines("# Two", "", "| Metadata | Value |", "|---|---|", "| Status | Approved |")),
			"adr/ADR-10.md": file(lines("# Ten", "", "| Metadata | Value |", "|---|---|", "| Status | Approved |")),
		}, "ADR-1 ADR-2 ADR-10", func(r *Root) bool { return r.Digits == 0 && r.NoSlug && r.Style == StyleTable && r.Lead == "ADR-" }},
		{"log4brains date slugs", fstest.MapFS{
			".log4brains.yml":            file("project:\n  adrFolder: ./docs/adr\n"),
			"docs/adr/20200924-use-x.md": file(lines("# Use X", "", "- Status: accepted", "- Date: 2020-09-24")),
			"docs/adr/20201016-use-y.md": file(lines("# Use Y", "", "- Status: accepted")),
			"docs/adr/index.md":          file("<!-- x -->\n# Index\n"),
			"docs/adr/template.md":       file(lines("# [short title]", "", "- Status: [draft | proposed]")),
		}, "20200924-use-x 20201016-use-y", func(r *Root) bool { return r.DateSlugs && r.Style == StyleMADR2 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := Load(tt.fsys, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if ids := recordIDs(l.Records); ids != tt.ids {
				t.Errorf("ids %s, want %s", ids, tt.ids)
			}
			if len(l.Roots) != 1 || !tt.check(l.Roots[0]) {
				t.Errorf("roots %+v", l.Roots)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load(fstest.MapFS{}, LoadOptions{Roots: []string{"missing"}}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a --root that does not exist: %v", err)
	}
	l, err := Load(fstest.MapFS{"README.md": file("# x\n")}, LoadOptions{})
	if err != nil || len(l.Roots) != 0 {
		t.Fatalf("an empty repository: %v, %+v", err, l)
	}
	if _, err := l.RootFor(""); !errors.Is(err, ErrNoRoots) {
		t.Errorf("RootFor in an empty repository: %v", err)
	}
	var ce *ConfigError
	if _, err := Load(fstest.MapFS{".adr.toml": file("roots = 3\n")}, LoadOptions{}); !errors.As(err, &ce) {
		t.Errorf("a bad .adr.toml: %v", err)
	}
}

func TestParseConfig(t *testing.T) {
	good := `style = "madr"
prefix = "ADR-"
digits = 4
[[roots]]
path = "./docs/adr/"
template = "docs/adr/template.md"
`
	c, err := ParseConfig([]byte(good))
	if err != nil || c.Style != "madr" || len(c.Roots) != 1 || c.Roots[0].Path != "./docs/adr/" || c.Path != ConfigFile {
		t.Fatalf("ParseConfig = %+v, %v", c, err)
	}
	tests := []struct {
		src, msg string
		line     int
	}{
		{"style = \"fancy\"\n", `style "fancy"`, 0},
		{"colour = 1\n", `unknown key "colour"`, 0},
		{"[[roots]]\npath = \"../outside\"\n", "must be a directory inside the repository", 0},
		{"[[roots]]\npath = \"/abs\"\n", "must be a directory inside the repository", 0},
		{"[[roots]]\npath = \"\"\n", "must be a directory inside the repository", 0},
		{"[[roots]]\npath = \"a\"\n[[roots]]\npath = \"./a/\"\n", "listed twice", 0},
		{"[[roots]]\npath = \"a\"\ndigits = 12\n", "between 1 and 9", 0},
		{"[[roots]]\npath = \"a\"\nstyle = \"x\"\n", `roots[0].style "x"`, 0},
		{"style = \"madr\"\n\nprefix = \n", "", 3},
	}
	for _, tt := range tests {
		_, err := ParseConfig([]byte(tt.src))
		var ce *ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("ParseConfig(%q) = %v, want a *ConfigError", tt.src, err)
			continue
		}
		if !strings.Contains(ce.Error(), tt.msg) || !strings.HasPrefix(ce.Error(), ConfigFile) || ce.Line != tt.line {
			t.Errorf("ParseConfig(%q) = %q (line %d), want %q at line %d", tt.src, ce.Error(), ce.Line, tt.msg, tt.line)
		}
	}
}

func TestCleanRel(t *testing.T) {
	for in, want := range map[string]string{
		"":                "",
		".":               "",
		"./docs/adr/":     "docs/adr",
		"docs//adr":       "docs/adr",
		"a/../b":          "b",
		"../x":            "../x",
		`docs\adr`:        "docs/adr",
		"src/../../other": "../other",
	} {
		if got := cleanRel(in); got != want {
			t.Errorf("cleanRel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLoadSectionedContainer(t *testing.T) {
	fsys := fstest.MapFS{
		"docs/adr/0041-x.md": nygard(41, "X", "Accepted"),
		"docs/adr/0042-platform.md": file(lines("# 42. Platform decisions", "", "## §1 Use Go", "", "Status: accepted", "", "Go.", "",
			"## §2 Use Postgres", "", "Status: superseded", "Superseded by: ADR-0041", "", "Postgres.")),
	}
	l, err := Load(fsys, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := l.Resolve("ADR-0042§2")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, u := range r.Units() {
		ids = append(ids, u.ID+"="+string(u.Status))
	}
	if got := strings.Join(ids, " "); got != "ADR-0042§1=accepted ADR-0042§2=superseded" {
		t.Errorf("units %s", got)
	}
	_, anchor := SplitLocator("ADR-0042§2")
	if u, ok := r.Unit(anchor); !ok || u.ID != "ADR-0042§2" || u.Start != 9 {
		t.Errorf("Unit(%q) = %+v, %v", anchor, u, ok)
	}
	if len(r.Relations) != 1 || r.Relations[0].Section != "§2" || r.Relations[0].TargetID != "ADR-0041" {
		t.Errorf("relations %+v", r.Relations)
	}
	if r.Style != StyleOCP {
		t.Errorf("style %q", r.Style)
	}
}

// bare is a numbered document with no ADR structure: a title and prose.
func bare(title string) *fstest.MapFile {
	return file(lines("# "+title, "", "Some prose about "+title+"."))
}

// numbered adds n records named dir/NNNN-rN.md; the first plain of them
// (the oldest) have no ADR structure.
func numbered(fsys fstest.MapFS, dir string, n, plain int) {
	for i := 1; i <= n; i++ {
		name := dir + "/" + padNumber(i, 4) + "-r" + itoa(i) + ".md"
		if i <= plain {
			fsys[name] = bare("R" + itoa(i))
		} else {
			fsys[name] = nygard(i, "R"+itoa(i), "Accepted")
		}
	}
}

func TestDetectJudgesASample(t *testing.T) {
	tests := []struct {
		name     string
		n, plain int
		want     bool
	}{
		// The oldest records predate the log's template (SAP/cloud-sdk-js:
		// 33 records, the 8 oldest without a status).
		{"the oldest eight of 33 without structure", 33, 8, true},
		{"the oldest half of 12 without structure", 12, 6, true},
		{"the oldest four of 6 without structure", 6, 4, false},
		{"every one with structure", 3, 0, true},
		{"two of three without structure", 3, 2, false},
		// Folders of numbered documents that are no log stay unfound.
		{"no record with structure", 40, 40, false},
		{"only the newest with structure", 20, 19, false},
		{"the newest quarter with structure", 20, 15, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"README.md": file("# Project\n")}
			numbered(fsys, "kb/adr", tt.n, tt.plain)
			got := detect(fsys)
			if found := contains(got, "kb/adr"); found != tt.want {
				t.Errorf("detect = %q; kb/adr found %v, want %v", got, found, tt.want)
			}
		})
	}
}

// TestDetectOneRecordLogs: a folder with a single record is a log when its
// place says so: a conventional ADR folder nested in a project
// ("repo/domains/reuse/docs/adr", as beside "crud/docs/adr"), or a
// folder inside a log ("proposed-adrs/", "third-party/" beside the
// records), where its records may be plain slugs; in a folder whose name
// says nothing of records ("notes/", "third-party/") they must state a
// decision or its context, not only a status. The same record in a
// folder outside a log, or a record without ADR structure, is no log.
func TestDetectOneRecordLogs(t *testing.T) {
	fsys := fstest.MapFS{
		"repo/domains/crud/docs/adr/0001-a.md":                file(lines("# 1) A", "", "## Status", "", "accepted", "", "## Context", "", "C.")),
		"repo/domains/crud/docs/adr/0002-b.md":                file(lines("# 2) B", "", "## Status", "", "accepted")),
		"repo/domains/reuse/docs/adr/0001_graphql.md":         file(lines("# 1) GraphQL", "", "## Status", "", "accepted", "", "## Context", "", "C.")),
		"repo/domains/reuse/docs/adr/index.md":                file("# ADRs\n"),
		"repo/domains/other/docs/Decisions/0001-x.md":         nygard(1, "X", "Accepted"),
		"repo/domains/prose/docs/adr/0001-notes.md":           bare("Notes"),
		"tools/lint/0001-rule.md":                             nygard(1, "Rule", "Accepted"),
		"web/docs/architecture/001-a.md":                      nygard(1, "A", "Accepted"),
		"web/docs/architecture/002-b.md":                      nygard(2, "B", "Accepted"),
		"web/docs/architecture/proposed-adrs/rendering.md":    file(lines("# Rendering", "", "## Status: Proposed", "", "## Context", "", "C.")),
		"web/docs/architecture/3rd-party-review/000-intro.md": bare("Intro"),
		"web/docs/architecture/notes/rendering.md":            file(lines("# Notes", "", "## Status: Proposed")),
		"web/docs/architecture/adr-ideas/draft.md":            bare("Draft"),
		"web/docs/architecture/third-party/acme-review.md":    file(lines("# Acme's review", "", "Status: Accepted", "", "## Decision", "", "D.")),
		"web/docs/architecture/guides/how-to.md":              file(lines("# How to write one", "", "## Steps", "", "S.")),
		"guides/proposed-adrs/idea.md":                        file(lines("# Idea", "", "## Status: Proposed")),
	}
	got := strings.Join(detect(fsys), " ")
	want := "repo/domains/crud/docs/adr repo/domains/other/docs/Decisions repo/domains/reuse/docs/adr web/docs/architecture web/docs/architecture/proposed-adrs web/docs/architecture/third-party"
	if got != want {
		t.Errorf("detect =\n%s\nwant\n%s", got, want)
	}
}

// TestDetectNamedRecords: records whose names say ADR ("adr002-x/README.md",
// Docusaurus style, one folder per record; "ADR-001-x.md") need no ADR
// structure; folders of numbered documents ("01-intro/README.md", a
// workshop) still do. Docusaurus' versioned_docs/ (frozen copies of docs/)
// is not scanned.
func TestDetectNamedRecords(t *testing.T) {
	fm := func(title string) *fstest.MapFile {
		return file(lines("---", "id: x", "title: "+title, "---", "", "### Problem to be solved", "", "P.", "", "### Solution description", "", "S."))
	}
	fsys := fstest.MapFS{
		"docs/network_adr/adr002-authorization/README.md":                           fm("ADR 002 – Authorization"),
		"docs/network_adr/adr003-authentication/README.md":                          fm("ADR 003 – Authentication"),
		"docs/network_adr/adr003-authentication/resources/a.png":                    file(""),
		"docs/use_case_adr/adr101-load/README.md":                                   fm("ADR 101 – Load"),
		"docs/use_case_adr/adr102-maas/README.md":                                   fm("ADR 102 – MaaS"),
		"versioned_docs/version-2026-3/network_adr/adr002-authorization/README.md":  fm("ADR 002 – Authorization"),
		"versioned_docs/version-2026-3/network_adr/adr003-authentication/README.md": fm("ADR 003 – Authentication"),
		"specs/ADR-001-first.md":                                                    bare("First"),
		"specs/ADR-002-second.md":                                                   bare("Second"),
		"workshop/01-intro/README.md":                                               bare("Intro"),
		"workshop/02-setup/README.md":                                               bare("Setup"),
		"workshop/03-deploy/README.md":                                              bare("Deploy"),
		"chapters/0001-start.md":                                                    bare("Start"),
		"chapters/0002-next.md":                                                     bare("Next"),
		"runbooks/adrenaline-01-x.md":                                               bare("X"),
		"runbooks/adrenaline-02-y.md":                                               bare("Y"),
	}
	got := strings.Join(detect(fsys), " ")
	want := "docs/network_adr docs/use_case_adr specs"
	if got != want {
		t.Errorf("detect =\n%s\nwant\n%s", got, want)
	}
}

// TestDetectSkipsNestedRepositories: a repository inside the work tree (a
// clone, a submodule's checkout: a folder with a .git) is not scanned; a
// commit of the outer repository holds none of its files.
func TestDetectSkipsNestedRepositories(t *testing.T) {
	fsys := fstest.MapFS{
		"clone/.git/HEAD":              file("ref: refs/heads/main\n"),
		"clone/doc/adr/0001-a.md":      nygard(1, "A", "Accepted"),
		"sub/.git":                     file("gitdir: ../.git/modules/sub\n"),
		"sub/docs/decisions/0001-a.md": nygard(1, "A", "Accepted"),
		"sub/docs/decisions/0002-b.md": nygard(2, "B", "Accepted"),
		"svc/docs/decisions/0001-a.md": nygard(1, "A", "Accepted"),
	}
	if got, want := strings.Join(detect(fsys), " "), "svc/docs/decisions"; got != want {
		t.Errorf("detect = %q, want %q", got, want)
	}
}
