package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/navigate/budget"
)

type budgetOptions struct {
	tokens, keepGroups, readCap int
	format                      string
	noKeepReads                 bool
	readTools                   cli.StringSlice
	json                        bool
	output, plan                string
}

func budgetFlags(o *budgetOptions) []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "budget", Usage: "at most `N` tokens (o200k_base; an estimate for other models) in the request (required)", Destination: &o.tokens},
		&cli.StringFlag{Name: "format", Usage: "`FORMAT` of the transcript: openai, anthropic (default: detected)", Destination: &o.format},
		&cli.IntFlag{Name: "keep-groups", Usage: "never compact the newest `N` tool groups", Value: budget.DefaultKeepGroups, Destination: &o.keepGroups},
		&cli.BoolFlag{Name: "no-keep-latest-reads", Usage: "compact a file's latest read like any other tool group", Destination: &o.noKeepReads},
		&cli.StringSliceFlag{Name: "read-tool", Usage: "a tool whose results are file reads, `NAME` (repeatable; default read_file, Read, adr_read)", Destination: &o.readTools},
		&cli.IntFlag{Name: "read-cap", Usage: "keep a latest read inline only up to `N` characters", Value: budget.DefaultReadCap, Destination: &o.readCap},
	}
}

func budgetCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "budget",
		Usage:     "fit an agent transcript into a token budget: prompt-budget policy v3 with keep-latest-read",
		ArgsUsage: "plan|apply",
		Description: `Reads an agent transcript (an OpenAI chat or Anthropic messages request, an
array of messages, or JSON Lines) and decides what of it goes into the next
model request when all of it would exceed --budget tokens: old complete tool
call/result groups of the newest exchange become deterministic, labelled
excerpts (tool name, bounded arguments, result excerpt with any error text),
oldest first; the latest two tool groups, and the latest read of each file,
stay as they were; older exchanges are trimmed whole only when that is not
enough. An invalid or unanswered call history is refused before anything is
planned. The transcript is never changed: plan reports, apply writes the
outbound request to stdout or a new file.

Examples:
   git adr budget plan session.json --budget 20000
   git adr budget apply session.json --budget 20000 --output request.json
   git adr budget plan transcript.jsonl --format anthropic --budget 100000 --json`,
		Subcommands: []*cli.Command{budgetPlanCommand(env), budgetApplyCommand(env)},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usagef("budget needs a subcommand: plan or apply").hint("run `git adr budget -h` for usage")
			}
			return usagef("unknown budget subcommand %q", c.Args().First()).hint("use plan or apply; run `git adr budget -h` for usage")
		},
	}
}

func budgetPlanCommand(env *Env) *cli.Command {
	var o budgetOptions
	return &cli.Command{
		Name:      "plan",
		Usage:     "say what would be compacted, kept and trimmed, and why",
		ArgsUsage: "FILE|-",
		Description: `Prints the plan: sizes before and after, every compacted tool group, every
kept one with its reason, trimmed exchanges, and, when the budget cannot be
met, why. Exit 0 when the request fits, 1 when it cannot, 2 for a bad
transcript or flag.

Example:
   git adr budget plan session.json --budget 20000 --json > plan.json`,
		Flags: append(budgetFlags(&o), &cli.BoolFlag{Name: "json", Usage: "print the plan as JSON", Destination: &o.json}),
		Action: func(c *cli.Context) error {
			p, err := budgetPlan(env, c, o)
			if err != nil {
				return err
			}
			if o.json {
				if err := writeJSON(env.Out, p); err != nil {
					return err
				}
			} else {
				printBudgetPlan(env.Out, p)
			}
			if !p.Fits {
				return silentExit(ExitFailure)
			}
			return nil
		},
	}
}

func budgetApplyCommand(env *Env) *cli.Command {
	var o budgetOptions
	return &cli.Command{
		Name:      "apply",
		Usage:     "write the outbound request the plan gives",
		ArgsUsage: "FILE|-",
		Description: `Writes the outbound request (the transcript's format and shape, compact JSON)
to stdout, or to --output FILE, which must not exist yet. The transcript is
never changed. With --plan PLAN.json (from plan --json) the plan is checked
first: the same transcript bytes and options must give the same plan.
Applying the same plan twice gives the same bytes. When the budget cannot be
met nothing is written and the reason is given (exit 1).

Examples:
   git adr budget apply session.json --budget 20000 > request.json
   git adr budget apply session.json --budget 20000 --plan plan.json --output request.json`,
		Flags: append(budgetFlags(&o),
			&cli.StringFlag{Name: "output", Usage: "write to new `FILE` instead of stdout", Destination: &o.output},
			&cli.StringFlag{Name: "plan", Usage: "check that the plan equals the saved `PLAN` (plan --json) first", Destination: &o.plan}),
		Action: func(c *cli.Context) error {
			p, err := budgetPlan(env, c, o)
			if err != nil {
				return err
			}
			if o.plan != "" {
				if err := checkSavedPlan(o.plan, p); err != nil {
					return err
				}
			}
			out, err := p.Apply()
			if errors.Is(err, budget.ErrBudget) {
				return failf("the request cannot fit %d tokens: %s; nothing was written", o.tokens, p.Failure).
					hint("raise --budget, or see the plan: `git adr budget plan " + adr.ShellWord(c.Args().First()) + fmt.Sprintf(" --budget %d`", o.tokens))
			}
			if err != nil {
				return err
			}
			if err := writeOutbound(env, c.Args().First(), o.output, out); err != nil {
				return err
			}
			fmt.Fprintf(env.Err, "git-adr: note: %s\n", budgetSummary(p))
			return nil
		},
	}
}

