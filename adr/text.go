package adr

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text is the lossless source of a record: the exact bytes plus a line
// index. Nothing is normalised; rendering an unchanged Text gives back its
// bytes, and every edit is a splice of a byte range (see [Edit]).
type Text struct {
	Src []byte
	// BOM reports a UTF-8 byte order mark at the start (kept in Src).
	BOM bool
	// EOL is the file's dominant line ending: "\n" or "\r\n".
	EOL string
	// FinalNewline reports whether the last line ends with a line ending.
	FinalNewline bool
	// Lines are the physical lines; Lines[i] is line i+1 of the file.
	Lines []Line
	// Unclosed is the index of the line that opens a code fence or HTML
	// comment the file never closes (everything after it is inside), or -1.
	Unclosed int
}

// Line is one physical line: Src[Start:End] is its content without the line
// ending, Src[End:Next] the line ending ("" for a last line without one).
type Line struct {
	Start, End, Next int
	Kind             LineKind
}

// LineKind says what a line is, for the purpose of finding metadata: text
// inside fences, comments or front matter never counts as structure.
type LineKind uint8

// Line kinds.
const (
	LineText LineKind = iota
	LineBlank
	LineHeading
	LineFence       // an opening or closing code fence
	LineCode        // inside a fenced code block
	LineComment     // inside an HTML comment block
	LineFrontMatter // front matter, delimiters included
)

// NewText indexes src. It never fails: any byte sequence is a Text.
func NewText(src []byte) *Text {
	t := &Text{Src: src, EOL: "\n"}
	t.Lines = make([]Line, 0, bytes.Count(src, []byte{'\n'})+1)
	t.BOM = bytes.HasPrefix(src, []byte("\xef\xbb\xbf"))
	crlf, lf := 0, 0
	start := 0
	if t.BOM {
		start = 3
	}
	for start < len(src) {
		nl := bytes.IndexByte(src[start:], '\n')
		if nl < 0 {
			t.Lines = append(t.Lines, Line{Start: start, End: len(src), Next: len(src)})
			break
		}
		end := start + nl
		next := end + 1
		if end > start && src[end-1] == '\r' {
			end--
			crlf++
		} else {
			lf++
		}
		t.Lines = append(t.Lines, Line{Start: start, End: end, Next: next})
		start = next
	}
	if crlf > lf {
		t.EOL = "\r\n"
	}
	t.FinalNewline = len(t.Lines) > 0 && t.Lines[len(t.Lines)-1].Next > t.Lines[len(t.Lines)-1].End
	t.classify()
	return t
}

// LineText returns line i (0-based) without its line ending.
func (t *Text) LineText(i int) string {
	l := t.Lines[i]
	return string(t.Src[l.Start:l.End])
}

// LineEOL returns the line ending of line i, or the file's dominant ending
// when the line has none.
func (t *Text) LineEOL(i int) string {
	l := t.Lines[i]
	if l.Next > l.End {
		return string(t.Src[l.End:l.Next])
	}
	return t.EOL
}

func (t *Text) classify() {
	// The lines are looked at, never kept: a view of the bytes, not a
	// copy of each line.
	src := view(t.Src)
	line := func(i int) string { return src[t.Lines[i].Start:t.Lines[i].End] }
	n := len(t.Lines)
	i := 0
	// Front matter: "---" on the first line, closed by "---" or "...".
	if n > 0 && strings.TrimRight(line(0), " \t") == "---" {
		for j := 1; j < n; j++ {
			s := strings.TrimRight(line(j), " \t")
			if s == "---" || s == "..." {
				for k := 0; k <= j; k++ {
					t.Lines[k].Kind = LineFrontMatter
				}
				i = j + 1
				break
			}
		}
	}
	var fence string // the opening fence run while inside a code block
	inComment := false
	opened := -1 // the line that opened the current fence or comment
	for ; i < n; i++ {
		s := line(i)
		trimmed := strings.TrimLeft(s, " ")
		indent := len(s) - len(trimmed)
		switch {
		case fence != "":
			t.Lines[i].Kind = LineCode
			if indent <= 3 && strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t") == "" && len(strings.TrimRight(trimmed, " \t")) >= len(fence) {
				t.Lines[i].Kind = LineFence
				fence = ""
			}
		case inComment:
			t.Lines[i].Kind = LineComment
			if strings.Contains(s, "-->") {
				inComment = false
			}
		case strings.TrimSpace(s) == "":
			t.Lines[i].Kind = LineBlank
		case indent <= 3 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			run := trimmed[:fenceRun(trimmed)]
			if run[0] == '`' && strings.Contains(trimmed[len(run):], "`") {
				t.Lines[i].Kind = LineText // inline code, not a fence
				break
			}
			fence, opened = run, i
			t.Lines[i].Kind = LineFence
		case indent <= 3 && strings.HasPrefix(trimmed, "<!--"):
			t.Lines[i].Kind = LineComment
			if !strings.Contains(trimmed[4:], "-->") {
				inComment, opened = true, i
			}
		case indent <= 3 && atxLevel(trimmed) > 0:
			t.Lines[i].Kind = LineHeading
		default:
			t.Lines[i].Kind = LineText
		}
	}
	t.Unclosed = -1
	if fence != "" || inComment {
		t.Unclosed = opened
	}
}

