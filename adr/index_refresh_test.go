package adr

import (
	"testing"
	"testing/fstest"
)

// A change that makes a generated index stale gets the change that brings
// it up to date; a missing index is left missing.
func TestStaleIndexChanges(t *testing.T) {
	fsys := fstest.MapFS{
		"doc/adr/0001-a.md": &fstest.MapFile{Data: []byte(chkRecord(1, "A", "Accepted"))},
	}
	l, err := Load(fsys, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	exists := func(rel string) bool { _, ok := fsys[rel]; return ok }
	if l.KeepsIndex(exists) {
		t.Fatal("KeepsIndex with no INDEX.md")
	}
	if cs, err := StaleIndexChanges(fsys, LoadOptions{}, false); err != nil || len(cs) != 0 {
		t.Fatalf("missing index: changes %+v, %v", cs, err)
	}
	ixs, err := l.IndexesOver(fsys, "", false)
	if err != nil || len(ixs) != 1 {
		t.Fatalf("IndexesOver: %+v, %v", ixs, err)
	}
	fsys["doc/adr/INDEX.md"] = &fstest.MapFile{Data: ixs[0].Content}
	if !l.KeepsIndex(exists) {
		t.Fatal("KeepsIndex with an INDEX.md")
	}
	if cs, err := StaleIndexChanges(fsys, LoadOptions{}, true); err != nil || len(cs) != 0 {
		t.Fatalf("up-to-date index: changes %+v, %v", cs, err)
	}
	fsys["doc/adr/0002-b.md"] = &fstest.MapFile{Data: []byte(chkRecord(2, "B", "Proposed"))}
	cs, err := StaleIndexChanges(fsys, LoadOptions{Roots: []string{"doc/adr"}}, true)
	if err != nil || len(cs) != 1 || cs[0].Path != "doc/adr/INDEX.md" || string(cs[0].Old) != string(ixs[0].Content) {
		t.Fatalf("stale index: changes %+v, %v", cs, err)
	}
	l2, err := Load(fsys, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := l2.Indexes()
	if err != nil || string(cs[0].New) != string(want[0].Content) {
		t.Errorf("the change is not the index rendered now: %v", err)
	}
}
