package scope

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/git-adr/git-adr/adr"
)

func load(t *testing.T, files map[string]string) *adr.Log {
	t.Helper()
	fsys := fstest.MapFS{}
	for p, s := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(s)}
	}
	l, err := adr.Load(fsys, adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func rec(n int, title, status, meta, body string) string {
	return "# " + string(rune('0'+n)) + ". " + title + "\n\nDate: 2026-01-01\n" + meta + "\n## Status\n\n" + status + "\n\n## Decision\n\n" + body + "\n"
}

func TestGovern(t *testing.T) {
	l := load(t, map[string]string{
		"doc/adr/0001-cache.md":        rec(1, "Cache payments", "Accepted", "Applies to: payments/**, cmd/pay/*.go\n", "Read-through cache."),
		"doc/adr/0002-logging.md":      rec(2, "Log JSON", "Accepted", "", "Every service logs JSON; see payments/ for the first one."),
		"doc/adr/0003-retry.md":        rec(3, "Retry", "Accepted", "", "Retries with backoff."),
		"doc/adr/0004-old.md":          rec(4, "Old cache", "Superseded", "Applies to: payments/**\n", "x"),
		"doc/adr/0005-system.md":       rec(5, "System", "Accepted", "Applies to: system\n", "x"),
		"doc/adr/archive/0006-gone.md": rec(6, "Gone", "Deprecated", "Applies to: payments/**\n", "x"),
		".adr.toml":                    "[[scope]]\nids = [\"3\"]\npaths = [\"payments/retry.go\"]\n",
	})
	x := New(l, []Marker{{Path: "payments/cache.go", Line: 12, Ref: "ADR-0003"}, {Path: "payments/cache.go", Line: 20, Ref: "ADR-0099"}})
	var got []string
	for _, m := range x.Govern([]string{"payments/cache.go"}) {
		got = append(got, m.Record.ID+" "+m.Why)
	}
	want := []string{
		"ADR-0001 applies_to: payments/**",
		"ADR-0004 applies_to: payments/**",
		"ADR-0003 marker ADR-0003 at payments/cache.go:12",
		"ADR-0002 names payments/",
	}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("Govern = %q\nwant %q", got, want)
	}
	if len(x.Unknown) != 1 || x.Unknown[0].Ref != "ADR-0099" {
		t.Errorf("unknown markers = %+v", x.Unknown)
	}
	got = nil
	for _, m := range x.Govern([]string{"payments/retry.go", "cmd/pay/main.go", "web/app.js"}) {
		got = append(got, m.Path+" "+m.Record.ID+" "+m.Kind)
	}
	want = []string{"payments/retry.go ADR-0001 applies_to", "payments/retry.go ADR-0004 applies_to", "payments/retry.go ADR-0003 config",
		"cmd/pay/main.go ADR-0001 applies_to", "payments/retry.go ADR-0002 mention"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("Govern = %q\nwant %q", got, want)
	}
	if r, _ := l.Resolve("5"); r.Scope != "system" || len(r.AppliesTo) != 0 {
		t.Errorf("a plain word is applicability, not a path: %q %q", r.Scope, r.AppliesTo)
	}
	un := x.Unmatched([]string{"payments/cache.go", "web/app.js"})
	var us []string
	for _, m := range un {
		us = append(us, m.Record.ID+" "+m.Path)
	}
	if strings.Join(us, "; ") != "ADR-0001 cmd/pay/*.go; ADR-0003 payments/retry.go" {
		t.Errorf("Unmatched = %q", us)
	}
}

func TestFrontMatterAndProblems(t *testing.T) {
	l := load(t, map[string]string{
		"docs/decisions/0001-a.md": "---\nstatus: accepted\napplies_to:\n  - api/**\n  - \"web/*.ts\"\nreview_by: 2026-06-01\n---\n# Use A\n\n## Decision\n\nA.\n",
		"docs/decisions/0002-b.md": "---\nstatus: accepted\napplies_to: \"payments/[a\"\n---\n# Use B\n\n## Decision\n\nB.\n",
		".adr.toml":                "[[roots]]\npath = \"docs/decisions\"\n\n[[scope]]\nids = [\"ADR-0042\"]\npaths = [\"x/**\"]\n",
	})
	a, _ := l.Resolve("1")
	if strings.Join(a.AppliesTo, ",") != "api/**,web/*.ts" || a.ReviewBy != "2026-06-01" {
		t.Errorf("front matter: %q %q", a.AppliesTo, a.ReviewBy)
	}
	x := New(l, nil)
	var ps []string
	for _, p := range x.Problems {
		ps = append(ps, p.Message)
	}
	if len(ps) != 2 || !strings.Contains(ps[0]+ps[1], `"payments/[a" is not a valid path pattern`) || !strings.Contains(ps[0]+ps[1], `names "ADR-0042", which is no record`) {
		t.Errorf("problems = %q", ps)
	}
}

