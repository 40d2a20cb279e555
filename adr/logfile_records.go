package adr

import (
	"fmt"
	"strconv"
	"strings"
)

// What a section of a single-file log is to the rest of git-adr: its
// place in the file, its own bytes, how commands name it, and why write
// commands refuse it.

// logSpan is where a section record lies in its file: lines [From, To).
type logSpan struct {
	From, To int
}

// InLogFile reports a record that is a section of a single-file log.
func (r *Record) InLogFile() bool { return r.span != nil }

// LineRange returns the record's 1-based inclusive line range in its file: the
// whole file for a record file, the section for a section of a log.
func (r *Record) LineRange() (from, to int) {
	if r.span != nil {
		return r.span.From + 1, r.span.To
	}
	if r.Text() == nil {
		return 0, 0
	}
	return 1, len(r.Text().Lines)
}

// Locus names the record's place uniquely: its path, or for a section of
// a single-file log the path and the heading's line ("docs/DECISIONS.md:12").
func (r *Record) Locus() string {
	if r.span == nil {
		return r.Path
	}
	return r.Path + ":" + strconv.Itoa(r.span.From+1)
}

// Content returns the record's own bytes: the file, or for a section of a
// single-file log the section alone.
func (r *Record) Content() []byte { return r.ContentIn(r.Text()) }

// ContentIn is [Record.Content] read from t, the record's text as
// [Record.PeekText] returned it.
func (r *Record) ContentIn(t *Text) []byte {
	if t == nil {
		return nil
	}
	if r.span == nil {
		return t.Src
	}
	if r.span.To <= r.span.From {
		return nil
	}
	return t.Src[t.Lines[r.span.From].Start:t.Lines[r.span.To-1].Next]
}

// SectionError means a write command was asked to change a record that is
// a section of a single-file log: git-adr writes records that are files,
// so nothing is written.
type SectionError struct {
	ID, Path string
	// Line is the 1-based line of the section's heading.
	Line int
	// Op is the command refused ("renumber", "archive"), "" when not
	// known.
	Op string
}

func (e *SectionError) Error() string {
	cmd := "git-adr"
	if e.Op != "" {
		cmd = "`git adr " + e.Op + "`"
	}
	if e.ID == "" {
		return fmt.Sprintf("%s is a single-file log; git-adr writes records that are files, so %s writes nothing there", e.Path, cmd)
	}
	return fmt.Sprintf("%s is a section of %s (line %d), a single-file log; git-adr writes records that are files, so %s changes nothing", e.ID, e.Path, e.Line, cmd)
}

// Hint says what to do instead.
func (e *SectionError) Hint() string {
	return fmt.Sprintf("edit %s by hand, or move the log to one file per record (then `git adr roots` finds the folder)", e.Path)
}

// Writable returns a *SectionError for a record that is a section of a
// single-file log, nil for a record file. op names the command.
func Writable(r *Record, op string) error {
	if r == nil || r.span == nil {
		return nil
	}
	return &SectionError{ID: r.ID, Path: r.Path, Line: r.span.From + 1, Op: op}
}

// WritableRoot returns a *SectionError for a root that is a single-file
// log.
func WritableRoot(root *Root, op string) error {
	if root == nil || !root.File {
		return nil
	}
	return &SectionError{Path: root.Path, Op: op}
}

// LogFiles returns the single-file logs among the roots.
func (l *Log) LogFiles() []*Root {
	var out []*Root
	for _, r := range l.Roots {
		if r.File {
			out = append(out, r)
		}
	}
	return out
}

// logFileAt returns the single-file log at path p, or nil.
func (l *Log) logFileAt(p string) *Root {
	for _, r := range l.Roots {
		if r.File && r.Path == p {
			return r
		}
	}
	return nil
}

// sectionByFragment resolves a link into a single-file log
// ("DECISIONS.md#adr-002-keep-the-cache") to the section whose heading
// has that anchor, as GitHub renders it; nil when none does.
func sectionByFragment(root *Root, target string) *Record {
	_, frag, ok := strings.Cut(target, "#")
	if !ok || frag == "" {
		return nil
	}
	frag = strings.ToLower(frag)
	for _, r := range root.Records {
		if headingAnchor(r.RawTitle) == frag {
			return r
		}
	}
	return nil
}

// headingAnchor is GitHub's anchor of a heading: lower case, spaces to
// dashes, punctuation other than "-" and "_" dropped.
func headingAnchor(h string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case c == ' ':
			b.WriteByte('-')
		case c == '-' || c == '_' || isLetterOrDigit(c):
			b.WriteRune(c)
		}
	}
	return b.String()
}

// sectionAt resolves "docs/DECISIONS.md:21" (see [Record.Locus]): the
// section of that log whose heading is on that line, or nil.
func (l *Log) sectionAt(ref string) *Record {
	i := strings.LastIndexByte(ref, ':')
	if i <= 0 {
		return nil
	}
	line, err := strconv.Atoi(ref[i+1:])
	if err != nil {
		return nil
	}
	root := l.logFileAt(cleanRel(ref[:i]))
	if root == nil {
		return nil
	}
	for _, r := range root.Records {
		if from, _ := r.LineRange(); from == line {
			return r
		}
	}
	return nil
}
