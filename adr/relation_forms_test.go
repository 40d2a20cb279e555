package adr

import (
	"testing"
	"testing/fstest"
)

// TestRelationTargetForms: relations written as real logs write them
// resolve to the record they name: a documentation site's path whose
// link text is the ID (Docusaurus: "[ADR 7](/adr/7)"), a bracketed ID
// followed by prose ("[ADR 9] - with ..."), and an ID with the log's own
// prefix ("DR008").
func TestRelationTargetForms(t *testing.T) {
	rec := func(n int, status, extra string) []byte {
		return []byte("# " + itoa(n) + ". R\n\nDate: 2024-01-01\n\n## Status\n\n" + status + "\n" + extra + "\n## Decision\n\nD.\n")
	}
	l, err := Load(fstest.MapFS{
		"docs/adr/002-logging.md": {Data: rec(2, "Superseded by [ADR 7](/adr/7)", "")},
		"docs/adr/004-crud.md":    {Data: rec(4, "Superseded by [ADR 9] - with the addition of read models, the lookup moved.", "")},
		"docs/adr/007-errors.md":  {Data: rec(7, "Accepted", "")},
		"docs/adr/009-reads.md":   {Data: rec(9, "Accepted", "")},
		"decisions/DR002-fees.md": {Data: []byte("# DR002: Fees\n\nDate: 2021-08-20\n\n## Status\n\nSuperseded by DR008\n\n## Decision\n\nD.\n")},
		"decisions/DR008-free.md": {Data: []byte("# DR008: Free\n\nDate: 2023-05-09\n\n## Status\n\nApproved\n\n## Decision\n\nD.\n")},
	}, LoadOptions{Roots: []string{"docs/adr", "decisions"}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"docs/adr/002-logging.md": "ADR-007", "docs/adr/004-crud.md": "ADR-009", "decisions/DR002-fees.md": "DR008"}
	for p, id := range want {
		r := l.ByPath(p)
		if r == nil {
			t.Fatalf("%s not loaded", p)
		}
		found := false
		for _, rel := range r.Relations {
			if rel.Type == SupersededBy {
				found = true
				if rel.TargetID != id {
					t.Errorf("%s: superseded by %q resolves to %q, want %s", p, rel.Target, rel.TargetID, id)
				}
			}
		}
		if !found {
			t.Errorf("%s: no superseded-by relation: %+v", p, r.Relations)
		}
	}
}