func TestParseMarkers(t *testing.T) {
	out := []byte("payments/cache.go:12:// ADR-0003\nlib/x.py:4:@adr 12\nbad line\nweb/a.js:7:/* ADR_7\n")
	ms := ParseMarkers(out, 10)
	var got []string
	for _, m := range ms {
		got = append(got, m.Path+":"+string(rune('0'+m.Line%10))+":"+m.Ref)
	}
	if strings.Join(got, " ") != "payments/cache.go:2:ADR-0003 lib/x.py:4:12 web/a.js:7:ADR_7" {
		t.Errorf("ParseMarkers = %q", got)
	}
	if len(ParseMarkers(out, 1)) != 1 {
		t.Error("max not honoured")
	}
}

// TestGovernLazyLog: over a log loaded lazily (most records known by
// name), every record's declared scope still counts, and a marked
// record's status is known.
func TestGovernLazyLog(t *testing.T) {
	fsys := fstest.MapFS{}
	for i := 1; i <= 30; i++ {
		meta := ""
		if i == 27 {
			meta = "Applies to: billing/**\n"
		}
		body := "# " + strconv.Itoa(i) + ". Decision\n\nDate: 2026-01-01\n" + meta + "\n## Status\n\nAccepted\n\n## Decision\n\nD.\n"
		fsys[fmt.Sprintf("doc/adr/%04d-d.md", i)] = &fstest.MapFile{Data: []byte(body)}
	}
	l, err := adr.Load(fsys, adr.LoadOptions{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	x := New(l, []Marker{{Path: "billing/pay.go", Line: 2, Ref: "ADR-0013"}})
	got := map[string]string{}
	for _, m := range x.Govern([]string{"billing/pay.go"}) {
		got[m.Record.ID] = string(m.Record.Status)
	}
	if got["ADR-0027"] != "accepted" || got["ADR-0013"] != "accepted" {
		t.Errorf("governing records over a lazy log: %v, want ADR-0027 (declared) and ADR-0013 (marker), both accepted", got)
	}
}

func TestFolder(t *testing.T) {
	for p, want := range map[string]string{
		"src/pay/**/*.go": "src/pay", "src/pay/**": "src/pay", "*.go": "", "**/x": "", "cmd/pay/*.go": "cmd/pay",
		"README.md": "README.md", "docs/{a,b}/x": "docs", "a/b?/c": "a", `a\*b/c`: "",
	} {
		if got := Folder(p); got != want {
			t.Errorf("Folder(%q) = %q, want %q", p, got, want)
		}
	}
}

// Unmatched tries each glob on the files under its folder only, and finds
// what a pass over every file finds.
func TestUnmatchedAgreesWithEveryFile(t *testing.T) {
	files := []string{"README.md", "cmd/pay/main.go", "src/pay/a.go", "src/pay/deep/b.go", "src/payroll/c.go", "web/app.ts", "web/x/y.tsx", "z.go"}
	patterns := []string{"src/pay/**", "src/pay/*.go", "src/pay/**/*.go", "src/pa*/c.go", "*.go", "**/*.tsx", "web/*.ts", "cmd/pay", "cmd/pay/*.rs", "nothing/**", "src/payroll/**", "README.md", "{web,cmd}/**"}
	var recs []*adr.Record
	for i, p := range patterns {
		recs = append(recs, &adr.Record{ID: fmt.Sprintf("ADR-%04d", i+1), Path: fmt.Sprintf("doc/adr/%04d-x.md", i+1), Status: adr.Accepted, AppliesTo: []string{p}})
	}
	x := New(&adr.Log{Records: recs}, nil)
	got := map[string]bool{}
	for _, m := range x.Unmatched(files) {
		got[m.Path] = true
	}
	for _, p := range patterns {
		hit := false
		for _, f := range files {
			if ok, _ := doublestar.Match(p, f); ok {
				hit = true
			}
		}
		if got[p] == hit {
			t.Errorf("%q: unmatched %v, but a pass over every file matches %v", p, got[p], hit)
		}
	}
}
