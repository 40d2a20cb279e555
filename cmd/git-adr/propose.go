package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/failpoint"
	"github.com/urfave/cli/v2"
)

// proposal is what `git adr propose` and the MCP tool adr_propose write
// ([adr.Proposal]).
type proposal = adr.Proposal

// proposalSurface names a proposal's fields as a surface takes them: the
// command's flags or the MCP tool's arguments.
type proposalSurface struct {
	// field names a field ("relates_to") as the caller writes it:
	// "--relates-to" or `argument "relates_to"`.
	field func(name string) string
	// findIDs says how to find record IDs.
	findIDs string
	// mcp: paths in answers and commands are relative to the repository
	// root (the command line's, to the working directory).
	mcp bool
}

// cliProposal names the command line's flags.
var cliProposal = proposalSurface{
	field: func(n string) string {
		if n == "domains" {
			return "--domain" // one per flag
		}
		return "--" + strings.ReplaceAll(n, "_", "-")
	},
	findIDs: "run `git adr list` to see IDs",
}

// proposalStep is something to do after a proposal, and who does it.
type proposalStep = adr.ProposalStep

// proposeResult is what a proposal answers (--json, adr_propose).
type proposeResult = adr.ProposalResult

func proposeCommand(env *Env) *cli.Command {
	var p proposal
	var asJSON bool
	return &cli.Command{
		Name:      "propose",
		Usage:     "write a proposed record with its context, decision and consequences",
		ArgsUsage: "TITLE...",
		Description: `Writes a record with status proposed, in the log's own template and style,
with the next free number (as git adr new allocates it), and its context,
decision and consequences in place of the template's text. It is what the
MCP tool adr_propose does (git adr mcp --allow-propose), for agents and
scripts that run commands: no editor opens, and nothing else changes status.

--relates-to, --amends and --refines link the new record both ways (the
linked record gets the reverse link). --supersedes only says, in the new
record, what it would supersede: the superseded record stays as it is until
a person accepts the proposal (git adr decide ID accept), which marks it
superseded then.

Refused, with nothing written: an empty title or decision text, a title a
record of the root already has, text with a control character, a heading
that would end its section or a code fence or comment left open, a linked
record that is archived or a section of a single-file log.

Examples:
   git adr propose Cache reads in Redis --context "Reads are slow." \
       --decision "We cache reads in Redis." --consequences "One more service." --amends 3
   git adr propose "Use PostgreSQL" --context "..." --decision "..." --supersedes 2 --json`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "context", Usage: "the context: why a decision is needed (`TEXT`, Markdown)", Destination: &p.Context},
			&cli.StringFlag{Name: "decision", Usage: "the decision proposed (`TEXT`, Markdown)", Destination: &p.Decision},
			&cli.StringFlag{Name: "consequences", Usage: "what becomes easier or harder (`TEXT`, Markdown)", Destination: &p.Consequences},
			&cli.StringSliceFlag{Name: "relates-to", Usage: "link record `ID` both ways, Relates to (repeatable)"},
			&cli.StringSliceFlag{Name: "amends", Usage: "link record `ID` both ways, Amends / Amended by (repeatable)"},
			&cli.StringSliceFlag{Name: "refines", Usage: "link record `ID` both ways, Refines / Refined by (repeatable)"},
			&cli.StringSliceFlag{Name: "supersedes", Usage: "say the proposal would supersede record `ID` once accepted (repeatable)"},
			&cli.StringSliceFlag{Name: "domain", Usage: "tag the record with domain `D` (repeatable)"},
			&cli.StringFlag{Name: "dir", Usage: "write in ADR root `DIR` (default: the first root)", Destination: &p.Dir},
			&cli.BoolFlag{Name: "json", Usage: "print {id, path, links, would_supersede, updated, template_sections, notes, next} as JSON", Destination: &asJSON},
		},
		Action: func(c *cli.Context) error {
			p.Title = strings.Join(c.Args().Slice(), " ")
			p.RelatesTo, p.Amends, p.Refines = c.StringSlice("relates-to"), c.StringSlice("amends"), c.StringSlice("refines")
			p.Supersedes, p.Domains = c.StringSlice("supersedes"), c.StringSlice("domain")
			res, err := runProposal(env, p, cliProposal)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(env.Out, res)
			}
			printProposal(env, res)
			return nil
		},
	}
}

// printProposal prints a proposal for a person: the record's path, the
// other files written, the notes and what comes next.
func printProposal(env *Env, res *proposeResult) {
	fmt.Fprintln(env.Out, adr.Escape(env.display(res.Path)))
	for _, p := range res.Updated[1:res.Records] {
		fmt.Fprintf(env.Out, "updated %s\n", adr.Escape(env.display(p)))
	}
	env.notes(res.Notes)
	fmt.Fprintf(env.Out, "next:\n")
	for _, s := range res.Next {
		line := s.Who + ": " + s.Do
		if s.Command != "" {
			line += ": " + s.Command
		}
		fmt.Fprintf(env.Out, "  %s\n", adr.Escape(line))
	}
}

