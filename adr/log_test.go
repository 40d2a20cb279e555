package adr

import (
	"errors"
	"path"
	"strings"
	"testing"
	"testing/fstest"
)

func resolveLog(t testing.TB) *Log {
	t.Helper()
	fsys := fstest.MapFS{
		"doc/adr/0001-record-architecture-decisions.md": nygard(1, "Record architecture decisions", "Accepted"),
		"doc/adr/0007-use-go.md":                        nygard(7, "Use Go", "Accepted", "Amended by [12. Go modules](0012-go-modules.md)", ""),
		"doc/adr/0012-go-modules.md":                    nygard(12, "Go modules", "Accepted", "Amends [7. Use Go](0007-use-go.md)", ""),
		"doc/adr/archive/0003-old.md":                   nygard(3, "Old", "Superseded by [7. Use Go](../0007-use-go.md)"),
		"docs/adr/20201016-use-the-slug.md":             file(lines("# Use the slug", "", "- Status: accepted")),
		"docs/adr/20201017-other.md":                    file(lines("# Other", "", "- Status: accepted", "- Relates to [slug](20201016-use-the-slug.md)")),
		".adr.toml":                                     file("[[roots]]\npath = \"doc/adr\"\n[[roots]]\npath = \"docs/adr\"\n"),
	}
	l, err := Load(fsys, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestResolve(t *testing.T) {
	l := resolveLog(t)
	tests := []struct{ ref, want string }{
		{"ADR-0007", "doc/adr/0007-use-go.md"},
		{"adr-0007", "doc/adr/0007-use-go.md"},
		{"adr-7", "doc/adr/0007-use-go.md"},
		{"ADR 7", "doc/adr/0007-use-go.md"},
		{"7", "doc/adr/0007-use-go.md"},
		{"0007", "doc/adr/0007-use-go.md"},
		{"#7", "doc/adr/0007-use-go.md"},
		{" 7 ", "doc/adr/0007-use-go.md"},
		{"use-go", "doc/adr/0007-use-go.md"},
		{"0007-use-go", "doc/adr/0007-use-go.md"},
		{"0007-use-go.md", "doc/adr/0007-use-go.md"},
		{"doc/adr/0007-use-go.md", "doc/adr/0007-use-go.md"},
		{"./doc/adr/0007-use-go.md", "doc/adr/0007-use-go.md"},
		{"ADR-0007#decision", "doc/adr/0007-use-go.md"},
		{"ADR-0007#decision.2", "doc/adr/0007-use-go.md"},
		{"ADR-0012§3", "doc/adr/0012-go-modules.md"},
		{"ADR-0003", "doc/adr/archive/0003-old.md"},
		{"3", "doc/adr/archive/0003-old.md"},
		{"0003-old.md", "doc/adr/archive/0003-old.md"},
		{"20201016-use-the-slug", "docs/adr/20201016-use-the-slug.md"},
		{"use-the-slug", "docs/adr/20201016-use-the-slug.md"},
		{"20201016-use-the-slug.md", "docs/adr/20201016-use-the-slug.md"},
		{"docs/adr/20201016-use-the-slug.md", "docs/adr/20201016-use-the-slug.md"},
	}
	for _, tt := range tests {
		r, err := l.Resolve(tt.ref)
		if err != nil || r == nil || r.Path != tt.want {
			got := ""
			if r != nil {
				got = r.Path
			}
			t.Errorf("Resolve(%q) = %q, %v; want %q", tt.ref, got, err, tt.want)
		}
	}
	for _, ref := range []string{"ADR-0099", "99", "nothing", "", "#", "doc/adr/0099-x.md", "RFC-7", "ADR-"} {
		r, err := l.Resolve(ref)
		if !IsNotFound(err) || r != nil {
			t.Errorf("Resolve(%q) = %v, %v; want a not-found error", ref, r, err)
		}
		if err != nil && !strings.Contains(err.Error(), ref) {
			t.Errorf("Resolve(%q) error %q does not name the reference", ref, err)
		}
	}
}

func TestResolveAmbiguous(t *testing.T) {
	fsys := fstest.MapFS{
		".adr.toml":                       file("[[roots]]\npath = \"docs/adr\"\n[[roots]]\npath = \"services/api/adr\"\nname = \"api\"\n"),
		"docs/adr/0007-use-go.md":         nygard(7, "Use Go", "Accepted", "Relates to ADR-0008", ""),
		"docs/adr/0008-x.md":              nygard(8, "X", "Accepted"),
		"services/api/adr/0007-use-go.md": nygard(7, "Use Go for the API", "Accepted", "Relates to ADR-0008", ""),
		"services/api/adr/0008-y.md":      nygard(8, "Y", "Accepted"),
	}
	l, err := Load(fsys, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"7", "ADR-0007", "adr-7", "0007-use-go.md", "use-go"} {
		_, err := l.Resolve(ref)
		var amb *AmbiguousError
		if !errors.As(err, &amb) {
			t.Errorf("Resolve(%q) = %v, want an *AmbiguousError", ref, err)
			continue
		}
		if len(amb.Candidates) != 2 || !strings.Contains(err.Error(), "docs/adr/0007-use-go.md") || !strings.Contains(err.Error(), "services/api/adr/0007-use-go.md") {
			t.Errorf("Resolve(%q): %v; want both candidates named", ref, err)
		}
	}
	// A path is never ambiguous.
	if r, err := l.Resolve("services/api/adr/0007-use-go.md"); err != nil || r.Root != l.Roots[1] {
		t.Errorf("Resolve(path) = %v, %v", r, err)
	}
	// Relations resolve an ID in the record's own root first.
	for _, r := range l.Records {
		if r.Number != 7 {
			continue
		}
		if len(r.Relations) != 1 || r.Relations[0].TargetID != "ADR-0008" {
			t.Errorf("%s: relations %+v", r.Path, r.Relations)
		}
		if tg := l.Target(r, "ADR-0008"); tg == nil || tg.Root != r.Root {
			t.Errorf("%s: Target(ADR-0008) = %v, want the record of the same root", r.Path, tg)
		}
	}
}

func TestRelationTargets(t *testing.T) {
	l := resolveLog(t)
	for path, want := range map[string]string{
		"doc/adr/0007-use-go.md":      "ADR-0012",
		"doc/adr/0012-go-modules.md":  "ADR-0007",
		"doc/adr/archive/0003-old.md": "ADR-0007",
		"docs/adr/20201017-other.md":  "20201016-use-the-slug",
	} {
		r := l.ByPath(path)
		if r == nil || len(r.Relations) != 1 || r.Relations[0].TargetID != want {
			t.Errorf("%s: relations %+v, want one to %s", path, r.Relations, want)
		}
	}
	from := l.ByPath("doc/adr/0007-use-go.md")
	for target, want := range map[string]string{
		"0012-go-modules.md":           "ADR-0012",
		"0012-go-modules":              "ADR-0012",
		"./0012-go-modules.md#context": "ADR-0012",
		"/doc/0012-go-modules":         "ADR-0012",
		"0003-old.md":                  "ADR-0003",
		"12":                           "ADR-0012",
		"ADR-0012#decision":            "ADR-0012",
		"https://example.com/0012.md":  "",
		"mailto:x@example.com":         "",
		"../../README.md":              "",
		"":                             "",
	} {
		got := ""
		if r := l.Target(from, target); r != nil {
			got = r.ID
		}
		if got != want {
			t.Errorf("Target(%q) = %q, want %q", target, got, want)
		}
	}
}

func TestRecordInfo(t *testing.T) {
	l := resolveLog(t)
	in := l.ByPath("doc/adr/0007-use-go.md").Info()
	if in.ID != "ADR-0007" || in.Number == nil || *in.Number != 7 || in.Root != "doc/adr" || in.Status != Accepted ||
		in.Domains == nil || len(in.Relations) != 1 || in.Relations[0].TargetID == nil || *in.Relations[0].TargetID != "ADR-0012" {
		t.Errorf("Info() = %+v", in)
	}
	in = l.ByPath("docs/adr/20201016-use-the-slug.md").Info()
	if in.Number != nil || in.Relations == nil {
		t.Errorf("a slug record's Info() = %+v", in)
	}
}

func TestRecordOrderAndLink(t *testing.T) {
	l := resolveLog(t)
	var got []string
	for _, r := range l.Records {
		got = append(got, r.ID)
	}
	if want := "ADR-0001 ADR-0003 ADR-0007 ADR-0012 20201016-use-the-slug 20201017-other"; strings.Join(got, " ") != want {
		t.Errorf("Records = %s, want %s", strings.Join(got, " "), want)
	}
	a, b := l.ByPath("doc/adr/archive/0003-old.md"), l.ByPath("docs/adr/20201016-use-the-slug.md")
	if got := a.Link(b); got != "../../../docs/adr/20201016-use-the-slug.md" {
		t.Errorf("Link = %q", got)
	}
	if got := b.Link(a); got != "../../doc/adr/archive/0003-old.md" {
		t.Errorf("Link = %q", got)
	}
}

// TestJoinRel: the fast join of a link to a record's folder is the
// general one on every kind of link.
func TestJoinRel(t *testing.T) {
	for _, dir := range []string{"", "doc/adr", "doc/adr/archive"} {
		for _, p := range []string{"0002-x.md", "archive/0002-x.md", "../adr/0002-x.md", "./0002-x.md", "a//b.md", "a/./b.md", "a\\b.md", "..", ".", "", "a/", "/abs.md", "x/../y.md"} {
			if got, want := joinRel(dir, p), cleanRel(path.Join(dir, p)); got != want {
				t.Errorf("joinRel(%q, %q) = %q, want %q", dir, p, got, want)
			}
		}
	}
}
