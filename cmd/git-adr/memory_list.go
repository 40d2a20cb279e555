package main

import (
	"errors"
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/memory"
	"github.com/urfave/cli/v2"
)

// Page sizes of memory list.
const (
	defaultMemoryPage = 50
	maxMemoryPage     = 500
)

type memoryListOptions struct {
	all          bool
	topic, after string
	limit        int
	json         bool
}

func memoryListCommand(env *Env) *cli.Command {
	var o memoryListOptions
	return &cli.Command{
		Name:  "list",
		Usage: "list the memory's items, a page at a time",
		Description: fmt.Sprintf(`Prints the enabled items in the order they were added (--all: disabled ones
too, marked), each with its ID, topic, source and text. At most --limit items
(default %d, at most %d) form a page; when more follow, a note names the
--after value that continues.

Examples:
   git adr memory list
   git adr memory list --all --topic testing
   git adr memory list --limit 20 --after m-3f2a9c1d --json`, defaultMemoryPage, maxMemoryPage),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "all", Usage: "include disabled items", Destination: &o.all},
			&cli.StringFlag{Name: "topic", Usage: "only items of `TOPIC` (case-insensitive)", Destination: &o.topic},
			&cli.IntFlag{Name: "limit", Usage: "at most `N` items per page", Value: defaultMemoryPage, Destination: &o.limit},
			&cli.StringFlag{Name: "after", Usage: "start after item `ID` (the previous page's last)", Destination: &o.after},
			&cli.BoolFlag{Name: "json", Usage: "print {items, total, next_after, commit}", Destination: &o.json},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("list takes no arguments, got %q", c.Args().First()).hint("filter with --topic T")
			}
			return runMemoryList(env, o)
		},
	}
}

func runMemoryList(env *Env, o memoryListOptions) error {
	if o.limit < 1 || o.limit > maxMemoryPage {
		return usagef("--limit %d is out of range", o.limit).hint(fmt.Sprintf("use a number from 1 to %d", maxMemoryPage))
	}
	_, st, err := loadMemory(env)
	if err != nil {
		return err
	}
	out, err := st.Page(memory.PageOptions{All: o.all, Topic: o.topic, After: o.after, Limit: o.limit})
	var ae *memory.AfterError
	switch {
	case errors.As(err, &ae) && ae.Missing:
		return usagef("--after %s is not among the items listed", ae.Msg).hint("repeat the filters of the previous page (--all, --topic)")
	case errors.As(err, &ae):
		return usagef("--after %q: %s", o.after, ae.Msg).hint("pass the ID the previous page ended with")
	case err != nil:
		return err
	}
	if o.json {
		return writeJSON(env.Out, out)
	}
	for _, it := range out.Items {
		printItem(env.Out, it)
	}
	if out.Total == 0 {
		what := "no memory items"
		if !o.all && len(st.Items) > 0 {
			what += fmt.Sprintf(" enabled (%d disabled: --all lists them)", len(st.Items))
		}
		fmt.Fprintf(env.Err, "git-adr: note: %s\n", what)
	}
	if out.NextAfter != nil {
		cmd := "git adr memory list"
		if o.all {
			cmd += " --all"
		}
		if o.topic != "" {
			cmd += " --topic " + adr.ShellWord(o.topic)
		}
		if o.limit != defaultMemoryPage {
			cmd += fmt.Sprintf(" --limit %d", o.limit)
		}
		fmt.Fprintf(env.Err, "git-adr: note: %d more items follow; continue with `%s --after %s`\n", out.Following, adr.Escape(cmd), *out.NextAfter)
	}
	return nil
}

func memoryShowCommand(env *Env) *cli.Command {
	var asJSON bool
	return &cli.Command{
		Name:      "show",
		Usage:     "show an item and its history",
		ArgsUsage: "ID",
		Description: `Prints the item (an ID or a unique beginning of one) and every commit of
refs/adr/memory that changed it, newest first. A removed item is shown from
its last state in the history (full ID only).

Example:
   git adr memory show m-3f2a`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print {item, removed, history}", Destination: &asJSON}},
		Action: func(c *cli.Context) error {
			id, err := memoryID(c, "show")
			if err != nil {
				return err
			}
			s, st, err := loadMemory(env)
			if err != nil {
				return err
			}
			res, err := s.Show(st, id)
			if err != nil {
				return memoryErr(err)
			}
			if asJSON {
				return writeJSON(env.Out, res)
			}
			printItem(env.Out, res.Item)
			state := "enabled"
			switch {
			case res.Removed:
				state = "removed"
			case !res.Item.Enabled:
				state = "disabled"
			}
			fmt.Fprintf(env.Out, "state: %s, revision %d\n", state, res.Item.Revision)
			for _, h := range res.History {
				fmt.Fprintf(env.Out, "%s  %s  %s  %s\n", h.Commit[:12], h.Date, adr.Escape(h.Author), adr.Escape(h.Subject))
			}
			return nil
		},
	}
}
