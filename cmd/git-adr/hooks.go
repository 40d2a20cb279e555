package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/govern"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/hooks"
	"github.com/git-adr/git-adr/internal/gcpolicy"
)

func hooksCommand(env *Env) *cli.Command {
	var asJSON bool
	var which [4]bool
	selected := func() []string {
		var out []string
		for i, n := range hooks.GitHooks {
			if which[i] {
				out = append(out, n)
			}
		}
		if len(out) == 0 {
			r, err := env.Repo()
			return hooks.DefaultHooks(err == nil && r.Bare)
		}
		return out
	}
	flags := func() []cli.Flag {
		return []cli.Flag{
			&cli.BoolFlag{Name: "pre-commit", Usage: "the pre-commit hook: governance and freshness of staged records", Destination: &which[0]},
			&cli.BoolFlag{Name: "pre-push", Usage: "the pre-push hook: ledgers and signatures of acceptance commits", Destination: &which[1]},
			&cli.BoolFlag{Name: "commit-msg", Usage: "the commit-msg hook: suggests a Refs: ADR-NNNN trailer", Destination: &which[2]},
			&cli.BoolFlag{Name: "pre-receive", Usage: "the pre-receive hook of a server (the default in a bare repository)", Destination: &which[3]},
			&cli.BoolFlag{Name: "json", Usage: "print the hooks' state as JSON", Destination: &asJSON},
		}
	}
	return &cli.Command{
		Name:  "hooks",
		Usage: "install, remove or show git-adr's git hooks (beside any hook a team already has)",
		Description: `install puts git-adr's pre-commit and pre-push hooks (or those named by flags)
in git's hooks directory (git rev-parse --git-path hooks: core.hooksPath and
linked worktrees honoured). A hook already there is kept as <name>.pre-git-adr
and runs first, with its arguments, input and exit status; install again
changes nothing; uninstall puts it back byte for byte. When husky, lefthook,
the pre-commit framework or a global core.hooksPath manages the hooks,
git-adr prints the lines to add to that tool and edits nothing, unless the
tool already runs git-adr's hook; lefthook or pre-commit configured but never
installed in this clone runs nothing, so git-adr's own hooks are installed.
status says which hooks run git-adr, directly or through which tool.

git's --no-verify skips every hook, git-adr's included.`,
		Before: func(*cli.Context) error {
			env.allowBare = true
			return nil
		},
		Subcommands: []*cli.Command{
			{
				Name: "install", Usage: "install git-adr's hooks", Flags: flags(),
				Action: func(c *cli.Context) error { return runHooksInstall(env, selected(), asJSON) },
			},
			{
				Name: "uninstall", Usage: "remove git-adr's hooks, putting back what was there", Flags: flags(),
				Action: func(c *cli.Context) error {
					names := selected()
					if !which[0] && !which[1] && !which[2] && !which[3] {
						names = hooks.GitHooks
					}
					return runHooksUninstall(env, names, asJSON)
				},
			},
			{
				Name: "status", Usage: "show which hooks are git-adr's",
				Flags:  []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON", Destination: &asJSON}},
				Action: func(c *cli.Context) error { return runHooksStatus(env, asJSON) },
			},
		},
	}
}

func hooksDir(env *Env) (*gitops.Repo, string, error) {
	r, err := env.Repo()
	if err != nil {
		return nil, "", err
	}
	dir, err := r.HooksDir()
	return r, dir, err
}

