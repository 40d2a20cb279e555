package main

import (
	"errors"
	"fmt"
	"text/tabwriter"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/gitops"
	"github.com/urfave/cli/v2"
)

type planStatus struct {
	ID        string           `json:"id"`
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
}

func compactionStatusCommand(env *Env) *cli.Command {
	var asJSON bool
	return &cli.Command{
		Name:      "status",
		Usage:     "list compaction plans, or show one",
		ArgsUsage: "[PLAN-ID]",
		Flags:     []cli.Flag{&cli.BoolFlag{Name: "json", Destination: &asJSON, Usage: "print JSON"}},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usagef("status takes at most one plan ID, got %d arguments", c.NArg())
			}
			return runCompactionStatus(env, c.Args().First(), asJSON)
		},
	}
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
	ids := []string{id}
	if id == "" {
		if ids, err = store.List(); err != nil {
			return err
		}
	}
	out := []planStatus{}
	for _, pid := range ids {
		p, _, err := store.Load(pid)
		if errors.Is(err, compaction.ErrNoPlan) {
			return usagef("no plan %q", pid).hint("run `git adr compaction status` to list plans")
		}
		if err != nil {
			return err
		}
		out = append(out, statusOf(repo, l, p))
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
		fmt.Fprintf(tw, "%s\trevision %d\t%s\t%s\t%d sources\t%s\n", s.ID, s.Revision, s.Mode, s.State, s.Sources, s.Current)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(out) == 1 {
		fmt.Fprintf(env.Out, "next: %s\n", out[0].Next)
	}
	return nil
}

// statusOf compares a plan with the log as it is now.
func statusOf(repo *gitops.Repo, l *adr.Log, p *compaction.Plan) planStatus {
	s := planStatus{ID: p.ID, Revision: p.Revision, Mode: p.Mode, State: p.State, Scope: p.Scope, Sources: len(p.Sources), Base: p.Base, Current: "current"}
	if c, err := repo.ResolveRef(compaction.CandidateRef(p.ID)); err == nil {
		s.Candidate = &c
	}
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
	switch {
	case p.State == compaction.Published || p.State == compaction.Cancelled:
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
		s.Next = "review: git adr compaction review " + p.ID + "; share: git adr compaction publish " + p.ID + " --branch BRANCH"
	}
	return s
}
