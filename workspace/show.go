package workspace

import (
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// ShowPage is a page of the lines of one record, or of one unit of it.
type ShowPage struct {
	Repository string         `json:"repository"`
	Record     adr.RecordInfo `json:"record"`
	StartLine  int            `json:"start_line"`
	LineCount  int            `json:"line_count"`
	TotalLines int            `json:"total_lines"`
	Content    string         `json:"content"`
	// Next is the first line of the next page (nil on the last page).
	Next *int `json:"next_start_line"`
}

// NoUnitError is a reference whose unit locator names no unit of its
// record.
type NoUnitError struct {
	ID, Anchor string
}

func (e *NoUnitError) Error() string { return fmt.Sprintf("%s has no unit %q", e.ID, e.Anchor) }

// PastEndError is a page asked to start past the last line.
type PastEndError struct {
	Start, Lines int
}

func (e *PastEndError) Error() string {
	return fmt.Sprintf("start_line %d is past the end (%d lines)", e.Start, e.Lines)
}

// Page is the page of the found record (of its unit, when the reference
// names one) from line start: lines are added while fits reports that the
// page still fits what carries it, and a page holds at least one line.
func (f *Found) Page(start int, fits func(*ShowPage) bool) (*ShowPage, error) {
	content := string(f.Record.Content())
	if f.Anchor != "" {
		_, text, ok := f.Record.Excerpt(f.Anchor)
		if !ok {
			return nil, &NoUnitError{ID: Qualify(f.Member.Name, f.Record.ID), Anchor: f.Anchor}
		}
		content = text
	}
	lines := strings.SplitAfter(content, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if start < 1 || start > max(1, len(lines)) {
		return nil, &PastEndError{Start: start, Lines: len(lines)}
	}
	page := &ShowPage{Repository: f.Member.Name, Record: f.Record.Info(), StartLine: start, TotalLines: len(lines)}
	page.Record.ID = Qualify(f.Member.Name, f.Record.ID)
	for i := start - 1; i < len(lines); i++ {
		page.Content += lines[i]
		page.LineCount++
		if !fits(page) && page.LineCount > 1 {
			page.Content = strings.TrimSuffix(page.Content, lines[i])
			page.LineCount--
			next := i + 1
			page.Next = &next
			break
		}
	}
	return page, nil
}
