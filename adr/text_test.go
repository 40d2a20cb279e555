package adr

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// rebuild concatenates what a Text indexes: the BOM, then every line's
// content and line ending.
func rebuild(t *Text) []byte {
	var b bytes.Buffer
	if t.BOM {
		b.WriteString("\xef\xbb\xbf")
	}
	for _, l := range t.Lines {
		b.Write(t.Src[l.Start:l.End])
		b.Write(t.Src[l.End:l.Next])
	}
	return b.Bytes()
}

func TestNewTextRoundTrip(t *testing.T) {
	tests := []struct {
		name         string
		src          string
		lines        int
		eol          string
		bom, finalNL bool
	}{
		{"empty", "", 0, "\n", false, false},
		{"lf", "# T\n\nbody\n", 3, "\n", false, true},
		{"crlf", "# T\r\n\r\nbody\r\n", 3, "\r\n", false, true},
		{"no final newline", "# T\n\nbody", 3, "\n", false, false},
		{"crlf no final newline", "# T\r\nbody", 2, "\r\n", false, false},
		{"bom", "\xef\xbb\xbf# T\n", 1, "\n", true, true},
		{"bom only", "\xef\xbb\xbf", 0, "\n", true, false},
		{"mixed endings, LF dominant", "a\r\nb\nc\n", 3, "\n", false, true},
		{"mixed endings, CRLF dominant", "a\r\nb\r\nc\n", 3, "\r\n", false, true},
		{"lone CR stays in the line", "a\rb\n", 1, "\n", false, true},
		{"blank lines only", "\n\n", 2, "\n", false, true},
		{"CR before EOF", "a\r", 1, "\n", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := NewText([]byte(tt.src))
			if got := rebuild(x); string(got) != tt.src {
				t.Errorf("lines rebuild %q, want %q", got, tt.src)
			}
			if got := x.Apply(); string(got) != tt.src {
				t.Errorf("Apply() = %q, want %q", got, tt.src)
			}
			if len(x.Lines) != tt.lines || x.EOL != tt.eol || x.BOM != tt.bom || x.FinalNewline != tt.finalNL {
				t.Errorf("lines=%d eol=%q bom=%v final=%v; want %d %q %v %v", len(x.Lines), x.EOL, x.BOM, x.FinalNewline, tt.lines, tt.eol, tt.bom, tt.finalNL)
			}
			for i := range x.Lines {
				if strings.ContainsAny(x.LineText(i), "\n") || strings.HasSuffix(x.LineText(i), "\r") && x.Lines[i].Next > x.Lines[i].End && x.Src[x.Lines[i].End] == '\n' {
					t.Errorf("line %d %q holds its line ending", i, x.LineText(i))
				}
			}
		})
	}
	x := NewText([]byte("a\r\nb"))
	if x.LineEOL(0) != "\r\n" || x.LineEOL(1) != "\r\n" {
		t.Errorf("LineEOL = %q, %q; want the line's own ending, then the dominant one", x.LineEOL(0), x.LineEOL(1))
	}
}

func TestLineKinds(t *testing.T) {
	src := strings.Join([]string{
		"---",               // 0 front matter
		"status: accepted",  // 1
		"---",               // 2
		"# Title",           // 3 heading
		"",                  // 4 blank
		"Status: text",      // 5 text
		"```markdown",       // 6 fence
		"## Status",         // 7 code
		"status: x",         // 8 code
		"```",               // 9 fence
		"<!-- note",         // 10 comment
		"## Hidden",         // 11 comment
		"-->",               // 12 comment
		"<!-- one line -->", // 13 comment
		"~~~~",              // 14 fence
		"~~~",               // 15 code: a shorter run does not close
		"~~~~~",             // 16 fence
		"``inline`` code",   // 17 text
		"    # indented",    // 18 text (indented code, never a heading)
		"#hashtag",          // 19 text
		"   ### ok ###",     // 20 heading
	}, "\n") + "\n"
	want := []LineKind{LineFrontMatter, LineFrontMatter, LineFrontMatter, LineHeading, LineBlank, LineText,
		LineFence, LineCode, LineCode, LineFence, LineComment, LineComment, LineComment, LineComment,
		LineFence, LineCode, LineFence, LineText, LineText, LineText, LineHeading}
	x := NewText([]byte(src))
	if len(x.Lines) != len(want) {
		t.Fatalf("%d lines, want %d", len(x.Lines), len(want))
	}
	for i, k := range want {
		if x.Lines[i].Kind != k {
			t.Errorf("line %d %q: kind %d, want %d", i, x.LineText(i), x.Lines[i].Kind, k)
		}
	}
	hs := x.Headings()
	if len(hs) != 2 || hs[0].Text != "Title" || hs[1].Text != "ok" || hs[1].Level != 3 {
		t.Errorf("Headings() = %+v; want Title and ok (closing #s dropped)", hs)
	}
}

