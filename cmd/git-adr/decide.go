package main

import (
	"errors"
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/accept"
	"github.com/git-adr/git-adr/adr/compaction/workflow"
	"github.com/urfave/cli/v2"
)

func decideCommand(env *Env) *cli.Command {
	var reason string
	var commit, asJSON bool
	return &cli.Command{
		Name:      "decide",
		Usage:     "accept, reject or deprecate a record",
		ArgsUsage: "ID accept|reject|deprecate",
		Description: `Changes the record's status with a minimal edit in its own style. Accepting a
record that supersedes others marks them superseded, with reciprocal links, in
the same change. Accepting goes through the same acceptance service as
compaction: when the record is a replacement a consolidation plan reserved,
a record another replacement of that plan also supersedes stays in force
until that one is accepted too.

Accepting edits the work tree, for you to commit; with --commit, and always
in strict mode ([governance] strict = true), it makes ONE commit instead,
through a temporary index (unrelated staged and unstaged work untouched),
with the decision ledger as trailers (ADR-Accepted, ADR-Supersedes,
ADR-Approved-By), signed and, in strict mode, verified against the allowed
signers and approvers before the branch moves.

Lifecycle rules: a superseded record is never re-accepted; rejected and
deprecated records are not revived (write a new record that supersedes them);
an accepted decision is deprecated or superseded, not rejected; a proposal is
rejected, not deprecated. A record whose status is unknown may take any
decision.

Examples:
   git adr decide 12 accept
   git adr decide 12 accept --commit
   git adr decide ADR-0007 deprecate --reason "replaced by the managed service"`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "reason", Usage: "write `TEXT` beside the new status", Destination: &reason},
			&cli.BoolFlag{Name: "commit", Usage: "accept: make the acceptance commit with the decision ledger (always in strict mode)", Destination: &commit},
			&cli.BoolFlag{Name: "json", Usage: "print {id, from, to, changed, updated, notes, commit} as JSON", Destination: &asJSON},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return usagef("decide needs an ID and a decision, got %d arguments", c.NArg()).hint("for example `git adr decide 12 accept`")
			}
			return runDecide(env, c.Args().Get(0), c.Args().Get(1), reason, commit, asJSON)
		},
	}
}

func runDecide(env *Env, ref, decision, reason string, commit, asJSON bool) error {
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
	if commit && to != adr.Accepted {
		return usagef("--commit goes with accept: it makes the acceptance commit").hint("commit a rejection or deprecation yourself")
	}
	l, err := env.writableLog()
	if err != nil {
		return err
	}
	if to == adr.Accepted {
		return runDecideAccept(env, l, ref, reason, commit, asJSON)
	}
	rec, err := resolveRecord(env, l, ref)
	if err != nil {
		return err
	}
	if err := refuseSections("decide", rec); err != nil {
		return err
	}
	res := newChangeResult(rec.ID)
	res.From, res.To = string(rec.Status), string(to)
	changes, notes, err := l.Decide(rec, to, reason)
	if errors.Is(err, adr.ErrNoChange) {
		return reportDecision(env, res, asJSON)
	}
	if err != nil {
		return lifecycleErr(err)
	}
	updated, err := writeChanges(env, changes)
	if err != nil {
		return err
	}
	res.Changed, res.Updated = true, append(res.Updated, updated...)
	res.Notes = append(res.Notes, notes...)
	return reportDecision(env, res, asJSON)
}

// reportDecision prints what decide did in the work tree: res as JSON, or
// the record's move (or that it had made it already) and the notes.
func reportDecision(env *Env, res changeResult, asJSON bool) error {
	switch {
	case asJSON:
		return writeJSON(env.Out, res)
	case !res.Changed:
		fmt.Fprintf(env.Out, "%s is already %s\n", adr.Escape(res.ID), res.To)
		return nil
	}
	fmt.Fprintf(env.Out, "%s: %s -> %s\n", adr.Escape(res.ID), res.From, res.To)
	env.notes(res.Notes)
	return nil
}

// runDecideAccept accepts through the acceptance service: in the work tree,
// or (--commit, strict mode) as one ledger commit on HEAD.
func runDecideAccept(env *Env, work *adr.Log, ref, reason string, commit, asJSON bool) error {
	hl, err := headLog(env)
	if err != nil && commit {
		return err
	}
	if hl != nil && accept.StrictOf(hl).On {
		commit = true
	}
	l := work
	if commit {
		l = hl
	}
	rec, err := resolveRecord(env, l, ref)
	if err != nil {
		return err
	}
	if err := refuseSections("decide", rec); err != nil {
		return err
	}
	in, err := acceptInput(env, l)
	if err != nil {
		return err
	}
	res := newChangeResult(rec.ID)
	res.From, res.To = string(rec.Status), string(adr.Accepted)
	acc, err := accept.ForDecision(in, rec, reason)
	if errors.Is(err, adr.ErrNoChange) {
		return reportDecision(env, res, asJSON)
	}
	if err != nil {
		return lifecycleErr(err)
	}
	res.Changed = true
	res.Notes = append(res.Notes, acc.Notes...)
	if !commit {
		updated, err := writeChanges(env, acc.Files)
		if err != nil {
			return err
		}
		res.Updated = append(res.Updated, updated...)
		return reportDecision(env, res, asJSON)
	}
	if w := work.ByPath(rec.Path); w == nil || workflow.BlobOf(w) != workflow.BlobOf(rec) {
		return withCode(ExitConflict, fmt.Errorf("%s has changes HEAD does not have; the acceptance commit is made from HEAD", rec.Path)).
			hint("commit the record first (the acceptance commit records only the decision), then decide again")
	}
	o, err := execOptions(env, hl)
	if err != nil {
		return err
	}
	done, err := accept.Execute(in, acc, acc.Approval, o)
	if err != nil {
		if done != nil && done.Commit != "" {
			return failf("%s was accepted in commit %s, but bringing the work tree up to date failed: %v", rec.ID, short(done.Commit), err).hint("run `git adr recover`")
		}
		return executeErr(acc, err)
	}
	for _, c := range acc.Changes() {
		res.Updated = append(res.Updated, c.Path)
	}
	if asJSON {
		res.Commit = done.Commit
		return writeJSON(env.Out, res)
	}
	env.notes(acc.Notes)
	fmt.Fprintf(env.Out, "%s: %s -> %s\n", adr.Escape(rec.ID), rec.Status, adr.Accepted)
	reportAcceptance(env, &accept.Acceptance{Ledger: acc.Ledger, Kinds: acc.Kinds}, done, nil)
	return nil
}
