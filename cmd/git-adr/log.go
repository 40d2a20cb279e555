package main

import (
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/urfave/cli/v2"
)

func logCommand(env *Env) *cli.Command {
	var asJSON bool
	var max int
	return &cli.Command{
		Name:      "log",
		Usage:     "list the commits that implement, reference or change a record, newest first",
		ArgsUsage: "ID",
		Description: `A commit is tied to a record by a trailer in git's own syntax:

   Implements: ADR-0012
   Refs: ADR-0012, ADR-0013

(git commit --trailer "Implements: ADR-0012"; the commit-msg hook suggests
one). The commits that changed the record's file are listed too.

Examples:
   git adr log ADR-0012
   git adr log 12 --json`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print [{commit, date, subject, kind}]", Destination: &asJSON},
			&cli.IntFlag{Name: "max", Value: 100, Usage: "list at most `N` commits (1 to 10000)", Destination: &max},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("log needs one record ID, got %d arguments", c.NArg())
			}
			if max < 1 || max > 10000 {
				return usagef("--max %d is out of range: 1 to 10000", max)
			}
			return runLog(env, c.Args().First(), max, asJSON)
		},
	}
}

func runLog(env *Env, ref string, max int, asJSON bool) error {
	l, err := env.LazyLog()
	if err != nil {
		return err
	}
	if err := env.requireRoots(l); err != nil {
		return err
	}
	rec, err := resolveRecord(env, l, ref)
	if err != nil {
		return err
	}
	r, err := env.Repo()
	if err != nil {
		return err
	}
	commits, err := ledger.History(r, l, rec, max)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(env.Out, commits)
	}
	if len(commits) == 0 {
		fmt.Fprintf(env.Out, "no commit implements, references or changes %s\n", adr.Escape(rec.ID))
		return nil
	}
	for _, c := range commits {
		fmt.Fprintf(env.Out, "%s  %s  %-10s  %s\n", short(c.Commit), c.Date[:min(10, len(c.Date))], c.Kind, adr.Escape(c.Subject))
	}
	return nil
}
