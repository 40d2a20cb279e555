package adrtools

import (
	"errors"
	"regexp"
	"strings"
)

// compileBRE compiles a POSIX basic regular expression as GNU grep reads
// one (`adr link 3 ...` greps `adr list` for "3"): `\(`, `\)`, `\{`, `\}`,
// `\|`, `\+` and `\?` are operators, their bare forms are literal, `*` at
// the start of an expression is literal, `^` anchors only at the start and
// `$` only at the end. Back-references have no RE2 form and are refused.
func compileBRE(bre string) (*regexp.Regexp, error) {
	var b strings.Builder
	atStart := true // the position where * is literal and ^ anchors
	for i := 0; i < len(bre); i++ {
		c := bre[i]
		switch c {
		case '\\':
			if i+1 >= len(bre) {
				return nil, errors.New("trailing backslash")
			}
			i++
			d := bre[i]
			switch d {
			case '(':
				b.WriteString("(")
				atStart = true
				continue
			case ')', '{', '}', '|', '+', '?':
				b.WriteByte(d)
				atStart = d == '|'
				continue
			case '<', '>':
				b.WriteString(`\b`)
			case 'b', 'B', 'w', 'W', 's', 'S':
				b.WriteByte('\\')
				b.WriteByte(d)
			case '1', '2', '3', '4', '5', '6', '7', '8', '9':
				return nil, errors.New("back-references are not supported")
			case 'n':
				b.WriteString(`\n`)
			default:
				b.WriteString(regexp.QuoteMeta(string(d)))
			}
		case '*':
			if atStart {
				b.WriteString(`\*`)
			} else {
				b.WriteByte('*')
			}
		case '^':
			if atStart {
				b.WriteByte('^')
				continue // a * after a leading ^ is literal too
			}
			b.WriteString(`\^`)
		case '$':
			if i == len(bre)-1 || strings.HasPrefix(bre[i+1:], `\)`) || strings.HasPrefix(bre[i+1:], `\|`) {
				b.WriteByte('$')
			} else {
				b.WriteString(`\$`)
			}
		case '[':
			j := bracketEnd(bre, i)
			if j < 0 {
				return nil, errors.New("unmatched [")
			}
			b.WriteString(bracket(bre[i : j+1]))
			i = j
		case '.':
			b.WriteByte('.')
		case '+', '?', '(', ')', '{', '}', '|':
			b.WriteString(regexp.QuoteMeta(string(c)))
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
		atStart = false
	}
	return regexp.Compile(b.String())
}

// bracketEnd is the index of the "]" closing the bracket expression that
// starts at i, or -1.
func bracketEnd(s string, i int) int {
	j := i + 1
	if j < len(s) && s[j] == '^' {
		j++
	}
	if j < len(s) && s[j] == ']' {
		j++ // a leading ] is a member
	}
	for ; j < len(s); j++ {
		if s[j] == '[' && j+1 < len(s) && (s[j+1] == ':' || s[j+1] == '.' || s[j+1] == '=') {
			end := strings.Index(s[j+2:], string(s[j+1])+"]")
			if end < 0 {
				return -1
			}
			j += 2 + end + 1
			continue
		}
		if s[j] == ']' {
			return j
		}
	}
	return -1
}

// bracket turns a POSIX bracket expression into RE2's: a backslash is a
// member in POSIX and must be escaped for RE2.
func bracket(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			b.WriteString(`\\`)
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// awkString is a value as `awk -v name=value` sees it: escape sequences
// are processed (gawk's rules: an unknown escape is the character itself).
func awkString(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch c := s[i]; c {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n := 0
			k := 0
			for ; k < 3 && i+k < len(s) && s[i+k] >= '0' && s[i+k] <= '7'; k++ {
				n = n*8 + int(s[i+k]-'0')
			}
			b.WriteByte(byte(n))
			i += k - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// sedReplace is `sed -e "s|PATTERN|REPL|"` on one line: the first literal
// PATTERN is replaced, with REPL read as sed reads a replacement (& is
// the match, \& a literal &, \n a newline, \\ a backslash, any other \c
// is c).
func sedReplace(line, pattern, repl string) string {
	i := strings.Index(line, pattern)
	if i < 0 {
		return line
	}
	return line[:i] + sedReplacement(repl, pattern) + line[i+len(pattern):]
}

func sedReplacement(repl, match string) string {
	if !strings.ContainsAny(repl, `&\`) {
		return repl
	}
	var b strings.Builder
	for i := 0; i < len(repl); i++ {
		switch c := repl[i]; {
		case c == '&':
			b.WriteString(match)
		case c == '\\' && i+1 < len(repl):
			i++
			switch d := repl[i]; d {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(d)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