func fenceRun(s string) int {
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	return n
}

// atxLevel returns the level of an ATX heading line ("## Title" is 2), or 0.
// A no-break space after the marks ("##\u00a0Title") is read as the space
// its author meant, though CommonMark renders the line as text (see
// [noBreakHeading]).
func atxLevel(s string) int {
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	if n == 0 || n > 6 {
		return 0
	}
	if n == len(s) || s[n] == ' ' || s[n] == '\t' || strings.HasPrefix(s[n:], noBreakSpace) {
		return n
	}
	return 0
}

const noBreakSpace = "\u00a0"

// noBreakHeading reports a heading line whose marks are followed by a
// no-break space (U+00A0) instead of a space ("##\u00a0Status", as some
// editors type it), with its marks.
func noBreakHeading(line string) (marks string, ok bool) {
	s := strings.TrimLeft(line, " ")
	if len(line)-len(s) > 3 {
		return "", false // indented code
	}
	n := atxLevel(s)
	if n == 0 || !strings.HasPrefix(s[n:], noBreakSpace) {
		return "", false
	}
	return s[:n], true
}

// Heading is an ATX or setext heading.
type Heading struct {
	// Line is the 0-based line of the heading text (for setext headings the
	// text line, the underline is Line+1).
	Line  int
	Level int
	Text  string
	// Setext reports an underlined heading.
	Setext bool
}

// Headings returns the document's headings in order, outside code, comments
// and front matter.
func (t *Text) Headings() []Heading {
	var hs []Heading
	for i := range t.Lines {
		switch t.Lines[i].Kind {
		case LineHeading:
			s := strings.TrimLeft(t.LineText(i), " ")
			lvl := atxLevel(s)
			txt := strings.TrimSpace(s[lvl:])
			// Closing sequence: "## Title ##".
			if j := strings.LastIndexFunc(txt, func(r rune) bool { return r != '#' }); j >= 0 && j < len(txt)-1 && (txt[j] == ' ' || txt[j] == '\t') {
				txt = strings.TrimSpace(txt[:j])
			} else if j < 0 {
				txt = ""
			}
			hs = append(hs, Heading{Line: i, Level: lvl, Text: txt})
		case LineText:
			if i+1 < len(t.Lines) && t.Lines[i+1].Kind == LineText && (i == 0 || t.Lines[i-1].Kind != LineText) {
				u := strings.TrimSpace(t.LineText(i + 1))
				if len(u) >= 2 && (strings.Trim(u, "=") == "" || strings.Trim(u, "-") == "") && !isListItem(t.LineText(i)) {
					lvl := 1
					if u[0] == '-' {
						lvl = 2
					}
					hs = append(hs, Heading{Line: i, Level: lvl, Text: strings.TrimSpace(t.LineText(i)), Setext: true})
				}
			}
		}
	}
	return hs
}

func isListItem(s string) bool {
	s = strings.TrimLeft(s, " \t")
	if len(s) >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && (s[1] == ' ' || s[1] == '\t') {
		return true
	}
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n > 0 && n < 10 && n+1 < len(s) && (s[n] == '.' || s[n] == ')') && (s[n+1] == ' ' || s[n+1] == '\t')
}

// ValidUTF8 reports whether the text (BOM excluded) is valid UTF-8.
func (t *Text) ValidUTF8() bool { return utf8.Valid(t.Src) }

// Edit replaces Src[Start:End] with New.
type Edit struct {
	Start, End int
	New        string
}

// Apply returns the source with the edits applied. Edits must not overlap;
// they may come in any order.
func (t *Text) Apply(edits ...Edit) []byte {
	sorted := append([]Edit(nil), edits...)
	for i := 1; i < len(sorted); i++ {
		for j := i; j > 0 && sorted[j].Start < sorted[j-1].Start; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	var b bytes.Buffer
	pos := 0
	for _, e := range sorted {
		if e.Start < pos {
			e.Start = pos
		}
		b.Write(t.Src[pos:e.Start])
		b.WriteString(e.New)
		pos = max(e.End, e.Start)
	}
	b.Write(t.Src[pos:])
	return b.Bytes()
}

func isLetterOrDigit(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
