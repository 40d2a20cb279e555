package workspace

import (
	"path/filepath"
	"testing"

	"github.com/git-adr/git-adr/adr"
)

// Records pages every member's records, qualified, filtered by member and
// status; a page ends before the first record that does not fit, the
// count goes on, and the next page starts there.
func TestRecordsPages(t *testing.T) {
	hermetic(t)
	dir := t.TempDir()
	repo(t, filepath.Join(dir, "pay"), map[string]string{"0001-a.md": record(1, "A", "Accepted"), "0002-b.md": record(2, "B", "Proposed")})
	repo(t, filepath.Join(dir, "ops"), map[string]string{"0001-c.md": record(1, "C", "Accepted")})
	ws := loadWS(t, dir, "[[repo]]\nname = \"pay\"\npath = \"pay\"\n[[repo]]\nname = \"ops\"\npath = \"ops\"\n")
	ids := func(p *RecordsPage) (out []string) {
		for _, r := range p.Records {
			out = append(out, r.ID)
		}
		return out
	}
	all := func(*RecordsPage) bool { return true }
	p, err := ws.Records("", "", 0, all)
	if err != nil || len(p.Records) != 3 || p.Total != 3 || p.Next != nil || p.Records[2].ID != "ops:ADR-0001" {
		t.Fatalf("all: %v %+v %v", ids(p), p, err)
	}
	two := func(p *RecordsPage) bool { return len(p.Records) <= 2 }
	p, _ = ws.Records("", "", 0, two)
	if len(p.Records) != 2 || p.Total != 3 || p.Next == nil || *p.Next != 2 {
		t.Fatalf("two a page: %v total %d next %v", ids(p), p.Total, p.Next)
	}
	p, _ = ws.Records("", "", *p.Next, two)
	if len(p.Records) != 1 || p.Records[0].ID != "ops:ADR-0001" || p.Next != nil {
		t.Fatalf("second page: %v next %v", ids(p), p.Next)
	}
	p, _ = ws.Records("PAY", adr.Accepted, 0, all)
	if len(p.Records) != 1 || p.Records[0].ID != "pay:ADR-0001" || p.Total != 1 {
		t.Fatalf("pay, accepted: %v total %d", ids(p), p.Total)
	}
}
