package main

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/workspace"
	"github.com/urfave/cli/v2"
)

// workspaceAddCommand is `git adr workspace add`.
func workspaceAddCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name: "add", Usage: "add a repository to a workspace file", ArgsUsage: "(FOLDER | URL) [FILE]",
		Description: `Appends a [[repo]] to the workspace file FILE (else --workspace or
GIT_ADR_WORKSPACE, else ` + workspace.DefaultFile + ` here), making the file when
it is not there. A folder that exists is a local clone, named by its path
relative to the file (it must be inside the file's folder); anything else is
a remote repository's URL, which sync mirrors. The name is the folder's or
the URL's last word, made unique, unless --name says. The file's comments and
layout are kept; it is edited under a lock (FILE.lock), so that adds at once
all land, and written whole. A repository the file names already, a name
taken and a file that does not load are refused, and nothing is written.

Examples:
   git adr workspace add ../payments
   git adr workspace add --ref main https://git.example.com/platform/platform.git
   git adr workspace sync`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "name", Usage: "name the repository `NAME` (it qualifies IDs as NAME:ADR-0001)"},
			&cli.StringFlag{Name: "ref", Usage: "read `REF` (a branch, a tag or a full ref) rather than HEAD, or a local clone's work tree"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON (docs/commands/workspace.md gives its fields)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() < 1 || c.NArg() > 2 {
				return usagef("workspace add takes a FOLDER or URL and at most one FILE, got %d arguments", c.NArg()).hint("git adr workspace add ../payments [FILE]")
			}
			if c.NArg() == 2 {
				env.Workspace = c.Args().Get(1)
			}
			env.acrossWorkspace(true)
			return runWorkspaceAdd(env, c.Args().First(), c.String("name"), c.String("ref"), c.Bool("json"))
		},
	}
}

// wsAddJSON is what `workspace add --json` prints.
type wsAddJSON struct {
	File    string `json:"file"`
	Created bool   `json:"created"`
	wsMemberJSON
}

func runWorkspaceAdd(env *Env, target, name, ref string, asJSON bool) error {
	shown := cmp.Or(env.Workspace, workspace.DefaultFile)
	added, created, err := workspace.Add(env.underDir(shown), workspace.AddRequest{Target: target, Dir: cmp.Or(env.Dir, "."), Name: name, Ref: ref, Command: env.command})
	if err != nil {
		var we *workspace.Error
		if errors.As(err, &we) {
			we.File = shown
		}
		if errors.Is(err, workspace.ErrMadeMeanwhile) {
			return withCode(ExitConflict, fmt.Errorf("workspace %s: %w", shown, workspace.ErrMadeMeanwhile)).hint("nothing was written over it; run the add again: it adds to the file as it is now")
		}
		if le := fileLockErr(err); le != nil {
			return le
		}
		return wsErr(err)
	}
	if added.ShownURL() != added.URL {
		fmt.Fprintf(env.Err, "git-adr: warning: the file holds the credentials of %s; a credential helper keeps them out of it (git help credentials)\n", adr.Escape(added.ShownURL()))
	}
	if asJSON {
		return writeJSON(env.Out, wsAddJSON{File: shown, Created: created, wsMemberJSON: memberJSON(added)})
	}
	verb := "added"
	if created {
		verb = "wrote " + shown + " and added"
	}
	fmt.Fprintf(env.Out, "%s %s: %s\n", adr.Escape(verb), adr.Escape(added.Name), adr.Escape(added.Source()))
	if added.Remote() {
		fmt.Fprintf(env.Out, "next: git adr workspace sync %s\n", adr.Escape(shellQuote(shown)))
	} else {
		fmt.Fprintf(env.Out, "next: git adr --workspace %s list\n", adr.Escape(shellQuote(shown)))
	}
	return nil
}

// fileLockErr explains a workspace file's lock (FILE.lock) that an add, a
// remove or an init --force could not take; nil when err is no lock error.
func fileLockErr(err error) error {
	var le *gitops.LockError
	if !errors.As(err, &le) {
		return nil
	}
	if le.Unreadable || le.Unverifiable {
		return withCode(ExitConflict, err).hint(fmt.Sprintf("nothing was changed; if no `git adr workspace add`, `remove` or `init --force` of this file is running, remove the lock: `rm %s`", le.Path))
	}
	return withCode(ExitConflict, err).hint("nothing was changed; run the command again once the other has finished")
}
