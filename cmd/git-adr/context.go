package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/audit"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/gitops"
)

type contextOptions struct {
	domain, iteration, task, file, cursor string
	diff                                  string
	staged                                bool
	current, rationale, history           bool
	maxUnits, maxChars                    int
	json, pretty                          bool
}

func contextCommand(env *Env) *cli.Command {
	var o contextOptions
	return &cli.Command{
		Name:      "context",
		Usage:     "bounded decision context for a task, a record, a domain or an iteration",
		ArgsUsage: "[ID[#unit|§N]]",
		Description: `Answers with the decisions that matter, within a budget (default 8 units and
12,000 Unicode code points for the whole response, envelope included), naming
the record, path, line range and status of every excerpt. Long units are split
into identified parts (ADR-0012#decision[2/3]); what does not fit is counted
and reachable with the cursor the response gives: an incomplete answer ends
with "cursor: C" and "next: git adr context ... --cursor C", the command that
continues it. Cursors are signed with a key in $GIT_COMMON_DIR/adr.

With no argument: an overview (counts, domains, roots, system constraints,
what to ask next). With an ID: that record, led by its accepted successor when
it is superseded, then system constraints and explicit dependencies (at most 3
relation hops; archived bodies at most 1 hop). --task ranks records and the
repository's own files by the task's words; --file gives a file priority.

With --file (without --task), --diff REV or --staged: the decisions that
govern those files come first, each unit saying why (applies_to: payments/**,
a marker in the file, a record naming its folder; see docs/scope.md), then
task retrieval when --task is given, in the same budget.

Examples:
   git adr context
   git adr context --task "add a read-through cache to the orders API" --file src/orders/api.go
   git adr context --diff HEAD~1
   git adr context --staged --task "cache the orders"
   git adr context ADR-0012 --rationale
   git adr context --domain storage --json
   git adr context --cursor CURSOR`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "task", Usage: "free-text `TASK` to find decisions (and source files) for", Destination: &o.task},
			&cli.StringFlag{Name: "file", Usage: "a `PATH`: the decisions governing it first; with --task it also gets priority", Destination: &o.file},
			&cli.StringFlag{Name: "diff", Usage: "the decisions governing the files changed since `REV` (work tree against REV) first", Destination: &o.diff},
			&cli.BoolFlag{Name: "staged", Usage: "the decisions governing the staged files first", Destination: &o.staged},
			&cli.StringFlag{Name: "domain", Usage: "the decisions of domain `D`", Destination: &o.domain},
			&cli.StringFlag{Name: "iteration", Usage: "the decisions of iteration `I`", Destination: &o.iteration},
			&cli.BoolFlag{Name: "current", Usage: "the decisions in force (default)", Destination: &o.current},
			&cli.BoolFlag{Name: "rationale", Usage: "why: context, options and consequences", Destination: &o.rationale},
			&cli.BoolFlag{Name: "history", Usage: "the supersession history", Destination: &o.history},
			&cli.StringFlag{Name: "cursor", Usage: "continue a previous response from `C`", Destination: &o.cursor},
			&cli.IntFlag{Name: "max-units", Usage: "at most `N` units (default 16 for --task, 8 otherwise, or [context] max_units)", Destination: &o.maxUnits},
			&cli.IntFlag{Name: "max-chars", Usage: "at most `N` code points in the whole response (default 5000 for --task, 12000 otherwise, or [context] max_chars)", Destination: &o.maxChars},
			&cli.BoolFlag{Name: "json", Usage: "print JSON (compact: the budget is spent on evidence)", Destination: &o.json},
			&cli.BoolFlag{Name: "pretty", Usage: "with --json, indent it for people (counted in the budget)", Destination: &o.pretty},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usagef("context takes at most one ID, got %d arguments", c.NArg()).hint(`quote a task: --task "..."`)
			}
			// 0 is "the default" inside; given on the command line it is a
			// value out of range, not a silent default.
			if c.IsSet("max-units") && o.maxUnits < 1 {
				return usagef("--max-units %d is out of range", o.maxUnits).hint(fmt.Sprintf("use a number from 1 to %d", evidence.MaxUnitsLimit))
			}
			if c.IsSet("max-chars") && o.maxChars < evidence.MinCharsLimit {
				return usagef("--max-chars %d is out of range", o.maxChars).hint(fmt.Sprintf("use a number from %d to %d", evidence.MinCharsLimit, evidence.MaxCharsLimit))
			}
			return runContext(env, c.Args().First(), o)
		},
	}
}

