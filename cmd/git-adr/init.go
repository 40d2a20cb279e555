package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/urfave/cli/v2"

	"github.com/git-adr/git-adr/adr"
)

func initCommand(env *Env) *cli.Command {
	var dir, style string
	var asJSON bool
	return &cli.Command{
		Name:  "init",
		Usage: "start a decision log, or pin an existing one, in .adr.toml",
		Description: `Writes .adr.toml naming the ADR directory and its style and, when the directory
holds no records yet, record 1 ("Record architecture decisions"). An existing
log (found by discovery, or named with --dir) is pinned as it is: no record is
written. For adr-tools compatibility, a nygard log outside doc/adr also gets an
.adr-dir file. Refuses to overwrite an existing .adr.toml.

Examples:
   git adr init
   git adr init --dir docs/decisions --style madr`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dir", Usage: "ADR directory `DIR` (default: the log discovery finds, else doc/adr)", Destination: &dir},
			&cli.StringFlag{Name: "style", Usage: "style `S` of new records: nygard, madr, madr2, table, ocp (default: detected, else nygard)", Destination: &style},
			&cli.BoolFlag{Name: "json", Usage: "print {config, pinned, created} as JSON", Destination: &asJSON},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("init takes no arguments, got %q", c.Args().First()).hint("name the directory with --dir DIR")
			}
			return runInit(env, dir, style, asJSON)
		},
	}
}

// initResult is `git adr init --json`.
type initResult struct {
	Config  string           `json:"config"`
	Pinned  []adr.PinnedRoot `json:"pinned"`
	Created []string         `json:"created"`
}

func runInit(env *Env, dir, styleName string, asJSON bool) error {
	var style adr.Style
	if styleName != "" {
		s, ok := adr.ParseStyle(styleName)
		if !ok {
			return usagef("--style %q is not a style", styleName).hint("use one of: nygard, madr, madr2, table, ocp")
		}
		style = s
	}
	repo, err := env.Repo()
	if err != nil {
		return err
	}
	if err := env.lockWrites(); err != nil {
		return err
	}
	wt := repo.WorktreeFS()
	// Lstat: a link (even one leading out, which reads refuse) is there.
	if _, err := fs.Lstat(wt, adr.ConfigFile); err == nil {
		return failf("%s already exists; not overwriting it", adr.ConfigFile).
			hint("edit " + adr.ConfigFile + " by hand (docs/configuration.md), or start records with `git adr new TITLE`")
	}
	var roots []string
	if dir != "" {
		rel, ok := repo.Rel(dir)
		if !ok || rel == "" && dir != "." {
			return usagef("--dir %q is outside the repository %q", dir, repo.Top)
		}
		roots = []string{rel}
	}
	p, err := adr.PlanInit(wt, adr.InitOptions{Roots: roots, Cwd: repo.Prefix, Style: style, Today: today()})
	if p != nil && !asJSON {
		for _, pr := range p.Pinned {
			fmt.Fprintf(env.Out, "pinned %s (%d records, %s)\n", adr.Escape(pr.Root), pr.Records, pr.Style)
		}
	}
	var se *adr.SectionError
	if errors.As(err, &se) {
		return lifecycleErr(err)
	}
	if err != nil {
		return err
	}
	if err := applyChanges(env, p.Changes); err != nil {
		return err
	}
	if asJSON {
		res := initResult{Config: adr.ConfigFile, Pinned: p.Pinned, Created: []string{}}
		if res.Pinned == nil {
			res.Pinned = []adr.PinnedRoot{}
		}
		for _, c := range p.Changes[1:] {
			res.Created = append(res.Created, c.Path)
		}
		return writeJSON(env.Out, res)
	}
	fmt.Fprintf(env.Out, "wrote %s\n", env.display(adr.ConfigFile))
	for _, p := range p.Created {
		fmt.Fprintln(env.Out, adr.Escape(env.display(p)))
	}
	return nil
}
