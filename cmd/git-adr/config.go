package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/guard"
	"github.com/git-adr/git-adr/hooks"
)

func configCommand(env *Env) *cli.Command {
	var local, global, asJSON bool
	return &cli.Command{
		Name:  "config",
		Usage: "show or change git-adr settings: the read guard's mode",
		Subcommands: []*cli.Command{{
			Name:      "guard",
			Usage:     "show or set the read guard's mode: off, warn or guard",
			ArgsUsage: "[off|warn|guard]",
			Description: `Without a mode, prints the mode in effect and where it comes from. With one,
writes it to .adr.toml ([guard] mode), the project's shared setting, with a
minimal edit; --local or --global write git config adr.guard.mode instead, a
person's own setting, which takes precedence over .adr.toml (so a repository
cannot weaken what you set). Only this command changes the mode: compaction
and the other commands never do, and the guard refuses it to agents.

   off    judge nothing (the default)
   warn   let every call run, with guidance once per session
   guard  refuse archived-record reads, unscoped reads and searches of the
          ADR roots, and the commands only a person may run

Examples:
   git adr config guard guard
   git adr config guard warn --global
   git adr config guard --json`,
			Flags: []cli.Flag{
				&cli.BoolFlag{Name: "local", Usage: "write git config adr.guard.mode in this repository's .git/config", Destination: &local},
				&cli.BoolFlag{Name: "global", Usage: "write git config adr.guard.mode in your global git config", Destination: &global},
				&cli.BoolFlag{Name: "json", Usage: "print the mode in effect as JSON", Destination: &asJSON},
			},
			Action: func(c *cli.Context) error {
				if local && global {
					return usagef("--local and --global are mutually exclusive")
				}
				switch c.NArg() {
				case 0:
					if local || global {
						return usagef("--local and --global need a mode").hint("for example `git adr config guard warn --local`")
					}
					return runConfigGuardShow(env, asJSON)
				case 1:
				default:
					return usagef("config guard takes one mode, got %d arguments", c.NArg()).hint("for example `git adr config guard warn`")
				}
				m, ok := guard.ParseMode(c.Args().First())
				if !ok {
					return usagef("mode %q is not off, warn or guard", c.Args().First()).hint("for example `git adr config guard warn`")
				}
				scope := ""
				switch {
				case local:
					scope = "local"
				case global:
					scope = "global"
				}
				return runConfigGuardSet(env, m, scope, asJSON)
			},
		}},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("config needs a setting: guard").hint("run `git adr config guard` to see the read guard's mode")
			}
			return usagef("unknown setting %q: the one setting is guard", c.Args().First()).
				hint("other settings are in .adr.toml (docs/configuration.md)")
		},
	}
}

// guardModeReport is `git adr config guard --json`.
type guardModeReport struct {
	Mode   guard.Mode   `json:"mode"`
	Source guard.Source `json:"source"`
	Scope  string       `json:"scope,omitempty"`
	// FileMode is what .adr.toml sets ("" when nothing).
	FileMode guard.Mode `json:"file_mode,omitempty"`
}

func runConfigGuardShow(env *Env, asJSON bool) error {
	r, err := env.Repo()
	if err != nil {
		return err
	}
	s, err := hooks.GuardSetting(r)
	if err != nil {
		return usagef("the guard mode cannot be read: %v", err).hint("fix it, or set it with `git adr config guard MODE`")
	}
	if asJSON {
		return writeJSON(env.Out, guardModeReport{Mode: s.Mode, Source: s.Source, Scope: s.Scope, FileMode: s.File})
	}
	fmt.Fprintln(env.Out, s)
	if s.Source == guard.FromGitConfig && s.File != "" && s.File != s.Mode {
		fmt.Fprintf(env.Out, "(.adr.toml says %s; git config adr.guard.mode overrides it)\n", s.File)
	}
	return nil
}

func runConfigGuardSet(env *Env, m guard.Mode, scope string, asJSON bool) error {
	r, err := env.Repo()
	if err != nil {
		return err
	}
	if err := env.lockWrites(); err != nil {
		return err
	}
	if scope != "" {
		if err := r.SetConfig(scope, guard.GitKey, string(m)); err != nil {
			return failf("%v", err)
		}
	} else {
		changes, err := hooks.GuardFileChanges(r, m)
		var be *guard.BadConfigError
		var ce *adr.ConfigError
		switch {
		case errors.As(err, &be) && errors.As(err, &ce):
			return usagef("%v", err).hint("fix " + adr.ConfigFile + " first; docs/configuration.md describes it")
		case errors.As(err, &be):
			return usagef("%v", err)
		case err != nil:
			return failf("%v", err)
		}
		if len(changes) > 0 {
			if err := applyChanges(env, changes); err != nil {
				return err
			}
		}
	}
	s, err := hooks.GuardSetting(r)
	if err != nil {
		return failf("the mode was written, but reads back as an error: %v", err)
	}
	if asJSON {
		return writeJSON(env.Out, guardModeReport{Mode: s.Mode, Source: s.Source, Scope: s.Scope, FileMode: s.File})
	}
	where := adr.ConfigFile
	if scope != "" {
		where = "git config --" + scope + " " + guard.GitKey
	}
	fmt.Fprintf(env.Out, "guard mode %s written to %s\n", m, where)
	if s.Mode != m {
		fmt.Fprintf(env.Err, "git-adr: note: the mode in effect is %s: git config %s (%s) takes precedence over %s\n", s, guard.GitKey, s.Scope, adr.ConfigFile)
	}
	return nil
}
