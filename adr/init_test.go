package adr

import (
	"strings"
	"testing"
	"testing/fstest"
)

// An empty repository gets doc/adr with a first record; one with records
// has its root pinned as it is.
func TestPlanInit(t *testing.T) {
	p, err := PlanInit(fstest.MapFS{}, InitOptions{Today: "2026-01-02"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Changes) < 2 || p.Changes[0].Path != ConfigFile || !strings.Contains(string(p.Changes[0].New), `path = "doc/adr"`) {
		t.Fatalf("PlanInit(empty) changes %+v", p.Changes)
	}
	if len(p.Created) != 1 || p.Created[0] != "doc/adr/0001-record-architecture-decisions.md" || len(p.Pinned) != 0 {
		t.Errorf("PlanInit(empty) created %v, pinned %v", p.Created, p.Pinned)
	}
	fsys := fstest.MapFS{"docs/adr/0001-use-go.md": {Data: []byte("# 1. Use Go\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n")}}
	p, err = PlanInit(fsys, InitOptions{Today: "2026-01-02"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Pinned) != 1 || p.Pinned[0].Root != "docs/adr" || p.Pinned[0].Records != 1 || len(p.Created) != 1 || p.Created[0] != ".adr-dir" {
		t.Errorf("PlanInit(docs/adr) pinned %+v, created %v", p.Pinned, p.Created)
	}
}
