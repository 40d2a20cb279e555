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
	srv := mcpserver.New(mcpserver.Options{Version: version, Instructions: mcpserver.NavigationInstructions, Logger: log})
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

// registerTools is the one place MCP tools are added. The context service
// plugs in here with one more call, for example:
//
//	mcpserver.Add(srv, mcpserver.Tool[contextArgs]{Name: "adr_context", ..., Handle: ...})
func registerTools(srv *mcpserver.Server, env *Env, tree *navigate.Tree) {
	_ = env // the context tool will load the log through env
	mcpserver.AddNavigation(srv, tree)
}
