package adr

import (
	"strings"
	"testing"
)

// TestCheckNoBreakHeading: a heading written with a no-break space after
// its marks is read as the heading its author meant, and check asks for a
// plain space, with the line as it should be.
func TestCheckNoBreakHeading(t *testing.T) {
	l := chkLoad(t, map[string]string{
		"doc/adr/0001-a.md": "# 1. A\n\nDate: 2026-01-01\n\n##\u00a0Status\n\nAccepted\n\n## Decision\n\nD.\n",
	})
	if r := l.Records[0]; r.Status != Accepted {
		t.Fatalf("status %s, want accepted", r.Status)
	}
	var f *Finding
	for _, x := range l.Check(CheckOptions{}).Findings {
		if strings.Contains(x.Message, "no-break space") {
			f = &x
		}
	}
	if f == nil || f.Line != 5 || !strings.HasSuffix(f.Fix, `by a space: "## Status"`) {
		t.Fatalf("finding %+v", f)
	}
}

// TestCheckPlaceholderTitle: a record titled with its template's
// placeholder is reported on the title's line, with a fix that asks for
// the title rather than a new heading.
func TestCheckPlaceholderTitle(t *testing.T) {
	l := chkLoad(t, map[string]string{
		"doc/adr/0021-use-esm.md": "# Title\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\nUse ESM.\n",
	})
	if r := l.Records[0]; r.Title != "Use esm" && r.Title != "Use ESM" {
		t.Errorf("title %q, want one made from the file name", r.Title)
	}
	for _, x := range l.Check(CheckOptions{}).Findings {
		if strings.Contains(x.Message, "placeholder") {
			if x.Line != 1 || !strings.Contains(x.Fix, "in place of the placeholder on line 1") {
				t.Errorf("finding %+v", x)
			}
			return
		}
	}
	t.Error("no finding for the placeholder title")
}
