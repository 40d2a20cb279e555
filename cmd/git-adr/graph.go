package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/urfave/cli/v2"
)

type graphOptions struct {
	format string
	status string
	json   bool
}

// graphFormats are the values --format takes.
var graphFormats = []string{"dot", "mermaid"}

func graphCommand(env *Env) *cli.Command {
	var o graphOptions
	return &cli.Command{
		Name:  "graph",
		Usage: "print the relation graph of the records (Graphviz dot or Mermaid)",
		Description: `Prints every record as a node labelled with its ID and title (archived
records dashed and grey) and every relation between two records as an edge
labelled with its type. A relation written on both sides (Supersedes and
Superseded by, Amends and Amended by, Refines and Refined by, Relates to)
is drawn once. Relations that name no record are left out; ` + "`git adr check`" + `
reports them.

Examples:
   git adr graph | dot -Tsvg > decisions.svg
   git adr graph --format mermaid
   git adr graph --status accepted
   git adr graph --json`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "dot", Usage: "output `FORMAT`: dot or mermaid", Destination: &o.format},
			&cli.StringFlag{Name: "status", Usage: "only records with normalised status `S` (proposed, accepted, rejected, deprecated, superseded, unknown)", Destination: &o.status},
			&cli.BoolFlag{Name: "json", Usage: "print the nodes and edges as JSON", Destination: &o.json},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("graph takes no arguments, got %q", c.Args().First()).hint("use --status S to draw part of the log")
			}
			return runGraph(env, o)
		},
	}
}

func runGraph(env *Env, o graphOptions) error {
	if !slices.Contains(graphFormats, o.format) {
		return usagef("--format %q is not a graph format", o.format).hint("use one of: " + strings.Join(graphFormats, ", "))
	}
	var opt adr.GraphOptions
	if o.status != "" {
		st, ok := adr.ParseStatus(o.status)
		if !ok {
			return usagef("--status %q is not a status", o.status).hint("use one of: proposed, accepted, rejected, deprecated, superseded, unknown")
		}
		opt.Status = st
	}
	if env.acrossWorkspace(true) {
		return runWorkspaceGraph(env, o, opt)
	}
	l, err := env.LogWithoutTexts()
	if err != nil {
		return err
	}
	if err := env.requireRoots(l); err != nil {
		return err
	}
	g := l.Graph(opt)
	if o.json {
		return writeJSON(env.Out, g)
	}
	if o.format == "mermaid" {
		_, err = fmt.Fprint(env.Out, g.Mermaid())
		return err
	}
	_, err = fmt.Fprint(env.Out, g.DOT())
	return err
}
