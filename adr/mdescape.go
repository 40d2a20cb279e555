package adr

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// escapeCell writes record text (a title, ID, date or link label) into a
// cell of a generated Markdown table so that it renders as that text:
// nothing in it forms a link, an image, raw HTML, an entity, emphasis,
// strikethrough, math or a new cell, and control characters are escaped
// ([Escape]). Code spans stay code spans (their content is literal anyway).
//
// Only what could take effect is escaped, so that ordinary titles (with
// parentheses, "R&D", snake_case, "a -> b", "C#") are written unchanged and
// an INDEX.md generated before stays byte-identical:
//
//   - always: \ and | (and a newline or CR becomes a space);
//   - [ and ] when the text holds "](" anywhere (an inline link or image),
//     or always in link text (linkText);
//   - < before a letter, /, ! or ? (a tag, comment or autolink);
//   - & that starts an entity or character reference (&amp; &#38;);
//   - every *; _ unless between two letters or digits (intraword _ never
//     emphasises);
//   - ~ and $ when the text holds two or more of them (strikethrough,
//     GitHub math);
//   - # at the start (a cell never is a heading, a reader may still think
//     so).
//
// Not prevented: a bare URL is still shown as a link by renderers that
// autolink (GitHub); its text is the URL itself.
func escapeCell(s string) string { return escapeMarkdown(s, false) }

// EscapeCell makes s render as plain text in a Markdown table cell.
func EscapeCell(s string) string { return escapeCell(s) }

// lineBreaks joins a cell's lines. One Replacer for every call: building
// one per cell was half the time of an index of 10,000 records (and it
// copies the text even when nothing is replaced: most cells are one line).
var lineBreaks = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ")

func escapeMarkdown(s string, linkText bool) string {
	if strings.ContainsAny(s, "\r\n") {
		s = lineBreaks.Replace(s)
	}
	s = Escape(s)
	brackets := linkText || strings.Contains(s, "](")
	pairs := func(c string) bool { return strings.Count(s, c) >= 2 }
	tildes, dollars := pairs("~"), pairs("$")
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c == '`' {
			n := run(s, i, '`')
			if end := closingRun(s, i+n, n); end >= 0 {
				// A code span: literal content; only a pipe would still
				// end the cell.
				b.WriteString(strings.ReplaceAll(s[i:end+n], "|", `\|`))
				i = end + n
				continue
			}
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		esc := false
		switch c {
		case '\\', '|', '*':
			esc = true
		case '[', ']':
			esc = brackets
		case '<':
			esc = i+1 < len(s) && (isASCIILetter(s[i+1]) || strings.IndexByte("/!?", s[i+1]) >= 0)
		case '&':
			esc = isEntity(s[i:])
		case '_':
			esc = !(alnumBefore(s, i) && alnumAfter(s, i+1))
		case '~':
			esc = tildes
		case '$':
			esc = dollars
		case '#':
			esc = i == 0
		}
		if esc {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// run is the length of the run of c starting at i.
func run(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

// closingRun finds, from i, a run of exactly n backticks (CommonMark's code
// span closer) and returns where it starts, or -1.
func closingRun(s string, i, n int) int {
	for i < len(s) {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			return -1
		}
		j += i
		m := run(s, j, '`')
		if m == n {
			return j
		}
		i = j + m
	}
	return -1
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// isEntity reports whether s starts with an HTML entity or numeric
// character reference as CommonMark reads them.
func isEntity(s string) bool {
	semi := strings.IndexByte(s, ';')
	if semi < 2 || semi > 33 {
		return false
	}
	body := s[1:semi]
	if body[0] == '#' {
		digits := body[1:]
		hex := false
		if len(digits) > 0 && (digits[0] == 'x' || digits[0] == 'X') {
			digits, hex = digits[1:], true
		}
		if len(digits) == 0 || len(digits) > 7 {
			return false
		}
		for _, r := range digits {
			if !(r >= '0' && r <= '9' || hex && (r|0x20 >= 'a' && r|0x20 <= 'f')) {
				return false
			}
		}
		return true
	}
	if !isASCIILetter(body[0]) {
		return false
	}
	for i := 0; i < len(body); i++ {
		if c := body[i]; !(isASCIILetter(c) || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func alnumBefore(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return i > 0 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

func alnumAfter(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return i < len(s) && (unicode.IsLetter(r) || unicode.IsDigit(r))
}
