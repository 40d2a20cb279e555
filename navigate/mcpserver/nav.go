package mcpserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/git-adr/git-adr/navigate"
	"github.com/google/jsonschema-go/jsonschema"
)

// measureOn counts a navigation answer as s sends it: the whole JSON-RPC
// message.
func measureOn[T any](s *Server) navigate.Measure[T] {
	return func(v *T) int {
		text, err := encode(v)
		if err != nil {
			return 1 << 30
		}
		return s.TextCost(text)
	}
}

// itemCost counts one item of a result's JSON list, comma included.
func itemCost(v any) int { return ValueCost(v) + 1 }

// lineCost counts one line of a read's content.
func lineCost(v any) int { s, _ := v.(string); return InTextCost(s) }

// NavigationInstructions tell a model how to use the navigation tools.
const NavigationInstructions = `git-adr gives bounded, read-only access to this repository. Paths are relative to the repository root.
Navigate before editing: adr_search finds literal text (not a regular expression), adr_list lists a directory, adr_read reads a file in pages of at most 200 lines; every answer fits in 12,000 characters, so long files take several pages.
Copy exact text from adr_read content when you edit; reread a file before editing it again.
Continue a listing with after = next_after, a read with start_line = next_start_line. When a search says truncated, narrow it as its hint says instead of repeating it.`

type searchArgs struct {
	Pattern       string `json:"pattern" jsonschema:"the text to find; matched literally within one line, not as a regular expression"`
	Path          string `json:"path,omitempty" jsonschema:"a directory or file to search, relative to the repository root; default: the whole repository"`
	Glob          string `json:"glob,omitempty" jsonschema:"only files whose name matches this glob, such as *.go; with a slash it matches the path below the searched directory"`
	CaseSensitive bool   `json:"case_sensitive,omitempty" jsonschema:"match case exactly; by default case is ignored (Unicode simple folding)"`
}

type listArgs struct {
	Path  string `json:"path,omitempty" jsonschema:"the directory to list, relative to the repository root; default: the root"`
	After string `json:"after,omitempty" jsonschema:"list only names sorting after this one: pass next_after from the previous page"`
}

type readArgs struct {
	Path      string `json:"path" jsonschema:"the file to read, relative to the repository root"`
	StartLine *int   `json:"start_line,omitempty" jsonschema:"the first line to return, numbered from 1; default 1; pass next_start_line to continue"`
	LineCount *int   `json:"line_count,omitempty" jsonschema:"the most lines to return, 1 to 200; default 200; a page also stops before its message would pass 12,000 characters"`
}

