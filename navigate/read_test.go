package navigate

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestReadRebuildsFiles(t *testing.T) {
	files := map[string]string{
		"lf.txt":         "one\ntwo\nthree\n",
		"crlf.txt":       "one\r\ntwo\r\nthree\r\n",
		"mixed.txt":      "one\r\ntwo\nthree\r\n",
		"nofinal.txt":    "one\ntwo\nthree",
		"crlfnofinal.md": "a\r\nb",
		"empty.txt":      "",
		"single.txt":     "x",
		"newline.txt":    "\n",
		"blank.txt":      "\n\n\n",
		"unicode.txt":    "\ufeffÉcole — naïve 日本語 🦀\r\nZwölf Boxkämpfer\n\u00a0tab\there\n",
		"lonecr.txt":     "old\rmac\rstyle\r",
		"trailingcr.txt": "a\r\nb\r",
	}
	tr, _ := newTree(t, files)
	for name, content := range files {
		for _, n := range []int{1, 2, 3, 200} {
			got, pages := readAll(t, tr, name, n)
			if got != content {
				t.Errorf("%s by %d: rebuilt %q, want %q", name, n, got, content)
			}
			for _, pg := range pages {
				if !utf8.ValidString(pg.Content) {
					t.Errorf("%s: page at %d is not UTF-8", name, pg.StartLine)
				}
				if pg.Path != name {
					t.Errorf("%s: path %q", name, pg.Path)
				}
			}
		}
	}
}

func TestReadMetadata(t *testing.T) {
	tr, _ := newTree(t, map[string]string{
		"lf.txt":      "one\ntwo\nthree\n",
		"crlf.txt":    "one\r\ntwo\r\n",
		"mixed.txt":   "one\r\ntwo\n",
		"nofinal.txt": "one\ntwo",
		"empty.txt":   "",
		"single.txt":  "x",
	})
	for _, c := range []struct {
		name         string
		total        int
		eol          string
		finalNewline bool
	}{
		{"lf.txt", 3, EOLLF, true},
		{"crlf.txt", 2, EOLCRLF, true},
		{"mixed.txt", 2, EOLMixed, true},
		{"nofinal.txt", 2, EOLLF, false},
		{"empty.txt", 0, EOLNone, false},
		{"single.txt", 1, EOLNone, false},
	} {
		pg, err := tr.Read(c.name, ReadOptions{StartLine: 1, LineCount: 200})
		if err != nil {
			t.Fatal(err)
		}
		if pg.TotalLines != c.total || pg.EOL != c.eol || pg.FinalNewline != c.finalNewline || pg.NextStartLine != nil || pg.LineCount != c.total {
			t.Errorf("%s: total %d eol %s final %v next %v count %d; want %d %s %v nil %d",
				c.name, pg.TotalLines, pg.EOL, pg.FinalNewline, pg.NextStartLine, pg.LineCount, c.total, c.eol, c.finalNewline, c.total)
		}
	}
	pg, err := tr.Read("lf.txt", ReadOptions{StartLine: 2, LineCount: 1})
	if err != nil {
		t.Fatal(err)
	}
	if pg.Content != "two\n" || pg.StartLine != 2 || pg.LineCount != 1 || pg.NextStartLine == nil || *pg.NextStartLine != 3 {
		t.Errorf("range 2+1: %+v", pg)
	}
}

func TestReadLargeFileRanges(t *testing.T) {
	// Just under 1 MiB of numbered lines of varying width.
	var b strings.Builder
	var lines []string
	for i := 1; b.Len() < MaxFileBytes-200; i++ {
		l := fmt.Sprintf("%06d %s\n", i, strings.Repeat("é", i%97))
		if b.Len()+len(l) > MaxFileBytes {
			break
		}
		b.WriteString(l)
		lines = append(lines, l)
	}
	content := b.String()
	tr, _ := newTree(t, map[string]string{"big.txt": content})

	got, pages := readAll(t, tr, "big.txt", MaxReadLines)
	if got != content {
		t.Fatal("large file not rebuilt")
	}
	for _, pg := range pages {
		if pg.LineCount > MaxReadLines || len(pg.Content) > MaxReadBytes {
			t.Fatalf("page at %d: %d lines, %d bytes", pg.StartLine, pg.LineCount, len(pg.Content))
		}
		if pg.TotalLines != len(lines) {
			t.Fatalf("total_lines %d, want %d", pg.TotalLines, len(lines))
		}
	}
	for _, start := range []int{1, 2, 777, len(lines) / 2, len(lines) - 3, len(lines)} {
		pg, err := tr.Read("big.txt", ReadOptions{StartLine: start, LineCount: 7})
		if err != nil {
			t.Fatal(err)
		}
		end := min(start-1+7, len(lines))
		if want := strings.Join(lines[start-1:end], ""); pg.Content != want {
			t.Errorf("lines %d..%d: got %q, want %q", start, end, pg.Content, want)
		}
	}
}

