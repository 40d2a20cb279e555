package workspace

import (
	"fmt"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr/evidence"
)

// The merge orders units by their records' scores on the workspace's
// scale; equal scores go by the repository's confidence, then each
// unit's rank in its own answer, then the order of the workspace file;
// Pack keeps what fits the units and the measured size, skipping a unit
// too big for what is left rather than stopping at it.
func TestMergeAndPack(t *testing.T) {
	unit := func(repo, id string, conf, rank, member int, text string) ContextUnit {
		return ContextUnit{Repository: repo, Unit: evidence.Unit{ID: repo + ":" + id, Text: text}, confidence: conf, rank: rank, member: member}
	}
	scored := func(u ContextUnit, score float64) ContextUnit { u.score = score; return u }
	s := &ContextAnswer{Candidates: []ContextUnit{
		scored(unit("high", "ADR-0001", 3, 0, 0, "a"), 2),
		scored(unit("low", "ADR-0007", 1, 0, 1, "b"), 9),
		scored(unit("high", "ADR-0002", 3, 1, 0, "c"), 2),
		scored(unit("low", "ADR-0008", 1, 1, 1, "d"), 1),
	}}
	s.sort()
	if got := candidateIDs(s); got != "low:ADR-0007 high:ADR-0001 high:ADR-0002 low:ADR-0008" {
		t.Fatalf("merged by score %s", got)
	}
	// A record's later units stand behind every record's first: its
	// units are those of its path whose IDs start with its ID.
	later := laterUnits([]evidence.Unit{
		{ID: "ADR-0007", Path: "doc/adr/0007-x.md"},
		{ID: "ADR-0008", Path: "doc/adr/0008-y.md"},
		{ID: "ADR-0007#decision", Path: "doc/adr/0007-x.md"},
		{ID: "ADR-0007#context", Path: "doc/adr/0007-x.md"},
		{ID: "ADR-0002#decision", Path: "DECISIONS.md"},
		{ID: "ADR-0003#decision", Path: "DECISIONS.md"},
	})
	if got := fmt.Sprint(later); got != "[0 0 1 2 0 0]" {
		t.Fatalf("later units %s", got)
	}
	second := scored(unit("low", "ADR-0007#decision", 1, 1, 1, "e"), 9)
	second.later = 1
	s.Candidates = append(s.Candidates, second)
	s.sort()
	if got := s.Candidates[len(s.Candidates)-1].ID; got != "low:ADR-0007#decision" {
		t.Fatalf("a record's second unit merged before another record's first: last is %s", got)
	}
	a := &ContextAnswer{Candidates: []ContextUnit{
		unit("low", "ADR-0001", 1, 0, 0, "a"),
		unit("high", "ADR-0002", 3, 1, 2, "b"),
		unit("high", "ADR-0001", 3, 0, 2, "c"),
		unit("mid", "ADR-0009", 2, 0, 1, strings.Repeat("x", 100)),
		unit("mid", "ADR-0003", 2, 1, 1, "d"),
	}}
	a.sort()
	if got := candidateIDs(a); got != "high:ADR-0001 high:ADR-0002 mid:ADR-0009 mid:ADR-0003 low:ADR-0001" {
		t.Fatalf("merged order %s", got)
	}
	size := func(a *ContextAnswer) int {
		n := 0
		for _, u := range a.Units {
			n += len(u.Text)
		}
		return n
	}
	a.Pack(4, 10, size)
	var kept []string
	for _, u := range a.Units {
		kept = append(kept, u.ID)
	}
	if got := strings.Join(kept, " "); got != "high:ADR-0001 high:ADR-0002 mid:ADR-0003 low:ADR-0001" || a.Omitted != 1 {
		t.Fatalf("packed %s, omitted %d", got, a.Omitted)
	}
	a.Pack(2, 10, size)
	if len(a.Units) != 2 || a.Omitted != 3 {
		t.Fatalf("max 2 units: %d kept, %d omitted", len(a.Units), a.Omitted)
	}
}

// candidateIDs are a's candidates' IDs in order, spaced.
func candidateIDs(a *ContextAnswer) string {
	var ids []string
	for _, c := range a.Candidates {
		ids = append(ids, c.ID)
	}
	return strings.Join(ids, " ")
}
