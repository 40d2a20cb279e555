package compaction

import (
	"errors"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/adr"
)

func TestNextNumberAndRenumbering(t *testing.T) {
	s := &Store{Repo: testRepo(t)}
	l, err := adr.Load(fstest.MapFS{
		"doc/adr/0001-a.md": {Data: []byte("# 1. A\n\n## Status\n\nAccepted\n")},
		"doc/adr/0002-b.md": {Data: []byte("# 2. B\n\n## Status\n\nAccepted\n")},
	}, adr.LoadOptions{Roots: []string{"doc/adr"}})
	if err != nil {
		t.Fatal(err)
	}
	root, rec := l.Roots[0], l.ByPath("doc/adr/0002-b.md")
	branches := []adr.BranchTree{{Ref: "refs/heads/other", FS: fstest.MapFS{"doc/adr/0004-d.md": {Data: []byte("# 4. D\n")}}}}
	if n, err := s.NextNumber(l, root, branches); err != nil || n != 5 {
		t.Fatalf("NextNumber past a branch's 0004 = %d, %v; want 5", n, err)
	}
	p := &Plan{Schema: SchemaVersion, ID: "c-numbers", Mode: Consolidate, State: Planned,
		Reserved: []Reservation{{Root: "doc/adr", Number: 5, ID: "ADR-0005"}}}
	if _, err := s.Save(p, nil, ""); err != nil {
		t.Fatal(err)
	}
	if n, err := s.NextNumber(l, root, branches); err != nil || n != 6 {
		t.Fatalf("NextNumber past a reserved 5 = %d, %v; want 6", n, err)
	}
	if n, next, err := s.Renumbering(l, rec, branches, 0, false); err != nil || n != 6 || next != 6 {
		t.Errorf("Renumbering to the next free = %d (next %d), %v; want 6", n, next, err)
	}
	if n, _, err := s.Renumbering(l, rec, branches, 9, true); err != nil || n != 9 {
		t.Errorf("Renumbering to a free 9 = %d, %v", n, err)
	}
	var te *NumberTakenError
	if _, _, err := s.Renumbering(l, rec, branches, 4, true); !errors.As(err, &te) || te.Ref != "refs/heads/other" || te.Path != "doc/adr/0004-d.md" {
		t.Errorf("Renumbering to a branch's 4 = %v (%+v)", err, te)
	}
	if _, next, err := s.Renumbering(l, rec, branches, 5, true); !errors.As(err, &te) || te.Plan != "c-numbers" || next != 6 {
		t.Errorf("Renumbering to a reserved 5 = %v (%+v), next %d", err, te, next)
	}
}
