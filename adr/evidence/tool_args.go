package evidence

import (
	"errors"
	"path"
	"path/filepath"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// ToolArgs are the arguments of the MCP tool adr_context ([ToolName]); the
// tags are the schema an agent reads.
type ToolArgs struct {
	ID        string   `json:"id,omitempty" jsonschema:"a record ID with an optional unit locator (ADR-0012, 12, ADR-0012#decision, ADR-0042§3); omit every selector for an overview of the log"`
	Task      string   `json:"task,omitempty" jsonschema:"what you are about to do, in your own words; ranks decision records and the repository's files by its words"`
	File      string   `json:"file,omitempty" jsonschema:"with task: a file (relative to the repository root) whose best lines are always included"`
	Files     []string `json:"files,omitempty" jsonschema:"files (relative to the repository root) you are about to change: the decisions that govern them come first, each saying why"`
	Diff      string   `json:"diff,omitempty" jsonschema:"the decisions governing the files changed since this revision (such as HEAD~1) come first; staged for the staged files"`
	Domain    string   `json:"domain,omitempty" jsonschema:"the decisions of one domain"`
	Iteration string   `json:"iteration,omitempty" jsonschema:"the decisions of one delivery iteration"`
	Intent    string   `json:"intent,omitempty" jsonschema:"current (default: decisions in force), rationale (why: context, options, consequences) or history (the supersession chain)"`
	Cursor    string   `json:"cursor,omitempty" jsonschema:"the cursor of a previous adr_context result, to continue it; pass it alone"`
	MaxUnits  *int     `json:"max_units,omitempty" jsonschema:"at most this many units (default 16 for a task, 8 otherwise)"`
	MaxChars  *int     `json:"max_chars,omitempty" jsonschema:"at most this many Unicode code points in the whole result (default 5000 for a task, 12000 otherwise)"`
}

// Request is the request the arguments make, in compact JSON: file and
// files relative to the repository root (one outside it is refused),
// diff's changed files from diffPaths (staged for "staged"), and the
// limits not given from cfg's [context] settings (cfg may be nil). A
// refused argument is a *RequestError with a hint.
func (a ToolArgs) Request(cfg *adr.Config, diffPaths func(rev string, staged bool) ([]string, error)) (Request, error) {
	outside := func(p string) error {
		// As on the command line (exit 2): a file outside the repository
		// is a bad request, not a warning.
		return badRequest("paths are relative to the repository root and must stay inside it", "file %q is outside the repository", p)
	}
	req := Request{ID: a.ID, Task: a.Task, Domain: a.Domain, Iteration: a.Iteration,
		Intent: Intent(a.Intent), Cursor: a.Cursor, Format: CompactJSON}
	if a.File != "" {
		rel, ok := RepoPath(a.File)
		if !ok {
			return Request{}, outside(a.File)
		}
		req.File = rel
	}
	for _, f := range a.Files {
		rel, ok := RepoPath(f)
		if !ok {
			return Request{}, outside(f)
		}
		req.Paths = append(req.Paths, rel)
	}
	if a.Diff != "" {
		paths, err := diffPaths(a.Diff, a.Diff == "staged")
		if err != nil {
			return Request{}, badRequest(`use a revision such as "HEAD~1", or "staged"`, "diff %q names no revision here", a.Diff)
		}
		req.Paths = append(req.Paths, paths...)
		req.Diff = a.Diff
	}
	if a.MaxUnits != nil {
		req.MaxUnits = *a.MaxUnits
	} else if cfg != nil {
		req.MaxUnits = cfg.Context.MaxUnits
	}
	if a.MaxChars != nil {
		req.MaxChars = *a.MaxChars
	} else if cfg != nil {
		req.MaxChars = cfg.Context.MaxChars
	}
	return req, nil
}

// RepoPath cleans a tool's path relative to the repository root, refusing
// absolute paths and paths that leave the root.
func RepoPath(p string) (string, bool) {
	if path.IsAbs(p) || filepath.IsAbs(p) {
		return "", false
	}
	c := path.Clean(filepath.ToSlash(p))
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", false
	}
	return c, true
}

// ShowArgs are the arguments of the MCP tool adr_show ([ShowTool]).
type ShowArgs struct {
	ID        string `json:"id" jsonschema:"a record ID in any form (ADR-0012, 12, 0012, a slug or a path), with an optional unit locator (ADR-0012#decision, ADR-0012#decision.2, ADR-0042§3)"`
	StartLine *int   `json:"start_line,omitempty" jsonschema:"the first line of the record (or unit) to return, numbered from 1; default 1; pass next_start_line to continue"`
	StartChar *int   `json:"start_char,omitempty" jsonschema:"the first character (code point) of start_line to return, numbered from 1; default 1; pass next_start_char, which a page gives when it ends inside a line too long for one page"`
}

// Request is the page of l's record the arguments ask for (from line 1,
// character 1 unless given). An ID that names no record, or several, is
// a *RequestError with a hint; another error reading the log is returned
// as it is.
func (a ShowArgs) Request(l *adr.Log) (ShowRequest, error) {
	r, err := l.Resolve(a.ID)
	var amb *adr.AmbiguousError
	switch {
	case errors.As(err, &amb):
		return ShowRequest{}, badRequest("name one by its path: "+amb.Paths(), "%q names %d records", a.ID, len(amb.Candidates))
	case adr.IsNotFound(err):
		return ShowRequest{}, badRequest(words{mcp: true}.listIDs(), "no record %q", a.ID)
	case err != nil:
		return ShowRequest{}, err
	}
	start, char := 1, 1
	if a.StartLine != nil {
		start = *a.StartLine
	}
	if a.StartChar != nil {
		char = *a.StartChar
	}
	_, anchor := adr.SplitLocator(a.ID)
	return ShowRequest{Record: r, Anchor: anchor, StartLine: start, StartChar: char}, nil
}
