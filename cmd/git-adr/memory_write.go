package main

import (
	"errors"
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/memory"
	"github.com/urfave/cli/v2"
)

type memoryAddOptions struct {
	topic, source string
	json          bool
}

func memoryAddCommand(env *Env) *cli.Command {
	var o memoryAddOptions
	return &cli.Command{
		Name:      "add",
		Usage:     "remember a fact, with a topic and a source label",
		ArgsUsage: "TEXT|-",
		Description: fmt.Sprintf(`Saves TEXT (at most %d characters; - reads it from stdin) as a new enabled
memory item and prints its ID. --topic (at most %d characters) groups items
and weighs most when a task is matched; --source (at most %d) says where the
fact comes from: a meeting, a chat, a review, a person. Text, topic or source
that holds a secret in a recognised format is refused (exit 2), and so is
an item that repeats another's topic and text.

Examples:
   git adr memory add --topic testing --source "team chat 2026-01-10" "We use testscript for CLI tests."
   echo "Orders are stored in PostgreSQL." | git adr memory add --topic storage --source "ADR review" -`, memory.MaxText, memory.MaxTopic, memory.MaxSource),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "topic", Usage: "what the fact is about (`TOPIC`, required)", Destination: &o.topic},
			&cli.StringFlag{Name: "source", Usage: "where it comes from (`LABEL`, required)", Destination: &o.source},
			&cli.BoolFlag{Name: "json", Usage: "print {action, item, commit}", Destination: &o.json},
		},
		Action: func(c *cli.Context) error {
			text, err := memoryText(env, c, "add", true)
			if err != nil {
				return err
			}
			for flag, v := range map[string]string{"--topic": o.topic, "--source": o.source} {
				if v == "" {
					return usagef("add needs %s", flag).hint(`git adr memory add --topic T --source S "TEXT"`)
				}
			}
			s, it, err := writeMemory(env, func(s memory.Store, st *memory.State) (*memory.Item, error) {
				return s.Add(st, memory.Fields{Topic: o.topic, Source: o.source, Text: text})
			})
			if err != nil {
				return err
			}
			return reportMemory(env, s, memoryResult{Action: "added", Item: it}, o.json)
		},
	}
}

type memoryEditOptions struct {
	topic, source, text string
	json                bool
}

func memoryEditCommand(env *Env) *cli.Command {
	var o memoryEditOptions
	return &cli.Command{
		Name:      "edit",
		Usage:     "correct an item's text, topic or source",
		ArgsUsage: "ID",
		Description: `Replaces the fields given (--text, --topic, --source; --text - reads the text
from stdin) and keeps the others; the earlier state stays in the history
(git adr memory show ID). The same limits and secret refusal as add apply.

Examples:
   git adr memory edit m-3f2a --text "We use testscript for every CLI test."
   git adr memory edit m-3f2a9c1d --topic ci --source "retro 2026-02-01"`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "text", Usage: "the corrected `TEXT` (- reads stdin)", Destination: &o.text},
			&cli.StringFlag{Name: "topic", Usage: "a new `TOPIC`", Destination: &o.topic},
			&cli.StringFlag{Name: "source", Usage: "a new source `LABEL`", Destination: &o.source},
			&cli.BoolFlag{Name: "json", Usage: "print {action, item, commit}", Destination: &o.json},
		},
		Action: func(c *cli.Context) error {
			id, err := memoryID(c, "edit")
			if err != nil {
				return err
			}
			if o.text == "" && o.topic == "" && o.source == "" {
				return usagef("edit needs --text, --topic or --source").hint("git adr memory edit " + adr.ShellWord(id) + ` --text "..."`)
			}
			if o.text == "-" {
				b, err := readAllLimited(env)
				if err != nil {
					return err
				}
				o.text = b
			}
			s, it, err := writeMemory(env, func(s memory.Store, st *memory.State) (*memory.Item, error) {
				return s.Edit(st, id, memory.Fields{Topic: o.topic, Source: o.source, Text: o.text})
			})
			if err != nil {
				return err
			}
			return reportMemory(env, s, memoryResult{Action: "edited", Item: it}, o.json)
		},
	}
}

// memoryToggleCommand is disable or enable.
func memoryToggleCommand(env *Env, verb string) *cli.Command {
	var asJSON bool
	on := verb == "enable"
	usage := "stop using an item in answers; it stays listed with --all"
	if on {
		usage = "use a disabled item in answers again"
	}
	return &cli.Command{
		Name:      verb,
		Usage:     usage,
		ArgsUsage: "ID",
		Description: fmt.Sprintf(`%s the item. A disabled item is kept (git adr memory list --all shows
it) but never included in context answers. Doing it twice is not an error:
nothing is written the second time.

Example:
   git adr memory %s m-3f2a`, map[bool]string{true: "Enables", false: "Disables"}[on], verb),
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print {action, item, commit}", Destination: &asJSON}},
		Action: func(c *cli.Context) error {
			id, err := memoryID(c, verb)
			if err != nil {
				return err
			}
			action := verb + "d"
			s, it, err := writeMemory(env, func(s memory.Store, st *memory.State) (*memory.Item, error) {
				it, err := s.SetEnabled(st, id, on)
				if errors.Is(err, memory.ErrUnchanged) {
					action = "already " + action
					return st.Resolve(id)
				}
				return it, err
			})
			if err != nil {
				return err
			}
			return reportMemory(env, s, memoryResult{Action: action, Item: it}, asJSON)
		},
	}
}

func memoryRmCommand(env *Env) *cli.Command {
	var asJSON bool
	return &cli.Command{
		Name:      "rm",
		Usage:     "delete an item from the memory",
		ArgsUsage: "ID",
		Description: `Removes the item from the memory: it is no longer listed or used. Its
earlier states stay in the ref's history (git adr memory show ID shows the
last one), as a deleted file stays in a branch's history.

Example:
   git adr memory rm m-3f2a`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print {action, item, commit}", Destination: &asJSON}},
		Action: func(c *cli.Context) error {
			id, err := memoryID(c, "rm")
			if err != nil {
				return err
			}
			s, it, err := writeMemory(env, func(s memory.Store, st *memory.State) (*memory.Item, error) {
				return s.Remove(st, id)
			})
			if err != nil {
				return err
			}
			return reportMemory(env, s, memoryResult{Action: "removed", Item: it}, asJSON)
		},
	}
}

// memoryID is the one ID argument.
func memoryID(c *cli.Context, cmd string) (string, error) {
	if c.NArg() != 1 {
		return "", usagef("%s takes one item ID, got %d arguments", cmd, c.NArg()).hint("run `git adr memory list --all` to see the IDs")
	}
	return c.Args().First(), nil
}

// writeMemory takes the project lock, reads the memory and applies one
// change to what it read (the ref moves from there, compare-and-swap).
func writeMemory(env *Env, change func(memory.Store, *memory.State) (*memory.Item, error)) (memory.Store, *memory.Item, error) {
	if err := env.lockWrites(); err != nil {
		return memory.Store{}, nil, err
	}
	s, st, err := loadMemory(env)
	if err != nil {
		return s, nil, err
	}
	it, err := change(s, st)
	if err != nil {
		return s, nil, memoryErr(err)
	}
	return s, it, nil
}
