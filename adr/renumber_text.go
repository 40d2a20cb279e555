package adr

import (
	"regexp"
	"strconv"
	"strings"
)

// FileRename is a record file moved to a new number: its old and new base
// names and numbers.
type FileRename struct {
	OldBase, NewBase string
	From, To         int
}

// RenumberText renumbers a record that is not in a log yet (an imported
// one) from one number to another: the number in its title heading, and
// every Markdown link whose destination's file name is one of renames
// (this record's or another imported record's), with a leading old number
// in the link's text ("[3. Use X](0003-use-x.md)"). Everything else is
// kept byte for byte.
func RenumberText(src []byte, from, to int, renames []FileRename) []byte {
	rec := Parse(src)
	rec.Number, rec.Numbered = from, true
	var edits []Edit
	if from != to {
		if e, ok := rec.titleNumberEdit(to); ok {
			edits = append(edits, e)
		}
	}
	byBase := map[string]FileRename{}
	for _, r := range renames {
		if r.OldBase != r.NewBase {
			byBase[r.OldBase] = r
		}
	}
	t := rec.Text()
	for _, ln := range t.Links() {
		dir, base := "", ln.Dest
		if i := strings.LastIndexByte(base, '/'); i >= 0 {
			dir, base = base[:i+1], base[i+1:]
		}
		r, ok := byBase[base]
		if !ok || strings.Contains(dir, "://") {
			continue
		}
		edits = append(edits, Edit{Start: ln.Start, End: ln.End, New: dir + r.NewBase})
		// "[3. Use X](" just before the destination.
		line := string(t.Src[t.Lines[ln.Line].Start:ln.Start])
		if !strings.HasSuffix(line, "](") && !strings.HasSuffix(line, "](<") {
			continue
		}
		close := strings.LastIndex(line, "](")
		open := strings.LastIndexByte(line[:close], '[')
		if open < 0 {
			continue
		}
		text := line[open+1 : close]
		if m := leadingNumber(r.From).FindStringIndex(text); m != nil {
			at := t.Lines[ln.Line].Start + open + 1
			edits = append(edits, Edit{Start: at + m[0], End: at + m[1], New: strconv.Itoa(r.To)})
		}
	}
	if len(edits) == 0 {
		return src
	}
	return t.Apply(edits...)
}

func leadingNumber(n int) *regexp.Regexp {
	return regexp.MustCompile(`^0*` + strconv.Itoa(n) + `\b`)
}

// renumberTitleLine replaces the title's number in a heading line, keeping
// its padding.
func renumberTitleLine(line string, old, n int) string {
	done := false
	return digitRun.ReplaceAllStringFunc(line, func(d string) string {
		if v, err := strconv.Atoi(d); done || err != nil || v != old {
			return d
		}
		done = true
		return padNumber(n, len(d))
	})
}
