package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/archive"
	"github.com/git-adr/git-adr/gitops"
	"github.com/urfave/cli/v2"
)

// archiveOptions are the flags of `git adr archive` and `archive restore`.
type archiveOptions struct {
	ids     []string
	planID  string // restore: the archival to undo
	confirm onceValue
	ack     bool
	json    bool
}

func archiveCommand(env *Env) *cli.Command {
	var o archiveOptions
	return &cli.Command{
		Name:      "archive",
		Usage:     "move wholly retired records into the archive, with every link to and from them repaired",
		ArgsUsage: "ID...",
		UsageText: `git adr archive ID... [--ack-external-links] [--json]
git adr archive --confirm PLAN-ID@REVISION [--json]
git adr archive restore PLAN-ID [--ack-external-links] [--json]
git adr archive restore --confirm PLAN-ID@REVISION [--json]
git adr archive status [PLAN-ID] [--json]`,
		Description: `Previews, then on approval carries out, the move of wholly retired records
(superseded, rejected or deprecated; every section of a sectioned container;
no unresolved issue touching them) into their root's archive/ (archive/<year>/
with [archive] layout = "year" in .adr.toml). The preview lists every source
and destination path, every relative link it rewrites (outbound from the moved
records; inbound from records, INDEX, CURRENT, READMEs, translation mirrors
and every other Markdown file), the generated files it refreshes, collisions,
links it cannot repair (external-link risk) and the inverse command. Age alone
never makes a record eligible; archived records keep their IDs forever.

On a terminal it asks Archive or Cancel; without one it writes a receipt and
exits 3, and ` + "`--confirm PLAN-ID@REVISION`" + ` carries out exactly that plan once nothing
it relies on has changed. The move is a tracked rename committed alone, then
the link rewriting, so ` + "`git log --follow`" + ` keeps each record's history (one commit
when git's rename detection, measured, still follows every file). Both commits
are built through a temporary index: unrelated staged or unstaged work is
untouched.

A risk found (a path in a URL, in prose or in a configuration file; a link in
an untracked file) must be acknowledged with --ack-external-links.

Examples:
   git adr archive ADR-0002
   git adr archive 2 5 --json
   git adr archive --confirm a-1a2b3c4d5e@1
   git adr archive restore a-1a2b3c4d5e`,
		HideHelpCommand: true,
		Flags:           archiveFlags(&o),
		Subcommands:     []*cli.Command{archiveRestoreCommand(env), archiveStatusCommand(env)},
		Action: func(c *cli.Context) error {
			o.ids = c.Args().Slice()
			if o.confirm.n > 0 {
				rev, err := o.confirmed("archive")
				if err != nil {
					return err
				}
				return runArchiveConfirm(env, archive.KindArchive, o, rev)
			}
			if len(o.ids) == 0 {
				return usagef("archive needs the IDs of the records to archive").
					hint("`git adr compaction` lists the archive candidates; preview one with `git adr archive ID`")
			}
			return runArchive(env, o)
		},
	}
}

func archiveFlags(o *archiveOptions) []cli.Flag {
	return []cli.Flag{
		&cli.GenericFlag{Name: "confirm", Value: &o.confirm, Usage: "carry out exactly the previewed `PLAN-ID@REVISION`; takes no other argument"},
		&cli.BoolFlag{Name: "ack-external-links", Usage: "acknowledge the links the preview says cannot be repaired (the plan records it)", Destination: &o.ack},
		&cli.BoolFlag{Name: "json", Usage: "print the plan as JSON (docs/json.md)", Destination: &o.json},
	}
}

// confirmed checks --confirm: it names a plan revision and comes alone.
func (o *archiveOptions) confirmed(cmd string) (int, error) {
	if o.confirm.n > 1 {
		return 0, usagef("--confirm is given %d times: give it once", o.confirm.n)
	}
	if len(o.ids) > 0 || o.ack {
		what := "--ack-external-links"
		if len(o.ids) > 0 {
			what = fmt.Sprintf("%q", o.ids[0])
		}
		return 0, usagef("--confirm cannot be combined with %s: it carries out exactly the previewed plan", what).
			hint("preview a new plan with `git adr " + cmd + " ...`, then confirm that one")
	}
	m := planRevision.FindStringSubmatch(strings.TrimSpace(o.confirm.value))
	if m == nil {
		return 0, usagef("--confirm %q is not PLAN-ID@REVISION", o.confirm.value).
			hint("name the previewed revision, for example --confirm a-1a2b3c4d5e@1; `git adr archive status` lists plans")
	}
	o.planID = m[1]
	var rev int
	fmt.Sscanf(m[2], "%d", &rev)
	return rev, nil
}

