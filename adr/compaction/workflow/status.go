package workflow

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/accept"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/git-adr/git-adr/adr/publish"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
)

// RemotePlansRef is where teams fetch each other's plans
// (`git fetch origin '+refs/adr/*:refs/adr-remotes/origin/*'`).
const RemotePlansRef = "refs/adr-remotes/"

// Status is where a plan stands (`git adr compaction status`).
type Status struct {
	ID string `json:"id"`
	// Remote is the remote a fetched plan comes from ("" for this
	// repository's own plans), Ref the ref it was read from.
	Remote    string           `json:"remote"`
	Ref       string           `json:"ref"`
	Revision  int              `json:"revision"`
	Mode      compaction.Mode  `json:"mode"`
	State     compaction.State `json:"state"`
	Scope     compaction.Scope `json:"scope"`
	Sources   int              `json:"sources"`
	Base      string           `json:"base"`
	Candidate *string          `json:"candidate"`
	// Current says whether the plan's sources still match the log:
	// "current", or why not.
	Current string `json:"current"`
	Next    string `json:"next"`
	// Acceptance is where an accepted (or interrupted) acceptance
	// stands, component by component; null when none started.
	Acceptance *AcceptanceStatus `json:"acceptance"`
}

// Name is how a person names the plan: PLAN-ID, or REMOTE/PLAN-ID for a
// fetched one.
func (s Status) Name() string {
	if s.Remote != "" {
		return s.Remote + "/" + s.ID
	}
	return s.ID
}

// AcceptanceStatus is where a plan's acceptance stands.
type AcceptanceStatus struct {
	Commit     string                  `json:"commit"`
	Pending    string                  `json:"pending"`
	Components []accept.ComponentState `json:"components"`
}

// PlanRef is a plan found on a ref: this repository's or a remote's.
type PlanRef struct {
	Remote, ID, Ref string
}

// ListPlans lists this repository's plans and those fetched into
// refs/adr-remotes/<remote>/plans/, the repository's own first.
func ListPlans(repo *gitops.Repo) ([]PlanRef, error) {
	refs, err := repo.Refs(compaction.PlansRef, RemotePlansRef)
	if err != nil {
		return nil, err
	}
	var out, remote []PlanRef
	for _, r := range refs {
		if id, ok := strings.CutPrefix(r.Name, compaction.PlansRef); ok {
			out = append(out, PlanRef{ID: id, Ref: r.Name})
			continue
		}
		rest := strings.TrimPrefix(r.Name, RemotePlansRef)
		name, tail, ok := strings.Cut(rest, "/plans/")
		if ok && name != "" && !strings.Contains(tail, "/") {
			remote = append(remote, PlanRef{Remote: name, ID: tail, Ref: r.Name})
		}
	}
	return append(out, remote...), nil
}