func TestReadByteBound(t *testing.T) {
	line := strings.Repeat("x", 999) + "\n" // 1,000 bytes
	content := strings.Repeat(line, 100)
	exact := strings.Repeat("y", MaxReadBytes-1) + "\n" // one line of exactly 32 KiB
	over := "short\n" + strings.Repeat("z", MaxReadBytes) + "\nafter\n"
	wide := strings.Repeat(strings.Repeat("🦀", 1000)+"\n", 20) // 4,001 bytes, 1,001 scalars a line
	tr, _ := newTree(t, map[string]string{"k.txt": content, "exact.txt": exact, "over.txt": over, "wide.txt": wide})

	pg, err := tr.Read("k.txt", ReadOptions{StartLine: 1, LineCount: 200})
	if err != nil {
		t.Fatal(err)
	}
	if pg.LineCount != 32 || len(pg.Content) != 32000 || *pg.NextStartLine != 33 {
		t.Errorf("byte-bounded page: %d lines, %d bytes, next %v", pg.LineCount, len(pg.Content), *pg.NextStartLine)
	}
	pg, err = tr.Read("wide.txt", ReadOptions{StartLine: 1, LineCount: 200})
	if err != nil {
		t.Fatal(err)
	}
	if pg.LineCount != 8 || !utf8.ValidString(pg.Content) {
		t.Errorf("wide page: %d lines (want 8 of 4,001 bytes), valid %v", pg.LineCount, utf8.ValidString(pg.Content))
	}
	if got, _ := readAll(t, tr, "wide.txt", 200); got != wide {
		t.Error("wide file not rebuilt")
	}
	if got, _ := readAll(t, tr, "exact.txt", 200); got != exact {
		t.Error("a line of exactly 32 KiB is not served")
	}
	pg, err = tr.Read("over.txt", ReadOptions{StartLine: 1, LineCount: 200})
	if err != nil || pg.Content != "short\n" || *pg.NextStartLine != 2 {
		t.Fatalf("page before a long line: %+v, %v", pg, err)
	}
	_, err = tr.Read("over.txt", ReadOptions{StartLine: 2, LineCount: 1})
	wantErr(t, err, ErrLineTooLong)
	if !strings.Contains(err.Error(), "line 2 of \"over.txt\" is 32769 bytes") {
		t.Errorf("message: %v", err)
	}
	pg, err = tr.Read("over.txt", ReadOptions{StartLine: 3, LineCount: 1})
	if err != nil || pg.Content != "after\n" {
		t.Errorf("line after the long one: %+v, %v", pg, err)
	}
}

func TestReadRefusals(t *testing.T) {
	tr, _ := newTree(t, map[string]string{
		"bin.dat":    "text\x00more",
		"latin1.txt": "caf\xe9\n",
		"max.txt":    strings.Repeat("a", MaxFileBytes-1) + "\n",
		"huge.txt":   strings.Repeat("a\n", MaxFileBytes/2+1),
		"dir/f.txt":  "x",
	})
	_, err := tr.Read("bin.dat", ReadOptions{StartLine: 1, LineCount: 1})
	wantErr(t, err, ErrBinary)
	if !strings.Contains(err.Error(), "NUL byte at offset 4 (line 1)") {
		t.Errorf("binary reason: %v", err)
	}
	_, err = tr.Read("latin1.txt", ReadOptions{StartLine: 1, LineCount: 1})
	wantErr(t, err, ErrNotUTF8)
	if !strings.Contains(err.Error(), "offset 3 (line 1)") {
		t.Errorf("UTF-8 reason: %v", err)
	}
	_, err = tr.Read("huge.txt", ReadOptions{StartLine: 1, LineCount: 1})
	wantErr(t, err, ErrTooLarge)
	if !isRefusal(err) {
		t.Error("too large is a refusal")
	}
	// Exactly 1 MiB is allowed; its one line is over 32 KiB, though.
	_, err = tr.Read("max.txt", ReadOptions{StartLine: 1, LineCount: 1})
	wantErr(t, err, ErrLineTooLong)
	_, err = tr.Read("dir", ReadOptions{StartLine: 1, LineCount: 1})
	wantErr(t, err, ErrIsDir)
	_, err = tr.Read("nope.txt", ReadOptions{StartLine: 1, LineCount: 1})
	wantErr(t, err, ErrNotFound)
	_, err = tr.Read("dir/f.txt/x", ReadOptions{StartLine: 1, LineCount: 1})
	wantErr(t, err, ErrNotFound)
}

func TestReadArguments(t *testing.T) {
	tr, _ := newTree(t, map[string]string{"f.txt": "1\n2\n3\n", "empty.txt": ""})
	var ae *ArgError
	for _, o := range []ReadOptions{{StartLine: 0, LineCount: 1}, {StartLine: -3, LineCount: 1}, {StartLine: 1, LineCount: 0}, {StartLine: 1, LineCount: MaxReadLines + 1}, {StartLine: 1, LineCount: -1}} {
		_, err := tr.Read("f.txt", o)
		if !errors.As(err, &ae) {
			t.Errorf("%+v: %v, want an ArgError", o, err)
		}
	}
	_, err := tr.Read("f.txt", ReadOptions{StartLine: 4, LineCount: 1})
	var re *RangeError
	if !errors.As(err, &re) || re.TotalLines != 3 || !errors.Is(err, ErrPastEnd) {
		t.Fatalf("past the end: %v", err)
	}
	if err.Error() != `start_line 4 is past the end of "f.txt" (3 lines)` {
		t.Errorf("message %q", err)
	}
	if pg, err := tr.Read("empty.txt", ReadOptions{StartLine: 1, LineCount: 5}); err != nil || pg.Content != "" || pg.LineCount != 0 || pg.NextStartLine != nil {
		t.Errorf("empty file: %+v, %v", pg, err)
	}
	_, err = tr.Read("empty.txt", ReadOptions{StartLine: 2, LineCount: 5})
	wantErr(t, err, ErrPastEnd)
	if pg, err := tr.Read("f.txt", ReadOptions{StartLine: 3, LineCount: 200}); err != nil || pg.Content != "3\n" || pg.NextStartLine != nil {
		t.Errorf("last line: %+v, %v", pg, err)
	}
}

// isRefusal reports whether err means a file exists but cannot be served
// as text (binary, not UTF-8, too large, a line too long, a special file),
// as opposed to a bad argument.
func isRefusal(err error) bool {
	for _, e := range []error{ErrBinary, ErrNotUTF8, ErrTooLarge, ErrLineTooLong, ErrNotRegular} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
