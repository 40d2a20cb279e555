package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/git-adr/git-adr/adr"
	"github.com/urfave/cli/v2"
)

type rootInfo struct {
	Path     string `json:"path"`
	Source   string `json:"source"`
	Name     string `json:"name,omitempty"`
	Prefix   string `json:"prefix"`
	Digits   int    `json:"digits"`
	Style    string `json:"style"`
	Records  int    `json:"records"`
	Archived int    `json:"archived"`
	// Refused says why the directory is not read (a link leading outside
	// the repository).
	Refused string `json:"refused,omitempty"`
	// Skipped is set with --verbose: every entry of the root that is not
	// a record, with the reason.
	Skipped []adr.Skipped `json:"skipped,omitempty"`
}

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
			l, err := env.Log()
			if err != nil {
				return err
			}
			if err := env.requireRoots(l); err != nil {
				return err
			}
			infos := []rootInfo{}
			for _, r := range l.Roots {
				in := rootInfo{Path: r.Dir(), Source: r.Source, Name: r.Name, Prefix: r.Prefix, Digits: r.Digits, Style: string(r.Style)}
				if r.Refused != nil {
					in.Refused = r.Refused.Error()
				}
				for _, rec := range r.Records {
					if rec.Archived {
						in.Archived++
					} else {
						in.Records++
					}
				}
				if verbose {
					in.Skipped = r.Skipped
				}
				infos = append(infos, in)
			}
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
