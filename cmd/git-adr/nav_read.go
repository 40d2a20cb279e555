package main

import (
	"fmt"
	"io"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/navigate"
	"github.com/urfave/cli/v2"
)

type navReadOptions struct {
	startLine int
	lineCount int
	json      bool
}

func navReadCommand(env *Env) *cli.Command {
	var o navReadOptions
	return &cli.Command{
		Name:      "read",
		Usage:     "print lines of a text file, a bounded page at a time",
		ArgsUsage: "FILE",
		Description: fmt.Sprintf(`Prints whole lines of FILE exactly as stored (line ends, CRLF, a byte-order
mark and a missing final newline included), from --start-line (default 1),
at most --line-count lines (default and most %d), and only as many as fit
in 12,000 code points as printed (JSON escaping counted with --json). When more
follow, a note on stderr names the --start-line that continues, so the output
of consecutive pages concatenates to the file byte for byte. Control
characters other than tabs and line ends (ESC, BEL, a lone CR, bidi
overrides) are printed escaped, as \x1b or \u202e; --json has the exact text.

Files must be UTF-8 text of at most 1 MiB; binary files are refused with the
offset of their first NUL byte, and a single line over 32 KiB with its size.
--json prints the content and its metadata separately:
{path, start_line, line_count, content, next_start_line, total_lines, eol,
final_newline}.

Examples:
   git adr nav read README.md
   git adr nav read cmd/git-adr/app.go --start-line 120 --line-count 40
   git adr nav read go.mod --json`, navigate.MaxReadLines),
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "start-line", Value: 1, Usage: "first line to print, numbered from `N`=1", Destination: &o.startLine},
			&cli.IntFlag{Name: "line-count", Value: navigate.MaxReadLines, Usage: fmt.Sprintf("print at most `M` lines (1 to %d)", navigate.MaxReadLines), Destination: &o.lineCount},
			&cli.BoolFlag{Name: "json", Usage: "print the page and its metadata as JSON", Destination: &o.json},
		},
		Action: func(c *cli.Context) error {
			switch c.NArg() {
			case 0:
				return usagef("read needs a FILE").hint("run `git adr nav ls` to see files")
			case 1:
			default:
				return usagef("read takes one FILE, got %d arguments", c.NArg()).hint("read one file at a time")
			}
			return runNavRead(env, c.Args().First(), o)
		},
	}
}

func runNavRead(env *Env, file string, o navReadOptions) error {
	tree, done, err := navTree(env)
	if err != nil {
		return err
	}
	defer done()
	ro := navigate.ReadOptions{StartLine: o.startLine, LineCount: o.lineCount, Budget: navigate.Budget{Cost: textLineCost}}
	measure := func(pg *navigate.Page) int { return textLineCost(pg.Content) }
	if o.json {
		ro.Budget.Cost, measure = jsonLineCost, jsonSize[navigate.Page]
	}
	pg, err := tree.ReadWithin(file, ro, navigate.DefaultBudget, measure)
	if err != nil {
		return navErr(err, "read")
	}
	if o.json {
		return writeJSON(env.Out, pg)
	}
	if _, err := io.WriteString(env.Out, adr.EscapeBody(pg.Content)); err != nil {
		return err
	}
	if pg.NextStartLine != nil {
		fmt.Fprintf(env.Err, "git-adr: note: lines %d-%d of %d; continue with `git adr nav read %s --start-line %d`\n",
			pg.StartLine, pg.StartLine+pg.LineCount-1, pg.TotalLines, adr.Escape(adr.ShellWord(file)), *pg.NextStartLine)
	}
	return nil
}
