package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/audit"
	"github.com/urfave/cli/v2"
)

// checkJSON is the --json shape of check (docs/commands/check.md).
type checkJSON struct {
	Findings []adr.Finding           `json:"findings"`
	Counts   map[adr.FindingKind]int `json:"counts"`
	Notes    []string                `json:"notes,omitempty"`
}

type checkOptions struct {
	json, compaction bool
	// since is the base of a range (a pull request's): the governance
	// rules of the pre-commit hook are applied to what changed since,
	// and only the findings the range introduced are reported, unless
	// all asks for the whole log's.
	since  string
	all    bool
	format string
}

func checkCommand(env *Env) *cli.Command {
	var o checkOptions
	return &cli.Command{
		Name:  "check",
		Usage: "report problems in the decision log, each with the command or edit that fixes it",
		Description: `Reports duplicate IDs (in a root, and against other local and
remote-tracking branches), broken references, supersession cycles, one-way
links, statuses that contradict the links, unknown statuses, title numbers
that differ from the file name and records that cannot be read.

With --compaction, also reports CURRENT views that are stale (a source
edited, added, deleted, renamed or re-statused, a record entering or leaving
the scope, a dependency changed), corrupt (CURRENT.md edited by hand, a
manifest that is not one, half a pair) or of an unsupported schema, and
generated INDEX.md files that differ from the records.

Exit codes: 0 no findings, 1 findings, 2 usage or configuration error.
Kinds can be ignored in .adr.toml:

   [check]
   ignore = ["unknown-status"]

With --since REV (a pull request's base), check judges what the change
from the merge base of REV and HEAD introduced: the findings the log at the
merge base did not have, and the rules of the pre-commit hook applied to
what changed (an edit of what an accepted record decides, a status change
the lifecycle forbids, a deleted record, a number taken twice, an INDEX.md
that drifted, and with --compaction a view the change made stale). The
findings the base already had are counted in a note; --all reports them
too. It reads only git objects, so it runs in a bare repository (HEAD's
tree is checked) and needs REV's history: in a shallow CI checkout fetch it
first. --format github prints GitHub Actions annotations, --format
codequality a GitLab code quality report.

Exit codes: 0 no findings, 1 findings, 2 usage or configuration error.
Kinds can be ignored in .adr.toml:

   [check]
   ignore = ["unknown-status"]

Examples:
   git adr check
   git adr check --compaction
   git adr check --compaction --since origin/main --format markdown >> "$GITHUB_STEP_SUMMARY"
   git adr check --since "origin/$GITHUB_BASE_REF" --format github
   git adr check --json | jq '.findings[] | select(.kind == "broken-reference")'`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print {findings, counts} as JSON", Destination: &o.json},
			&cli.BoolFlag{Name: "compaction", Usage: "also report stale, corrupt or unsupported CURRENT views and stale INDEX.md files", Destination: &o.compaction},
			&cli.StringFlag{Name: "since", Usage: "report what changed since `REV` (a pull request's base) introduced, and apply the pre-commit rules to it", Destination: &o.since},
			&cli.BoolFlag{Name: "all", Usage: "with --since: report the whole log's findings, not only those the range introduced", Destination: &o.all},
			&cli.StringFlag{Name: "format", Usage: "text (default), json, markdown (a table, for a CI job summary), github (Actions annotations) or codequality (a GitLab code quality report)", Destination: &o.format},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("check takes no arguments, got %q", c.Args().First()).hint("use --root DIR to check one root only")
			}
			switch o.format {
			case "", "text":
			case "json":
				o.json = true
			case "markdown", "github", "codequality":
				if o.json {
					return usagef("--json and --format %s ask for two outputs", o.format).hint("use one of them")
				}
			default:
				return usagef("--format %q is not text, json, markdown, github or codequality", o.format)
			}
			if o.all && o.since == "" {
				return usagef("--all needs --since REV: without it check reports the whole log already")
			}
			return runCheck(env, o)
		},
	}
}

