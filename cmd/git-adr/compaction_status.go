package main

import (
	"errors"
	"fmt"
	"text/tabwriter"

	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/compaction/workflow"
	"github.com/urfave/cli/v2"
)

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

func runCompactionStatus(env *Env, id string, asJSON bool) error {
	repo, err := env.Repo()
	if err != nil {
		return err
	}
	l, err := env.Log()
	if err != nil {
		return err
	}
	out, err := workflow.Statuses(repo, l, id)
	if errors.Is(err, compaction.ErrNoPlan) {
		return usagef("no plan %q", id).hint("run `git adr compaction status` to list plans")
	}
	if err != nil {
		return err
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
		fmt.Fprintf(tw, "%s\trevision %d\t%s\t%s\t%d sources\t%s\n", s.Name(), s.Revision, s.Mode, s.State, s.Sources, s.Current)
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
