package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/navigate/mcpserver"
	"github.com/git-adr/git-adr/workspace"
)

const workspaceInstructions = "This server answers across the repositories of a workspace. Record IDs are qualified by their " +
	"repository (payments:ADR-0012); an unqualified ID works when one repository holds it. adr_context ranks every " +
	"repository's decisions for a task within one budget; adr_show reads one record; adr_records lists them. Read-only."

// runWorkspaceMCP serves the workspace's read-only tools: nothing is read
// but the members' trees (mirrors and the repositories the workspace file
// names), and nothing is written.
func runWorkspaceMCP(env *Env, verbose, allowPropose bool) error {
	if allowPropose {
		return usagef("--allow-propose does not serve a workspace: its MCP server is read-only").
			hint("serve one repository to propose: `git -C DIR adr mcp --allow-propose`")
	}
	ws, err := env.workspace()
	if err != nil {
		return err
	}
	level := slog.LevelWarn
	if verbose {
		level = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(env.Err, &slog.HandlerOptions{Level: level}))
	srv := mcpserver.New(mcpserver.Options{Version: buildVersion(), Instructions: workspaceInstructions, Logger: log})
	addWorkspaceTools(srv, ws)
	log.Info("serving", "workspace", ws.Path, "tools", srv.Tools())
	in, ok := env.In.(io.ReadCloser)
	if !ok {
		in = io.NopCloser(env.In)
	}
	evidence.PrepareTokens()
	err = srv.Run(context.Background(), mcpserver.StdioTransport(in, env.Out))
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return failf("mcp: %v", err)
	}
	return nil
}

type wsContextArgs struct {
	Task     string `json:"task,omitempty" jsonschema:"what you are about to do, in your own words; every repository's decisions are ranked by its words"`
	ID       string `json:"id,omitempty" jsonschema:"a record ID qualified by its repository (payments:ADR-0012, payments:ADR-0012#decision); answered by that repository"`
	MaxUnits *int   `json:"max_units,omitempty" jsonschema:"at most this many units (default 16)"`
	MaxChars *int   `json:"max_chars,omitempty" jsonschema:"at most this many Unicode code points in the whole result (default 5000 for a task, 12000 for an ID)"`
}

type wsShowArgs struct {
	ID        string `json:"id" jsonschema:"a record ID qualified by its repository (payments:ADR-0012), with an optional unit locator (#decision)"`
	StartLine *int   `json:"start_line,omitempty" jsonschema:"the first line of the page (default 1); a result whose next_start_line is not null continues there"`
}

type wsRecordsArgs struct {
	Repository string `json:"repository,omitempty" jsonschema:"only this repository's records"`
	Status     string `json:"status,omitempty" jsonschema:"only records with this status (proposed, accepted, rejected, deprecated, superseded, unknown)"`
	Offset     *int   `json:"offset,omitempty" jsonschema:"skip this many records (a result whose next_offset is not null continues there)"`
}

// mcpErr words a workspace error for the model.
func mcpErr(err error) error {
	var re *evidence.RequestError
	if errors.As(err, &re) {
		return mcpserver.WithHints(re, re.Hint)
	}
	var ce *cmdError
	if errors.As(wsErr(err), &ce) {
		return mcpserver.WithHints(ce.err, append(ce.hints, "call adr_records to see the qualified IDs")...)
	}
	if adr.IsNotFound(err) {
		return mcpserver.WithHints(err, "call adr_records to see the qualified IDs, or adr_context with a task to find records")
	}
	return err
}

