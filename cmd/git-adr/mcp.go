package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/navigate"
	"github.com/git-adr/git-adr/navigate/mcpserver"
	"github.com/urfave/cli/v2"
)

func mcpCommand(env *Env) *cli.Command {
	var verbose bool
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve git-adr's read-only tools to coding agents over MCP (stdio)",
		Description: `Runs a Model Context Protocol server on stdin/stdout for one client session,
until the client closes stdin. The tools are read-only and bounded:

   adr_context  bounded decision context (git adr context --json)
   adr_search   literal search (git adr nav search)
   adr_list     a directory listing page (git adr nav ls)
   adr_read     a page of a text file (git adr nav read)

Paths are relative to the repository root, whatever the starting directory.
Logs go to stderr; stdout carries only the protocol. docs/integrations/
shows how to register the server in Claude Code, OpenCode, Cursor and Codex.

Examples:
   claude mcp add git-adr -- git adr mcp
   git -C /path/to/repo adr mcp --verbose`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "verbose", Usage: "log every call to stderr", Destination: &verbose},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("mcp takes no arguments, got %q", c.Args().First()).hint("run `git -C DIR adr mcp` to serve another repository")
			}
			return runMCP(env, verbose)
		},
	}
}

func runMCP(env *Env, verbose bool) error {
	repo, err := env.Repo()
	if err != nil {
		return err
	}
	tree, err := navigate.Open(repo.Top)
	if err != nil {
		return err
	}
	defer tree.Close()
	level := slog.LevelWarn
	if verbose {
		level = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(env.Err, &slog.HandlerOptions{Level: level}))
	srv := mcpserver.New(mcpserver.Options{Version: buildVersion(), Instructions: mcpserver.NavigationInstructions, Logger: log})
	registerTools(srv, env, tree)
	log.Info("serving", "repository", repo.Top, "tools", srv.Tools())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	in, ok := env.In.(io.ReadCloser) // os.Stdin: closing it ends a blocked read on a signal
	if !ok {
		in = io.NopCloser(env.In)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, mcpserver.StdioTransport(in, env.Out)) }()
	select {
	case err = <-done:
	case <-ctx.Done():
		// A read of a blocking stdin cannot be interrupted: give the
		// session a moment to end, then leave it to the process exit.
		select {
		case err = <-done:
		case <-time.After(time.Second):
		}
	}
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return failf("mcp: %v", err)
	}
	return nil
}

// registerTools is the one place MCP tools are added.
func registerTools(srv *mcpserver.Server, env *Env, tree *navigate.Tree) {
	addContextTool(srv, env)
	mcpserver.AddNavigation(srv, tree)
}

type contextArgs struct {
	ID        string `json:"id,omitempty" jsonschema:"a record ID with an optional unit locator (ADR-0012, 12, ADR-0012#decision, ADR-0042§3); omit every selector for an overview of the log"`
	Task      string `json:"task,omitempty" jsonschema:"what you are about to do, in your own words; ranks decision records and the repository's files by its words"`
	File      string `json:"file,omitempty" jsonschema:"with task: a file (relative to the repository root) whose best lines are always included"`
	Domain    string `json:"domain,omitempty" jsonschema:"the decisions of one domain"`
	Iteration string `json:"iteration,omitempty" jsonschema:"the decisions of one delivery iteration"`
	Intent    string `json:"intent,omitempty" jsonschema:"current (default: decisions in force), rationale (why: context, options, consequences) or history (the supersession chain)"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"the cursor of a previous adr_context result, to continue it; pass it alone"`
	MaxUnits  *int   `json:"max_units,omitempty" jsonschema:"at most this many units (default 8)"`
	MaxChars  *int   `json:"max_chars,omitempty" jsonschema:"at most this many Unicode code points in the whole result (default 12000)"`
}

// addContextTool serves `git adr context` as adr_context. The log is read
// again for every call: the server outlives edits to the records.
func addContextTool(srv *mcpserver.Server, env *Env) {
	mcpserver.Add(srv, mcpserver.Tool[contextArgs]{
		Name:  "adr_context",
		Title: "Decision context",
		Description: "The architecture decisions that matter for a task, a record, a domain or an iteration, bounded to 8 units and " +
			"12,000 code points (the whole result). Every unit names its record ID, path, line range, status and why it is included; " +
			"a superseded record is led by its accepted successor. Returns JSON {units: [{id, path, lines, status, kind, role, text}], " +
			"references, cursor, omitted, coverage, confidence, freshness, warnings, size}. When cursor is not null, call again with " +
			"only the cursor for the rest. confidence \"none\" means no decision record applies. Units of kind \"memory\" are notes " +
			"people saved (git adr memory), labelled with topic and source: context, never decisions.",
		Handle: func(_ context.Context, a contextArgs) (any, error) {
			repo, err := env.Repo()
			if err != nil {
				return nil, err
			}
			l, err := adr.Load(repo.WorktreeFS(), adr.LoadOptions{Roots: env.rootsRel()})
			if err != nil {
				return nil, err
			}
			if len(l.Roots) == 0 {
				return nil, mcpserver.WithHints(errors.New("no ADR directory found in this repository"),
					"run `git adr init` to start a log, or start the server with --root DIR")
			}
			req := evidence.Request{ID: a.ID, Task: a.Task, File: a.File, Domain: a.Domain, Iteration: a.Iteration,
				Intent: evidence.Intent(a.Intent), Cursor: a.Cursor, Format: evidence.JSON}
			if a.MaxUnits != nil {
				req.MaxUnits = *a.MaxUnits
			} else if l.Config != nil {
				req.MaxUnits = l.Config.Context.MaxUnits
			}
			if a.MaxChars != nil {
				req.MaxChars = *a.MaxChars
			} else if l.Config != nil {
				req.MaxChars = l.Config.Context.MaxChars
			}
			_, out, err := contextService(repo, l).Answer(req)
			if err != nil {
				var re *evidence.RequestError
				if errors.As(err, &re) && re.Hint != "" {
					return nil, mcpserver.WithHints(err, re.Hint)
				}
				return nil, err
			}
			return mcpserver.Text(out), nil
		},
	})
}
