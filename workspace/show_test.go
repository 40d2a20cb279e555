package workspace

import (
	"errors"
	"path/filepath"
	"testing"
)

// A page holds the lines that fit, at least one; the next starts where it
// stopped; a unit locator pages that unit; a start past the end and a unit
// the record lacks are errors of their own types.
func TestFoundPage(t *testing.T) {
	hermetic(t)
	dir := t.TempDir()
	repo(t, filepath.Join(dir, "pay"), map[string]string{"0001-a.md": record(1, "A", "Accepted")})
	ws := loadWS(t, dir, "[[repo]]\nname = \"pay\"\npath = \"pay\"\n")
	f, err := ws.Find("pay:1")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	three := func(p *ShowPage) bool { return p.LineCount <= 3 }
	p, err := f.Page(1, three)
	if err != nil || p.LineCount != 3 || p.Next == nil || *p.Next != 4 || p.Content != "# 1. A\n\nDate: 2024-01-01\n" || p.Record.ID != "pay:ADR-0001" {
		t.Fatalf("first page: %+v %v", p, err)
	}
	none := func(*ShowPage) bool { return false }
	if p, err = f.Page(*p.Next, none); err != nil || p.LineCount != 1 || *p.Next != 5 {
		t.Fatalf("a page holds one line at least: %+v %v", p, err)
	}
	var pe *PastEndError
	if _, err := f.Page(p.TotalLines+1, three); !errors.As(err, &pe) || pe.Lines != p.TotalLines {
		t.Fatalf("past the end: %v", err)
	}
	f.Anchor = "decision"
	if p, err = f.Page(1, func(*ShowPage) bool { return true }); err != nil || p.Next != nil || p.Content == "" {
		t.Fatalf("unit page: %+v %v", p, err)
	}
	f.Anchor = "nope"
	var nu *NoUnitError
	if _, err := f.Page(1, three); !errors.As(err, &nu) || err.Error() != `pay:ADR-0001 has no unit "nope"` {
		t.Fatalf("no unit: %v", err)
	}
}
