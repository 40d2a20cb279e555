package main

import (
	"errors"
	"fmt"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/audit"
)

func explainCommand(env *Env) *cli.Command {
	var asJSON bool
	return &cli.Command{
		Name:      "explain",
		Usage:     "show the decisions that govern files: declared scope, markers in the code, records that name them",
		ArgsUsage: "PATH...",
		Description: `For each path, the records that govern it, strongest reason first:

  applies_to   the record declares it: "Applies to: payments/**" in its
               metadata, applies_to in front matter, or .adr.toml [[scope]]
  marker       a comment in the file names the record (ADR-0012, @adr 12)
  mention      the record names the path or its folder ("payments/")

Records in force (accepted) come first; others are labelled. Archived
records never govern. A folder names what is in it.

Examples:
   git adr explain payments/cache.go
   git adr explain $(git diff --name-only HEAD~1) --json`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print [{path, id, title, status, in_force, kind, why, record_path}]", Destination: &asJSON}},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("explain needs at least one PATH").hint("for example `git adr explain payments/cache.go`")
			}
			return runExplain(env, c.Args().Slice(), asJSON)
		},
	}
}

func runExplain(env *Env, args []string, asJSON bool) error {
	// The records that may name a path are read when asked, not held.
	l, err := env.LogWithoutTexts()
	if err != nil {
		return err
	}
	if err := env.requireRoots(l); err != nil {
		return err
	}
	r, err := env.Repo()
	if err != nil {
		return err
	}
	paths, err := audit.PathsAsked(r, args)
	var oe *audit.OutsideError
	if errors.As(err, &oe) {
		return usagef("%q is not a path inside the repository %q", oe.Path, r.Top)
	}
	if err != nil {
		return err
	}
	out, err := audit.Explain(r, l, paths)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(env.Out, out)
	}
	if len(out) == 0 {
		fmt.Fprintln(env.Out, "no decision governs these paths")
		return nil
	}
	tw := tabwriter.NewWriter(env.Out, 0, 0, 2, ' ', 0)
	last := ""
	for _, g := range out {
		if g.Path != last && len(paths) > 1 {
			fmt.Fprintf(tw, "%s:\n", adr.Escape(g.Path))
			last = g.Path
		}
		status := string(g.Status)
		if !g.InForce {
			status += " (not in force)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", adr.Escape(g.ID), status, adr.Escape(g.Title), adr.Escape(g.Why))
	}
	return tw.Flush()
}
