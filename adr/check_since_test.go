package adr

import (
	"slices"
	"testing"
)

func TestIntroduced(t *testing.T) {
	f := func(kind FindingKind, path, msg string, ids ...string) Finding {
		return Finding{Kind: kind, Path: path, Message: msg, IDs: ids}
	}
	base := []Finding{
		f(KindUnknownStatus, "doc/adr/0001-a.md", "no status", "ADR-0001"),
		f(KindBrokenReference, "doc/adr/0002-b.md", `link to "x.md": doc/adr/x.md does not exist`, "ADR-0002"),
		f(KindOneWayLink, "doc/adr/0003-c.md", "ADR-0003 amends ADR-0001 but ADR-0001 has no link back", "ADR-0003", "ADR-0001"),
		f(KindStatusConflict, "doc/adr/0004-d.md", `line 7 says "x" but the status on line 5 is "y"`, "ADR-0004"),
		f(KindScopeChurn, "doc/adr/0005-e.md", "changed in 11 commits", "ADR-0005"),
	}
	head := []Finding{
		// Old: the same finding.
		f(KindUnknownStatus, "doc/adr/0001-a.md", "no status", "ADR-0001"),
		// Old: the same, in a renamed file.
		f(KindBrokenReference, "doc/adr/archive/0002-b.md", `link to "x.md": doc/adr/x.md does not exist`, "ADR-0002"),
		// New: a second broken link in the same record.
		f(KindBrokenReference, "doc/adr/archive/0002-b.md", `link to "y.md": doc/adr/y.md does not exist`, "ADR-0002"),
		// Old: lines moved by an edit above them; a count grown.
		f(KindStatusConflict, "doc/adr/0004-d.md", `line 9 says "x" but the status on line 7 is "y"`, "ADR-0004"),
		f(KindScopeChurn, "doc/adr/0005-e.md", "changed in 12 commits", "ADR-0005"),
		// New: the same kind and message about another record.
		f(KindUnknownStatus, "doc/adr/0006-f.md", "no status", "ADR-0006"),
		// New: a second finding like an old one (each base finding
		// accounts for one).
		f(KindUnknownStatus, "doc/adr/0001-a.md", "no status", "ADR-0001"),
		// New: a rule of the range, which base cannot have.
		f("accepted-edit", "doc/adr/0001-a.md", "ADR-0001 is accepted, and the change edits it", "ADR-0001"),
	}
	got, old := Introduced(head, base, map[string]string{"doc/adr/0002-b.md": "doc/adr/archive/0002-b.md"})
	var paths []string
	for _, g := range got {
		paths = append(paths, string(g.Kind)+" "+g.Path)
	}
	want := []string{
		"broken-reference doc/adr/archive/0002-b.md",
		"unknown-status doc/adr/0006-f.md",
		"unknown-status doc/adr/0001-a.md",
		"accepted-edit doc/adr/0001-a.md",
	}
	if !slices.Equal(paths, want) || old != 4 {
		t.Errorf("introduced %q (%d old), want %q (4 old)", paths, old, want)
	}
	if got[0].Message != `link to "y.md": doc/adr/y.md does not exist` {
		t.Errorf("the new broken link is %q, want the one to y.md", got[0].Message)
	}
	// The one-way link fixed by the change is simply gone.
	if got, old := Introduced(nil, base, nil); len(got) != 0 || old != 0 {
		t.Errorf("a clean head: %d introduced, %d old", len(got), old)
	}
}
