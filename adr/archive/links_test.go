package archive

import (
	"fmt"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
)

// rewriteOne rewrites one Markdown line written in the file at from
// (moving to to) and returns the new line and the risks.
func rewriteOne(t *testing.T, moves map[string]string, from, to, line string) (string, []Risk) {
	t.Helper()
	m := newMover(moves)
	txt := adr.NewText([]byte(line + "\n"))
	edits, risks := m.rewrite(txt, from, to)
	var es []adr.Edit
	for _, e := range edits {
		es = append(es, e.Edit)
	}
	return strings.TrimSuffix(string(txt.Apply(es...)), "\n"), risks
}

func TestRewriteLinks(t *testing.T) {
	flat := map[string]string{"doc/adr/0002-x.md": "doc/adr/archive/0002-x.md"}
	year := map[string]string{
		"doc/adr/0002-x.md": "doc/adr/archive/2023/0002-x.md",
		"doc/adr/0004-y.md": "doc/adr/archive/2024/0004-y.md",
	}
	top := map[string]string{"adr-002-x.md": "archive/adr-002-x.md"}
	tests := []struct {
		name     string
		moves    map[string]string
		from, to string
		in, want string
	}{
		// Inbound links from files that stay.
		{"sibling", flat, "doc/adr/0003-z.md", "", "[2](0002-x.md)", "[2](archive/0002-x.md)"},
		{"dot slash kept", flat, "doc/adr/0003-z.md", "", "[2](./0002-x.md#decision)", "[2](./archive/0002-x.md#decision)"},
		{"from the top", flat, "README.md", "", "[2](doc/adr/0002-x.md)", "[2](doc/adr/archive/0002-x.md)"},
		{"no extension", flat, "doc/adr/0003-z.md", "", "[2](0002-x)", "[2](archive/0002-x)"},
		{"up and back in", flat, "doc/adr/0003-z.md", "", "[2](../adr/0002-x.md)", "[2](../adr/archive/0002-x.md)"},
		{"mirror", flat, "doc/adr/zh/0003-z.md", "", "[2](../0002-x.md)", "[2](../archive/0002-x.md)"},
		{"reference definition", flat, "doc/adr/0003-z.md", "", "[2]: 0002-x.md", "[2]: archive/0002-x.md"},
		{"angle brackets and title", flat, "doc/adr/0003-z.md", "", `[2](<0002-x.md> "old")`, `[2](<archive/0002-x.md> "old")`},
		{"site-absolute by path", flat, "doc/adr/0003-z.md", "", "[2](/doc/adr/0002-x.md)", "[2](/doc/adr/archive/0002-x.md)"},
		{"percent escapes", map[string]string{"doc/adr/0002 x.md": "doc/adr/archive/0002 x.md"}, "README.md", "", "[2](doc/adr/0002%20x.md)", "[2](doc/adr/archive/0002%20x.md)"},
		{"repository root", top, "README.md", "", "[2](adr-002-x.md)", "[2](archive/adr-002-x.md)"},
		// Untouched.
		{"other record", flat, "doc/adr/0003-z.md", "", "[1](0001-a.md)", "[1](0001-a.md)"},
		{"URL", flat, "doc/adr/0003-z.md", "", "[2](https://example.com/doc/adr/0002-x.md)", "[2](https://example.com/doc/adr/0002-x.md)"},
		{"anchor only", flat, "doc/adr/0003-z.md", "", "[d](#decision)", "[d](#decision)"},
		{"code span", flat, "doc/adr/0003-z.md", "", "`[2](0002-x.md)`", "`[2](0002-x.md)`"},
		// Outbound links of the moved file.
		{"outbound sibling", flat, "doc/adr/0002-x.md", "doc/adr/archive/0002-x.md", "[3](0003-z.md)", "[3](../0003-z.md)"},
		{"outbound dot slash", flat, "doc/adr/0002-x.md", "doc/adr/archive/0002-x.md", "[3](./0003-z.md)", "[3](../0003-z.md)"},
		{"outbound image", flat, "doc/adr/0002-x.md", "doc/adr/archive/0002-x.md", "![d](../img/d.png)", "![d](../../img/d.png)"},
		{"outbound outside the repository", flat, "doc/adr/0002-x.md", "doc/adr/archive/0002-x.md", "[o](../../../other/x.md)", "[o](../../../../other/x.md)"},
		{"outbound self", flat, "doc/adr/0002-x.md", "doc/adr/archive/0002-x.md", "[me](0002-x.md#context)", "[me](0002-x.md#context)"},
		{"outbound site-absolute", flat, "doc/adr/0002-x.md", "doc/adr/archive/0002-x.md", "[3](/doc/adr/0003-z.md)", "[3](/doc/adr/0003-z.md)"},
		{"outbound URL", flat, "doc/adr/0002-x.md", "doc/adr/archive/0002-x.md", "[g](https://example.com/x)", "[g](https://example.com/x)"},
		// Both ends move, to different years.
		{"between years", year, "doc/adr/0002-x.md", "doc/adr/archive/2023/0002-x.md", "[4](0004-y.md)", "[4](../2024/0004-y.md)"},
		{"between years, written longer", year, "doc/adr/0002-x.md", "doc/adr/archive/2023/0002-x.md", "[4](../adr/0004-y.md)", "[4](../../../adr/archive/2024/0004-y.md)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			to := tt.to
			if to == "" {
				to = tt.from
			}
			got, risks := rewriteOne(t, tt.moves, tt.from, to, tt.in)
			if got != tt.want {
				t.Errorf("rewrite %q in %s:\n got %q\nwant %q", tt.in, tt.from, got, tt.want)
			}
			if len(risks) > 0 {
				t.Errorf("unexpected risks %v", risks)
			}
		})
	}
}