// budgetPlan reads the transcript and plans.
func budgetPlan(env *Env, c *cli.Context, o budgetOptions) (*budget.Plan, error) {
	if c.NArg() != 1 {
		return nil, usagef("%s takes one transcript FILE (or - for stdin), got %d arguments", c.Command.Name, c.NArg()).hint("git adr budget " + c.Command.Name + " session.json --budget 20000")
	}
	if o.tokens <= 0 {
		return nil, usagef("--budget must be a positive number of tokens").hint("for example --budget 20000 (o200k_base tokens)")
	}
	if o.keepGroups < 1 || o.readCap < 1 {
		return nil, usagef("--keep-groups and --read-cap must be at least 1")
	}
	format := budget.Format(o.format)
	if o.format == "auto" {
		format = budget.Auto
	}
	opts := budget.Options{Budget: o.tokens, KeepGroups: o.keepGroups, KeepLatestReads: !o.noKeepReads, ReadCap: o.readCap}
	if tools := o.readTools.Value(); len(tools) > 0 {
		opts.ReadTools = tools
	}
	p, err := budget.PlanFile(c.Args().First(), env.In, format, opts)
	var fe *budget.FileError
	var ie *budget.InputError
	switch {
	case errors.As(err, &fe):
		return nil, usagef("%v", err)
	case errors.As(err, &ie):
		return nil, usagef("%s: %v", c.Args().First(), err).hint("nothing was planned: a history a provider would refuse cannot be compacted; docs/budget.md describes the formats")
	}
	return p, err
}

// writeOutbound writes the request to stdout or a new file (see
// [budget.WriteNew]).
func writeOutbound(env *Env, input, output string, out []byte) error {
	if output == "" {
		_, err := env.Out.Write(out)
		return err
	}
	switch err := budget.WriteNew(input, output, out); {
	case errors.Is(err, budget.ErrTranscriptItself):
		return usagef("--output %q is the transcript itself; the transcript is never changed", output).hint("name a new file")
	case errors.Is(err, os.ErrExist):
		return usagef("--output %q exists; apply writes only a new file", output).hint("remove it first, or name another file")
	case err != nil:
		return failf("%v", err)
	}
	return nil
}

// checkSavedPlan refuses to apply when the saved plan differs from the
// plan computed now.
func checkSavedPlan(path string, p *budget.Plan) error {
	saved, err := os.ReadFile(path)
	if err != nil {
		return usagef("--plan: %v", err)
	}
	what, err := p.Differs(saved)
	if err != nil {
		return usagef("--plan %q is not a plan: %v", path, err).hint("save one with `git adr budget plan FILE --budget N --json > plan.json`")
	}
	if what != "" {
		return failf("--plan %q does not match: %s; nothing was written", path, what).hint("make the plan again with the same flags")
	}
	return nil
}

// budgetSummary is one line about a plan.
func budgetSummary(p *budget.Plan) string {
	s := fmt.Sprintf("%d -> %d o200k tokens (budget %d): %d tool groups compacted, %d kept, %d older exchanges trimmed",
		p.Before.Tokens, p.After.Tokens, p.Budget, len(p.Compacted), len(p.Kept), len(p.Trimmed))
	if !p.Fits {
		s += "; does not fit"
	}
	return s
}

// printBudgetPlan prints a plan for people. Groups kept only because the
// request already fits are counted, not listed.
func printBudgetPlan(w io.Writer, p *budget.Plan) {
	fmt.Fprintf(w, "budget plan (%s): %s %s, %d messages, %d bytes, %d o200k tokens (an estimate for other models); budget %d\n",
		p.Policy, p.Format, p.Shape, p.Before.Messages, p.Before.Bytes, p.Before.Tokens, p.Budget)
	fmt.Fprintf(w, "newest exchange starts at message %d\n", p.Exchange)
	calls := func(a budget.GroupAction) string {
		var cs []string
		for _, c := range a.Calls {
			s := c.Name
			if c.Path != "" {
				s += " " + c.Path
			}
			cs = append(cs, adr.Escape(s))
		}
		return strings.Join(cs, ", ")
	}
	for _, a := range p.Compacted {
		fmt.Fprintf(w, "compacted: group %d (messages %s) %s: %d -> %d tokens\n", a.Group, span(a.Messages), calls(a), a.Tokens, a.Excerpt)
	}
	notNeeded := 0
	for _, a := range p.Kept {
		if a.Reason == budget.ReasonFits {
			notNeeded++
			continue
		}
		fmt.Fprintf(w, "kept: group %d (messages %s) %s: %s\n", a.Group, span(a.Messages), calls(a), adr.Escape(a.Reason))
	}
	if notNeeded > 0 {
		fmt.Fprintf(w, "kept: %d older tool groups, not needed: the request fits\n", notNeeded)
	}
	for _, tr := range p.Trimmed {
		fmt.Fprintf(w, "trimmed: messages %s, %d tokens (%s)\n", span(tr.Messages), tr.Tokens, tr.Reason)
	}
	state := "fits"
	if !p.Fits {
		state = "does not fit: " + p.Failure
	}
	fmt.Fprintf(w, "after: %d messages, %d bytes, %d o200k tokens; %s\n", p.After.Messages, p.After.Bytes, p.After.Tokens, state)
}

// span writes message numbers as ranges: "4-6, 9".
func span(ns []int) string {
	var parts []string
	for i := 0; i < len(ns); {
		j := i
		for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", ns[i], ns[j]))
		} else {
			parts = append(parts, fmt.Sprint(ns[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
