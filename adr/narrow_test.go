package adr

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// A load with Only makes records for those paths alone, with the IDs and
// conventions a whole load gives; the rest count by name for numbers,
// and Ensure lists what a record's relations name.
func TestLoadOnly(t *testing.T) {
	fsys := fstest.MapFS{}
	for i := 1; i <= 300; i++ {
		body := fmt.Sprintf("# %d. Decision %d\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\nD.\n", i, i)
		if i == 150 {
			body = "# 150. Decision 150\n\nDate: 2026-01-01\n\n## Status\n\nSuperseded\n\nSuperseded by [7. Decision 7](0007-decision-7.md)\n\nRelates to ADR-0009\n\n## Decision\n\nD.\n"
		}
		fsys[fmt.Sprintf("doc/adr/%04d-decision-%d.md", i, i)] = &fstest.MapFile{Data: []byte(body)}
	}
	fsys["doc/adr/archive/0301-old.md"] = &fstest.MapFile{Data: []byte("# 301. Old\n\n## Status\n\nDeprecated\n")}
	whole, err := Load(fsys, LoadOptions{Lazy: true, NoSample: true})
	if err != nil {
		t.Fatal(err)
	}
	only := []string{"doc/adr/0150-decision-150.md", "doc/adr/0200-decision-200.md"}
	l, err := Load(fsys, LoadOptions{Lazy: true, NoSample: true, Only: only})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Records) != 2 {
		t.Fatalf("records = %d, want the 2 named", len(l.Records))
	}
	wr, nr := whole.Roots[0], l.Roots[0]
	if nr.Digits != wr.Digits || nr.Prefix != wr.Prefix || nr.Lead != wr.Lead || l.Records[1].ID != whole.ByPath(only[1]).ID {
		t.Errorf("conventions differ: digits %d/%d prefix %q/%q, ID %q/%q", nr.Digits, wr.Digits, nr.Prefix, wr.Prefix, l.Records[1].ID, whole.ByPath(only[1]).ID)
	}
	if got := nr.Holders(301); len(got) != 1 || got[0] != "doc/adr/archive/0301-old.md" {
		t.Errorf("Holders(301) = %v, want the archived record", got)
	}
	if got := nr.Holders(7); len(got) != 1 {
		t.Errorf("Holders(7) = %v", got)
	}
	r := l.ByPath(only[0])
	if err := l.Ensure(r); err != nil {
		t.Fatal(err)
	}
	if len(r.Relations) != 2 || r.Relations[0].TargetID != "ADR-0007" || r.Relations[1].TargetID != "ADR-0009" {
		t.Errorf("relations = %+v, want ADR-0007 and ADR-0009 resolved", r.Relations)
	}
	if len(l.Records) != 4 || l.ByPath("doc/adr/0007-decision-7.md") == nil {
		t.Errorf("records after Ensure = %d, want the 2 named and the 2 their relations name", len(l.Records))
	}
}

// Derive reuses a narrow listing for a state whose records differ only in
// content, and refuses when the other state could list differently.
func TestDerive(t *testing.T) {
	fsys := fstest.MapFS{
		"doc/adr/0001-a.md": &fstest.MapFile{Data: []byte("# 1. A\n\n## Status\n\nAccepted\n\n## Decision\n\nA.\n")},
		"doc/adr/0002-b.md": &fstest.MapFile{Data: []byte("# 2. B\n\n## Status\n\nAccepted\n\n## Decision\n\nB.\n")},
	}
	other := fstest.MapFS{
		"doc/adr/0001-a.md": &fstest.MapFile{Data: []byte("# 1. A\n\n## Status\n\nDeprecated\n\n## Decision\n\nA.\n")},
		"doc/adr/0002-b.md": fsys["doc/adr/0002-b.md"],
	}
	only := []string{"doc/adr/0001-a.md"}
	l, err := Load(fsys, LoadOptions{Lazy: true, NoSample: true, Only: only})
	if err != nil {
		t.Fatal(err)
	}
	d, ok := l.Derive(other, only)
	if !ok {
		t.Fatal("Derive refused an edit of a record")
	}
	r := d.ByPath(only[0])
	if err := d.Ensure(r); err != nil {
		t.Fatal(err)
	}
	if r.Status != Deprecated || r.ID != "ADR-0001" || len(d.Roots[0].Holders(2)) != 1 {
		t.Errorf("derived record: status %q, ID %q, holders of 2: %v", r.Status, r.ID, d.Roots[0].Holders(2))
	}
	if l.ByPath(only[0]).Status != Unknown {
		t.Error("Derive changed the log it came from")
	}
	for _, changed := range [][]string{{".adr.toml"}, {"doc/adr/README.md"}, {"doc/adr/0003-c.md"}} {
		if _, ok := l.Derive(other, changed); ok {
			t.Errorf("Derive accepted a change of %v", changed)
		}
	}
	if _, ok := l.Derive(other, []string{"main.go"}); !ok {
		t.Error("Derive refused a change outside the roots")
	}
}

// idKeys lowers every ID as strings.ToLower does, ASCII or not.
func TestIDKeys(t *testing.T) {
	ids := []string{"ADR-0001", "adr-0002", "core/2020-01-01-Use-X", "ÉTUDE-1", "ODH-ADR-MS-0002", "", "Ünïcode-ID", "x"}
	var recs []*Record
	for _, id := range ids {
		recs = append(recs, &Record{ID: id})
	}
	for i, k := range idKeys(recs) {
		if want := strings.ToLower(ids[i]); k != want {
			t.Errorf("key of %q = %q, want %q", ids[i], k, want)
		}
	}
}
