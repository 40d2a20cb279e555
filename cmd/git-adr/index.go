package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-adr/git-adr/adr"
)

type indexOptions struct {
	check bool
	json  bool
	// stdout, intro, outro, prefix, output: see index_output.go.
	stdout               bool
	intro, outro, prefix string
	output               string
}

// indexResult is the JSON shape of one root's index (docs/commands/index.md).
type indexResult struct {
	Root   string `json:"root"`
	Path   string `json:"path"`
	Status string `json:"status"` // written, unchanged or stale
}

func indexCommand(env *Env) *cli.Command {
	var o indexOptions
	return &cli.Command{
		Name:  "index",
		Usage: "write INDEX.md, a table of every record, into each ADR root",
		Description: `Writes one INDEX.md per root: every record (archived ones in their own
section) with its ID, title, status, date and links. The file is generated:
the same records always give the same bytes, and an INDEX.md that already
matches is left alone. An INDEX.md that git-adr did not write is never
overwritten.

With --check nothing is written; the exit code is 1 when any INDEX.md is
missing or stale.

--stdout prints the index instead, and --output PATH writes it to PATH
(any path you name); --intro FILE and --outro FILE put Markdown before and
after the tables, and --prefix P links each record as P followed by its
path in the root (adr-tools' generate toc -i, -o and -p). When PATH already
has an adr-log section (the lines between the HTML comments "adrlog" and
"adrlogstop"), only that section is filled, with a "* [ADR-0001](...) -
Title" list, as adr-log does; the rest of the file is kept byte for byte. INDEX.md itself is always
the records alone, so that new, link and decide can keep it current.

Examples:
   git adr index
   git adr index --check          # in CI or a pre-commit hook
   git adr index --json
   git adr index --stdout --intro intro.md --prefix docs/adr/
   git adr index --output README.md   # fills its adr-log section`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "check", Usage: "write nothing; exit 1 when an INDEX.md is missing or stale", Destination: &o.check},
			&cli.BoolFlag{Name: "json", Usage: "print a JSON array of {root, path, status}", Destination: &o.json},
			&cli.BoolFlag{Name: "stdout", Usage: "print the index instead of writing INDEX.md", Destination: &o.stdout},
			&cli.StringFlag{Name: "intro", Usage: "put the Markdown file `FILE` after the title (with --stdout or --output)", Destination: &o.intro},
			&cli.StringFlag{Name: "outro", Usage: "put the Markdown file `FILE` after the tables (with --stdout or --output)", Destination: &o.outro},
			&cli.StringFlag{Name: "prefix", Usage: "link each record as `P` + its path in the root (with --stdout or --output)", Destination: &o.prefix},
			&cli.StringFlag{Name: "output", Usage: "write the index to `PATH`, or fill its adr-log section", Destination: &o.output},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("index takes no arguments, got %q", c.Args().First()).hint("use --root DIR to index one root only")
			}
			if o.stdout || o.output != "" || o.intro != "" || o.outro != "" || o.prefix != "" {
				return runIndexOutput(env, o)
			}
			return runIndex(env, o)
		},
	}
}

func runIndex(env *Env, o indexOptions) error {
	if env.acrossWorkspace(true) {
		return runWorkspaceIndex(env, o)
	}
	if !o.check {
		if err := env.lockWrites(); err != nil {
			return err
		}
	}
	l, err := env.LogWithoutTexts()
	if err != nil {
		return err
	}
	if err := env.requireRoots(l); err != nil {
		return err
	}
	ixs, err := indexes(env, l)
	if err != nil {
		return err
	}
	logs, renamed := l.IndexNotes()
	env.notes(logs)
	env.notes(renamed)
	if len(logs) == len(l.Roots) && !o.json {
		return nil
	}
	var fe *adr.ForeignIndexError
	var ce *adr.IndexCollisionError
	switch err := adr.IndexProblem(ixs); {
	case errors.As(err, &fe):
		return failf("%v", err).
			hint("git-adr never overwrites a hand-written INDEX.md: rename or delete " + fe.Path + ", then run `git adr index`")
	case errors.As(err, &ce):
		return failf("%v", err).
			hint("name the index otherwise in " + adr.ConfigFile + ", for example index_file = \"ADR-INDEX.md\", then run `git adr index`")
	}
	results := make([]indexResult, 0, len(ixs))
	var stale []string
	if o.check {
		for _, ix := range ixs {
			st := "unchanged"
			if ix.State != adr.IndexUpToDate {
				st = "stale"
				stale = append(stale, fmt.Sprintf("%s (%s)", ix.Path, ix.State))
			}
			results = append(results, indexResult{Root: ix.Root.Dir(), Path: ix.Path, Status: st})
		}
		if o.json {
			if err := writeJSON(env.Out, results); err != nil {
				return err
			}
			if len(stale) > 0 {
				return silentExit(ExitFailure)
			}
			return nil
		}
		if len(stale) > 0 {
			return failf("INDEX.md is out of date: %s", strings.Join(stale, ", ")).hint("run `git adr index` and commit the result")
		}
		for _, ix := range ixs {
			fmt.Fprintf(env.Out, "%s is up to date\n", adr.Escape(ix.Path))
		}
		return nil
	}
	cs, err := env.Changeset()
	if err != nil {
		return err
	}
	for _, ix := range ixs {
		st := "unchanged"
		if ix.Stage(cs) {
			st = "written"
		}
		results = append(results, indexResult{Root: ix.Root.Dir(), Path: ix.Path, Status: st})
	}
	if err := cs.Apply(); err != nil {
		if errors.Is(err, adr.ErrChangedOnDisk) {
			return withCode(ExitConflict, err).hint("another program changed the file while git-adr ran; run `git adr index` again")
		}
		return err
	}
	if o.json {
		return writeJSON(env.Out, results)
	}
	for _, r := range results {
		if r.Status == "written" {
			fmt.Fprintf(env.Out, "wrote %s\n", adr.Escape(r.Path))
		} else {
			fmt.Fprintf(env.Out, "%s is up to date\n", adr.Escape(r.Path))
		}
	}
	return nil
}

// indexes renders the INDEX.md of every root of l ([adr.Log.IndexesOver]).
func indexes(env *Env, l *adr.Log) ([]adr.Index, error) {
	repo, err := env.Repo()
	if err != nil {
		return nil, err
	}
	return l.IndexesOver(repo.WorktreeFS(), repo.Prefix, len(env.Roots) > 0)
}