// addWorkspaceTools registers adr_context, adr_show and adr_records over
// the workspace. Each call reads the members again: the server outlives
// syncs and edits.
func addWorkspaceTools(srv *mcpserver.Server, ws *workspace.Workspace) {
	mcpserver.Add(srv, mcpserver.Tool[wsContextArgs]{
		Name: evidence.ToolName, Budget: evidence.MaxCharsLimit, Title: "Decision context across repositories",
		Description: "The architecture decisions of every repository in the workspace that matter for a task, ranked per repository " +
			"and merged within one budget (default 16 units, 5,000 code points, the whole result). Each unit names its repository, " +
			"qualified ID, path, line range and status; a repository that could not be read has confidence \"not read\" and says why. With id (qualified), that repository's context for the record.",
		Handle: func(_ context.Context, a wsContextArgs) (any, error) {
			ws, skips := ws.Reading() // this call's own view: the server outlives syncs
			o := contextOptions{task: a.Task, json: true}
			if a.MaxUnits != nil {
				o.maxUnits = *a.MaxUnits
			}
			if a.MaxChars != nil {
				o.maxChars = *a.MaxChars
			}
			if o.maxUnits < 0 || o.maxUnits > evidence.MaxUnitsLimit || o.maxChars != 0 && (o.maxChars < evidence.MinCharsLimit || o.maxChars > evidence.MaxCharsLimit) {
				return nil, mcpserver.WithHints(errors.New("max_units or max_chars is out of range"), fmt.Sprintf("max_units 1-%d, max_chars %d-%d", evidence.MaxUnitsLimit, evidence.MinCharsLimit, evidence.MaxCharsLimit))
			}
			switch {
			case a.ID != "" && a.Task != "":
				return nil, mcpserver.WithHints(errors.New("pass task or id, not both"))
			case a.ID != "":
				f, err := ws.Find(a.ID)
				if err != nil {
					return nil, mcpFindErr(err, ws, skips)
				}
				defer f.Close()
				ld, err := f.Member.Open(false)
				if err != nil {
					return nil, mcpErr(err)
				}
				defer ld.Close()
				id := f.Record.ID
				if f.Anchor != "" {
					id += "#" + f.Anchor
				}
				svc := &evidence.Service{Log: ld.Log, CacheDir: ld.CacheDir, MCP: true,
					Measure: func(b []byte) int { return srv.TextCost(strings.TrimSuffix(string(b), "\n")) }}
				_, out, err := svc.Answer(evidence.Request{ID: id, MaxUnits: o.maxUnits, MaxChars: o.maxChars, Format: evidence.CompactJSON})
				if err != nil {
					return nil, err
				}
				return mcpserver.Text(`{"repository":` + quoteJSON(f.Member.Name) + `,` + strings.TrimSuffix(string(out), "\n")[1:]), nil
			case a.Task == "":
				return nil, mcpserver.WithHints(errors.New("pass task (what you are about to do) or a qualified id"), "call adr_records to see the qualified IDs")
			}
			ans, err := ws.Context(workspace.ContextRequest{Task: a.Task, MaxUnits: o.maxUnits, MaxChars: o.maxChars, MCP: true}, nil)
			if err != nil {
				return nil, mcpErr(err)
			}
			maxChars := o.maxChars
			if maxChars == 0 {
				maxChars = evidence.DefaultTaskMaxChars
			}
			// The budget bounds the whole message as it is sent.
			ans.Pack(o.maxUnits, maxChars, func(a *workspace.ContextAnswer) int {
				return srv.TextCost(strings.TrimSuffix(string(renderWorkspaceContext(a, o)), "\n"))
			})
			return mcpserver.Text(strings.TrimSuffix(string(renderWorkspaceContext(ans, o)), "\n")), nil
		},
	})
	mcpserver.Add(srv, mcpserver.Tool[wsShowArgs]{
		Name: "adr_show", Title: "One record of the workspace",
		Description: "One record (or one unit of it) by qualified ID: its repository, metadata and exact text, a page of lines at a time. " +
			"Returns JSON {repository, record, start_line, line_count, total_lines, content, next_start_line}.",
		Handle: func(_ context.Context, a wsShowArgs) (any, error) {
			ws, skips := ws.Reading()
			f, err := ws.Find(a.ID)
			if err != nil {
				return nil, mcpFindErr(err, ws, skips)
			}
			defer f.Close()
			start := 1
			if a.StartLine != nil {
				start = *a.StartLine
			}
			// A start before line 1 was called past the end.
			if start < 1 {
				return nil, mcpserver.WithHints(fmt.Errorf("start_line %d: lines are numbered from 1", start), "leave start_line out for the first page")
			}
			// Lines are added while the whole message fits the budget.
			page, err := f.Page(start, func(p *workspace.ShowPage) bool {
				enc, _ := mcpserver.Encode(p)
				return srv.TextCost(enc) <= mcpserver.MessageBudget
			})
			var pe *workspace.PastEndError
			if errors.As(err, &pe) {
				return nil, mcpserver.WithHints(fmt.Errorf("start_line %d is past the end of %s (%d lines)", start, a.ID, pe.Lines))
			}
			if err != nil {
				return nil, mcpserver.WithHints(err)
			}
			return page, nil
		},
	})
	mcpserver.Add(srv, mcpserver.Tool[wsRecordsArgs]{
		Name: "adr_records", Title: "Records of the workspace",
		Description: "The records of every repository (or of one), in pages: qualified ID, status, date, title, path. " +
			"Returns JSON {records: [...], total, next_offset}, and unavailable: [{repository, reason}] with unavailable_total when repositories could not be read (not synced yet, not cloned here).",
		Handle: func(_ context.Context, a wsRecordsArgs) (any, error) {
			ws, _ := ws.Reading()
			var want adr.Status
			if a.Status != "" {
				st, ok := adr.ParseStatus(a.Status)
				if !ok {
					return nil, mcpserver.WithHints(fmt.Errorf("status %q is not a status", a.Status), "use one of: proposed, accepted, rejected, deprecated, superseded, unknown")
				}
				want = st
			}
			if a.Repository != "" && ws.Member(a.Repository) == nil {
				return nil, mcpErr(&workspace.UnknownMemberError{Name: a.Repository, Names: memberNames(ws)})
			}
			offset := 0
			if a.Offset != nil {
				offset = max(0, *a.Offset)
			}
			page, err := ws.Records(a.Repository, want, offset, func(p *workspace.RecordsPage) bool {
				enc, _ := mcpserver.Encode(p)
				return srv.TextCost(enc) <= mcpserver.MessageBudget-100-workspace.UnavailableBudget
			})
			if err != nil {
				return nil, mcpErr(err)
			}
			return page, nil
		},
	})
}

// mcpFindErr is mcpErr for an ID looked up in every repository: a record
// not found names the repositories that could not be searched, where it
// may be.
func mcpFindErr(err error, ws *workspace.Workspace, skips *workspace.Skips) error {
	list := skips.List(ws)
	if !adr.IsNotFound(err) || len(list) == 0 {
		return mcpErr(err)
	}
	return mcpserver.WithHints(err, fmt.Sprintf("%d of %d repositories could not be read, and the record may be in one of them: %s", len(list), len(ws.Members), unavailableNames(list)),
		"call adr_records to see the qualified IDs, or adr_context with a task to find records")
}

func memberNames(ws *workspace.Workspace) []string {
	var out []string
	for _, m := range ws.Members {
		out = append(out, m.Name)
	}
	return out
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
