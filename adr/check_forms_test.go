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

// TestCheckAcceptedButSupersededByItsOwnLink: an accepted record whose
// own text links its successor as "Superseded by" contradicts itself,
// whether or not the successor links back.
func TestCheckAcceptedButSupersededByItsOwnLink(t *testing.T) {
	l := chkLoad(t, map[string]string{
		"doc/adr/0001-a.md": "# 1. A\n\n- Status: accepted\n- Date: 2024-02-19\n- Superseded by [Use B](0002-b.md)\n\n## Decision\n\nA.\n",
		"doc/adr/0002-b.md": "# 2. B\n\n- Status: accepted\n- Date: 2024-10-23\n\n## Decision\n\nB.\n",
	})
	for _, f := range chkKinds(l.Check(CheckOptions{}), KindStatusMismatch) {
		if f.Path == "doc/adr/0001-a.md" && strings.Contains(f.Message, `"Superseded by" link names ADR-0002`) {
			return
		}
	}
	t.Errorf("no status-mismatch for ADR-0001: %+v", l.Check(CheckOptions{}).Findings)
}

// TestSpansHolds: holds finds an offset in sorted, disjoint spans as a
// scan of every span does.
func TestSpansHolds(t *testing.T) {
	s := spans{{3, 7}, {7, 9}, {20, 30}}
	for off := -1; off < 35; off++ {
		want := false
		for _, sp := range s {
			want = want || off >= sp[0] && off < sp[1]
		}
		if got := s.holds(off); got != want {
			t.Errorf("holds(%d) = %v, want %v", off, got, want)
		}
	}
	if (spans(nil)).holds(0) {
		t.Error("no span holds anything")
	}
}
