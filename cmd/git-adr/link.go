package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/urfave/cli/v2"
)

func linkCommand(env *Env) *cli.Command {
	var asJSON bool
	return &cli.Command{
		Name:      "link",
		Usage:     "link two records both ways",
		ArgsUsage: "SOURCE LABEL TARGET [REVERSE-LABEL]",
		Description: `Adds "LABEL [TARGET]" to SOURCE and "REVERSE-LABEL [SOURCE]" to TARGET, each
in its own style (adr-tools puts link lines in the Status section; a bullet
list keeps its own marker). Known labels are normalised (Supersedes,
Superseded by, Amends, Amended by, Refines, Refined by, Relates to) and
their reverse may be left out; any other label is kept as written and needs
its REVERSE-LABEL.

"Supersedes" is a supersession: when SOURCE is accepted, TARGET is marked
superseded (its status replaced, as adr-tools does); a proposed SOURCE only
links, and TARGET stays in force until SOURCE is accepted.

Examples:
   git adr link 9 Amends 5
   git adr link 9 Clarifies 5 "Clarified by"
   git adr link ADR-0012 Supersedes ADR-0004 "Superseded by"`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print {id, from, to, changed, updated, notes} as JSON", Destination: &asJSON}},
		Action: func(c *cli.Context) error {
			if c.NArg() != 3 && c.NArg() != 4 {
				return usagef("link needs 3 or 4 arguments (SOURCE LABEL TARGET [REVERSE-LABEL]), got %d", c.NArg()).
					hint(`for example ` + "`git adr link 9 Amends 5`" + ` or ` + "`git adr link 9 Clarifies 5 \"Clarified by\"`")
			}
			a := c.Args().Slice()
			if len(a) == 3 {
				rev := adr.ParseRelationType(a[1]).Reverse()
				if rev == "" {
					return usagef("%q is not a relation git-adr knows the reverse of", a[1]).
						hint("name the reverse label: `git adr link " + adr.ShellWord(a[0]) + " " + adr.ShellWord(a[1]) + " " + adr.ShellWord(a[2]) + " " + adr.ShellWord(adr.ReverseLabel(a[1])) + "`")
				}
				a = append(a, rev.Label())
			}
			return runLink(env, a[0], a[1], a[2], a[3], asJSON)
		},
	}
}

func runLink(env *Env, srcRef, label, dstRef, reverse string, asJSON bool) error {
	for _, l := range []string{label, reverse} {
		if strings.TrimSpace(l) == "" || strings.ContainsAny(l, "[]()\n") {
			return usagef("link label %q must be words without brackets", l)
		}
	}
	l, err := env.writableLog()
	if err != nil {
		return err
	}
	src, err := resolveRecord(env, l, srcRef)
	if err != nil {
		return err
	}
	dst, err := resolveRecord(env, l, dstRef)
	if err != nil {
		return err
	}
	if err := refuseSections("link", src, dst); err != nil {
		return err
	}
	res := newChangeResult(src.ID)
	res.From, res.To = src.ID, dst.ID
	changes, notes, err := l.Link(src, strings.TrimSpace(label), dst, strings.TrimSpace(reverse))
	if errors.Is(err, adr.ErrNoChange) {
		if asJSON {
			return writeJSON(env.Out, res)
		}
		fmt.Fprintf(env.Out, "%s and %s are already linked\n", adr.Escape(src.ID), adr.Escape(dst.ID))
		return nil
	}
	if err != nil {
		return lifecycleErr(err)
	}
	if err := applyChanges(env, changes); err != nil {
		return err
	}
	env.notes(notes)
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
	for _, c := range changes {
		fmt.Fprintf(env.Out, "updated %s\n", adr.Escape(env.display(c.Path)))
	}
	return nil
}

// lifecycleErr turns a refused edit into an error with its hint: a
// refused transition or an unparseable record is a usage error, a refused
// root a failure.
func lifecycleErr(err error) error {
	var le *adr.LifecycleError
	if errors.As(err, &le) {
		return usagef("%s", le.Msg).hint(le.Hint)
	}
	var rr *adr.RefusedRootError
	if errors.As(err, &rr) {
		return refusedRoot(rr.Root)
	}
	var ue *adr.UnparseableError
	if errors.As(err, &ue) {
		return unparseable(ue)
	}
	var se *adr.SectionError
	if errors.As(err, &se) {
		return usagef("%v", se).hint(se.Hint())
	}
	return err
}

// refuseSections refuses command op when one of recs is a section of a
// single-file log: git-adr writes records that are files (exit 2, nothing
// written).
func refuseSections(op string, recs ...*adr.Record) error {
	for _, r := range recs {
		if err := adr.Writable(r, op); err != nil {
			return lifecycleErr(err)
		}
	}
	return nil
}

// unparseable is the error for an edit of a record check reports
// unparseable: exit 2, the reason, and check's own fix.
func unparseable(ue *adr.UnparseableError) error {
	return usagef("%v", ue).hint(ue.Fix+", then run the command again", "`git adr check` lists every unparseable record")
}
