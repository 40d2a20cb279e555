package main

import (
	"errors"
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/urfave/cli/v2"
)

func decideCommand(env *Env) *cli.Command {
	var reason string
	var asJSON bool
	return &cli.Command{
		Name:      "decide",
		Usage:     "accept, reject or deprecate a record",
		ArgsUsage: "ID accept|reject|deprecate",
		Description: `Changes the record's status with a minimal edit in its own style. Accepting a
record that supersedes others marks them superseded, with reciprocal links, in
the same change.

Lifecycle rules: a superseded record is never re-accepted; rejected and
deprecated records are not revived (write a new record that supersedes them);
an accepted decision is deprecated or superseded, not rejected; a proposal is
rejected, not deprecated. A record whose status is unknown may take any
decision.

Examples:
   git adr decide 12 accept
   git adr decide ADR-0007 deprecate --reason "replaced by the managed service"`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "reason", Usage: "write `TEXT` beside the new status", Destination: &reason},
			&cli.BoolFlag{Name: "json", Usage: "print {id, from, to, changed, updated, notes} as JSON", Destination: &asJSON},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return usagef("decide needs an ID and a decision, got %d arguments", c.NArg()).hint("for example `git adr decide 12 accept`")
			}
			return runDecide(env, c.Args().Get(0), c.Args().Get(1), reason, asJSON)
		},
	}
}

func runDecide(env *Env, ref, decision, reason string, asJSON bool) error {
	var to adr.Status
	switch decision {
	case "accept", "accepted":
		to = adr.Accepted
	case "reject", "rejected":
		to = adr.Rejected
	case "deprecate", "deprecated":
		to = adr.Deprecated
	default:
		return usagef("decision %q is not accept, reject or deprecate", decision).
			hint("to supersede a record, create its successor: `git adr new TITLE --supersedes " + ref + "`")
	}
	if err := env.lockWrites(); err != nil {
		return err
	}
	l, err := env.Log()
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
	res := newChangeResult(rec.ID)
	res.From, res.To = string(rec.Status), string(to)
	changes, notes, err := l.Decide(rec, to, reason)
	if errors.Is(err, adr.ErrNoChange) {
		if asJSON {
			return writeJSON(env.Out, res)
		}
		fmt.Fprintf(env.Out, "%s is already %s\n", adr.Escape(rec.ID), to)
		return nil
	}
	if err != nil {
		return lifecycleErr(err)
	}
	if err := applyChanges(env, changes); err != nil {
		return err
	}
	ixs, err := refreshedIndexes(env)
	if err != nil {
		return err
	}
	res.Changed = true
	for _, c := range changes {
		res.Updated = append(res.Updated, c.Path)
	}
	res.Updated = append(res.Updated, ixs...)
	res.Notes = append(res.Notes, notes...)
	if asJSON {
		return writeJSON(env.Out, res)
	}
	fmt.Fprintf(env.Out, "%s: %s -> %s\n", adr.Escape(rec.ID), rec.Status, to)
	env.notes(notes)
	return nil
}