// AddNavigation registers adr_search, adr_list and adr_read over tree
// (paths relative to its current directory, normally the repository root).
func AddNavigation(s *Server, tree *navigate.Tree) {
	Add(s, Tool[searchArgs]{
		Name:  "adr_search",
		Title: "Search the repository",
		Description: fmt.Sprintf("Find lines holding a literal text in the repository's files, with paths and 1-based line numbers. "+
			"Skips symbolic links, .git, binary files and dependency/build folders (%s) unless path names one. "+
			"Scans at most %d entries, %d files, 16 MiB and %d folder levels, and returns at most %d matches; "+
			"a long line is cut to %d characters around the match. Returns JSON {matches: [{path, line, text}], truncated, limits_hit, hint}.",
			"node_modules, vendor, build, dist, target, .venv ...", navigate.MaxScanEntries, navigate.MaxScanFiles, navigate.MaxDepth, navigate.MaxMatches, navigate.MaxExcerptRunes),
		BudgetHint: "narrow the search with path or glob",
		Handle: func(_ context.Context, a searchArgs) (any, error) {
			res, err := tree.SearchWithin(navigate.SearchOptions{Pattern: a.Pattern, Path: a.Path, Glob: a.Glob, CaseSensitive: a.CaseSensitive,
				Budget: navigate.Budget{Cost: itemCost}}, MessageBudget, measureOn[navigate.SearchResult](s))
			if err != nil {
				return nil, navError(err, "adr_search")
			}
			return res, nil
		},
	})
	Add(s, Tool[listArgs]{
		Name:  "adr_list",
		Title: "List a directory",
		Description: fmt.Sprintf("List one directory of the repository, sorted by name, at most %d entries a page. "+
			"Returns JSON {entries: [{name, type, size}], next_after}: type is file, dir, symlink or other; size is bytes for files, else null; "+
			"next_after is null on the last page, otherwise pass it as after to get the next page. .git is not listed.", navigate.MaxListEntries),
		Handle: func(_ context.Context, a listArgs) (any, error) {
			p := a.Path
			if p == "" {
				p = "."
			}
			l, err := tree.ListWithin(p, navigate.ListOptions{After: a.After, Budget: navigate.Budget{Cost: itemCost}}, MessageBudget, measureOn[navigate.Listing](s))
			if err != nil {
				return nil, navError(err, "adr_list")
			}
			return l, nil
		},
	})
	Add(s, Tool[readArgs]{
		Name:  "adr_read",
		Title: "Read a file",
		Description: fmt.Sprintf("Read whole lines of a UTF-8 text file (at most 1 MiB): at most %d lines a page, and only as many as fit in a message of 12,000 characters. "+
			"Returns JSON {path, start_line, line_count, content, next_start_line, total_lines, eol, final_newline}: content is exact, "+
			"line ends included, so consecutive pages concatenate to the file; next_start_line is null at the end; eol is none, lf, crlf or mixed. "+
			"Binary files are refused.", navigate.MaxReadLines),
		BudgetHint: "read fewer lines: pass a smaller line_count",
		Adjust: func(s *jsonschema.Schema) {
			one, most := 1.0, float64(navigate.MaxReadLines)
			s.Properties["start_line"].Minimum = &one
			s.Properties["line_count"].Minimum = &one
			s.Properties["line_count"].Maximum = &most
		},
		Handle: func(_ context.Context, a readArgs) (any, error) {
			o := navigate.ReadOptions{StartLine: 1, LineCount: navigate.MaxReadLines, Budget: navigate.Budget{Cost: lineCost}}
			if a.StartLine != nil {
				o.StartLine = *a.StartLine
			}
			if a.LineCount != nil {
				o.LineCount = *a.LineCount
			}
			pg, err := tree.ReadWithin(a.Path, o, MessageBudget, measureOn[navigate.Page](s))
			if err != nil {
				return nil, navError(err, "adr_read")
			}
			return pg, nil
		},
	})
}

// navError adds hints, in the tools' argument names, to a navigate error.
func navError(err error, tool string) error {
	var ae *navigate.ArgError
	var re *navigate.RangeError
	var hints []string
	switch {
	case errors.As(err, &ae):
		switch ae.Arg {
		case "start_line", "line_count":
			hints = append(hints, fmt.Sprintf("start_line is 1 or more; line_count is 1 to %d", navigate.MaxReadLines))
		case "glob":
			hints = append(hints, "use a glob such as *.go or docs/*.md")
		case "pattern":
			hints = append(hints, "search for one line of literal text")
		case "after":
			hints = append(hints, "pass next_after from the previous page, or the name of an entry")
		}
	case errors.As(err, &re):
		last := max(re.TotalLines, 1)
		hints = append(hints, fmt.Sprintf("the file has %d lines: read from start_line %d or less", re.TotalLines, last))
	case errors.Is(err, navigate.ErrOutside):
		hints = append(hints, "paths are relative to the repository root and must stay inside it")
	case errors.Is(err, navigate.ErrGitDir):
		hints = append(hints, ".git holds git's own data, not project files")
	case errors.Is(err, navigate.ErrNotFound):
		hints = append(hints, "list the parent directory with adr_list, or find the file with adr_search")
	case errors.Is(err, navigate.ErrIsDir):
		hints = append(hints, "list a directory with adr_list")
	case errors.Is(err, navigate.ErrNotDir):
		hints = append(hints, "read a file with adr_read")
	case errors.Is(err, navigate.ErrLineTooLong):
		hints = append(hints, "adr_search with path set to this file shows an excerpt of the line around a text")
	case errors.Is(err, navigate.ErrTooLarge):
		hints = append(hints, "adr_search with path set to this file finds lines in it")
	case errors.Is(err, navigate.ErrBinary), errors.Is(err, navigate.ErrNotUTF8):
		hints = append(hints, "only UTF-8 text files can be read")
	}
	return &Error{Err: err, Hints: hints}
}
