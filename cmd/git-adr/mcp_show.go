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
	StartChar *int   `json:"start_char,omitempty" jsonschema:"the first character (code point) of start_line to return, numbered from 1; default 1; pass next_start_char, which a page gives when it ends inside a line too long for one page"`
}

// addShowTool serves `git adr show` as adr_show, so that an agent can
// follow an ID it was given (in a unit, a reference or a hint).
func addShowTool(srv *mcpserver.Server, env *Env) {
	mcpserver.Add(srv, mcpserver.Tool[showArgs]{
		Name:  evidence.ShowTool,
		Title: "Show a decision record",
		Description: "One decision record, or one unit of it, by ID: its metadata (status, date, domains, relations with their targets' IDs) " +
			"and its exact text in pages that fit in 12,000 characters. Returns JSON {record: {id, title, status, raw_status, date, path, " +
			"domains, relations}, units, unit, in_force, note, start_line, line_count, total_lines, content, next_start_line, next_start_char}; " +
			"call again with start_line = next_start_line (and start_char = next_start_char when given: a line too long for one page " +
			"is cut across pages) for the rest. in_force and note say what adr_context says: in_force is false " +
			"for superseded, deprecated, rejected, proposed and unknown records (check relations for the record in force); note says why, " +
			"or that the text says the record is being replaced.",
		BudgetHint: "follow a unit locator (id with #decision) for a smaller answer",
		Adjust: func(s *jsonschema.Schema) {
			one := 1.0
			s.Properties["start_line"].Minimum = &one
			s.Properties["start_char"].Minimum = &one
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
			start, char := 1, 1
			if a.StartLine != nil {
				start = *a.StartLine
			}
			if a.StartChar != nil {
				char = *a.StartChar
			}
			_, anchor := adr.SplitLocator(a.ID)
			pg, err := (&evidence.Service{Log: l}).ShowPage(evidence.ShowRequest{Record: r, Anchor: anchor, StartLine: start, StartChar: char}, evidence.PageMeasure{
				Budget:  mcpserver.MessageBudget,
				Message: func(pg *evidence.ShowPage) int { return srv.TextCost(mustEncode(pg)) },
				Text:    mcpserver.InTextCost,
			})
			if err != nil {
				var re *evidence.RequestError
				if errors.As(err, &re) {
					return nil, mcpserver.WithHints(err, re.Hint)
				}
				return nil, err
			}
			return pg, nil
		},
	})
}

func mustEncode(v any) string {
	s, err := mcpserver.Encode(v)
	if err != nil {
		panic(err) // a page always encodes
	}
	return s
}
