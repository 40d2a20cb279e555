package audit

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/git-adr/git-adr/adr"
)

// explain's answer: a folder asked about stands for what is in it, the
// records in force come first, and a glob that matches no tracked file
// labels its record in a context answer.
func TestExplainAndStaleness(t *testing.T) {
	dir := t.TempDir()
	r, l := committedLog(t, dir, map[string]string{
		"pay/a.go":              "package pay\n",
		"doc/adr/0001-old.md":   "# 1. Old\n\nDate: 2024-01-02\nApplies to: pay/**\n\n## Status\n\nProposed\n\n## Decision\n\nOld.\n",
		"doc/adr/0002-cache.md": "# 2. Cache\n\nDate: 2024-01-02\nApplies to: pay/**, gone/**\n\n## Status\n\nAccepted\n\n## Decision\n\nCache.\n",
	})
	paths, err := PathsAsked(r, []string{filepath.Join(dir, "pay")})
	if err != nil || len(paths) != 1 || paths[0] != "pay/*" {
		t.Fatalf("PathsAsked = %v, %v", paths, err)
	}
	var oe *OutsideError
	if _, err := PathsAsked(r, []string{"/"}); !errors.As(err, &oe) {
		t.Errorf("PathsAsked(/) = %v, want an *OutsideError", err)
	}
	out, err := Explain(r, l, paths)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[0].ID != "ADR-0002" || !out[0].InForce || out[1].InForce {
		t.Errorf("Explain = %+v, want ADR-0002 in force first", out)
	}
	labels := Staleness(r, l, nil)(l.Records)
	var cache *adr.Record
	for _, rec := range l.Records {
		if rec.ID == "ADR-0002" {
			cache = rec
		}
	}
	if got := labels[cache]; len(got) != 1 || got[0] != "scope unmatched: applies_to: gone/** matches no tracked file" {
		t.Errorf("Staleness(ADR-0002) = %q", got)
	}
}
