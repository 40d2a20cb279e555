package guard

import (
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/internal/lazyre"
)

var (
	tableHeader = lazyre.New(`^\s*\[\s*([^\]\[]+?)\s*\]\s*(#.*)?$`)
	arrayHeader = lazyre.New(`^\s*\[\[`)
	modeLine    = lazyre.New(`^(\s*mode\s*=\s*)("[^"]*"|'[^']*')(\s*(#.*)?)$`)
	dottedLine  = lazyre.New(`^(\s*guard\s*\.\s*mode\s*=\s*)("[^"]*"|'[^']*')(\s*(#.*)?)$`)
)

// SetFileMode returns the bytes of an .adr.toml with its [guard] mode set
// to m, changing only that line: the value of an existing mode = line is
// replaced (its comment kept), a [guard] table without one gets the line
// after its header, and a file without the table gets the table at its
// end. Line ends (LF or CRLF) are kept. The result is checked to read
// back as m.
func SetFileMode(data []byte, m Mode) ([]byte, error) {
	text := string(data)
	nl := "\n"
	if strings.Contains(text, "\r\n") {
		nl = "\r\n"
	}
	lines := strings.Split(text, "\n")
	value := fmt.Sprintf("%q", string(m))
	done := false
	table := "" // the table the line is in
	headerAt := -1
	for i, raw := range lines {
		line := strings.TrimSuffix(raw, "\r")
		cr := raw[len(line):]
		if arrayHeader.MatchString(line) {
			table = "[["
			continue
		}
		if h := tableHeader.FindStringSubmatch(line); h != nil {
			table = strings.ReplaceAll(h[1], " ", "")
			if table == "guard" {
				headerAt = i
			}
			continue
		}
		if table == "" {
			if g := dottedLine.FindStringSubmatch(line); g != nil {
				lines[i] = g[1] + value + g[3] + cr
				done = true
				break
			}
			if strings.HasPrefix(strings.TrimSpace(line), "guard") && strings.Contains(line, "{") {
				return nil, fmt.Errorf("the guard table is written inline (guard = {...}); edit .adr.toml by hand")
			}
		}
		if table == "guard" {
			if g := modeLine.FindStringSubmatch(line); g != nil {
				lines[i] = g[1] + value + g[3] + cr
				done = true
				break
			}
		}
	}
	out := strings.Join(lines, "\n")
	if !done {
		if headerAt >= 0 {
			cr := ""
			if strings.HasSuffix(lines[headerAt], "\r") {
				cr = "\r"
			}
			lines = append(lines[:headerAt+1], append([]string{"mode = " + value + cr}, lines[headerAt+1:]...)...)
			out = strings.Join(lines, "\n")
		} else {
			if out != "" && !strings.HasSuffix(out, "\n") {
				out += nl
			}
			if out != "" {
				out += nl
			}
			out += "[guard]" + nl + "mode = " + value + nl
		}
	}
	got, err := FileMode([]byte(out))
	if err != nil || got != m {
		return nil, fmt.Errorf("could not set the mode in .adr.toml (it reads back as %q, %v); edit it by hand: [guard] mode = %s", got, err, value)
	}
	return []byte(out), nil
}
