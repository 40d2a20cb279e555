package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/memory"
	"github.com/urfave/cli/v2"
)

func memoryCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "memory",
		Usage:     "durable project memory: short facts saved by people, shown with the context they match",
		ArgsUsage: "add|list|show|edit|disable|enable|rm",
		Description: `Keeps short facts a person decided are worth remembering across tasks ("we use
testscript for CLI tests"), each with a topic and a source label, on the ref
refs/adr/memory: every change is a commit, so nothing is lost and the history
of each item is in git log. Enabled items that match a task are shown by
` + "`git adr context --task`" + ` (and the MCP adr_context tool) as units of kind
"memory", labelled with topic, source and ID, inside the same budget. Memory is
never a decision record.

Memory is stored unencrypted and shared with anyone the ref is pushed to:
text that holds a private key, a cloud key or a token in a recognised format
is refused, naming the rule.

Examples:
   git adr memory add --topic testing --source "team chat 2026-01-10" "We use testscript for CLI tests."
   git adr memory list --all
   git adr memory edit m-3f2a --text "We use testscript for every CLI test."
   git adr memory disable m-3f2a
   git push origin refs/adr/memory`,
		Subcommands: []*cli.Command{
			memoryAddCommand(env), memoryListCommand(env), memoryShowCommand(env), memoryEditCommand(env),
			memoryToggleCommand(env, "disable"), memoryToggleCommand(env, "enable"), memoryRmCommand(env),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("memory needs a subcommand: add, list, show, edit, disable, enable or rm").hint("run `git adr memory -h` for usage")
			}
			return usagef("unknown memory subcommand %q", c.Args().First()).hint("use add, list, show, edit, disable, enable or rm; run `git adr memory -h` for usage")
		},
	}
}

// memoryStore opens the repository's memory.
func memoryStore(env *Env) (memory.Store, error) {
	r, err := env.Repo()
	if err != nil {
		return memory.Store{}, err
	}
	return memory.Store{Repo: r}, nil
}

// loadMemory reads the memory (under the lock for writers).
func loadMemory(env *Env) (memory.Store, *memory.State, error) {
	s, err := memoryStore(env)
	if err != nil {
		return s, nil, err
	}
	st, err := s.Load()
	if err != nil {
		return s, nil, memoryErr(err)
	}
	return s, st, nil
}

// memoryText is the TEXT argument: the one argument, or stdin for "-".
func memoryText(env *Env, c *cli.Context, cmd string, required bool) (string, error) {
	switch {
	case c.NArg() > 1:
		return "", usagef("%s takes one TEXT, got %d arguments", cmd, c.NArg()).hint(`quote the text: "..."`)
	case c.NArg() == 0 && required:
		return "", usagef("%s needs the TEXT to remember", cmd).hint(`git adr memory add --topic T --source S "TEXT" (or - to read it from stdin)`)
	case c.Args().First() == "-":
		return readAllLimited(env)
	}
	return c.Args().First(), nil
}

// readAllLimited reads a text from stdin: more than the limits allow is
// refused by the checks, so 64 KiB are plenty.
func readAllLimited(env *Env) (string, error) {
	b, err := io.ReadAll(io.LimitReader(env.In, 64<<10))
	return string(b), err
}

// memoryErr turns a memory error into a command error with hints.
func memoryErr(err error) error {
	var fe *memory.FieldError
	var se *memory.SecretError
	var de *memory.DuplicateError
	flag := map[string]string{"topic": "--topic", "source": "--source", "text": "TEXT"}
	switch {
	case errors.As(err, &se):
		return usagef("refused: %v; nothing was saved", err).hint(
			"memory is stored unencrypted on refs/adr/memory and shared wherever that ref is pushed: keep the secret in a secret manager and save where it lives instead",
			"docs/memory.md lists the recognised formats")
	case errors.As(err, &fe):
		return usagef("%s: %v", flag[fe.Field], err).hint(fmt.Sprintf("a topic has at most %d characters and a source label at most %d, each on one line; the text at most %d", memory.MaxTopic, memory.MaxSource, memory.MaxText))
	case errors.Is(err, memory.ErrNotFound):
		return usagef("%v", err).hint("run `git adr memory list --all` to see the items")
	case errors.Is(err, memory.ErrAmbiguous):
		return usagef("%v", err).hint("give more of the ID")
	case errors.As(err, &de):
		return failf("%v; nothing was saved", err).hint(fmt.Sprintf("correct that item with `git adr memory edit %s`", de.ID))
	case errors.Is(err, memory.ErrUnchanged):
		return usagef("%v", err).hint("give the new --topic, --source or TEXT")
	case errors.Is(err, memory.ErrChanged):
		return withCode(ExitConflict, err).hint("nothing was written; run the command again")
	}
	return failf("%v", err).hint("`git log " + memory.Ref + "` shows the memory's history; an item file git-adr did not write can be removed with `git adr memory rm` or by resetting the ref")
}

// memoryResult is what a write command reports.
type memoryResult struct {
	Action string       `json:"action"`
	Item   *memory.Item `json:"item"`
	// Commit is the memory's commit after the change ("" when nothing
	// was written).
	Commit string `json:"commit"`
}

// reportMemory prints a write's result.
func reportMemory(env *Env, s memory.Store, res memoryResult, asJSON bool) error {
	if res.Commit == "" {
		if c, err := s.Repo.ResolveRef(memory.Ref); err == nil {
			res.Commit = c
		}
	}
	if asJSON {
		return writeJSON(env.Out, res)
	}
	it := res.Item
	fmt.Fprintf(env.Out, "%s %s [%s] from %s\n", res.Action, it.ID, adr.Escape(it.Topic), adr.Escape(it.Source))
	return nil
}

// printItem prints one item as list and show do: ID, topic, source and
// state, then the text indented.
func printItem(w io.Writer, it *memory.Item) {
	state := ""
	if !it.Enabled {
		state = "  (disabled)"
	}
	fmt.Fprintf(w, "%s  [%s]  from %s%s\n", it.ID, adr.Escape(it.Topic), adr.Escape(it.Source), state)
	for _, line := range strings.Split(it.Text, "\n") {
		fmt.Fprintf(w, "    %s\n", adr.EscapeBody(line))
	}
}