// runHooksInstall installs git-adr's hooks in git's hooks directory, or
// prints the lines to add to the manager that owns them (see
// [hooks.PlanInstall]).
func runHooksInstall(env *Env, names []string, asJSON bool) error {
	r, dir, err := hooksDir(env)
	if err != nil {
		return err
	}
	p, err := hooks.PlanInstall(r, dir, names)
	if p != nil && !asJSON {
		for _, h := range p.State.Hooks {
			fmt.Fprintf(env.Out, "%s runs git-adr through %s (%s)\n", h.Name, p.Manager.Name, h.Through.Config)
		}
	}
	if err != nil {
		return err
	}
	st, m := p.State, p.Manager
	if len(p.Skipped) > 0 {
		fmt.Fprintf(env.Err, "git-adr: note: %s is configured here (%s), but git does not run it for %s in this clone: git-adr's own hooks are installed instead\n",
			m.Name, m.Config, strings.Join(p.Skipped, " or "))
	}
	if len(p.Direct) > 0 {
		if err := env.lockWrites(); err != nil {
			return err
		}
	}
	installed, err := hooks.Install(dir, p.Direct)
	for _, c := range installed {
		h := c.State
		st.Hooks = append(st.Hooks, hooks.HookState{HookState: h})
		switch {
		case asJSON:
		case !c.Changed:
			fmt.Fprintf(env.Out, "%s is already installed (%s)\n", h.Name, h.Path)
		case h.Chained != "":
			fmt.Fprintf(env.Out, "installed %s (%s); the hook that was there is kept as %s and runs first\n", h.Name, h.Path, filepath.Base(h.Chained))
		default:
			fmt.Fprintf(env.Out, "installed %s (%s)\n", h.Name, h.Path)
		}
	}
	if err != nil {
		return failf("%v", err)
	}
	if len(p.Missing) > 0 {
		fmt.Fprint(env.Out, hooks.Snippet(m, p.Missing))
		where := "its configuration"
		if m.Config != "" {
			where = m.Config
		}
		e := failf("the hooks of this repository are managed by %s (%s); git-adr edits none of its files", m.Name, m.Why)
		for _, w := range p.Wirings {
			if w.Problem != "" {
				e.hint(w.Problem + ": " + w.Fix)
			}
		}
		instead := "to install into " + filepath.ToSlash(dir) + " anyway, unset core.hooksPath first"
		switch m.Name {
		case "lefthook":
			instead = "to use git-adr's own hooks instead: `lefthook uninstall`, then `git adr hooks install`"
		case "pre-commit":
			var ts []string
			for _, n := range p.Missing {
				ts = append(ts, "-t "+n)
			}
			instead = "to use git-adr's own hooks instead: `pre-commit uninstall " + strings.Join(ts, " ") + "`, then `git adr hooks install`"
		}
		return e.hint("add the lines above to "+where+"; each calls `git adr hook NAME`", instead)
	}
	if asJSON {
		return writeJSON(env.Out, st)
	}
	return nil
}

func runHooksUninstall(env *Env, names []string, asJSON bool) error {
	_, dir, err := hooksDir(env)
	if err != nil {
		return err
	}
	if err := env.lockWrites(); err != nil {
		return err
	}
	st := hooks.HooksState{Dir: dir}
	removed, err := hooks.Uninstall(dir, names)
	for _, c := range removed {
		h := c.State
		st.Hooks = append(st.Hooks, hooks.HookState{HookState: h})
		switch {
		case asJSON:
		case c.Restored:
			fmt.Fprintf(env.Out, "removed %s; put back the hook that was there before\n", h.Name)
		case c.Changed:
			fmt.Fprintf(env.Out, "removed %s\n", h.Name)
		case h.Foreign:
			fmt.Fprintf(env.Out, "%s is not git-adr's; left alone\n", h.Name)
		}
	}
	if err != nil {
		return failf("%v", err)
	}
	if asJSON {
		return writeJSON(env.Out, st)
	}
	return nil
}

func runHooksStatus(env *Env, asJSON bool) error {
	r, dir, err := hooksDir(env)
	if err != nil {
		return err
	}
	st, err := hooks.Status(r, dir)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(env.Out, st)
	}
	fmt.Fprintf(env.Out, "hooks directory: %s\n", dir)
	if st.Manager != "" {
		fmt.Fprintf(env.Out, "managed by: %s (`git adr hooks install` prints the lines to add)\n", st.Manager)
	}
	for _, h := range st.Hooks {
		fmt.Fprintf(env.Out, "%-11s %s\n", h.Name, describeHook(h))
	}
	return nil
}

// describeHook says in words what runs as the hook.
func describeHook(h hooks.HookState) string {
	w := h.Through
	switch {
	case h.Installed && h.Chained != "":
		return "git-adr, running " + filepath.Base(h.Chained) + " first"
	case h.Installed:
		return "git-adr"
	case w != nil && w.Runs():
		return "git-adr, through " + w.Manager + " (" + w.Config + ")"
	case w != nil && w.Config != "" && w.Installed:
		return "git-adr through " + w.Manager + " (" + w.Config + "), but " + w.Problem + ": " + w.Fix
	case w != nil && w.Config != "":
		return "not installed: " + w.Config + " runs git-adr, but git does not run " + w.Manager + " for this hook here (`" + w.Fix + "`)"
	case w != nil && w.Installed:
		return w.Manager + "'s hook, which does not run git-adr (`git adr hooks install` prints the lines to add)"
	case h.Foreign:
		return "another hook (not git-adr's)"
	}
	return "not installed"
}

