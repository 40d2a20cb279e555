package main

import (
	"errors"
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/urfave/cli/v2"
)

func renumberCommand(env *Env) *cli.Command {
	var to int
	var asJSON bool
	return &cli.Command{
		Name:      "renumber",
		Usage:     "move a record to a free number and rewrite every reference to it",
		ArgsUsage: "ID|PATH",
		Description: `Renames the record's file (keeping its slug), rewrites the number in its title
and every link or ID-valued relation that points at it, in every record. Prose
mentions of the old ID are listed, not rewritten: after two branches took the
same number, text alone cannot say which record it meant.

Use it to resolve a duplicate number reported by ` + "`git adr check`" + `; name the record
by its path when the number is ambiguous.

Examples:
   git adr renumber doc/adr/0007-use-kafka.md
   git adr renumber 7 --to 12`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "to", Usage: "the new number `N` (default: the next free number)", Destination: &to},
			&cli.BoolFlag{Name: "json", Usage: "print {id, from, to, changed, updated, notes} as JSON", Destination: &asJSON},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("renumber needs exactly one ID or path, got %d arguments", c.NArg()).hint("run `git adr check` to find duplicates")
			}
			return runRenumber(env, c.Args().First(), to, c.IsSet("to"), asJSON)
		},
	}
}

func runRenumber(env *Env, ref string, to int, toSet bool, asJSON bool) error {
	if toSet && to < 0 {
		return usagef("--to %d is not a record number", to)
	}
	l, err := env.writableLog()
	if err != nil {
		return err
	}
	rec, err := resolveRecord(env, l, ref)
	if err != nil {
		return err
	}
	if err := refuseSections("renumber", rec); err != nil {
		return err
	}
	branches, err := env.branchTrees()
	if err != nil {
		return err
	}
	to, next, err := (&compaction.Store{Repo: mustRepo(env)}).Renumbering(l, rec, branches, to, toSet)
	var te *compaction.NumberTakenError
	switch {
	case errors.As(err, &te) && te.Plan != "":
		return usagef("--to %d is reserved by consolidation plan %s for one of its replacements", te.Number, te.Plan).
			hint(fmt.Sprintf("omit --to to take the next free number (%d)", next))
	case errors.As(err, &te):
		return usagef("--to %d is used on %s by %s", te.Number, te.Ref, te.Path).hint("omit --to to take the next free number")
	case err != nil:
		return err
	}
	res, err := l.Renumber(rec, to)
	if errors.Is(err, adr.ErrNoChange) {
		if asJSON {
			out := newChangeResult(rec.ID)
			out.From, out.To = rec.ID, rec.ID
			return writeJSON(env.Out, out)
		}
		fmt.Fprintf(env.Out, "%s already has number %d\n", adr.Escape(rec.ID), to)
		return nil
	}
	var ue *adr.UnparseableError
	if errors.As(err, &ue) {
		return unparseable(ue)
	}
	var ne *adr.NumberError
	if errors.As(err, &ne) {
		return usagef("--to %v", err).hint(fmt.Sprintf("omit --to to take the next free number (%d)", next),
			"docs/configuration.md describes digits and the largest record number")
	}
	if err != nil {
		return usagef("%v", err).hint("omit --to to take the next free number")
	}
	updated, err := writeChanges(env, res.Changes)
	if err != nil {
		return err
	}
	if asJSON {
		out := newChangeResult(res.To)
		out.From, out.To, out.Changed = res.From, res.To, true
		out.Updated = append(out.Updated, updated...)
		for _, m := range res.Mentions {
			out.Notes = append(out.Notes, "left unchanged: "+m)
		}
		return writeJSON(env.Out, out)
	}
	fmt.Fprintf(env.Out, "%s -> %s: %s -> %s\n", adr.Escape(res.From), adr.Escape(res.To), adr.Escape(env.display(res.OldPath)), adr.Escape(env.display(res.NewPath)))
	for _, c := range res.Changes {
		if c.From == "" {
			fmt.Fprintf(env.Out, "updated %s\n", adr.Escape(env.display(c.Path)))
		}
	}
	for _, m := range res.Mentions {
		fmt.Fprintf(env.Err, "git-adr: note: left unchanged: %s\n", adr.EscapeBody(m))
	}
	return nil
}
