package navigate

import (
	"bytes"
	"fmt"
	"io"
	"unicode/utf8"
)

// Read limits (ADR-0069 of the reference).
const (
	// MaxFileBytes is the largest file Read serves: 1 MiB.
	MaxFileBytes = 1 << 20
	// MaxReadLines is the most lines one page holds.
	MaxReadLines = 200
	// MaxReadBytes is the most content bytes one page holds: 32 KiB.
	MaxReadBytes = 32 << 10
)

// Line-ending styles reported in [Page.EOL].
const (
	EOLNone  = "none"  // no line ends: an empty file or a single unterminated line
	EOLLF    = "lf"    // every line ends with "\n"
	EOLCRLF  = "crlf"  // every line ends with "\r\n"
	EOLMixed = "mixed" // both
)

// Page is one read of a text file: the exact bytes of whole lines, and
// metadata about the page and the file kept apart from them. The JSON shape
// is documented in docs/json.md.
type Page struct {
	// Path is the file, relative to the tree's current directory.
	Path string `json:"path"`
	// StartLine is the 1-based number of the first line of Content.
	StartLine int `json:"start_line"`
	// LineCount is the number of lines in Content (0 for an empty file).
	LineCount int `json:"line_count"`
	// Content holds the lines exactly as stored, line ends included, so
	// that the contents of consecutive pages concatenate to the file.
	Content string `json:"content"`
	// NextStartLine is where the next page starts; nil at the end.
	NextStartLine *int `json:"next_start_line"`
	// TotalLines counts the file's lines; an unterminated last line counts.
	TotalLines int `json:"total_lines"`
	// EOL is the file's line-ending style: none, lf, crlf or mixed.
	EOL string `json:"eol"`
	// FinalNewline reports whether the file ends with a line end.
	FinalNewline bool `json:"final_newline"`
}

// ReadOptions choose a page.
type ReadOptions struct {
	// StartLine is the 1-based first line to return.
	StartLine int
	// LineCount is the most lines to return, 1 to MaxReadLines; a page
	// may hold fewer to stay within MaxReadBytes.
	LineCount int
	// Budget bounds the content as the caller sends it: a page stops
	// before the line that would pass Budget.Max.
	Budget Budget
}

// RangeError is a start line past the end of a file.
type RangeError struct {
	Path       string
	StartLine  int
	TotalLines int
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("start_line %d is past the end of %q (%s)", e.StartLine, e.Path, plural(e.TotalLines, "line"))
}

// Unwrap makes errors.Is(err, ErrPastEnd) true.
func (e *RangeError) Unwrap() error { return ErrPastEnd }

// Read returns one page of the UTF-8 text file at p (relative to the
// current directory, or absolute inside the tree).
func (t *Tree) Read(p string, o ReadOptions) (*Page, error) {
	if o.StartLine < 1 {
		return nil, &ArgError{Arg: "start_line", Value: fmt.Sprint(o.StartLine), Problem: "must be 1 or more (lines are numbered from 1)"}
	}
	if o.LineCount < 1 || o.LineCount > MaxReadLines {
		return nil, &ArgError{Arg: "line_count", Value: fmt.Sprint(o.LineCount), Problem: fmt.Sprintf("must be between 1 and %d", MaxReadLines)}
	}
	data, lexical, err := t.readText(p)
	if err != nil {
		return nil, err
	}
	return page(data, t.show(lexical), o)
}