// Statuses says where the plan named id (PLAN-ID or REMOTE/PLAN-ID)
// stands against the log l, or every plan when id is "". A name that
// matches no plan is an error wrapping [compaction.ErrNoPlan]. A plan that
// cannot be read is listed as unreadable, unless it is this repository's
// and was named.
func Statuses(repo *gitops.Repo, l *adr.Log, id string) ([]Status, error) {
	store := &compaction.Store{Repo: repo}
	all, err := ListPlans(repo)
	if err != nil {
		return nil, err
	}
	var pick []PlanRef
	for _, pr := range all {
		if id == "" || pr.Remote == "" && pr.ID == id || pr.Remote != "" && pr.Remote+"/"+pr.ID == id {
			pick = append(pick, pr)
		}
	}
	if id != "" && len(pick) == 0 {
		return nil, fmt.Errorf("%w: %q", compaction.ErrNoPlan, id)
	}
	out := []Status{}
	for _, pr := range pick {
		commit, err := repo.ResolveRef(pr.Ref)
		if err != nil {
			return nil, err
		}
		p, err := store.LoadAt(commit)
		if err != nil {
			if pr.Remote == "" && id != "" {
				return nil, err
			}
			out = append(out, Status{ID: pr.ID, Remote: pr.Remote, Ref: pr.Ref, Current: "unreadable: " + err.Error(), Next: "inspect " + pr.Ref})
			continue
		}
		s := StatusOf(repo, l, p)
		s.ID, s.Remote, s.Ref = pr.ID, pr.Remote, pr.Ref
		if p.ID != pr.ID {
			s.Current = fmt.Sprintf("forged: %s holds plan %s", pr.Ref, p.ID)
			s.Next = "nothing: a plan ref names the plan it holds; acceptance refuses this one"
		}
		if pr.Remote != "" {
			s.Candidate = nil
			if c, err := repo.ResolveRef(RemotePlansRef + pr.Remote + "/candidates/" + pr.ID); err == nil {
				s.Candidate = &c
			}
			if s.Next != "" && !p.Done() && p.State != compaction.Cancelled && !strings.HasPrefix(s.Current, "forged") {
				s.Next = "adopt it to review and accept it here: " + AdoptCommand(pr.Remote, p)
			}
		} else if err := acceptanceOf(repo, p, &s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// acceptanceOf fills in where a plan's acceptance stands: the commit (the
// plan's record, or one an interrupted run made), an interrupted run's
// journal, and each component.
func acceptanceOf(repo *gitops.Repo, p *compaction.Plan, s *Status) error {
	j, err := accept.ReadJournal(accept.StateDir(repo), p.ID)
	if err != nil {
		return err
	}
	commit := ""
	if p.Done() {
		store := &compaction.Store{Repo: repo}
		if c, err := repo.ResolveRef(compaction.PlanRef(p.ID)); err == nil {
			if data, err := store.File(c, "published.json"); err == nil {
				commit = strings.TrimSpace(jsonField(data, "commit"))
			}
		}
	} else if found, err := publish.Find(repo, p.Base, fmt.Sprintf("%s: %s@%d", ledger.KeyPlan, p.ID, p.Revision)); err == nil {
		commit = found
	}
	if commit == "" && j == nil {
		return nil
	}
	a := &AcceptanceStatus{Commit: commit}
	if j != nil {
		a.Pending = j.Describe(repo)
	}
	if commit != "" && !p.Done() {
		s.Next = fmt.Sprintf("finish it: git adr compaction --confirm %s@%d (nothing is committed twice)", p.ID, p.Revision)
	} else if j != nil && commit == "" {
		s.Next = fmt.Sprintf("nothing was accepted; accept again: git adr compaction --confirm %s@%d", p.ID, p.Revision)
	}
	if a.Components, err = accept.Components(repo, commit, p.Archive); err != nil {
		return err
	}
	s.Acceptance = a
	return nil
}

func jsonField(data []byte, key string) string {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return ""
	}
	v, _ := m[key].(string)
	return v
}

// StatusOf compares a plan with the log as it is now and names the next
// step.
func StatusOf(repo *gitops.Repo, l *adr.Log, p *compaction.Plan) Status {
	s := Status{ID: p.ID, Revision: p.Revision, Mode: p.Mode, State: p.State, Scope: p.Scope, Sources: len(p.Sources), Base: p.Base, Current: "current"}
	if c, err := repo.ResolveRef(compaction.CandidateRef(p.ID)); err == nil {
		s.Candidate = &c
	}
	if !p.Done() {
		for _, src := range p.Sources {
			r := l.ByPath(src.Path)
			switch {
			case r == nil:
				s.Current = "stale: " + src.ID + " is gone"
			case BlobOf(r) != src.Blob:
				s.Current = "stale: " + src.ID + " changed"
			}
			if s.Current != "current" {
				break
			}
		}
	}
	switch {
	case p.Done() || p.State == compaction.Cancelled:
		s.Next = "nothing: the plan is " + string(p.State)
	case s.Current != "current":
		s.Next = "re-plan: git adr compaction --mode " + string(p.Mode)
	case p.State == compaction.Planned:
		s.Next = "draft: git adr compaction --mode " + string(p.Mode) + " (or submit a manual draft: git adr compaction submit " + p.ID + ")"
	case p.State == compaction.Drafted:
		s.Next = "fix the blockers shown by git adr compaction review " + p.ID
	case p.State == compaction.Validated && p.Mode == compaction.Summary:
		s.Next = fmt.Sprintf("review, then publish: git adr compaction --confirm %s@%d", p.ID, p.Revision)
	default:
		s.Next = fmt.Sprintf("review: git adr compaction review %s; accept on a terminal: git adr compaction --confirm %s@%d; share: git adr compaction publish %s --branch BRANCH", p.ID, p.ID, p.Revision, p.ID)
	}
	return s
}

// BlobOf is the git blob hash of a record's bytes, as plans record their
// sources.
func BlobOf(r *adr.Record) string { return view.BlobHash(r.Text().Src) }

// AdoptCommand fetches what a plan shared on remote needs to be reviewed
// and accepted here: its plan and candidate refs, and the reservation
// ref of every number it reserved (acceptance checks the plan still owns
// them, and refuses a plan whose reservations are gone).
func AdoptCommand(remote string, p *compaction.Plan) string {
	refs := []string{compaction.PlansRef + p.ID, compaction.CandidatesRef + p.ID}
	for _, res := range p.Reserved {
		refs = append(refs, compaction.ReservationRef(res.Root, res.Number))
	}
	cmd := "git fetch " + adr.ShellWord(remote)
	for _, r := range refs {
		cmd += " " + adr.ShellWord(r+":"+r)
	}
	return cmd
}
