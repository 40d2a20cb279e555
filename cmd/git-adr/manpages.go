package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/urfave/cli/v2"
)

// manPage renders git-adr.1 from the command tree, with a SEE ALSO section
// naming the page of every command.
func manPage(app *cli.App) (string, error) {
	saved := app.Name
	app.Name = "git-adr"
	defer func() { app.Name = saved }()
	page, err := app.ToManWithSection(1)
	if err != nil {
		return "", err
	}
	// One page a line, unfilled: filled text would break names at their
	// hyphens.
	var refs []string
	for _, p := range manPaths(app.Commands, nil) {
		refs = append(refs, `\fB`+manName(p)+`\fP(1)`)
	}
	return page + "\n.SH SEE ALSO\n.nf\n" + strings.Join(refs, "\n") + "\n.fi\n", nil
}

// manPaths lists the visible commands and subcommands, depth first:
// [new] [nav] [nav search] ...
func manPaths(cmds []*cli.Command, parent []string) [][]string {
	var out [][]string
	for _, c := range cmds {
		// urfave/cli adds a "help" subcommand to commands with
		// subcommands; `git adr help` documents them.
		if c.Hidden || len(parent) > 0 && c.Name == "help" {
			continue
		}
		p := append(append([]string(nil), parent...), c.Name)
		out = append(out, p)
		out = append(out, manPaths(c.Subcommands, p)...)
	}
	return out
}

func manName(path []string) string { return "git-adr-" + strings.Join(path, "-") }

// manPageFor is git-adr.1 without a command path, else the page of the
// command it names (git-adr-nav-search.1 for [nav search]).
func manPageFor(app *cli.App, path []string) (string, error) {
	if len(path) == 0 {
		return manPage(app)
	}
	cmds, at := app.Commands, "git adr"
	var cmd *cli.Command
	for _, name := range path {
		cmd = findCommand(cmds, name)
		if cmd == nil {
			return "", unknownCommand(at, name, cmds)
		}
		cmds, at = cmd.Subcommands, at+" "+cmd.Name
	}
	names := make([]string, 0, len(path))
	for _, c := range strings.Fields(strings.TrimPrefix(at, "git adr ")) {
		names = append(names, c)
	}
	return commandManPage(names, cmd)
}

// commandManPage renders the page of one command as a page of its own.
func commandManPage(path []string, cmd *cli.Command) (string, error) {
	usage := "git adr " + strings.Join(path, " ")
	if len(cmd.VisibleFlags()) > 0 {
		usage += " [OPTIONS]"
	}
	if len(cmd.Subcommands) > 0 {
		usage += " COMMAND"
	}
	if cmd.ArgsUsage != "" {
		usage += " " + cmd.ArgsUsage
	}
	app := &cli.App{
		Name:            manName(path),
		Usage:           cmd.Usage,
		UsageText:       usage,
		Description:     cmd.Description,
		Flags:           cmd.Flags,
		Commands:        cmd.Subcommands,
		HideHelpCommand: true,
		HideVersion:     true,
	}
	page, err := app.ToManWithSection(1)
	if err != nil {
		return "", err
	}
	page = strings.Replace(page, ".SH GLOBAL OPTIONS", ".SH OPTIONS", 1)
	return page + "\n.SH SEE ALSO\n\\fBgit-adr\\fP(1)\n", nil
}

// writeManPages writes git-adr.1 and every command's page into dir
// (created when missing), a path the user named (see writeNamedFiles).
func writeManPages(env *Env, app *cli.App, dir string) error {
	pages := map[string]func() (string, error){"git-adr": func() (string, error) { return manPage(app) }}
	names := []string{"git-adr"}
	for _, p := range manPaths(app.Commands, nil) {
		cmd := lookupPath(app.Commands, p)
		pages[manName(p)] = func() (string, error) { return commandManPage(p, cmd) }
		names = append(names, manName(p))
	}
	var files []namedFile
	for _, n := range names {
		page, err := pages[n]()
		if err != nil {
			return err
		}
		files = append(files, namedFile{Path: filepath.Join(dir, n+".1"), Data: []byte(page)})
	}
	changed, err := writeNamedFiles(env, files)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Out, "wrote %d manual pages into %s (%d changed)\n", len(names), adr.Escape(dir), changed)
	return nil
}

func lookupPath(cmds []*cli.Command, path []string) *cli.Command {
	var cmd *cli.Command
	for _, n := range path {
		cmd = findCommand(cmds, n)
		if cmd == nil {
			return nil
		}
		cmds = cmd.Subcommands
	}
	return cmd
}