func archiveRestoreCommand(env *Env) *cli.Command {
	var o archiveOptions
	return &cli.Command{
		Name:      "restore",
		Usage:     "preview, then carry out, the exact inverse of a done archival",
		ArgsUsage: "PLAN-ID",
		Description: `Moves the records of archival plan PLAN-ID back where they were and gives
every file the archival rewrote its bytes back, unless someone changed it
since (such a file has its links rewritten afresh). It has its own preview and
approval: Restore or Cancel on a terminal, else a receipt, exit 3 and
--confirm PLAN-ID@REVISION. A restored record keeps its status: restoring a
location does not restore a superseded decision's authority.

Examples:
   git adr archive restore a-1a2b3c4d5e
   git adr archive restore --confirm a-1a2b3c4d5e@3`,
		Flags: archiveFlags(&o),
		Action: func(c *cli.Context) error {
			o.ids = c.Args().Slice()
			if o.confirm.n > 0 {
				rev, err := o.confirmed("archive restore")
				if err != nil {
					return err
				}
				return runArchiveConfirm(env, archive.KindRestore, o, rev)
			}
			if len(o.ids) != 1 {
				return usagef("archive restore needs exactly one plan ID, got %d arguments", len(o.ids)).
					hint("`git adr archive status` lists archive plans")
			}
			o.planID, o.ids = o.ids[0], nil
			return runRestore(env, o)
		},
	}
}

// runArchive previews an archival plan and asks for approval.
func runArchive(env *Env, o archiveOptions) error {
	repo, l, head, err := archiveSetup(env)
	if err != nil {
		return err
	}
	res, err := archive.Preview(repo, l, head, o.ids, o.ack)
	if err != nil {
		return prepareErr(lifecycleErr(err))
	}
	return offer(env, o, res.Plan, strings.Join(o.ids, " "))
}

// runRestore previews the inverse of a done archival and asks.
func runRestore(env *Env, o archiveOptions) error {
	repo, l, head, err := archiveSetup(env)
	if err != nil {
		return err
	}
	p, undo, err := (&archive.Store{Repo: repo}).Undoing(o.planID)
	var se *archive.StateError
	switch {
	case errors.As(err, &se):
		return failf("%s", se.Msg).hint(se.Hint)
	case err != nil:
		return storeErr(err, o.planID)
	case undo == nil:
		fmt.Fprintf(env.Out, "archive plan %s was restored in revision %d (commit %s); nothing to do\n", p.ID, p.Revision, short(last(p.Published)))
		return nil
	}
	res, err := archive.Prepare(repo, l, archive.Request{Kind: archive.KindRestore, Base: head, Undo: undo, PlanID: p.ID, Revision: undo.Revision, Ack: o.ack})
	if err != nil {
		return prepareErr(err)
	}
	return offer(env, o, res.Plan, "restore "+p.ID)
}

// archiveSetup opens the repository and the log and reads HEAD: plans
// read the committed log.
func archiveSetup(env *Env) (repo *gitops.Repo, l *adr.Log, head string, err error) {
	if repo, err = env.Repo(); err != nil {
		return nil, nil, "", err
	}
	if l, err = env.Log(); err != nil {
		return nil, nil, "", err
	}
	if err = env.requireRoots(l); err != nil {
		return nil, nil, "", err
	}
	if head, err = repo.ResolveRef("HEAD"); err != nil {
		return nil, nil, "", failf("the repository has no commit yet; archival reads the log at HEAD").hint("commit the ADR records first")
	}
	return repo, l, head, nil
}

func prepareErr(err error) error {
	var re *archive.RequestError
	if errors.As(err, &re) {
		return usagef("%s; nothing was planned", re.Msg).hint(re.Hint)
	}
	return err
}

func storeErr(err error, id string) error {
	switch {
	case errors.Is(err, archive.ErrNoPlan):
		return usagef("no archive plan %q", id).hint("`git adr archive status` lists archive plans")
	case errors.Is(err, archive.ErrPlanChanged):
		return withCode(ExitConflict, err).hint("another git-adr moved the plan first; run the command again")
	}
	return err
}

func last(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return xs[len(xs)-1]
}
