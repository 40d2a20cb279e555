package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/git-adr/git-adr/adr"
	"github.com/urfave/cli/v2"
)

func rootsCommand(env *Env) *cli.Command {
	var asJSON, verbose bool
	return &cli.Command{
		Name:  "roots",
		Usage: "show the ADR directories git-adr found and how",
		Description: `Discovery order: --root flags; .adr.toml roots; adr-tools .adr-dir (looked up
from the current directory upwards) and .log4brains.yml; otherwise the
conventional directories (doc/adr, docs/adr, docs/decisions,
docs/architecture/decisions, ...) plus a bounded scan for folders of records
that are ADRs by their structure (judged on a sample spread over the folder)
or by their names (adr002-x/, ADR-001-x.md), and for single-file logs (a DECISIONS.md, ADR.md or
decision-log.md holding "## ADR-001: Title" sections; style single-file).

With --verbose, also lists every file and folder of each root that is not a
record, with the reason (a README, a template, a folder, a file without a
number in a numbered log, a FIFO, a name that is not UTF-8, ...).`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Destination: &asJSON, Usage: "print JSON"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Destination: &verbose, Usage: "also list what each root holds that is not a record, and why"},
		},
		Action: func(c *cli.Context) error {
			l, err := env.LogWithoutTexts()
			if err != nil {
				return err
			}
			if err := env.requireRoots(l); err != nil {
				return err
			}
			infos := l.RootInfos(verbose)
			if asJSON {
				return writeJSON(env.Out, infos)
			}
			tw := tabwriter.NewWriter(env.Out, 0, 0, 2, ' ', 0)
			for _, in := range infos {
				if in.Refused != "" {
					fmt.Fprintf(tw, "%s\trefused: %s\t\t\t%s\n", adr.Escape(in.Path), adr.Escape(in.Refused), adr.Escape(in.Source))
					continue
				}
				fmt.Fprintf(tw, "%s\t%d records\t%d archived\t%s\t%s\n", adr.Escape(in.Path), in.Records, in.Archived, adr.Escape(in.Style), adr.Escape(in.Source))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			for _, in := range infos {
				if len(in.Skipped) == 0 {
					continue
				}
				fmt.Fprintf(env.Out, "\n%s: %d skipped\n", adr.Escape(in.Path), len(in.Skipped))
				tw := tabwriter.NewWriter(env.Out, 0, 0, 2, ' ', 0)
				for _, s := range in.Skipped {
					fmt.Fprintf(tw, "  %s\t%s\n", adr.Escape(s.Path), adr.Escape(s.Reason))
				}
				if err := tw.Flush(); err != nil {
					return err
				}
			}
			return nil
		},
	}
}
