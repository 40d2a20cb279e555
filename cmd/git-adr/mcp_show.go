package main

import (
	"context"
	"errors"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/navigate/mcpserver"
	"github.com/google/jsonschema-go/jsonschema"
)

// addShowTool serves `git adr show` as adr_show, so that an agent can
// follow an ID it was given (in a unit, a reference or a hint).
func addShowTool(srv *mcpserver.Server, env *Env) {
	mcpserver.Add(srv, mcpserver.Tool[evidence.ShowArgs]{
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
		Handle: func(_ context.Context, a evidence.ShowArgs) (any, error) {
			repo, err := env.Repo()
			if err != nil {
				return nil, err
			}
			l, err := adr.Load(repo.WorktreeFS(), adr.LoadOptions{Roots: env.rootsRel()})
			if err != nil {
				return nil, err
			}
			req, err := a.Request(l)
			if err != nil {
				return nil, showErr(err)
			}
			pg, err := (&evidence.Service{Log: l}).ShowPage(req, evidence.PageMeasure{
				Budget:  mcpserver.MessageBudget,
				Message: func(pg *evidence.ShowPage) int { return srv.TextCost(mustEncode(pg)) },
				Text:    mcpserver.InTextCost,
			})
			if err != nil {
				return nil, showErr(err)
			}
			return pg, nil
		},
	})
}

// showErr is adr_show's error: a bad request carries its hint.
func showErr(err error) error {
	var re *evidence.RequestError
	if errors.As(err, &re) {
		return mcpserver.WithHints(err, re.Hint)
	}
	return err
}

func mustEncode(v any) string {
	s, err := mcpserver.Encode(v)
	if err != nil {
		panic(err) // a page always encodes
	}
	return s
}
