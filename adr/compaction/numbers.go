package compaction

import (
	"slices"

	"github.com/git-adr/git-adr/adr"
)

// NextNumber is the number a new record of root takes: one past every
// number in use in log l, on the branches (their trees) and in compaction
// plans' reservations. The caller holds the project lock.
func (s *Store) NextNumber(l *adr.Log, root *adr.Root, branches []adr.BranchTree) (int, error) {
	reserved, err := s.Reservations()
	if err != nil {
		return 0, err
	}
	return adr.NextNumber(root, adr.ScanBranches(branches, l.Roots), reserved[root.Path]), nil
}

// NumberTakenError is a number a record cannot move to: a branch's
// record has it (Ref, Path), or a consolidation plan reserved it for one
// of its replacements (Plan).
type NumberTakenError struct {
	Number          int
	Ref, Path, Plan string
}

func (e *NumberTakenError) Error() string {
	if e.Plan != "" {
		return "number reserved by consolidation plan " + e.Plan
	}
	return "number used on " + e.Ref + " by " + e.Path
}

// Renumbering is the number record rec of log l moves to: to when asked
// (toSet), else the next free one (next: one past every number in use in
// the log, on the branches and in reservations, which are never handed
// out: the plan would fail validation, or its acceptance give two records
// one ID). An asked number a branch or a reservation holds is a
// *NumberTakenError.
func (s *Store) Renumbering(l *adr.Log, rec *adr.Record, branches []adr.BranchTree, to int, toSet bool) (n, next int, err error) {
	seen := adr.ScanBranches(branches, l.Roots)
	all, err := s.Reservations()
	if err != nil {
		return 0, 0, err
	}
	reserved := all[rec.Root.Path]
	next = adr.NextNumber(rec.Root, seen, reserved)
	if !toSet {
		return next, next, nil
	}
	for _, b := range seen {
		if b.Root == rec.Root && b.Number == to {
			return 0, next, &NumberTakenError{Number: to, Ref: b.Ref, Path: b.Path}
		}
	}
	if slices.Contains(reserved, to) && to != rec.Number {
		return 0, next, &NumberTakenError{Number: to, Plan: s.Reserver(rec.Root.Path, to)}
	}
	return to, next, nil
}
