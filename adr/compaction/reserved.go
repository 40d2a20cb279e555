package compaction

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// Taken is a record holding a number a plan reserved for one of its
// replacements: the plan cannot be accepted while it does (validation
// reports the number taken), and accepting it afterwards would give
// two records one ID.
type Taken struct {
	Record      *adr.Record
	Plan        string
	Reservation Reservation
}

// Taken lists the records of l that hold a reserved number at another
// path than the one the plan reserved it for (a file at that path is the
// plan's own draft, which validation compares with the candidate). It
// reads the reservation refs and, for each, the plan revision the ref
// points at.
func (s *Store) Taken(l *adr.Log) ([]Taken, error) {
	refs, err := s.Repo.Refs(ReservationsRef)
	if err != nil {
		return nil, err
	}
	var out []Taken
	for _, ref := range refs {
		root, n, ok := parseReservationRef(ref.Name)
		if !ok {
			continue
		}
		var rt *adr.Root
		for _, r := range l.Roots {
			if r.Path == root {
				rt = r
			}
		}
		if rt == nil {
			continue
		}
		p, err := s.LoadAt(ref.Hash)
		if err != nil {
			continue // a ref holding no plan: ReservationIssues reports it to its plan
		}
		var res Reservation
		for _, r := range p.Reserved {
			if r.Root == root && r.Number == n {
				res = r
			}
		}
		if res.Path == "" {
			continue
		}
		for _, r := range rt.Records {
			if r.Numbered && r.Number == n && r.Suffix == "" && r.Path != res.Path {
				out = append(out, Taken{Record: r, Plan: p.ID, Reservation: res})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Record.Path < out[j].Record.Path })
	return out, nil
}

// Reserver returns the plan holding number n of root ("" when no plan
// does).
func (s *Store) Reserver(root string, n int) string {
	return s.Owner(ReservationRef(root, n))
}

// TakenFindings are check's findings for taken reservations.
func TakenFindings(taken []Taken) []adr.Finding {
	var out []adr.Finding
	for _, t := range taken {
		r := t.Record
		out = append(out, adr.Finding{Kind: adr.KindReservedNumber, Path: r.Path, Line: 1, IDs: []string{r.ID},
			Message: fmt.Sprintf("%s takes number %d, which consolidation plan %s reserved for its replacement %s (%s); the plan cannot be accepted while it does",
				r.ID, r.Number, t.Plan, t.Reservation.ID, t.Reservation.Path),
			Fix: fmt.Sprintf("give it the next free number: `git adr renumber %s` (or cancel the plan: `git adr compaction cancel %s`)", adr.ShellWord(r.Path), t.Plan)})
	}
	return out
}

// parseReservationRef reads the root and number of a reservation ref
// (see [ReservationRef]).
func parseReservationRef(name string) (root string, n int, ok bool) {
	rest := strings.TrimPrefix(name, ReservationsRef)
	i := strings.LastIndexByte(rest, '/')
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(rest[i+1:])
	if err != nil {
		return "", 0, false
	}
	root = strings.ReplaceAll(rest[:i], "%", "/")
	if root == "." {
		root = ""
	}
	return root, n, true
}
