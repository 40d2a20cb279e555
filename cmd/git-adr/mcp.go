package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/navigate"
	"github.com/git-adr/git-adr/navigate/mcpserver"
	"github.com/urfave/cli/v2"
)

func mcpCommand(env *Env) *cli.Command {
	var verbose, allowPropose bool
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve git-adr's tools to coding agents over MCP (stdio): read-only, and on request proposals",
		Description: `Runs a Model Context Protocol server on stdin/stdout for one client session,
until the client closes stdin. By default the tools are read-only and bounded:

   adr_context  bounded decision context (git adr context --json)
   adr_show     one record or unit by ID, in pages (git adr show --json)
   adr_search   literal search (git adr nav search)
   adr_list     a directory listing page (git adr nav ls)
   adr_read     a page of a text file (git adr nav read)

With --allow-propose (or git config adr.mcp.propose true) it also serves two
tools that write, and never accept, supersede or archive anything:

   adr_propose  write a proposed record (git adr propose --json)
   adr_link     link a proposed record (git adr link, proposals only)

git config adr.mcp.propose false refuses them even with --allow-propose.

Paths are relative to the repository root, whatever the starting directory.
Logs go to stderr; stdout carries only the protocol. docs/integrations/
shows how to register the server in Claude Code, OpenCode, Cursor and Codex.

With --workspace FILE it serves the same read-only tools across every
repository the workspace file names, with qualified IDs (docs/workspace.md).

Examples:
   claude mcp add git-adr -- git adr mcp
   git -C /path/to/repo adr mcp --verbose
   git adr mcp --workspace ~/work/adr-workspace.toml`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "verbose", Usage: "log every call to stderr", Destination: &verbose},
			&cli.BoolFlag{Name: "allow-propose", Usage: "also serve adr_propose and adr_link, which write proposed records (unless git config adr.mcp.propose is false)", Destination: &allowPropose},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("mcp takes no arguments, got %q", c.Args().First()).hint("run `git -C DIR adr mcp` to serve another repository")
			}
			return runMCP(env, verbose, allowPropose)
		},
	}
}

func runMCP(env *Env, verbose, allowPropose bool) error {
	if env.acrossWorkspace(true) {
		return runWorkspaceMCP(env, verbose, allowPropose)
	}
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
	propose, refused, err := proposeEnabled(env, allowPropose)
	if err != nil {
		return err
	}
	if refused != "" {
		log.Warn(refused)
	}
	instructions := mcpserver.NavigationInstructions
	var writer *mcpWriter
	if propose {
		writer = &mcpWriter{env: env}
		instructions += proposeInstructions
	}
	srv := mcpserver.New(mcpserver.Options{Version: buildVersion(), Instructions: instructions, Logger: log})
	registerTools(srv, env, tree, writer)
	log.Info("serving", "repository", repo.Top, "tools", srv.Tools())

	// A client ends the session with a signal as often as by closing
	// stdin (all three agent CLIs do): either is a normal end. The session
	// runs on its own context, so a signal does not make the SDK log a
	// cancelled run as an error; the process simply ends.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	in, ok := env.In.(io.ReadCloser)
	if !ok {
		in = io.NopCloser(env.In)
	}
	// adr_context states token counts: build the vocabulary while the
	// client starts up rather than in its first call.
	evidence.PrepareTokens()
	done := make(chan error, 1)
	go func() { done <- srv.Run(context.Background(), mcpserver.StdioTransport(in, env.Out)) }()
	select {
	case err = <-done:
	case s := <-sig:
		log.Info("session ended by a signal", "signal", s.String())
		if writer != nil {
			// A proposal under way ends first: it finishes, or, when
			// the signal found it holding the project lock, the lock's
			// own handler releases the lock and ends the process, and
			// the change's journal is finished by the next write.
			writer.wait()
		}
		return nil
	}
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return failf("mcp: %v", err)
	}
	return nil
}

// registerTools is the one place MCP tools are added: the read-only
// tools, and the writing ones when writer is not nil.
func registerTools(srv *mcpserver.Server, env *Env, tree *navigate.Tree, writer *mcpWriter) {
	env.serving = true // call after call: every file read into the heap
	addContextTool(srv, env)
	addShowTool(srv, env)
	mcpserver.AddNavigation(srv, tree)
	if writer != nil {
		addProposeTools(srv, writer)
	}
}

// addContextTool serves `git adr context` as adr_context. The log is read
// again for every call: the server outlives edits to the records.
func addContextTool(srv *mcpserver.Server, env *Env) {
	mcpserver.Add(srv, mcpserver.Tool[evidence.ToolArgs]{
		Name: evidence.ToolName,
		// The service bounds the whole message to max_chars itself.
		Budget: evidence.MaxCharsLimit,
		Title:  "Decision context",
		Description: "The architecture decisions that matter for a task, a record, a domain or an iteration, bounded to 8 units and " +
			"12,000 code points (the whole result). Every unit names its record ID, path, line range, status and why it is included; " +
			"a superseded record is led by its accepted successor. Returns JSON {units: [{id, path, lines, status, kind, role, text}], " +
			"references, cursor, omitted, coverage, confidence, freshness, warnings, size}. When cursor is not null, call again with " +
			"only the cursor for the rest. confidence \"none\" means no decision record applies. Units of kind \"memory\" are notes " +
			"people saved (git adr memory), labelled with topic and source: context, never decisions.",
		Handle: func(_ context.Context, a evidence.ToolArgs) (any, error) {
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
					"the repository has no decision records yet: adr_search and adr_read still work")
			}
			req, err := a.Request(l.Config, func(rev string, staged bool) ([]string, error) { return diffPaths(repo, rev, staged) })
			if err != nil {
				return nil, toolErr(err)
			}
			svc := contextService(repo, l)
			svc.MCP = true
			svc.Measure = func(b []byte) int { return srv.TextCost(strings.TrimSuffix(string(b), "\n")) }
			_, out, err := svc.Answer(req)
			if err != nil {
				return nil, toolErr(err)
			}
			return mcpserver.Text(strings.TrimSuffix(string(out), "\n")), nil
		},
	})
}

// toolErr is a tool's error: a bad request with a hint carries it.
func toolErr(err error) error {
	var re *evidence.RequestError
	if errors.As(err, &re) && re.Hint != "" {
		return mcpserver.WithHints(err, re.Hint)
	}
	return err
}
