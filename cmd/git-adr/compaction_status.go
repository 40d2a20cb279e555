package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/accept"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/git-adr/git-adr/adr/publish"
	"github.com/git-adr/git-adr/gitops"
	"github.com/urfave/cli/v2"
)

// RemotePlansRef is where teams fetch each other's plans
// (`git fetch origin '+refs/adr/*:refs/adr-remotes/origin/*'`).
const RemotePlansRef = "refs/adr-remotes/"

type planStatus struct {
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
	Acceptance *acceptanceStatus `json:"acceptance"`
}

type acceptanceStatus struct {
	Commit     string                  `json:"commit"`
	Pending    string                  `json:"pending"`
	Components []accept.ComponentState `json:"components"`
}

func compactionStatusCommand(env *Env) *cli.Command {
	var asJSON bool
	return &cli.Command{
		Name:      "status",
		Usage:     "list compaction plans (this repository's and those fetched from remotes), or show one",
		ArgsUsage: "[PLAN-ID | REMOTE/PLAN-ID]",
		Description: `Plans are shared through git: push them with
   git push origin 'refs/adr/*:refs/adr/*'
and fetch a remote's into their own namespace with
   git fetch origin '+refs/adr/*:refs/adr-remotes/origin/*'
status lists both; a fetched plan is named REMOTE/PLAN-ID.`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Destination: &asJSON, Usage: "print JSON"}},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usagef("status takes at most one plan ID, got %d arguments", c.NArg())
			}
			return runCompactionStatus(env, c.Args().First(), asJSON)
		},
	}
}

// planRef is a plan found on a ref: this repository's or a remote's.
type planRef struct {
	remote, id, ref string
}

// listPlans lists this repository's plans and those fetched into
// refs/adr-remotes/<remote>/plans/.
func listPlans(repo *gitops.Repo) ([]planRef, error) {
	refs, err := repo.Refs(compaction.PlansRef, RemotePlansRef)
	if err != nil {
		return nil, err
	}
	var out, remote []planRef
	for _, r := range refs {
		if id, ok := strings.CutPrefix(r.Name, compaction.PlansRef); ok {
			out = append(out, planRef{id: id, ref: r.Name})
			continue
		}
		rest := strings.TrimPrefix(r.Name, RemotePlansRef)
		name, tail, ok := strings.Cut(rest, "/plans/")
		if ok && name != "" && !strings.Contains(tail, "/") {
			remote = append(remote, planRef{remote: name, id: tail, ref: r.Name})
		}
	}
	return append(out, remote...), nil
}

func runCompactionStatus(env *Env, id string, asJSON bool) error {
	repo, err := env.Repo()
	if err != nil {
		return err
	}
	l, err := env.Log()
	if err != nil {
		return err
	}
	store := &compaction.Store{Repo: repo}
	all, err := listPlans(repo)
	if err != nil {
		return err
	}
	var pick []planRef
	for _, pr := range all {
		if id == "" || pr.remote == "" && pr.id == id || pr.remote != "" && pr.remote+"/"+pr.id == id {
			pick = append(pick, pr)
		}
	}
	if id != "" && len(pick) == 0 {
		return usagef("no plan %q", id).hint("run `git adr compaction status` to list plans")
	}
	out := []planStatus{}
	for _, pr := range pick {
		commit, err := repo.ResolveRef(pr.ref)
		if err != nil {
			return err
		}
		p, err := store.LoadAt(commit)
		if err != nil {
			if pr.remote == "" && id != "" {
				return err
			}
			out = append(out, planStatus{ID: pr.id, Remote: pr.remote, Ref: pr.ref, Current: "unreadable: " + err.Error(), Next: "inspect " + pr.ref})
			continue
		}
		s := statusOf(repo, l, p)
		s.ID, s.Remote, s.Ref = pr.id, pr.remote, pr.ref
		if p.ID != pr.id {
			s.Current = fmt.Sprintf("forged: %s holds plan %s", pr.ref, p.ID)
			s.Next = "nothing: a plan ref names the plan it holds; acceptance refuses this one"
		}
		if pr.remote != "" {
			s.Candidate = nil
			if c, err := repo.ResolveRef(RemotePlansRef + pr.remote + "/candidates/" + pr.id); err == nil {
				s.Candidate = &c
			}
			if s.Next != "" && !p.Done() && p.State != compaction.Cancelled && !strings.HasPrefix(s.Current, "forged") {
				s.Next = "adopt it to review and accept it here: " + adoptCommand(pr.remote, p)
			}
		} else if err := acceptanceOf(repo, p, &s); err != nil {
			return err
		}
		out = append(out, s)
	}
	if asJSON {
		return writeJSON(env.Out, out)
	}
	if len(out) == 0 {
		fmt.Fprintln(env.Out, "no compaction plans; `git adr compaction` analyses the log, `--mode summary` plans a CURRENT view")
		return nil
	}
	tw := tabwriter.NewWriter(env.Out, 0, 0, 2, ' ', 0)
	for _, s := range out {
		name := s.ID
		if s.Remote != "" {
			name = s.Remote + "/" + s.ID
		}
		fmt.Fprintf(tw, "%s\trevision %d\t%s\t%s\t%d sources\t%s\n", name, s.Revision, s.Mode, s.State, s.Sources, s.Current)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(out) == 1 {
		if a := out[0].Acceptance; a != nil {
			if a.Pending != "" {
				fmt.Fprintf(env.Out, "interrupted: %s\n", a.Pending)
			}
			for _, c := range a.Components {
				fmt.Fprintf(env.Out, "%s: %s: %s\n", c.Component, c.State, c.Detail)
			}
		}
		fmt.Fprintf(env.Out, "next: %s\n", out[0].Next)
	}
	return nil
}

// acceptanceOf fills in where a plan's acceptance stands: the commit (the
// plan's record, or one an interrupted run made), an interrupted run's
// journal, and each component.
func acceptanceOf(repo *gitops.Repo, p *compaction.Plan, s *planStatus) error {
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
	a := &acceptanceStatus{Commit: commit}
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

// statusOf compares a plan with the log as it is now.
func statusOf(repo *gitops.Repo, l *adr.Log, p *compaction.Plan) planStatus {
	s := planStatus{ID: p.ID, Revision: p.Revision, Mode: p.Mode, State: p.State, Scope: p.Scope, Sources: len(p.Sources), Base: p.Base, Current: "current"}
	if c, err := repo.ResolveRef(compaction.CandidateRef(p.ID)); err == nil {
		s.Candidate = &c
	}
	if !p.Done() {
		for _, src := range p.Sources {
			r := l.ByPath(src.Path)
			switch {
			case r == nil:
				s.Current = "stale: " + src.ID + " is gone"
			case blobOf(r) != src.Blob:
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

// adoptCommand fetches what a plan shared on remote needs to be reviewed
// and accepted here: its plan and candidate refs, and the reservation
// ref of every number it reserved (acceptance checks the plan still owns
// them, and refuses a plan whose reservations are gone).
func adoptCommand(remote string, p *compaction.Plan) string {
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
