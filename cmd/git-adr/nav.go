package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/jsoncost"
	"github.com/git-adr/git-adr/navigate"
	"github.com/urfave/cli/v2"
)

func navCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "nav",
		Usage:     "search, list and read the repository's files in bounded pages",
		ArgsUsage: "search|ls|read",
		Description: `Bounded navigation for people and coding agents: every answer is small, says
when it is incomplete and how to continue. Paths are relative to the current
directory and confined to the repository: "..", absolute paths and symbolic
links leading outside it, and .git, are refused. The same operations are MCP
tools (adr_search, adr_list, adr_read) in ` + "`git adr mcp`" + `.

Examples:
   git adr nav search "func Open" --glob '*.go'
   git adr nav ls docs
   git adr nav read README.md --start-line 201`,
		Subcommands: []*cli.Command{navSearchCommand(env), navLsCommand(env), navReadCommand(env)},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("nav needs a subcommand: search, ls or read").hint("run `git adr nav -h` for usage")
			}
			return usagef("unknown nav subcommand %q", c.Args().First()).hint("use search, ls or read; run `git adr nav -h` for usage")
		},
	}
}

// navTree opens the repository as a navigation tree seen from the current
// directory ([navigate.OpenAt]).
func navTree(env *Env) (*navigate.Tree, func(), error) {
	repo, err := env.Repo()
	if err != nil {
		return nil, nil, err
	}
	return navigate.OpenAt(repo.Top, repo.Prefix)
}

// navFlags names the arguments of navigate errors as the command line
// spells them.
var navFlags = map[string]string{
	"pattern":    "PATTERN",
	"glob":       "--glob",
	"path":       "path",
	"after":      "--after",
	"start_line": "--start-line",
	"line_count": "--line-count",
}

// navErr turns a navigate error into a command error: bad arguments and
// paths are usage errors (exit 2), files that cannot be served are
// failures (exit 1); both with hints.
func navErr(err error, cmd string) error {
	var ae *navigate.ArgError
	var re *navigate.RangeError
	switch {
	case errors.As(err, &ae):
		e := usagef("%s %s %s", navFlags[ae.Arg], ae.Value, ae.Problem)
		switch ae.Arg {
		case "start_line", "line_count":
			e.hint(fmt.Sprintf("--start-line is 1 or more; --line-count is 1 to %d", navigate.MaxReadLines))
		case "glob":
			e.hint("use a glob such as '*.go' or 'docs/*.md' (quoted, so the shell leaves it alone)")
		case "pattern":
			e.hint("search for one line of literal text; `git adr nav search -- -x` finds text starting with a dash")
		case "after":
			e.hint("pass the name the previous page ended with")
		}
		return e
	case errors.As(err, &re):
		last := max(re.TotalLines, 1)
		return usagef("--start-line %d is past the end of %q (%s)", re.StartLine, re.Path, plural(re.TotalLines, "line")).
			hint(fmt.Sprintf("the last page starts at line %d or before: `git adr nav read %s --start-line %d`", last, adr.ShellWord(re.Path), last))
	case errors.Is(err, navigate.ErrOutside):
		return usagef("%v", err).hint("paths are relative to the current directory and must stay inside the repository")
	case errors.Is(err, navigate.ErrGitDir):
		return usagef("%v", err).hint("nav serves the work tree; use git commands for git's own data")
	case errors.Is(err, navigate.ErrNotFound):
		return usagef("%v", err).hint("run `git adr nav ls` to see what is there, or `git adr nav search TEXT` to find a file")
	case errors.Is(err, navigate.ErrIsDir):
		return usagef("%v", err).hint("list a directory with `git adr nav ls DIR`")
	case errors.Is(err, navigate.ErrNotDir):
		return usagef("%v", err).hint("read a file with `git adr nav read FILE`")
	case errors.Is(err, navigate.ErrLineTooLong), errors.Is(err, navigate.ErrTooLarge):
		return failf("%v", err).hint("find lines in it with `git adr nav search --path FILE TEXT`, which shows an excerpt around each match")
	case errors.Is(err, navigate.ErrBinary), errors.Is(err, navigate.ErrNotUTF8), errors.Is(err, navigate.ErrNotRegular):
		return failf("%v", err).hint("nav reads UTF-8 text files only")
	}
	return failf("%s: %v", cmd, err)
}

// Every answer of nav, text or JSON, stays within navigate.DefaultBudget
// code points as printed on stdout (notes on stderr are not counted), the
// rule MCP tools follow for their whole message.

// jsonSize counts the code points of v as writeJSON prints it.
func jsonSize[T any](v *T) int {
	var b bytes.Buffer
	if err := writeJSON(&b, v); err != nil {
		return 1 << 30
	}
	return utf8.RuneCount(b.Bytes())
}

// jsonItemCost counts one element of a list as writeJSON prints it at the
// second level of indentation, separator included.
func jsonItemCost(v any) int {
	b, err := json.MarshalIndent(v, "    ", "  ")
	if err != nil {
		return 1 << 30
	}
	return utf8.RuneCount(b) + len(",\n    ")
}

// jsonLineCost counts a line of read content inside a JSON string.
func jsonLineCost(v any) int { s, _ := v.(string); return jsoncost.String(s, 1) }

// textLineCost counts a line of read content as printed on a terminal.
func textLineCost(v any) int { s, _ := v.(string); return utf8.RuneCountInString(adr.EscapeBody(s)) }

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
