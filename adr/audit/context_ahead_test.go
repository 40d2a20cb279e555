package audit

import (
	"errors"
	"slices"
	"testing"

	"github.com/git-adr/git-adr/adr/evidence"
)

// A diff's question asks for the paths asked about and those the diff
// changes, and names the diff; a task's gets the source search; a
// question without either asks git nothing.
func TestStartAhead(t *testing.T) {
	dir := t.TempDir()
	r, l := committedLog(t, dir, map[string]string{"pay/a.go": "package pay\n", "doc/adr/0001-cache.md": "# 1. Cache\n\nDate: 2024-01-02\nApplies to: pay/**\n\n## Status\n\nAccepted\n\n## Decision\n\nCache.\n"})

	req := evidence.Request{Task: "cache", Paths: []string{"b.go"}}
	a := StartAhead(r, req, "HEAD", func() ([]string, error) { return []string{"pay/a.go"}, nil })
	if err := a.Request(&req); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(req.Paths, []string{"b.go", "pay/a.go"}) || req.Diff != "HEAD" {
		t.Errorf("Request: paths %v, diff %q", req.Paths, req.Diff)
	}
	svc := &evidence.Service{}
	a.Serve(svc, r, l)
	if svc.Stale == nil || svc.Scope == nil || svc.SourceFiles == nil {
		t.Errorf("Serve left out what was found ahead: stale %v, scope %v, sources %v", svc.Stale != nil, svc.Scope != nil, svc.SourceFiles != nil)
	}
	if hits := svc.Scope(req.Paths); len(hits) != 1 || hits[0].Record.ID != "ADR-0001" {
		t.Errorf("scope hits %+v", hits)
	}

	bad := errors.New("no such revision")
	req = evidence.Request{}
	if err := StartAhead(r, req, "nope", func() ([]string, error) { return nil, bad }).Request(&req); !errors.Is(err, bad) {
		t.Errorf("Request = %v, want the diff's error", err)
	}

	req = evidence.Request{ID: "ADR-0001"}
	a = StartAhead(r, req, "", nil)
	if err := a.Request(&req); err != nil || req.Paths != nil || req.Diff != "" {
		t.Errorf("no diff: %+v, %v", req, err)
	}
	svc = &evidence.Service{}
	a.Serve(svc, r, l)
	if svc.Stale != nil || svc.Scope != nil || svc.SourceFiles != nil {
		t.Error("Serve set a source no question asked for")
	}
}
