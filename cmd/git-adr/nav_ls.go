package main

import (
	"fmt"
	"io"
	"path"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/navigate"
	"github.com/urfave/cli/v2"
)

type navLsOptions struct {
	after string
	json  bool
}

func navLsCommand(env *Env) *cli.Command {
	var o navLsOptions
	return &cli.Command{
		Name:      "ls",
		Usage:     "list a directory, sorted, a page at a time",
		ArgsUsage: "[DIR]",
		Description: fmt.Sprintf(`Prints one line per entry of DIR (default: the current directory): its type
(file, dir, symlink, other), its size in bytes (files only) and its name,
sorted by name (byte order). At most %d entries, and at most 16 KiB of JSON,
form a page; when more follow, a note names the --after value that continues.
.git is never listed. Symbolic links are listed, not followed.

Examples:
   git adr nav ls
   git adr nav ls docs/adr --json
   git adr nav ls big-folder --after f0199.txt`, navigate.MaxListEntries),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "after", Usage: "list only names sorting after `NAME` (the previous page's last name)", Destination: &o.after},
			&cli.BoolFlag{Name: "json", Usage: "print {entries: [{name, type, size}], next_after}", Destination: &o.json},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usagef("ls takes at most one DIR, got %d arguments", c.NArg()).hint("list one directory at a time")
			}
			return runNavLs(env, c.Args().First(), o)
		},
	}
}

func runNavLs(env *Env, dir string, o navLsOptions) error {
	tree, done, err := navTree(env)
	if err != nil {
		return err
	}
	defer done()
	p := dir
	if p == "" {
		p = "."
	}
	lo := navigate.ListOptions{After: o.after, Budget: navigate.Budget{Cost: func(v any) int { return utf8.RuneCountInString(entryLine(v.(navigate.Entry))) }}}
	measure := func(l *navigate.Listing) int {
		n := 0
		for _, e := range l.Entries {
			n += utf8.RuneCountInString(entryLine(e))
		}
		return n
	}
	if o.json {
		lo.Budget.Cost, measure = jsonItemCost, jsonSize[navigate.Listing]
	}
	l, err := tree.ListWithin(p, lo, navigate.DefaultBudget, measure)
	if err != nil {
		return navErr(err, "ls")
	}
	if o.json {
		return writeJSON(env.Out, l)
	}
	for _, e := range l.Entries {
		io.WriteString(env.Out, entryLine(e))
	}
	if l.NextAfter != nil {
		cmd := "git adr nav ls"
		if dir != "" {
			cmd += " " + adr.ShellWord(path.Clean(dir))
		}
		fmt.Fprintf(env.Err, "git-adr: note: more entries follow; continue with `%s --after %s`\n", adr.Escape(cmd), adr.Escape(adr.ShellWord(*l.NextAfter)))
	}
	return nil
}

// entryLine prints an entry: type, size, name.
func entryLine(e navigate.Entry) string {
	size := "-"
	if e.Size != nil {
		size = fmt.Sprint(*e.Size)
	}
	return fmt.Sprintf("%-7s %10s  %s\n", e.Type, size, adr.Escape(e.Name))
}