func TestUnclosedFrontMatterIsText(t *testing.T) {
	x := NewText([]byte("---\nstatus: accepted\n# Title\n"))
	if x.Lines[1].Kind == LineFrontMatter {
		t.Errorf("front matter without a closing delimiter must not swallow the record")
	}
}

func TestSetextHeadings(t *testing.T) {
	x := NewText([]byte("Title\n=====\n\nStatus\n------\n\nAccepted\n\n- item\n----\n"))
	hs := x.Headings()
	if len(hs) != 2 || hs[0].Text != "Title" || hs[0].Level != 1 || !hs[0].Setext || hs[1].Text != "Status" || hs[1].Level != 2 {
		t.Errorf("Headings() = %+v", hs)
	}
}

func TestApplyEdits(t *testing.T) {
	src := "Status: proposed\r\nDate: 2020\r\n"
	x := NewText([]byte(src))
	d := strings.Index(src, "2020")
	got := string(x.Apply(Edit{Start: d, End: d + 4, New: "2021-01-01"}, Edit{Start: 8, End: 16, New: "accepted"}))
	if want := "Status: accepted\r\nDate: 2021-01-01\r\n"; got != want {
		t.Errorf("Apply = %q, want %q", got, want)
	}
	// An insertion at a point.
	if got := string(x.Apply(Edit{Start: 0, End: 0, New: "# T\r\n"})); !strings.HasPrefix(got, "# T\r\nStatus") {
		t.Errorf("insert = %q", got)
	}
}

// TestNoBreakSpaceAfterMarks: "##\u00a0Status" is a heading to git-adr
// (its author meant one, though CommonMark renders it as text), and
// noBreakHeading finds it so that check can ask for a plain space.
func TestNoBreakSpaceAfterMarks(t *testing.T) {
	x := NewText([]byte("# T\n\n##\u00a0Status\n\nApproved\n\n###\u00a0\u00a0Context ###\n\n#\u00a0\n\n#hashtag\n\n##\u2003Not\n"))
	hs := x.Headings()
	var got []string
	for _, h := range hs {
		got = append(got, fmt.Sprintf("%d:%d:%s", h.Line, h.Level, h.Text))
	}
	if want := "0:1:T 2:2:Status 6:3:Context 8:1:"; strings.Join(got, " ") != want {
		t.Errorf("Headings() = %q, want %q", strings.Join(got, " "), want)
	}
	for _, c := range []struct {
		line, marks string
		ok          bool
	}{
		{"##\u00a0Status", "##", true},
		{"   #\u00a0Title", "#", true},
		{"###\u00a0\u00a0Context ###", "###", true},
		{"## Status", "", false},
		{"## \u00a0Status", "", false},
		{"##Status", "", false},
		{"    ##\u00a0Code", "", false},
		{"#######\u00a0Seven", "", false},
		{"Text ##\u00a0x", "", false},
	} {
		marks, ok := noBreakHeading(c.line)
		if marks != c.marks || ok != c.ok {
			t.Errorf("noBreakHeading(%q) = %q, %v; want %q, %v", c.line, marks, ok, c.marks, c.ok)
		}
	}
}
