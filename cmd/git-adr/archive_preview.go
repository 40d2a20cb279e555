package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/git-adr/git-adr/adr/archive"
	"github.com/urfave/cli/v2"
)

// maxRisksShown bounds the risks the text preview lists (--json has all).
const maxRisksShown = 20

// writePreview prints a plan the way a person reviews it: the moves, every
// rewritten link, the generated files, blockers, risks, the commits and
// the inverse.
func writePreview(env *Env, p *archive.Plan) error { return writePreviewTo(env.Out, env, p) }

// writePreviewTo is writePreview to out (the approval card of an
// acceptance shows its archive part so, indented).
func writePreviewTo(out io.Writer, env *Env, p *archive.Plan) error {
	w := bufio.NewWriter(out)
	d := env.display
	state := ""
	if p.State != archive.Planned {
		state = " (" + string(p.State) + ")"
	}
	if p.OnAccept != "" {
		fmt.Fprintf(w, "%s plan %s on acceptance of %s%s: %s, %s\n", p.Kind, p.ID, p.OnAccept, state, plural(len(p.Records), "record"), plural(p.Commits, "commit"))
		if p.Reason != "" {
			fmt.Fprintf(w, "  skipped: %s\n", p.Reason)
		}
	} else if p.Revision == 0 { // refused: never stored
		fmt.Fprintf(w, "%s preview (refused, nothing planned): %s\n", p.Kind, plural(len(p.Records), "record"))
	} else {
		fmt.Fprintf(w, "%s plan %s revision %d%s: %s, %s\n", p.Kind, p.ID, p.Revision, state, plural(len(p.Records), "record"), plural(p.Commits, "commit"))
	}
	for _, m := range p.Records {
		fmt.Fprintf(w, "  %s %s: %s -> %s\n    %s\n", m.ID, m.Status, d(m.From), d(m.To), m.Reason)
	}
	links, files := p.Links()
	if links > 0 || len(p.Blockers) == 0 {
		fmt.Fprintf(w, "links: %s in %s\n", plural(links, "destination"), plural(files, "file"))
	}
	for _, f := range p.Files {
		if len(f.Links) == 0 {
			continue
		}
		var notes []string
		switch {
		case f.Kind == archive.FileRecord:
			notes = append(notes, "outbound, from the moved record")
		case f.Kind == archive.FileTranslation:
			notes = append(notes, "translation mirror")
		}
		if f.Exact {
			notes = append(notes, "given back its bytes from before the archival")
		}
		what := ""
		if len(notes) > 0 {
			what = " (" + strings.Join(notes, "; ") + ")"
		}
		fmt.Fprintf(w, "  %s%s\n", d(f.Path), what)
		for _, l := range f.Links {
			fmt.Fprintf(w, "    %d: %s -> %s\n", l.Line, l.Old, l.New)
		}
	}
	for _, f := range p.Files {
		if f.Exact && len(f.Links) == 0 && f.Kind != archive.FileIndex && f.Kind != archive.FileView {
			fmt.Fprintf(w, "  %s (given back its bytes from before the archival)\n", d(f.Path))
		}
	}
	if len(p.Generated) > 0 {
		fmt.Fprintln(w, "generated files:")
		for _, g := range p.Generated {
			fmt.Fprintf(w, "  %s: %s\n", d(g.Path), g.Action)
		}
	}
	if len(p.Blockers) > 0 {
		fmt.Fprintf(w, "blockers (%d):\n", len(p.Blockers))
		for _, b := range p.Blockers {
			fmt.Fprintf(w, "  %s\n", b)
		}
	} else {
		fmt.Fprintln(w, "collisions: none")
	}
	if len(p.Blockers) == 0 || len(p.Risks) > 0 {
		writeRisks(w, env, p)
	}
	switch p.Commits {
	case 1:
		fmt.Fprintln(w, "commits: 1: git follows every rename with its links rewritten in the same commit (measured)")
	case 2:
		var lost []string
		for _, s := range p.Similarity {
			if !s.Followed {
				lost = append(lost, d(s.Path))
			}
		}
		fmt.Fprintf(w, "commits: 2: the tracked rename alone, then the link rewriting (in one commit git would not follow %s)\n", andList(lost))
	}
	if p.Kind == archive.KindRestore {
		fmt.Fprintln(w, "status: every record keeps its status; restoring a location does not restore a superseded decision's authority")
	}
	if p.Revision > 0 || p.OnAccept != "" {
		fmt.Fprintf(w, "inverse: %s\n", p.Inverse)
	}
	return w.Flush()
}

