package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/navigate/mcpserver"
	"github.com/google/jsonschema-go/jsonschema"
)

type showArgs struct {
	ID        string `json:"id" jsonschema:"a record ID in any form (ADR-0012, 12, 0012, a slug or a path), with an optional unit locator (ADR-0012#decision, ADR-0012#decision.2, ADR-0042§3)"`
	StartLine *int   `json:"start_line,omitempty" jsonschema:"the first line of the record (or unit) to return, numbered from 1; default 1; pass next_start_line to continue"`
}

// showPage is adr_show's answer: what `git adr show --json` says about a
// record, with the text in pages that fit the message budget.
type showPage struct {
	Record adr.RecordInfo `json:"record"`
	// Units are the record's unit IDs (at most maxShowUnits).
	Units []string `json:"units"`
	// Unit is the unit the locator named, with its line range in the file.
	Unit *showUnit `json:"unit,omitempty"`
	// InForce is false for a record that is not in force (superseded,
	// deprecated, rejected, proposed, unknown).
	InForce       bool           `json:"in_force"`
	StartLine     int            `json:"start_line"`
	LineCount     int            `json:"line_count"`
	TotalLines    int            `json:"total_lines"`
	Content       string         `json:"content"`
	NextStartLine *int           `json:"next_start_line"`
	Omitted       map[string]int `json:"omitted"`
}

type showUnit struct {
	ID    string `json:"id"`
	Lines [2]int `json:"lines"`
}

// Bounds on the metadata adr_show repeats on every page.
const (
	maxShowUnits     = 40
	maxShowRelations = 40
)

// addShowTool serves `git adr show` as adr_show, so that an agent can
// follow an ID it was given (in a unit, a reference or a hint).
func addShowTool(srv *mcpserver.Server, env *Env) {
	mcpserver.Add(srv, mcpserver.Tool[showArgs]{
		Name:  evidence.ShowTool,
		Title: "Show a decision record",
		Description: "One decision record, or one unit of it, by ID: its metadata (status, date, domains, relations with their targets' IDs) " +
			"and its exact text in pages that fit in 12,000 characters. Returns JSON {record: {id, title, status, raw_status, date, path, " +
			"domains, relations}, units, unit, in_force, start_line, line_count, total_lines, content, next_start_line}; " +
			"call again with start_line = next_start_line for the rest. in_force is false for superseded, deprecated, rejected, proposed " +
			"and unknown records: check relations for the record in force.",
		BudgetHint: "follow a unit locator (id with #decision) for a smaller answer",
		Adjust: func(s *jsonschema.Schema) {
			one := 1.0
			s.Properties["start_line"].Minimum = &one
		},
		Handle: func(_ context.Context, a showArgs) (any, error) {
			repo, err := env.Repo()
			if err != nil {
				return nil, err
			}
			l, err := adr.Load(repo.WorktreeFS(), adr.LoadOptions{Roots: env.rootsRel()})
			if err != nil {
				return nil, err
			}
			r, err := l.Resolve(a.ID)
			if err != nil {
				var amb *adr.AmbiguousError
				if errors.As(err, &amb) {
					var c []string
					for _, x := range amb.Candidates {
						c = append(c, x.Path)
					}
					return nil, mcpserver.WithHints(fmt.Errorf("%q names %d records", a.ID, len(amb.Candidates)), "name one by its path: "+strings.Join(c, ", "))
				}
				if adr.IsNotFound(err) {
					return nil, mcpserver.WithHints(fmt.Errorf("no record %q", a.ID),
						fmt.Sprintf("call %s with no arguments for an overview of the log, or with task to find records", evidence.ToolName))
				}
				return nil, err
			}
			pg := &showPage{Record: r.Info(), Units: []string{}, InForce: r.Status == adr.Accepted, Omitted: map[string]int{}}
			if pg.Record.Relations == nil {
				pg.Record.Relations = []adr.RelationInfo{}
			}
			if pg.Record.Domains == nil {
				pg.Record.Domains = []string{}
			}
			if n := len(pg.Record.Relations); n > maxShowRelations {
				pg.Record.Relations = pg.Record.Relations[:maxShowRelations]
				pg.Omitted["relations"] = n - maxShowRelations
			}
			for _, u := range r.Units() {
				if len(pg.Units) == maxShowUnits {
					pg.Omitted["units"]++
					continue
				}
				pg.Units = append(pg.Units, u.ID)
			}
			content := string(r.Content())
			if _, anchor := adr.SplitLocator(a.ID); anchor != "" {
				u, text, ok := r.Excerpt(anchor)
				if !ok {
					return nil, mcpserver.WithHints(fmt.Errorf("%s has no unit %q", r.ID, anchor), "its units are: "+strings.Join(pg.Units, ", "))
				}
				pg.Unit, content = &showUnit{ID: u.ID, Lines: [2]int{u.Start, u.End}}, text
			}
			start := 1
			if a.StartLine != nil {
				start = *a.StartLine
			}
			if err := fillShowPage(srv, pg, content, start); err != nil {
				return nil, err
			}
			return pg, nil
		},
	})
}

// fillShowPage puts the lines of content from start into pg, as many as
// fit in the message budget.
func fillShowPage(srv *mcpserver.Server, pg *showPage, content string, start int) error {
	lines := strings.SplitAfter(content, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	pg.TotalLines, pg.StartLine = len(lines), start
	if start < 1 || start > max(len(lines), 1) {
		return mcpserver.WithHints(fmt.Errorf("start_line %d is past the end of %s (%d lines)", start, pg.Record.ID, len(lines)),
			fmt.Sprintf("start_line is 1 to %d", max(len(lines), 1)))
	}
	big := 1 << 30
	pg.NextStartLine = &big
	room := mcpserver.MessageBudget - srv.TextCost(mustEncode(pg))
	pg.NextStartLine = nil
	used := 0
	i := start - 1
	var b strings.Builder
	for ; i < len(lines); i++ {
		c := mcpserver.InTextCost(lines[i])
		if used+c > room {
			break
		}
		used += c
		b.WriteString(lines[i])
	}
	if i == start-1 && i < len(lines) {
		return mcpserver.WithHints(fmt.Errorf("line %d of %s is too long for one answer", start, pg.Record.ID),
			fmt.Sprintf("adr_search with path %q shows an excerpt of the line around a text", pg.Record.Path))
	}
	pg.Content, pg.LineCount = b.String(), i-(start-1)
	if i < len(lines) {
		next := i + 1
		pg.NextStartLine = &next
	}
	return nil
}

func mustEncode(v any) string {
	s, err := mcpserver.Encode(v)
	if err != nil {
		panic(err) // a showPage always encodes
	}
	return s
}
