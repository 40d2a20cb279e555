package adr

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, line, body string }{
		{"Use PostgreSQL", "Use PostgreSQL", "Use PostgreSQL"},
		{"Überall 日本語 😀 a\\x1b", "Überall 日本語 😀 a\\x1b", "Überall 日本語 😀 a\\x1b"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`, `\x1b[31mred\x1b[0m`},
		{"\x1b]8;;https://evil.example\x07click\x1b]8;;\x07", `\x1b]8;;https://evil.example\x07click\x1b]8;;\x07`, `\x1b]8;;https://evil.example\x07click\x1b]8;;\x07`},
		{"ok\rforged", `ok\rforged`, `ok\rforged`},
		{"a\r\nb\n\tc", `a\r\nb\n\tc`, "a\r\nb\n\tc"},
		{"end\r", `end\r`, `end\r`},
		{"del\x7f", `del\x7f`, `del\x7f`},
		{"c1\u0085\u009b", `c1\u0085\u009b`, `c1\u0085\u009b`},
		{"abc\u202edcba\u202c", `abc\u202edcba\u202c`, `abc\u202edcba\u202c`},
		{"\u2066x\u2069\u200e\u200f\u061c", `\u2066x\u2069\u200e\u200f\u061c`, `\u2066x\u2069\u200e\u200f\u061c`},
		{"line\u2028sep\u2029", `line\u2028sep\u2029`, `line\u2028sep\u2029`},
		{"bad\x9bbyte\xff", `bad\x9bbyte\xff`, `bad\x9bbyte\xff`},
		{"nul\x00", `nul\x00`, `nul\x00`},
	} {
		if got := Escape(tc.in); got != tc.line {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.line)
		}
		if got := EscapeBody(tc.in); got != tc.body {
			t.Errorf("EscapeBody(%q) = %q, want %q", tc.in, got, tc.body)
		}
		if HasControl(tc.in) != (tc.in != tc.line) {
			t.Errorf("HasControl(%q) = %v", tc.in, HasControl(tc.in))
		}
	}
}

// Whatever the input, escaped text is valid UTF-8 and holds no character a
// terminal acts on; plain text is returned unchanged.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[2J", "a\r\nb", "\u202e", "\xc2\x9b", "\xe2\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, body := range []bool{false, true} {
			out := escape(s, body)
			if !utf8.ValidString(out) {
				t.Fatalf("escape(%q, %v) = %q: not UTF-8", s, body, out)
			}
			for i, r := range out {
				rest := out[i+utf8.RuneLen(r):]
				if mustEscape(r, utf8.RuneLen(r), rest, body) {
					t.Fatalf("escape(%q, %v) = %q keeps %U", s, body, out, r)
				}
			}
			if escape(out, body) != out {
				t.Fatalf("escape is not idempotent on %q", s)
			}
			if !body && strings.ContainsAny(out, "\n\r\t") {
				t.Fatalf("Escape(%q) = %q keeps a line or column break", s, out)
			}
		}
	})
}
