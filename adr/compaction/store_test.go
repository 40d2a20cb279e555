package compaction

import (
	"errors"
	"sync"
	"testing"

	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/gittest"
)

func testRepo(t *testing.T) *gitops.Repo { return gittest.Repo(t) }

func TestStoreRevisions(t *testing.T) {
	s := &Store{Repo: testRepo(t)}
	p := &Plan{Schema: SchemaVersion, ID: "s-test", Mode: Summary, State: Planned}
	c1, err := s.Save(p, map[string][]byte{"evidence/batch-1.json": []byte("{}")}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Save(p, nil, ""); !errors.Is(err, ErrPlanChanged) {
		t.Errorf("second create: %v, want ErrPlanChanged", err)
	}
	p.State = Drafted
	c2, err := s.Save(p, nil, c1)
	if err != nil {
		t.Fatal(err)
	}
	got, commit, err := s.Load("s-test")
	if err != nil || commit != c2 || got.Revision != 2 || got.State != Drafted {
		t.Fatalf("Load = %+v %s %v", got, commit, err)
	}
	// A stale old value loses.
	if _, err := s.Save(p, nil, c1); !errors.Is(err, ErrPlanChanged) {
		t.Errorf("stale save: %v", err)
	}
	if data, err := s.File(c1, "evidence/batch-1.json"); err != nil || string(data) != "{}" {
		t.Errorf("File = %q %v", data, err)
	}
	if _, _, err := s.Load("nope"); !errors.Is(err, ErrNoPlan) {
		t.Errorf("missing plan: %v", err)
	}
}

// Two planners reserving the same number: exactly one wins.
func TestReservationRace(t *testing.T) {
	s := &Store{Repo: testRepo(t)}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			p := &Plan{Schema: SchemaVersion, ID: "c-" + string(rune('a'+i)), Mode: Consolidate, State: Planned,
				Reserved: []Reservation{{Root: "doc/adr", Number: 12, ID: "ADR-0012"}}}
			_, errs[i] = s.Save(p, nil, "")
		}(i)
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, ErrReserved):
			t.Errorf("loser error %v, want ErrReserved", err)
		}
	}
	if won != 1 {
		t.Errorf("%d planners won the same number", won)
	}
	res, err := s.Reservations()
	if err != nil || len(res["doc/adr"]) != 1 || res["doc/adr"][0] != 12 {
		t.Errorf("Reservations = %v %v", res, err)
	}
}