// runProposal writes p under the project lock and says what comes next.
func runProposal(env *Env, p proposal, s proposalSurface) (*proposeResult, error) {
	secs, domains, err := p.Check(s.field)
	if err != nil {
		return nil, proposalErr(err)
	}
	date := today()
	if !validDate(date) {
		return nil, usagef("ADR_DATE %q is not a date", date).hint("set ADR_DATE=YYYY-MM-DD or unset it")
	}
	// Concurrent proposals meet here: from this point the lock decides.
	failpoint.Hit("propose-lock")
	if err := env.lockWrites(); err != nil {
		return nil, err
	}
	l, err := env.Log()
	if err != nil {
		return nil, err
	}
	if len(l.Roots) == 0 {
		return nil, failf("no ADR directory found in this repository").
			hint("a person starts a decision log with `git adr init` (a proposal does not create one)")
	}
	root, err := newRecordRoot(l, p.Dir, s.field("dir"), "propose")
	if err != nil {
		return nil, err
	}
	if other := l.SameTitle(root, p.Title); other != nil {
		return nil, usagef("%s already has a record titled %q: %s (%s), %s", root.Dir(), p.Title, other.ID, other.Status, other.Path).
			hint("if that is this proposal sent again, it is written already; otherwise give the proposal a title of its own")
	}
	opt := adr.NewOptions{Title: p.Title, Root: root, Status: adr.Proposed, Domains: domains, Date: date, Sections: secs}
	res := adr.NewProposalResult()
	if err := p.Link(&opt, res, func(field, ref string) (*adr.Record, error) { return proposalTarget(env, l, s, field, ref) }); err != nil {
		return nil, err
	}
	if opt.Template, err = projectTemplate(env, root, true); err != nil {
		return nil, err
	}
	if opt.Number, err = nextNumber(env, l, root); err != nil {
		return nil, err
	}
	rec, changes, notes, err := l.NewRecord(opt)
	var se *adr.SectionTextError
	if errors.As(err, &se) {
		where := s.field(se.Anchor)
		if se.Line > 0 {
			where += fmt.Sprintf(", line %d", se.Line)
		}
		return nil, usagef("%s: %s", where, se.Reason).
			hint("nothing was written; the text goes under the section's heading as it is")
	}
	if err != nil {
		return nil, newRecordErr(err)
	}
	if res.Updated, err = writeProposal(env, rec, changes); err != nil {
		return nil, err
	}
	res.ID, res.Path, res.Title, res.Records = rec.ID, rec.Path, rec.Title, len(changes)
	res.Notes = append(res.Notes, notes...)
	res.TemplateSections = append(res.TemplateSections, adr.TemplateSections(rec, secs)...)
	show := env.display
	if s.mcp {
		show = func(p string) string { return p }
	}
	res.Next = adr.ProposalNext(res, show)
	return res, nil
}

// clip shortens what a caller sent to quote it in an error ([adr.Clip]).
func clip(s string) string { return adr.Clip(s) }

// proposalErr is a refused proposal as a command says it: a request
// asked wrongly is a usage error, one the log does not allow a failure.
func proposalErr(err error) error {
	var pe *adr.ProposalError
	if !errors.As(err, &pe) {
		return err
	}
	e := usagef("%s", pe.Msg)
	if pe.Refused {
		e = failf("%s", pe.Msg)
	}
	if pe.Hint != "" {
		e.hint(pe.Hint)
	}
	return e
}

// proposalTarget resolves a record a proposal links: one of the log's
// records, not archived (a retired record takes no new links), and a
// file of its own (not a section of a single-file log).
func proposalTarget(env *Env, l *adr.Log, s proposalSurface, field, ref string) (*adr.Record, error) {
	r, err := lookupRecord(env, l, ref)
	var amb *adr.AmbiguousError
	switch {
	case errors.As(err, &amb):
		return nil, usagef("%s %q names %d records", s.field(field), clip(ref), len(amb.Candidates)).hint("name one by its path: " + amb.Paths())
	case adr.IsNotFound(err):
		return nil, usagef("%s: no record %q", s.field(field), clip(ref)).hint(s.findIDs)
	case err != nil:
		return nil, err
	}
	if err := l.Ensure(r); err != nil {
		return nil, err
	}
	if r.Archived {
		return nil, usagef("%s: %s is archived (%s); a proposal links records of the log in force", s.field(field), r.ID, r.Path).
			hint("link the record that replaced it; " + s.findIDs)
	}
	if err := refuseSections("propose", r); err != nil {
		return nil, err
	}
	return r, nil
}

// writeProposal writes the changes of a proposal (rec, the proposed
// record) once proposalOnly holds, brings generated indexes up to date,
// and returns every file written: the changes' in order, then indexes.
func writeProposal(env *Env, rec *adr.Record, changes []adr.FileChange) ([]string, error) {
	if err := adr.ProposalOnly(rec, changes); err != nil {
		return nil, proposalErr(err)
	}
	return writeChanges(env, changes)
}
