package main

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/git-adr/git-adr/hooks"
)

func guardCommand(env *Env) *cli.Command {
	var hook string
	var agent string
	var asJSON bool
	agentFlag := func() []cli.Flag {
		return []cli.Flag{
			&cli.StringFlag{Name: "agent", Usage: "the agent: claude, opencode or codex", Destination: &agent},
			&cli.BoolFlag{Name: "json", Usage: "print the result as JSON", Destination: &asJSON},
		}
	}
	parseAgent := func() (hooks.Agent, error) {
		a, ok := hooks.ParseAgent(agent)
		if agent == "" {
			return "", usagef("--agent is required: claude, opencode or codex").hint("for example `git adr guard install --agent claude`")
		}
		if _, installable := hooks.SetupFor(a); !ok || !installable {
			return "", usagef("--agent %q is not claude, opencode or codex", agent).
				hint("other tools call `git adr guard --hook generic` themselves (docs/guard.md)")
		}
		return a, nil
	}
	return &cli.Command{
		Name:      "guard",
		Usage:     "the read guard for coding agents: judge a tool call, install or remove the agent hooks",
		UsageText: "git adr guard --hook claude|opencode|codex|generic < HOOK-INPUT\n   git adr guard install|uninstall --agent claude|opencode|codex [--json]\n   git adr guard status [--json]",
		Description: `The read guard keeps coding agents from reading archived records and from
reading or searching a whole ADR directory at once, and keeps them from
running the commands only a person may run (accepting decisions, changing
the guard). Its mode is off, warn or guard: see ` + "`git adr config guard`" + `.

--hook reads one tool call as the agent's hook sends it on standard input and
answers in that agent's protocol before the tool runs: Claude Code and Codex
CLI PreToolUse JSON, the JSON of git-adr's OpenCode plugin, or git-adr's
generic JSON. It never fails open: a call it cannot judge is refused in guard
mode, with the reason.

install writes the hook into the project settings the agent reads
(.claude/settings.json, .opencode/plugin/git-adr-guard.js,
.codex/hooks.json), keeping what else is there; installing again changes
nothing; uninstall removes exactly what install added (byte for byte when the
file is unchanged since). docs/guard.md lists what the guard recognises and
what passes it: it is guidance with teeth, not isolation.

Examples:
   git adr guard install --agent claude
   echo '{"tool":"shell","command":"grep -r cache doc/adr"}' | git adr guard --hook generic`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "hook", Usage: "judge one tool call of `AGENT` (claude, opencode, codex, generic) read from stdin", Destination: &hook},
		},
		Action: func(c *cli.Context) error {
			if hook == "" {
				if c.NArg() > 0 {
					return usagef("unknown guard subcommand %q", c.Args().First()).hint("run `git adr guard -h` for usage")
				}
				return runGuardStatus(env, false)
			}
			a, ok := hooks.ParseAgent(hook)
			if !ok {
				return usagef("--hook %q is not claude, opencode, codex or generic", hook).hint("run `git adr guard -h` for usage")
			}
			return runGuardHook(env, a)
		},
		Subcommands: []*cli.Command{
			{
				Name: "install", Usage: "install the guard's hook for an agent in this project", Flags: agentFlag(),
				Action: func(c *cli.Context) error {
					a, err := parseAgent()
					if err != nil {
						return err
					}
					return runGuardInstall(env, a, false, asJSON)
				},
			},
			{
				Name: "uninstall", Usage: "remove exactly what install added", Flags: agentFlag(),
				Action: func(c *cli.Context) error {
					a, err := parseAgent()
					if err != nil {
						return err
					}
					return runGuardInstall(env, a, true, asJSON)
				},
			},
			{
				Name: "status", Usage: "show the mode and which agents have the hook",
				Flags:  []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON", Destination: &asJSON}},
				Action: func(c *cli.Context) error { return runGuardStatus(env, asJSON) },
			},
		},
	}
}

// runGuardHook judges one tool call (see [hooks.GuardCall]). Whatever
// happens it answers in the agent's protocol and exits 0, so that the
// agent reads the answer.
func runGuardHook(env *Env, agent hooks.Agent) error {
	dir := env.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	a, ok := hooks.GuardCall(agent, env.In, dir)
	if !ok {
		return nil
	}
	env.Out.Write(a.Stdout)
	env.Err.Write(a.Stderr)
	env.exit = a.Code
	return nil
}