func runContext(env *Env, id string, o contextOptions) error {
	if env.acrossWorkspace(true) {
		return runWorkspaceContext(env, id, o)
	}
	req := evidence.Request{ID: id, Domain: o.domain, Iteration: o.iteration, Task: o.task, Cursor: o.cursor,
		MaxUnits: o.maxUnits, MaxChars: o.maxChars, Format: evidence.Text}
	if o.json {
		req.Format = evidence.JSON
		if o.pretty {
			req.Format = evidence.PrettyJSON
		}
	} else if o.pretty {
		return usagef("--pretty needs --json").hint("git adr context --json --pretty ...")
	}
	n := 0
	for flag, set := range map[evidence.Intent]bool{evidence.Current: o.current, evidence.Rationale: o.rationale, evidence.History: o.history} {
		if set {
			req.Intent = flag
			n++
		}
	}
	if n > 1 {
		return usagef("--current, --rationale and --history are exclusive").hint("pick one intent")
	}
	if o.diff != "" && o.staged {
		return usagef("--diff and --staged are exclusive").hint("--staged is the index against HEAD; --diff REV the work tree against REV")
	}
	repo, err := env.Repo()
	if err != nil {
		return err
	}
	if o.file != "" {
		rel, ok := repo.Rel(o.file)
		if !ok {
			return usagef("--file %q is outside the repository", o.file)
		}
		req.Paths = []string{rel}
		if o.task != "" {
			req.File = rel
		}
	}
	diff := o.diff
	if o.staged {
		diff = "staged"
	}
	// What the question asks git runs while the log loads.
	ahead := audit.StartAhead(repo, req, diff, func() ([]string, error) { return diffPaths(repo, o.diff, o.staged) })
	// The question lets go of each text the load reads once it is parsed
	// (a first task question analyses it first): a long log's texts are
	// never all held, and the few the answer quotes are read again.
	var pre *evidence.Preanalysis
	if o.task != "" && env.log == nil {
		if pre = evidence.NewPreanalysis(audit.CacheDir(repo)); pre != nil {
			env.parsed, env.loading = pre.Parsed, "indexing records"
		}
	}
	l, err := env.LogWithoutTexts()
	if err != nil {
		return err
	}
	if err := env.requireRoots(l); err != nil {
		return err
	}
	if err := ahead.Request(&req); err != nil {
		return err
	}
	req.ConfigLimits(l.Config)
	svc := contextService(repo, l)
	ahead.Serve(svc, repo, l)
	// Every answer states its o200k token count, but the tokenizer is
	// built only for a text whose count is not cached (evidence's
	// tokens.bin): a repeated answer never builds it. A first task query
	// over a big log analyses every record.
	progress, done := terminalProgress(env.Err, "indexing records")
	svc.Progress = progress
	// One question, then the process ends.
	svc.ReleaseTexts, svc.OutsideHeap = true, true
	svc.Preanalysis = pre
	_, out, err := svc.Answer(req)
	done()
	if err != nil {
		var re *evidence.RequestError
		if errors.As(err, &re) {
			e := usagef("%s", re.Msg)
			if re.Hint != "" {
				e.hint(re.Hint)
			}
			return e
		}
		return err
	}
	_, err = env.Out.Write(out)
	return err
}

// contextService is the context service over a loaded log, for the command
// and for the MCP tool.
func contextService(repo *gitops.Repo, l *adr.Log) *evidence.Service {
	return audit.ContextService(repo, l, newMemorySource(repo), audit.Embeddings(repo, l.Config, os.Getenv))
}

// diffPaths are the files a diff changes: the work tree against rev, or
// the index against HEAD (staged).
func diffPaths(repo *gitops.Repo, rev string, staged bool) ([]string, error) {
	if staged {
		return repo.StagedPaths()
	}
	if _, err := repo.ResolveRef(rev); err != nil {
		return nil, usagef("--diff %q names no revision here", rev).hint("for example --diff HEAD~1, --diff origin/main")
	}
	return repo.DiffPaths(rev)
}
