// Package tomldepth bounds how deeply a TOML text nests before it is
// decoded. The TOML decoder (BurntSushi/toml) recurses once per level of
// arrays and inline tables: two megabytes of '[' overflow its stack (a
// crash with a trace, after a gigabyte of stack), and a million "{x="
// take minutes and gigabytes. git-adr reads TOML that others write (a
// workspace file, a repository's .adr.toml, a gitleaks rules file), so
// each is checked with [Check] first.
package tomldepth

import "bytes"

// Max bounds how deep arrays, inline tables and table headers nest: far
// past what any of git-adr's TOML files needs.
const Max = 32

// Check reports whether arrays and inline tables (and table headers)
// nest more than Max deep in the TOML text, outside strings and
// comments, and on which line they first do. It does not validate the
// text: the decoder, once the text is known to be shallow, does.
func Check(data []byte) (line int, deep bool) {
	depth := 0
	line = 1
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '\n':
			line++
		case '#':
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			if i+2 < len(data) && data[i+1] == c && data[i+2] == c {
				// A multi-line string ends at the next three quotes.
				end := bytes.Index(data[i+3:], []byte{c, c, c})
				if end < 0 {
					return line, false // the decoder reports it
				}
				line += bytes.Count(data[i:i+3+end], []byte("\n"))
				i += 3 + end + 2
				continue
			}
			for i++; i < len(data) && data[i] != c && data[i] != '\n'; i++ {
				if c == '"' && data[i] == '\\' {
					i++
				}
			}
			if i < len(data) && data[i] == '\n' {
				line++
			}
		case '[', '{':
			if depth++; depth > Max {
				return line, true
			}
		case ']', '}':
			depth = max(depth-1, 0)
		}
	}
	return line, false
}
