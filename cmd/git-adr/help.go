package main

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/xrash/smetrics"
)

func helpCommand(env *Env) *cli.Command {
	var man bool
	var manDir string
	return &cli.Command{
		Name:      "help",
		Usage:     "show help for git-adr or one of its commands; --man prints the manual page",
		ArgsUsage: "[COMMAND [SUBCOMMAND]]",
		Description: `git turns ` + "`git adr --help`" + ` into ` + "`git help adr`" + `, which opens the manual page
git-adr.1. Install the pages next to the binary, where man finds them
through PATH (the deb and rpm packages install them in /usr/share/man):

   git adr help --man-dir "$(go env GOPATH)/share/man/man1"

--man prints one page: git-adr.1, or git-adr-new.1 for ` + "`--man new`" + `
(git-adr-nav-search.1 for ` + "`--man nav search`" + `).`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "man", Usage: "print the manual page (roff): git-adr.1, or git-adr-COMMAND.1 for a COMMAND", Destination: &man},
			&cli.StringFlag{Name: "man-dir", Usage: "write every manual page (git-adr.1 and one per command) into `DIR`", Destination: &manDir},
		},
		Action: func(c *cli.Context) error {
			if manDir != "" {
				return writeManPages(env, c.App, manDir)
			}
			if man {
				page, err := manPageFor(c.App, c.Args().Slice())
				if err != nil {
					return err
				}
				_, err = fmt.Fprint(env.Out, page)
				return err
			}
			args := c.Args().Slice()
			if len(args) == 0 {
				return cli.ShowAppHelp(c)
			}
			cmds, path := c.App.Commands, "git adr"
			var cmd *cli.Command
			for _, a := range args {
				cmd = findCommand(cmds, a)
				if cmd == nil {
					return unknownCommand(path, a, cmds)
				}
				cmds, path = cmd.Subcommands, path+" "+cmd.Name
			}
			// Help of a command is printed by running it with -h, so that
			// subcommands print as they do on their own.
			return c.App.Run(append([]string{"git-adr"}, append(args, "-h")...))
		},
	}
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// unknownCommand is the usage error for a mistyped command, with the
// closest command when one is close enough.
func unknownCommand(parent, name string, cmds []*cli.Command) error {
	e := usagef("unknown command %q", name)
	if s := closest(name, commandNames(cmds)); s != "" {
		e.hint(fmt.Sprintf("did you mean `%s %s`?", parent, s))
	}
	return e.hint(fmt.Sprintf("run `%s` to list commands", strings.Replace(parent, "git adr", "git adr help", 1)))
}

func commandNames(cmds []*cli.Command) []string {
	var names []string
	for _, c := range cmds {
		if !c.Hidden {
			names = append(names, c.Names()...)
		}
	}
	return names
}

// flagSuggestion is the flag of cmd closest to a mistyped one ("--colour"
// gives "--color"), or "".
func flagSuggestion(flags []cli.Flag, typed string) string {
	var names []string
	for _, f := range flags {
		names = append(names, f.Names()...)
	}
	s := closest(strings.TrimLeft(typed, "-"), names)
	switch {
	case s == "":
		return ""
	case len(s) == 1:
		return "-" + s
	}
	return "--" + s
}

// closest is the candidate most similar to s (Jaro-Winkler, the measure
// urfave/cli and many CLIs use), when similar enough to be a typo.
func closest(s string, candidates []string) string {
	best, score := "", 0.0
	for _, c := range candidates {
		if d := smetrics.JaroWinkler(s, c, 0.7, 4); d > score {
			best, score = c, d
		}
	}
	if score < 0.8 {
		return ""
	}
	return best
}

// buildVersion is the version stamped at link time, else the module
// version `go install module@version` records, else "dev".
func buildVersion() string {
	if version != "dev" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		rev, dirty := "", false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if len(rev) >= 12 {
			v := "dev+" + rev[:12]
			if dirty {
				v += ".dirty"
			}
			return v
		}
	}
	return "dev"
}