// writeRisks lists what the plan cannot repair.
func writeRisks(w *bufio.Writer, env *Env, p *archive.Plan) {
	d := env.display
	switch {
	case len(p.Risks) == 0:
		fmt.Fprintln(w, "external-link risks: none found in the repository")
	default:
		ack := "not acknowledged"
		if p.Acknowledged {
			ack = "acknowledged with --ack-external-links"
		}
		fmt.Fprintf(w, "external-link risks (%d, %s):\n", len(p.Risks), ack)
		for i, r := range p.Risks {
			if i == maxRisksShown {
				fmt.Fprintf(w, "  ... and %d more (--json lists them all)\n", len(p.Risks)-i)
				break
			}
			at := d(r.Path)
			if r.Line > 0 {
				at = fmt.Sprintf("%s:%d", at, r.Line)
			}
			fmt.Fprintf(w, "  %s: %s\n    %s\n", at, r.Text, r.Why)
		}
	}
	fmt.Fprintln(w, "  links from outside this repository (bookmarks, other repositories, issue trackers, published sites) cannot be found or repaired")
}

func archiveStatusCommand(env *Env) *cli.Command {
	var asJSON bool
	return &cli.Command{
		Name:      "status",
		Usage:     "list archive plans, or show one",
		ArgsUsage: "[PLAN-ID]",
		Flags:     []cli.Flag{&cli.BoolFlag{Name: "json", Destination: &asJSON, Usage: "print JSON: the plans' latest revisions"}},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usagef("status takes at most one plan ID, got %d arguments", c.NArg())
			}
			return runArchiveStatus(env, c.Args().First(), asJSON)
		},
	}
}

func runArchiveStatus(env *Env, id string, asJSON bool) error {
	repo, err := env.Repo()
	if err != nil {
		return err
	}
	plans, err := (&archive.Store{Repo: repo}).Latest(id)
	var le *archive.LoadError
	if errors.As(err, &le) {
		return storeErr(le.Err, le.ID)
	}
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(env.Out, plans)
	}
	if id != "" {
		if err := writePreview(env, plans[0]); err != nil {
			return err
		}
		fmt.Fprintf(env.Out, "next: %s\n", nextStep(plans[0]))
		return nil
	}
	if len(plans) == 0 {
		fmt.Fprintln(env.Out, "no archive plans; `git adr compaction` lists the archive candidates, `git adr archive ID` previews a move")
		return nil
	}
	tw := tabwriter.NewWriter(env.Out, 0, 0, 2, ' ', 0)
	for _, p := range plans {
		fmt.Fprintf(tw, "%s\trevision %d\t%s %s\t%s\n", p.ID, p.Revision, p.Kind, p.State, joinIDsShort(p.IDs()))
	}
	return tw.Flush()
}

// nextStep says what can be done with a plan's latest revision.
func nextStep(p *archive.Plan) string {
	switch {
	case p.OnAccept != "" && p.State == archive.Planned:
		return fmt.Sprintf("it is carried out with the acceptance of plan %s: git adr compaction --confirm %s", p.OnAccept, p.OnAccept)
	case p.Kind == archive.KindArchive && p.State == archive.Planned:
		return fmt.Sprintf("carry it out: git adr archive --confirm %s@%d", p.ID, p.Revision)
	case p.Kind == archive.KindRestore && p.State == archive.Planned:
		return fmt.Sprintf("carry it out: git adr archive restore --confirm %s@%d", p.ID, p.Revision)
	case p.Kind == archive.KindArchive && p.State == archive.Done:
		return "undo it: " + p.Inverse
	case p.State == archive.Skipped:
		return "nothing: the acceptance stands; preview the move as the log is now with `git adr archive " + strings.Join(p.IDs(), " ") + "`"
	case p.State == archive.Cancelled:
		return "nothing: the plan is cancelled; preview it again to make a new revision"
	}
	return "nothing: the records are back where they were"
}

func joinIDsShort(ids []string) string {
	if len(ids) > 3 {
		return fmt.Sprintf("%s, %s, %s and %d more", ids[0], ids[1], ids[2], len(ids)-3)
	}
	return andList(ids)
}