func hookCommand(env *Env) *cli.Command {
	return &cli.Command{
		Name:      "hook",
		Usage:     "run a git hook's checks (what the installed hooks call)",
		ArgsUsage: "pre-commit | pre-push REMOTE URL | commit-msg FILE | pre-receive",
		Description: `What git-adr's hooks run; call it from husky, lefthook or your own hook.

pre-commit   blocks, in what is staged: an edit of what an accepted record
             decides, a status change the lifecycle forbids, a deleted record,
             a number another record (or branch) holds; reports a CURRENT view
             the change makes stale ([hooks] stale_view = "block" blocks it);
             brings a generated INDEX.md up to date in the commit ([hooks]
             index = "check" blocks instead).
pre-push     blocks acceptance and publication commits (an ADR-Plan trailer)
             whose ledger does not match their files, and in strict mode
             ([governance] strict = true) those not signed by an allowed signer;
             reports numbers the remote's branch holds for other records.
             Given no refs (a hook manager that withholds git's input, as
             lefthook does without use_stdin) while commits are not on the
             remote, it refuses: it cannot see what is pushed.
commit-msg   suggests a Refs: ADR-NNNN trailer for commits that change records.
pre-receive  on a server (bare repository): the pre-commit rules over each
             pushed range, and the pre-push checks.

A hook a team had before git-adr's (kept as NAME.pre-git-adr) runs first.
git commit --no-verify and git push --no-verify skip every hook.`,
		SkipFlagParsing: true,
		Action: func(c *cli.Context) error {
			args := c.Args().Slice()
			if len(args) > 0 && args[0] == "--" {
				args = args[1:]
			}
			if len(args) == 0 {
				return usagef("hook needs a hook name: pre-commit, pre-push, commit-msg or pre-receive")
			}
			return runHook(env, args[0], args[1:])
		},
	}
}

func runHook(env *Env, name string, args []string) error {
	switch name {
	case "pre-commit", "pre-push", "commit-msg", "pre-receive":
	default:
		return usagef("%q is not a hook git-adr runs", name).hint("use pre-commit, pre-push, commit-msg or pre-receive")
	}
	// Nothing in the environment turns the checks off: git-adr commits
	// through plumbing (commit-tree, update-ref), which runs no hook, so
	// its own commits need no way past them, and a variable anyone can
	// set would be a way past them for everyone.
	if name == "pre-commit" || name == "commit-msg" {
		gcpolicy.ShortLived()
	}
	env.allowBare = name == "pre-receive"
	r, err := env.Repo()
	if err != nil {
		return err
	}
	var stdin []byte
	if name == "pre-push" || name == "pre-receive" {
		if stdin, err = io.ReadAll(env.In); err != nil {
			return err
		}
	}
	ran, code, err := hooks.RunEarlier(r, os.Getenv, name, args, stdin, env.Out, env.Err)
	if err != nil {
		return failf("running the %s hook git-adr chained: %v", name, err)
	}
	if ran && code != 0 {
		return silentExit(code)
	}
	switch name {
	case "pre-commit":
		return runPreCommit(env, r)
	case "pre-push":
		return runPrePush(env, r, args, stdin)
	case "commit-msg":
		return runCommitMsg(env, r, args)
	}
	return runPreReceive(env, r, stdin)
}

// refuseProblems prints each problem as an error (blocking) or a
// warning, and refuses the commit or push (what) when any blocks.
func refuseProblems(env *Env, what string, ps []govern.Problem) error {
	for _, p := range ps {
		loc := p.Path
		if p.Line > 0 {
			loc = fmt.Sprintf("%s:%d", p.Path, p.Line)
		}
		level := "warning"
		if p.Block {
			level = "error"
		}
		fmt.Fprintf(env.Err, "git-adr: %s: %s: %s: %s\n", level, adr.Escape(loc), p.Rule, adr.EscapeBody(p.Message))
		if p.Fix != "" {
			fmt.Fprintf(env.Err, "hint: %s\n", adr.EscapeBody(p.Fix))
		}
	}
	n := govern.Blocking(ps)
	if n == 0 {
		return nil
	}
	fmt.Fprintf(env.Err, "git-adr: the %s is refused (%s above); `--no-verify` skips git-adr's checks\n", what, plural(n, "problem"))
	return silentExit(ExitFailure)
}