func runCheck(env *Env, o checkOptions) error {
	if env.acrossWorkspace(false) {
		return runWorkspaceCheck(env, o)
	}
	env.allowBare = o.since != ""
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
	branches, err := env.branchTrees()
	if err != nil {
		return err
	}
	rep, err := audit.Run(audit.Options{Repo: r, Log: l, Branches: branches, Compaction: o.compaction, Since: o.since, All: o.all,
		Base: adr.LoadOptions{Roots: env.rootsRel(), Cwd: r.Prefix, Cache: env.parseCache(r)}, JournalDir: journalDir(r)})
	var se *audit.SinceError
	if errors.As(err, &se) {
		return sinceUsage(se)
	}
	if err != nil {
		return err
	}
	env.notes(rep.Notes)
	switch {
	case o.json:
		if err := writeJSON(env.Out, checkJSON{Findings: rep.Findings, Counts: rep.Counts, Notes: rep.Notes}); err != nil {
			return err
		}
	case o.format == "markdown":
		writeCheckMarkdown(env, rep, o.since)
	case o.format == "github":
		if err := writeCheckGitHub(env, rep); err != nil {
			return err
		}
	case o.format == "codequality":
		if err := writeJSON(env.Out, audit.CodeQuality(rep)); err != nil {
			return err
		}
	default:
		w := bulkWriter(env.Out)
		defer w.Flush() // an error return prints after the findings
		for _, f := range rep.Findings {
			loc := adr.Escape(f.Path)
			if f.Line > 0 {
				loc = fmt.Sprintf("%s:%d", loc, f.Line)
			}
			kind := string(f.Kind)
			if f.Warning {
				kind += " (warning)"
			}
			fmt.Fprintf(w, "%s: %s: %s\n  fix: %s\n", loc, kind, adr.Escape(f.Message), adr.Escape(f.Fix))
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	summary := fmt.Sprintf("%d findings", len(rep.Findings))
	if len(rep.Findings) == 1 {
		summary = "1 finding"
	}
	_, warns := rep.Tally()
	if warns > 0 {
		summary += fmt.Sprintf(" (%d warnings)", warns)
		if warns == 1 {
			summary = strings.Replace(summary, "(1 warnings)", "(1 warning)", 1)
		}
	}
	if rep.Ignored > 0 {
		summary += fmt.Sprintf(" (%d ignored by %s)", rep.Ignored, adr.ConfigFile)
	}
	fmt.Fprintln(env.Err, summary)
	if rep.Fails(l.Config) {
		return silentExit(ExitFailure)
	}
	return nil
}

// sinceUsage is the usage error of a --since REV this repository cannot
// use, with the command that fetches what it lacks.
func sinceUsage(se *audit.SinceError) error {
	if !se.NoCommit {
		return usagef("--since %q shares no history with HEAD here", se.Since).
			hint("in a shallow clone fetch more history: `git fetch --unshallow` (actions/checkout: fetch-depth: 0)")
	}
	e := usagef("--since %q names no commit here", se.Since)
	if se.Shallow {
		e.hint("this is a shallow clone: fetch the base first (`git fetch --unshallow`, or actions/checkout with fetch-depth: 0)")
	} else {
		e.hint("fetch it first, for example `git fetch origin main` for --since origin/main")
	}
	return e
}

// writeCheckMarkdown prints the findings as a Markdown table (a CI job
// summary or a pull request comment).
func writeCheckMarkdown(env *Env, rep *adr.CheckReport, since string) {
	w := bulkWriter(env.Out)
	defer w.Flush()
	title := "git adr check"
	if since != "" {
		title += " since " + since
	}
	fmt.Fprintf(w, "## %s\n\n", adr.EscapeCell(title))
	if len(rep.Findings) == 0 {
		fmt.Fprintln(w, "No findings.")
		return
	}
	fmt.Fprintf(w, "%d finding(s).\n\n| file | kind | problem | fix |\n| --- | --- | --- | --- |\n", len(rep.Findings))
	for _, f := range rep.Findings {
		loc := f.Path
		if f.Line > 0 {
			loc = fmt.Sprintf("%s:%d", f.Path, f.Line)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", adr.EscapeCell(loc), f.Kind, adr.EscapeCell(f.Message), adr.EscapeCell(f.Fix))
	}
}
