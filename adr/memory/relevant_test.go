package memory

import (
	"testing"
)

func TestRelevant(t *testing.T) {
	items := []*Item{
		{ID: "m-00000001", Topic: "testing", Source: "team chat", Text: "We use testscript scenarios for every CLI test.", Enabled: true},
		{ID: "m-00000002", Topic: "storage", Source: "ADR review", Text: "Orders are stored in PostgreSQL; never SQLite.", Enabled: true},
		{ID: "m-00000003", Topic: "testing", Source: "retro", Text: "Flaky CLI tests were caused by the system clock.", Enabled: false},
		{ID: "m-00000004", Topic: "release", Source: "chat", Text: "Tags are signed with the release key.", Enabled: true},
	}
	got := Relevant(items, "write a CLI test for the list command", 3)
	if len(got) != 1 || got[0].Item.ID != "m-00000001" {
		t.Fatalf("Relevant = %+v, want only the enabled testing item", got)
	}
	// The disabled item matches the task as well, and is never returned.
	items[2].Enabled = true
	got = Relevant(items, "write a CLI test for the list command", 3)
	if len(got) != 2 {
		t.Errorf("with the item enabled: %+v, want two items", got)
	}
	if got := Relevant(items, "write a CLI test for the list command", 1); len(got) != 1 {
		t.Errorf("n=1 gave %d items", len(got))
	}
	// A paraphrase reaches the storage item through the thesaurus.
	if got := Relevant(items, "which database holds orders", 3); len(got) == 0 || got[0].Item.ID != "m-00000002" {
		t.Errorf("database task = %+v, want the storage item", got)
	}
	if got := Relevant(items, "rename the logo files", 3); len(got) != 0 {
		t.Errorf("unrelated task = %+v, want nothing", got)
	}
	// Deterministic.
	a := Relevant(items, "CLI tests and release tags", 4)
	for range 5 {
		b := Relevant(items, "CLI tests and release tags", 4)
		if len(a) != len(b) {
			t.Fatal("nondeterministic")
		}
		for i := range a {
			if a[i].Item != b[i].Item || a[i].Score != b[i].Score {
				t.Fatal("nondeterministic order")
			}
		}
	}
}
