package compaction

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/git-adr/git-adr/adr/plans"
	"github.com/git-adr/git-adr/gitops"
)

// Store keeps plans and candidates on refs.
type Store struct {
	Repo *gitops.Repo
}

// ErrPlanChanged means another process moved the plan ref first; re-plan.
var ErrPlanChanged = errors.New("the plan changed concurrently")

// ErrReserved means a number this plan reserves is already reserved by
// another plan; re-plan to take fresh numbers.
var ErrReserved = errors.New("a reserved number is taken")

// ErrNoPlan means no plan has that ID.
var ErrNoPlan = plans.ErrNotFound

// PlanRef returns a plan's ref name.
func PlanRef(id string) string { return PlansRef + id }

// CandidateRef returns a plan's candidate ref name.
func CandidateRef(id string) string { return CandidatesRef + id }

// ReservationRef names a reserved number of a root.
func ReservationRef(root string, n int) string {
	r := root
	if r == "" {
		r = "."
	}
	return ReservationsRef + strings.ReplaceAll(strings.Trim(r, "/"), "/", "%") + "/" + strconv.Itoa(n)
}

func (s *Store) refs() plans.Kind[Plan] {
	return plans.Kind[Plan]{Store: plans.Store{Repo: s.Repo, Prefix: PlansRef}, Decode: DecodePlan}
}

// Save writes a new revision of p (Revision is set from the ref) with its
// files (plan.json is added), moving the plan ref from old (the commit the
// caller read; "" for a new plan). New reservations are created in the
// same transaction. It returns the revision commit.
func (s *Store) Save(p *Plan, files map[string][]byte, old string) (string, error) {
	p.Revision = 1
	if old != "" {
		prev, _, err := s.Load(p.ID)
		if err != nil {
			return "", err
		}
		p.Revision = prev.Revision + 1
	}
	var creates []string
	for _, res := range p.Reserved {
		ref := ReservationRef(res.Root, res.Number)
		cur, err := s.Repo.ResolveRef(ref)
		switch {
		case err == nil && s.reservedBy(cur) == p.ID:
			continue // ours from an earlier revision
		case err == nil:
			return "", fmt.Errorf("%w: %s is reserved by plan %s", ErrReserved, res.ID, s.reservedBy(cur))
		}
		creates = append(creates, ref)
	}
	msg := fmt.Sprintf("git-adr plan %s revision %d (%s)\n", p.ID, p.Revision, p.State)
	commit, err := s.refs().Save(p.ID, msg, p.Encode(), files, old, creates...)
	switch {
	case errors.Is(err, gitops.ErrRefChanged) && len(creates) > 0:
		return "", fmt.Errorf("%w or %w: %v", ErrPlanChanged, ErrReserved, err)
	case errors.Is(err, gitops.ErrRefChanged):
		return "", fmt.Errorf("%w: %v", ErrPlanChanged, err)
	}
	return commit, err
}

// Owner returns the plan that holds a reservation ref ("" when the ref
// does not exist, "?" when its commit holds no readable plan).
func (s *Store) Owner(ref string) string {
	commit, err := s.Repo.ResolveRef(ref)
	if err != nil {
		return ""
	}
	return s.reservedBy(commit)
}

// reservedBy reads the plan ID a reservation ref's commit belongs to.
func (s *Store) reservedBy(commit string) string {
	p, err := s.LoadAt(commit)
	if err != nil {
		return "?"
	}
	return p.ID
}

// Load reads the newest revision of a plan and the commit it is in.
func (s *Store) Load(id string) (*Plan, string, error) { return s.refs().Load(id) }

// LoadAt reads plan.json from a revision commit.
func (s *Store) LoadAt(commit string) (*Plan, error) { return s.refs().LoadAt(commit) }

// File reads another file of a plan revision (an evidence batch, the
// review).
func (s *Store) File(commit, name string) ([]byte, error) {
	return s.refs().Read(commit, name)
}

// Reservations returns every number reserved by any plan, per root path.
func (s *Store) Reservations() (map[string][]int, error) {
	refs, err := s.Repo.Refs(ReservationsRef)
	if err != nil {
		return nil, err
	}
	out := map[string][]int{}
	for _, ref := range refs {
		if root, n, ok := parseReservationRef(ref.Name); ok {
			out[root] = append(out[root], n)
		}
	}
	return out, nil
}
