package adr

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

func TestEscapeCell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// Ordinary titles are unchanged (INDEX.md stays byte-identical).
		{"Use PostgreSQL (for orders)", "Use PostgreSQL (for orders)"},
		{"R&D budget & planning", "R&D budget & planning"},
		{"Use snake_case names", "Use snake_case names"},
		{"Move from A -> B", "Move from A -> B"},
		{"Use C# for tools", "Use C# for tools"},
		{"Use `go generate` for mocks", "Use `go generate` for mocks"},
		{"Cap latency at ~100 ms, $5 a month", "Cap latency at ~100 ms, $5 a month"},
		{"[WIP] Pick a queue!", "[WIP] Pick a queue!"},
		{"a < b", "a < b"},
		// What the old escaping did.
		{`a|b\c`, `a\|b\\c`},
		{"two\nlines\r", "two lines "},
		// Links, images, HTML, entities, emphasis.
		{"[click](https://evil.example)", `\[click\](https://evil.example)`},
		{"![x](https://evil.example/t.png)", `!\[x\](https://evil.example/t.png)`},
		{"<img src=x onerror=alert(1)>", `\<img src=x onerror=alert(1)>`},
		{"<!-- hidden -->", `\<!-- hidden -->`},
		{"<https://evil.example>", `\<https://evil.example>`},
		{"&lt;script&gt; &#60; &#x3c;", `\&lt;script\&gt; \&#60; \&#x3c;`},
		{"*bold* and __strong__ and _em_", `\*bold\* and \_\_strong\_\_ and \_em\_`},
		{"~~gone~~ $x^2$", `\~\~gone\~\~ \$x^2\$`},
		{"# Not a heading", `\# Not a heading`},
		{"a `code | pipe` b", "a `code \\| pipe` b"},
		{"`unclosed [x](y)", "`unclosed \\[x\\](y)"},
		{"\x1b[31mred\x1b[0m", `\\x1b[31mred\\x1b[0m`},
		{"bidi \u202eevil", `bidi \\u202eevil`},
	} {
		if got := escapeCell(tc.in); got != tc.want {
			t.Errorf("escapeCell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := escapeMarkdown("ADR-[1]", true); got != `ADR-\[1\]` {
		t.Errorf("link text: %q", got)
	}
}

// FuzzIndexTitle checks the escaping against a real CommonMark/GFM
// renderer: an escaped title in an INDEX.md table cell renders as text (no
// element but code, no link, image, HTML, emphasis or strikethrough; no cell
// split) and every character of the title is shown. As link text of the ID
// cell it is the text of exactly one link.
func FuzzIndexTitle(f *testing.F) {
	for _, s := range []string{
		"Use PostgreSQL", "[x](https://e.example)", "![i](t.png)", "<b>bold</b>", "&amp;", "*a* _b_ **c**",
		"~~s~~", "`code`", "``a`b``", "a|b", `back\slash`, "\x1b]8;;u\x07t\x1b]8;;\x07", "# h", "[a]: /u",
		"<https://e.example>", "x_y_", "_", "$a$", "`|`", "\\`a`", "&#x3c;", "[a](<b c>)",
	} {
		f.Add(s)
	}
	md := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))
	td := regexp.MustCompile(`(?s)<tr>\s*<td>x</td>\s*<td>(.*?)</td>\s*</tr>`)
	link := regexp.MustCompile(`(?s)<tr>\s*<td><a href="a\.md">(.*?)</a></td>\s*</tr>`)
	render := func(t *testing.T, src string) string {
		var b bytes.Buffer
		if err := md.Convert([]byte(src), &b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	f.Fuzz(func(t *testing.T, title string) {
		cell := escapeCell(title)
		out := render(t, "| ID | Title |\n| --- | --- |\n| x | "+cell+" |\n")
		m := td.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("title %q: escaped %q does not render as one cell:\n%s", title, cell, out)
		}
		checkText(t, title, cell, m[1])

		lt := escapeMarkdown(title, true)
		out = render(t, "| ID |\n| --- |\n| ["+lt+"](a.md) |\n")
		if strings.TrimSpace(title) == "" {
			return // an empty link text is no link
		}
		m = link.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("title %q: link text %q does not render as one link:\n%s", title, lt, out)
		}
		checkText(t, title, lt, m[1])
	})
}

// checkText checks rendered HTML: only code elements, and the visible text
// is the title's (escaped for control characters, newlines as spaces),
// ignoring white space and the backticks of code spans.
func checkText(t *testing.T, title, escaped, got string) {
	t.Helper()
	inner := strings.NewReplacer("<code>", "", "</code>", "").Replace(got)
	if strings.Contains(inner, "<") {
		t.Fatalf("title %q: escaped %q renders markup: %s", title, escaped, got)
	}
	want := Escape(strings.NewReplacer("\r", " ", "\n", " ").Replace(title))
	if a, b := visible(html.UnescapeString(inner)), visible(want); a != b {
		t.Fatalf("title %q: escaped %q renders as %q, want %q", title, escaped, a, b)
	}
}

func visible(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '`' {
			return -1
		}
		return r
	}, s)
}
