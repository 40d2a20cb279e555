package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/navigate"
	"github.com/urfave/cli/v2"
)

type navSearchOptions struct {
	glob          string
	caseSensitive bool
	path          string
	json          bool
}

func navSearchCommand(env *Env) *cli.Command {
	var o navSearchOptions
	return &cli.Command{
		Name:      "search",
		Usage:     "find lines holding a literal text, with bounded results",
		ArgsUsage: "PATTERN",
		Description: fmt.Sprintf(`Prints path:line:text for each line holding PATTERN, matched literally (not
as a regular expression) and ignoring case unless --case-sensitive. Searches
the current directory, or --path DIR (or one file). Symbolic links, .git,
binary files and dependency/build folders (node_modules, vendor, build, dist,
target, .venv, ...) are skipped; name one with --path to search it.

Bounded: at most 10,000 directory entries, 1,000 files, 16 MiB and %d folder
levels are scanned and %d matches returned; a line longer than %d characters is
cut around the match. When a limit is hit a note says so and how to narrow the
search (--json: truncated, limits_hit, hint).

Examples:
   git adr nav search "func Open" --glob '*.go'
   git adr nav search TODO --path cmd --case-sensitive
   git adr nav search -- --json`,
			navigate.MaxDepth, navigate.MaxMatches, navigate.MaxExcerptRunes),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "glob", Usage: "only files whose name matches `GLOB` (*.go; with a slash: the path below the searched directory)", Destination: &o.glob},
			&cli.BoolFlag{Name: "case-sensitive", Usage: "match case exactly (default: ignore case)", Destination: &o.caseSensitive},
			&cli.StringFlag{Name: "path", Usage: "search `DIR` (or one file) instead of the current directory", Destination: &o.path},
			&cli.BoolFlag{Name: "json", Usage: "print {matches, truncated, limits_hit, hint}", Destination: &o.json},
		},
		Action: func(c *cli.Context) error {
			switch c.NArg() {
			case 0:
				return usagef("search needs a PATTERN").hint("run `git adr nav search TEXT`; quote text with spaces")
			case 1:
			default:
				return usagef("search takes one PATTERN, got %d arguments", c.NArg()).hint(fmt.Sprintf("quote text with spaces: `git adr nav search %s`", adr.ShellWord(strings.Join(c.Args().Slice(), " "))))
			}
			return runNavSearch(env, c.Args().First(), o)
		},
	}
}

func runNavSearch(env *Env, pattern string, o navSearchOptions) error {
	tree, done, err := navTree(env)
	if err != nil {
		return err
	}
	defer done()
	opts := navigate.SearchOptions{
		Pattern: pattern, Glob: o.glob, CaseSensitive: o.caseSensitive, Path: o.path,
		Words:  navigate.Words{Path: "--path", Glob: "--glob"},
		Budget: navigate.Budget{Cost: func(v any) int { return utf8.RuneCountInString(matchLine(v.(navigate.Match))) }},
	}
	measure := func(r *navigate.SearchResult) int {
		n := 0
		for _, m := range r.Matches {
			n += utf8.RuneCountInString(matchLine(m))
		}
		return n
	}
	if o.json {
		opts.Budget.Cost, measure = jsonItemCost, jsonSize[navigate.SearchResult]
	}
	res, err := tree.SearchWithin(opts, navigate.DefaultBudget, measure)
	if err != nil {
		return navErr(err, "search")
	}
	if o.json {
		return writeJSON(env.Out, res)
	}
	for _, m := range res.Matches {
		io.WriteString(env.Out, matchLine(m))
	}
	if len(res.Matches) == 0 && !res.Truncated {
		fmt.Fprintf(env.Err, "git-adr: note: no matches for %q\n", pattern)
	}
	if res.Hint != nil {
		fmt.Fprintf(env.Err, "git-adr: note: %s\n", *res.Hint)
	}
	return nil
}

// matchLine prints a match as grep does: path:line:text.
func matchLine(m navigate.Match) string {
	return fmt.Sprintf("%s:%d:%s\n", adr.Escape(m.Path), m.Line, adr.EscapeBody(m.Text))
}
