package main

import (
	"bytes"
	"errors"
	"path/filepath"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/gitops"
	"github.com/urfave/cli/v2"
)

type contextOptions struct {
	domain, iteration, task, file, cursor string
	current, rationale, history           bool
	maxUnits, maxChars                    int
	json                                  bool
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

Examples:
   git adr context
   git adr context --task "add a read-through cache to the orders API" --file src/orders/api.go
   git adr context ADR-0012 --rationale
   git adr context --domain storage --json
   git adr context --cursor CURSOR`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "task", Usage: "free-text `TASK` to find decisions (and source files) for", Destination: &o.task},
			&cli.StringFlag{Name: "file", Usage: "with --task, a `PATH` that gets priority", Destination: &o.file},
			&cli.StringFlag{Name: "domain", Usage: "the decisions of domain `D`", Destination: &o.domain},
			&cli.StringFlag{Name: "iteration", Usage: "the decisions of iteration `I`", Destination: &o.iteration},
			&cli.BoolFlag{Name: "current", Usage: "the decisions in force (default)", Destination: &o.current},
			&cli.BoolFlag{Name: "rationale", Usage: "why: context, options and consequences", Destination: &o.rationale},
			&cli.BoolFlag{Name: "history", Usage: "the supersession history", Destination: &o.history},
			&cli.StringFlag{Name: "cursor", Usage: "continue a previous response from `C`", Destination: &o.cursor},
			&cli.IntFlag{Name: "max-units", Usage: "at most `N` units (default 8, or [context] max_units)", Destination: &o.maxUnits},
			&cli.IntFlag{Name: "max-chars", Usage: "at most `N` code points in the whole response (default 12000, or [context] max_chars)", Destination: &o.maxChars},
			&cli.BoolFlag{Name: "json", Usage: "print JSON", Destination: &o.json},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usagef("context takes at most one ID, got %d arguments", c.NArg()).hint(`quote a task: --task "..."`)
			}
			return runContext(env, c.Args().First(), o)
		},
	}
}

func runContext(env *Env, id string, o contextOptions) error {
	req := evidence.Request{ID: id, Domain: o.domain, Iteration: o.iteration, Task: o.task, Cursor: o.cursor,
		MaxUnits: o.maxUnits, MaxChars: o.maxChars, Format: evidence.Text}
	if o.json {
		req.Format = evidence.JSON
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
	l, err := env.Log()
	if err != nil {
		return err
	}
	if err := env.requireRoots(l); err != nil {
		return err
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
		req.File = rel
	}
	if cfg := l.Config; cfg != nil {
		if req.MaxUnits == 0 {
			req.MaxUnits = cfg.Context.MaxUnits
		}
		if req.MaxChars == 0 {
			req.MaxChars = cfg.Context.MaxChars
		}
	}
	svc := contextService(repo, l)
	_, out, err := svc.Answer(req)
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
	return &evidence.Service{
		Log: l, Source: repo.WorktreeFS(), CursorKey: repo.CursorKey, Prefix: repo.Prefix, CacheDir: filepath.Join(repo.AdrDir(), "cache"),
		Memory: newMemorySource(repo),
		SourceFiles: func() ([]string, error) {
			out, err := repo.Git("ls-files", "-z", "--cached", "--others", "--exclude-standard")
			if err != nil {
				return nil, err
			}
			var paths []string
			for _, p := range bytes.Split(out, []byte{0}) {
				if len(p) > 0 {
					paths = append(paths, string(p))
				}
			}
			return paths, nil
		},
	}
}
