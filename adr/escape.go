package adr

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Record text is data, not instructions to a terminal. [Escape] and
// [EscapeBody] make it visible before it is printed as text: a title, path
// or excerpt with ESC, OSC 8, BEL, CR or a bidi override can then neither
// drive the terminal nor reorder what the reader sees. JSON output does not
// use them (it keeps the characters, escaped by JSON).
//
// The notation is Go's: \t, \n and \r by name, other C0 controls and DEL as
// \xHH, C1 controls, bidi controls and line or paragraph separators as
// \uHHHH, and a byte that is not UTF-8 as \xHH. A backslash is left as it
// is, so the escaped text of a title that itself holds "\x1b" reads the
// same: the escaping prevents effects, it is not a reversible encoding.

// Escape makes one line of record-derived text (an ID, title, path, status
// or label) safe to print: every control character is escaped, tab and
// newline included, so the text stays on its line and in its column.
func Escape(s string) string { return escape(s, false) }

// EscapeBody is [Escape] for multi-line text (a record body, an excerpt):
// newlines, tabs and CRLF line ends are kept; a lone CR and every other
// control character are escaped.
func EscapeBody(s string) string { return escape(s, true) }

// HasControl reports whether s holds a character [Escape] would escape.
func HasControl(s string) bool { return escape(s, false) != s }

func escape(s string, body bool) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		if r, n := utf8.DecodeRuneInString(s[i:]); !mustEscape(r, n, s[i+n:], body) {
			i += n
			continue
		}
		break
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !mustEscape(r, n, s[i+n:], body) {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += n
	}
	return b.String()
}

// mustEscape says whether the rune r (n bytes, followed by rest) is escaped.
func mustEscape(r rune, n int, rest string, body bool) bool {
	switch {
	case r == utf8.RuneError && n <= 1:
		return true // not UTF-8: a lone 0x9b is CSI on some terminals
	case body && (r == '\n' || r == '\t'):
		return false
	case body && r == '\r':
		return !strings.HasPrefix(rest, "\n")
	case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
		return true
	case r == '\u2028' || r == '\u2029':
		return true
	}
	// U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069.
	return unicode.Is(unicode.Bidi_Control, r)
}