// TestRewriteInverse: archiving then restoring gives back what was
// written, and every rewritten link reaches the file it reached. The one
// shape that cannot come back by rewriting is "./x" that had to become
// "../x" (restore gives back such a file's exact bytes instead, when it
// was not changed since).
func TestRewriteInverse(t *testing.T) {
	layouts := []map[string]string{
		{"doc/adr/0002-x.md": "doc/adr/archive/0002-x.md", "doc/adr/0005-w.md": "doc/adr/archive/0005-w.md"},
		{"doc/adr/0002-x.md": "doc/adr/archive/2023/0002-x.md", "doc/adr/0005-w.md": "doc/adr/archive/2021/0005-w.md"},
		{"0002-x.md": "archive/0002-x.md", "0005-w.md": "archive/2020/0005-w.md"},
	}
	dests := func(from string) []string {
		var out []string
		for _, target := range []string{"doc/adr/0002-x.md", "doc/adr/0003-z.md", "doc/adr/0005-w.md", "0002-x.md", "0005-w.md", "img/a.png"} {
			rel := adr.RelLink(from, target)
			out = append(out, rel, rel+"#decision", strings.TrimSuffix(rel, ".md"))
			if !strings.HasPrefix(rel, "../") {
				out = append(out, "./"+rel)
			}
		}
		return out
	}
	for i, moves := range layouts {
		back := map[string]string{}
		for f, t := range moves {
			back[t] = f
		}
		for _, file := range []string{"doc/adr/0002-x.md", "doc/adr/0003-z.md", "README.md", "doc/adr/zh/0003-z.md", "0005-w.md"} {
			to := file
			if n, ok := moves[file]; ok {
				to = n
			}
			for _, d := range dests(file) {
				line := fmt.Sprintf("[x](%s)", d)
				there, _ := rewriteOne(t, moves, file, to, line)
				m := newMover(moves)
				before := m.normalize(adr.NewText([]byte(line)), file, true)
				after := m.normalize(adr.NewText([]byte(there)), to, false)
				if before != after {
					t.Errorf("layout %d: %s in %s became %s in %s, which reaches another file", i, line, file, there, to)
				}
				again, _ := rewriteOne(t, back, to, file, there)
				if strings.HasPrefix(d, "./") && strings.Contains(there, "(../") {
					continue
				}
				if again != line {
					t.Errorf("layout %d: %s in %s -> %s -> %s: not the inverse", i, line, file, there, again)
				}
			}
		}
	}
}

func TestRewriteRisks(t *testing.T) {
	flat := map[string]string{"doc/adr/0002-x.md": "doc/adr/archive/0002-x.md"}
	got, risks := rewriteOne(t, flat, "doc/adr/0003-z.md", "doc/adr/0003-z.md", "[2](/decisions/0002-x)")
	if got != "[2](/decisions/0002-x)" || len(risks) != 1 || !strings.Contains(risks[0].Why, "site-absolute") {
		t.Errorf("a site link by name: %q, %v", got, risks)
	}
}

func TestLanguageTag(t *testing.T) {
	for s, want := range map[string]bool{"zh": true, "de": true, "pt-BR": true, "zh_CN": true, "fra": true,
		"adr": false, "archive": false, "templates": false, "Z": false, "en-verylong": false} {
		if got := languageTag(s); got != want {
			t.Errorf("languageTag(%q) = %v", s, got)
		}
	}
}
