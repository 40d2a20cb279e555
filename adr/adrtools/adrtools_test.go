package adrtools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Something About Node.JS": "something-about-node-js",
		"Slash/Slash/Slash/":      "slash-slash-slash",
		"-Bar-":                   "bar",
		"Café   au  lait":         "caf-au-lait", // bytes outside ASCII are not [:alnum:] to tr
		"-n Use X":                "use-x",       // echo takes -n as its option
		"UPPER_case 42":           "upper-case-42",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCompileBRE(t *testing.T) {
	for _, tc := range []struct {
		re, line string
		match    bool
	}{
		{"1", "doc/adr/0001-first.md", true},
		{"3", "doc/adr/0001-first.md", false},
		{"first.md", "doc/adr/0001-firstxmd", true}, // . is any character
		{`first\.md`, "doc/adr/0001-firstxmd", false},
		{"a+b", "a+b", true}, // + is literal in a BRE
		{`a\+b`, "aab", true},
		{"*x", "*x", true}, // a leading * is literal
		{"^doc", "doc/adr", true},
		{"a^b", "a^b", true},
		{"md$", "x.md", true},
		{"a$b", "a$b", true},
		{`\(0*\)1-`, "0001-", true},
		{"[[:digit:]]\\{4\\}-f", "0001-first", true},
		{"(x)", "(x)", true},
		{"", "anything", true},
	} {
		re, err := compileBRE(tc.re)
		if err != nil {
			t.Errorf("compileBRE(%q): %v", tc.re, err)
			continue
		}
		if got := re.MatchString(tc.line); got != tc.match {
			t.Errorf("%q on %q = %v, want %v (RE2 %s)", tc.re, tc.line, got, tc.match, re)
		}
	}
	if _, err := compileBRE(`\(a\)\1`); err == nil {
		t.Error("a back-reference compiled")
	}
}

func TestSedAndAwkStrings(t *testing.T) {
	if got := sedReplace("# TITLE TITLE", "TITLE", `R&D \& more\\`); got != `# RTITLED & more\ TITLE` {
		t.Errorf("sedReplace = %q", got)
	}
	if got := awkString(`a\tb\\c\101`); got != "a\tb\\cA" {
		t.Errorf("awkString = %q", got)
	}
}

func TestGetopt(t *testing.T) {
	got, err := getopt("i:o:p:", []string{"a", "-i", "x", "-pq", "b"})
	if err != nil || strings.Join(got, " ") != "-i x -p q -- a b" {
		t.Fatalf("getopt = %q, %v", got, err)
	}
	_, err = getopt("i:o:p:", []string{"-x", "-i"})
	if err == nil || err.Error() != "getopt: invalid option -- 'x'\ngetopt: option requires an argument -- 'i'" {
		t.Fatalf("getopt errors = %v", err)
	}
}

func TestAutocomplete(t *testing.T) {
	for in, want := range map[string]string{
		"adr":             "config generate help init link list new upgrade-repository\n",
		"adr li":          "link list\n",
		"adr generate":    "graph toc\n",
		"adr generate to": "toc\n",
		"adr ierhir":      "\n",
		"adr help":        "new\n", // from _adr_help_new, as in adr-tools
		"adr list":        "",
	} {
		if got := Autocomplete(strings.Fields(in)); got != want {
			t.Errorf("Autocomplete(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPlanWritesNothing: a command only plans; a reference that matches
// nothing fails before any file is written, unlike adr-tools.
func TestPlanWritesNothing(t *testing.T) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	tool := &Tool{BinDir: "/nowhere", Today: "1992-01-12", Getenv: func(string) string { return "" }}
	p := tool.Run([]string{"new", "First"})
	if p.Code != 0 || len(p.Writes) != 1 || p.Writes[0].Path != "doc/adr/0001-first.md" || p.Out != "doc/adr/0001-first.md\n" {
		t.Fatalf("plan %+v", p)
	}
	if _, err := os.Stat(filepath.Join(dir, "doc")); err == nil {
		t.Fatal("Run wrote to disk")
	}
	p = tool.Run([]string{"new", "-s", "7", "Second"})
	if p.Code != 1 || len(p.Writes) != 0 || !strings.Contains(p.Err, `no decision record matches "7"`) {
		t.Fatalf("plan %+v", p)
	}
	p = tool.Run([]string{"new", "A | B"})
	if p.Code != 1 || len(p.Writes) != 0 {
		t.Fatalf("a title with | planned %+v", p)
	}
}