// readText reads a whole text file, refusing directories, special files,
// files over MaxFileBytes, binary files and invalid UTF-8 with the reason.
func (t *Tree) readText(p string) ([]byte, string, error) {
	lexical, real, err := t.locate(p)
	if err != nil {
		return nil, "", err
	}
	f, err := t.open(p, real, false)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, "", err
	}
	switch {
	case fi.IsDir():
		return nil, "", fmt.Errorf("%q: %w", p, ErrIsDir)
	case !fi.Mode().IsRegular():
		return nil, "", fmt.Errorf("%q is a %s: %w", p, kind(fi.Mode()), ErrNotRegular)
	case fi.Size() > MaxFileBytes:
		return nil, "", fmt.Errorf("%q is %d bytes, over the %d-byte (1 MiB) limit: %w", p, fi.Size(), MaxFileBytes, ErrTooLarge)
	}
	// The file may change between Stat and the read: read up to one byte
	// more than the limit, into a buffer sized once.
	data := make([]byte, 0, fi.Size()+1)
	for len(data) <= MaxFileBytes {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):min(cap(data), MaxFileBytes+1)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "", fmt.Errorf("%q: %w", p, err)
		}
	}
	if len(data) > MaxFileBytes {
		return nil, "", fmt.Errorf("%q is over the %d-byte (1 MiB) limit: %w", p, MaxFileBytes, ErrTooLarge)
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, "", fmt.Errorf("%q holds a NUL byte at offset %d (line %d): %w", p, i, lineAt(data, i), ErrBinary)
	}
	if !utf8.Valid(data) {
		i := invalidUTF8(data)
		return nil, "", fmt.Errorf("%q has a byte that is not UTF-8 at offset %d (line %d): %w", p, i, lineAt(data, i), ErrNotUTF8)
	}
	return data, lexical, nil
}

// page cuts the page o asks for out of data.
func page(data []byte, shown string, o ReadOptions) (*Page, error) {
	pg := &Page{Path: shown, StartLine: o.StartLine, EOL: eolStyle(data)}
	pg.FinalNewline = len(data) > 0 && data[len(data)-1] == '\n'
	pg.TotalLines = bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && !pg.FinalNewline {
		pg.TotalLines++
	}
	if o.StartLine > pg.TotalLines {
		if o.StartLine == 1 { // an empty file has one empty page
			return pg, nil
		}
		return nil, &RangeError{Path: shown, StartLine: o.StartLine, TotalLines: pg.TotalLines}
	}
	// Skip to the start line.
	off := 0
	for n := 1; n < o.StartLine; n++ {
		off += bytes.IndexByte(data[off:], '\n') + 1
	}
	end, cost := off, 0
	for pg.LineCount < o.LineCount && end < len(data) {
		next := len(data)
		if i := bytes.IndexByte(data[end:], '\n'); i >= 0 {
			next = end + i + 1
		}
		line := o.StartLine + pg.LineCount
		if next-off > MaxReadBytes {
			if pg.LineCount == 0 {
				return nil, fmt.Errorf("line %d of %q is %d bytes, over the %d-byte limit of one read: %w", line, shown, next-end, MaxReadBytes, ErrLineTooLong)
			}
			break
		}
		if o.Budget.on() {
			c := o.Budget.Cost(string(data[end:next]))
			if cost+c > o.Budget.Max {
				if pg.LineCount == 0 {
					return nil, fmt.Errorf("line %d of %q takes %d code points as sent, over the %d that one read may hold: %w", line, shown, c, o.Budget.Max, ErrLineTooLong)
				}
				break
			}
			cost += c
		}
		end = next
		pg.LineCount++
	}
	pg.Content = string(data[off:end])
	if next := o.StartLine + pg.LineCount; next <= pg.TotalLines {
		pg.NextStartLine = &next
	}
	return pg, nil
}

// eolStyle classifies the line ends of data.
func eolStyle(data []byte) string {
	lf := bytes.Count(data, []byte{'\n'})
	crlf := bytes.Count(data, []byte("\r\n"))
	switch {
	case lf == 0:
		return EOLNone
	case crlf == 0:
		return EOLLF
	case crlf == lf:
		return EOLCRLF
	}
	return EOLMixed
}

// lineAt is the 1-based line holding byte offset i.
func lineAt(data []byte, i int) int { return bytes.Count(data[:i], []byte{'\n'}) + 1 }

// invalidUTF8 is the offset of the first byte that is not valid UTF-8.
func invalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(data)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
