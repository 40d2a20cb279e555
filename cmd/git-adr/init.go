package main

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/urfave/cli/v2"
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
	Config  string       `json:"config"`
	Pinned  []pinnedRoot `json:"pinned"`
	Created []string     `json:"created"`
}

type pinnedRoot struct {
	Root    string `json:"root"`
	Records int    `json:"records"`
	Style   string `json:"style"`
}

func runInit(env *Env, dir, styleName string, asJSON bool) error {
	res := initResult{Config: adr.ConfigFile, Pinned: []pinnedRoot{}, Created: []string{}}
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
	// Discover with the same rules as every command; --dir names the root.
	l, err := adr.LoadWithConfig(wt, &adr.Config{}, adr.LoadOptions{Roots: roots, Cwd: repo.Prefix, AllowMissing: true})
	if err != nil {
		return err
	}
	if len(l.Roots) == 0 {
		if l, err = adr.LoadWithConfig(wt, &adr.Config{}, adr.LoadOptions{Roots: []string{"doc/adr"}, AllowMissing: true}); err != nil {
			return err
		}
	}
	var changes []adr.FileChange
	var cfg strings.Builder
	cfg.WriteString("# git-adr configuration; every key is described in docs/configuration.md\n")
	var created []string
	// adr-tools finds a log outside doc/adr through .adr-dir: one is
	// written for the first nygard root there, pinned or new.
	adrDir := func(root *adr.Root, s adr.Style) {
		if s != adr.StyleNygard || root.Path == "doc/adr" {
			return
		}
		if _, err := fs.Lstat(wt, ".adr-dir"); err == nil {
			return
		}
		for _, c := range changes {
			if c.Path == ".adr-dir" {
				return
			}
		}
		changes = append(changes, adr.FileChange{Path: ".adr-dir", New: []byte(root.Dir() + "\n")})
		created = append(created, ".adr-dir")
	}
	for _, root := range l.Roots {
		if root.File {
			// A single-file log is pinned as it is: it has no style of
			// new records, and git-adr writes none into it.
			if len(root.Records) == 0 {
				return lifecycleErr(adr.WritableRoot(root, "init"))
			}
			fmt.Fprintf(&cfg, "\n[[roots]]\npath = %q\n", root.Dir())
			res.Pinned = append(res.Pinned, pinnedRoot{Root: root.Dir(), Records: len(root.Records), Style: string(root.Style)})
			if !asJSON {
				fmt.Fprintf(env.Out, "pinned %s (%d records, %s)\n", adr.Escape(root.Dir()), len(root.Records), root.Style)
			}
			continue
		}
		s := root.Style
		if style != "" {
			s = style
		}
		if len(root.Records) == 0 && style == "" {
			s = adr.StyleNygard
		}
		fmt.Fprintf(&cfg, "\n[[roots]]\npath = %q\nstyle = %q\n", root.Dir(), s)
		if root.Name != "" {
			fmt.Fprintf(&cfg, "name = %q\n", root.Name)
		}
		if len(root.Records) > 0 {
			res.Pinned = append(res.Pinned, pinnedRoot{Root: root.Dir(), Records: len(root.Records), Style: string(s)})
			if !asJSON {
				fmt.Fprintf(env.Out, "pinned %s (%d records, %s)\n", adr.Escape(root.Dir()), len(root.Records), s)
			}
			adrDir(root, s)
			continue
		}
		root.Style = s
		rec, ch, _, err := l.NewRecord(adr.NewOptions{
			Title: "Record architecture decisions", Root: root, Style: s, Status: adr.Accepted,
			Date: today(), Number: 1, Body: adr.InitBody(s),
		})
		if err != nil {
			return err
		}
		changes = append(changes, ch...)
		created = append(created, rec.Path)
		adrDir(root, s)
	}
	changes = append([]adr.FileChange{{Path: adr.ConfigFile, New: []byte(cfg.String())}}, changes...)
	if err := applyChanges(env, changes); err != nil {
		return err
	}
	if asJSON {
		for _, c := range changes[1:] {
			res.Created = append(res.Created, c.Path)
		}
		return writeJSON(env.Out, res)
	}
	fmt.Fprintf(env.Out, "wrote %s\n", env.display(adr.ConfigFile))
	for _, p := range created {
		fmt.Fprintln(env.Out, adr.Escape(env.display(p)))
	}
	return nil
}
