package main

import (
	"errors"
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/workspace"
	"github.com/urfave/cli/v2"
)

// workspaceRemoveCommand is `git adr workspace remove`.
func workspaceRemoveCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name: "remove", Usage: "take a repository out of a workspace file", ArgsUsage: "NAME [FILE]",
		Description: `Takes the [[repo]] named NAME out of the workspace file FILE (else
--workspace or GIT_ADR_WORKSPACE): the lines of its block go, with the
comment lines just above it; every other line stays. The file is edited
under its lock (FILE.lock), as add edits it, and written whole; one that
writes its repositories another way (an inline array) is left to an
editor. A mirror the repository had stays in the cache until
git adr workspace prune.

Examples:
   git adr workspace remove legacy-billing
   git adr workspace prune`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON (docs/commands/workspace.md gives its fields)"}},
		Action: func(c *cli.Context) error {
			if c.NArg() < 1 || c.NArg() > 2 {
				return usagef("workspace remove takes a NAME and at most one FILE, got %d arguments", c.NArg()).hint("git adr workspace remove payments [FILE]")
			}
			if c.NArg() == 2 {
				env.Workspace = c.Args().Get(1)
			}
			if !env.acrossWorkspace(true) {
				return usagef("no workspace file named").hint("name the FILE after the NAME, or pass --workspace FILE (or set " + workspace.EnvVar + ")")
			}
			return runWorkspaceRemove(env, c.Args().First(), c.Bool("json"))
		},
	}
}

// wsRemoveJSON is what `workspace remove --json` prints.
type wsRemoveJSON struct {
	File string `json:"file"`
	wsMemberJSON
}

func runWorkspaceRemove(env *Env, name string, asJSON bool) error {
	shown := env.Workspace
	gone, err := workspace.Remove(env.underDir(shown), name, env.command)
	if err != nil {
		var we *workspace.Error
		if errors.As(err, &we) {
			we.File = shown
		}
		if errors.Is(err, workspace.ErrNotEditable) {
			return failf("%v", err).hint("its [[repo]] blocks are what remove edits; take the repository out in an editor")
		}
		if le := fileLockErr(err); le != nil {
			return le
		}
		return wsErr(err)
	}
	if asJSON {
		return writeJSON(env.Out, wsRemoveJSON{File: shown, wsMemberJSON: memberJSON(gone)})
	}
	fmt.Fprintf(env.Out, "removed %s: %s\n", adr.Escape(gone.Name), adr.Escape(gone.Source()))
	if gone.Remote() {
		fmt.Fprintf(env.Out, "its mirror stays until: git adr workspace prune\n")
	}
	return nil
}
