package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/urfave/cli/v2"
)

type indexOptions struct {
	check bool
	json  bool
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

Examples:
   git adr index
   git adr index --check          # in CI or a pre-commit hook
   git adr index --json`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "check", Usage: "write nothing; exit 1 when an INDEX.md is missing or stale", Destination: &o.check},
			&cli.BoolFlag{Name: "json", Usage: "print a JSON array of {root, path, status}", Destination: &o.json},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("index takes no arguments, got %q", c.Args().First()).hint("use --root DIR to index one root only")
			}
			return runIndex(env, o)
		},
	}
}

func runIndex(env *Env, o indexOptions) error {
	if !o.check {
		if err := env.lockWrites(); err != nil {
			return err
		}
	}
	l, err := env.Log()
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
	for _, ix := range ixs {
		if ix.State == adr.IndexForeign {
			return failf("%v", &adr.ForeignIndexError{Path: ix.Path}).
				hint("git-adr never overwrites a hand-written INDEX.md: rename or delete " + ix.Path + ", then run `git adr index`")
		}
		if ix.State == adr.IndexCollision {
			return failf("%v", &adr.IndexCollisionError{Path: ix.Path, Other: ix.Other}).
				hint("name the index otherwise in " + adr.ConfigFile + ", for example index_file = \"ADR-INDEX.md\", then run `git adr index`")
		}
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
		switch ix.State {
		case adr.IndexMissing:
			cs.Create(ix.Path, ix.Content)
			st = "written"
		case adr.IndexStale:
			cs.Update(ix.Path, ix.Current, ix.Content)
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

// indexes renders the INDEX.md of every root of l. With --root the
// relations are still resolved against the whole log when discovery finds
// the same roots, so that an index never depends on which roots a run
// happened to name.
func indexes(env *Env, l *adr.Log) ([]adr.Index, error) {
	if len(env.Roots) == 0 {
		return l.Indexes()
	}
	repo, err := env.Repo()
	if err != nil {
		return nil, err
	}
	full, err := adr.Load(repo.WorktreeFS(), adr.LoadOptions{Cwd: repo.Prefix})
	if err != nil {
		return l.Indexes()
	}
	want := map[string]bool{}
	for _, r := range l.Roots {
		want[r.Path] = true
	}
	all, err := full.Indexes()
	if err != nil {
		return nil, err
	}
	var out []adr.Index
	for _, ix := range all {
		if want[ix.Root.Path] {
			out = append(out, ix)
		}
	}
	if len(out) != len(l.Roots) {
		return l.Indexes()
	}
	return out, nil
}
