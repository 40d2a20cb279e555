package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/workspace"
	"github.com/urfave/cli/v2"
)

// version is set at build time (-ldflags "-X main.version=...").
var version = "dev"

// Main runs git-adr with the process arguments and returns the exit code.
func Main() int {
	env := &Env{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}
	if shimName(os.Args[0]) != "" {
		// The same binary run as `adr` is adr-tools (shim.go).
		defer func() {
			env.unlock()
			if env.repo != nil {
				env.repo.Close()
			}
		}()
		return runShim(env, os.Args)
	}
	return run(env, os.Args)
}

// bufferedHelp makes urfave/cli print help in one write: its printer
// writes through a tabwriter that flushes every block of lines, which
// was about 150 system calls for `git adr -h`.
var bufferedHelp = sync.OnceFunc(func() {
	print := cli.HelpPrinterCustom
	cli.HelpPrinterCustom = func(out io.Writer, templ string, data any, funcs map[string]any) {
		bw := bufio.NewWriter(out)
		print(bw, templ, data, funcs)
		bw.Flush()
	}
})

func run(env *Env, args []string) int {
	bufferedHelp()
	defer func() {
		env.unlock()
		if env.repo != nil {
			env.repo.Close()
		}
	}()
	env.command = commandLine(args)
	app := newApp(env)
	err := app.Run(permuteArgs(app, args))
	env.warnUnavailable()
	if err == nil {
		return env.exit
	}
	return report(env.Err, err)
}

// commandLine is the command as a person would type it again, for the
// lock and journals ("git adr link 1 'Relates to' 2 'Relates to'"). A
// memory command is recorded without its arguments ("git adr memory
// add"): its text, topic and source are what the secret scanner judges,
// and a refused secret must not reach a lock file or the messages that
// quote it.
func commandLine(args []string) string {
	words := []string{"git", "adr"}
	rest := args[min(1, len(args)):]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "-C" || a == "--root" || a == "-root" {
			words = append(words, a)
			if i+1 < len(rest) {
				i++
				words = append(words, adr.ShellWord(rest[i]))
			}
			continue
		}
		if strings.HasPrefix(a, "-") {
			words = append(words, adr.ShellWord(a))
			continue
		}
		if a == "memory" {
			words = append(words, a)
			if i+1 < len(rest) && !strings.HasPrefix(rest[i+1], "-") {
				words = append(words, adr.ShellWord(rest[i+1]))
			}
			return strings.Join(words, " ")
		}
		for _, w := range rest[i:] {
			words = append(words, adr.ShellWord(w))
		}
		break
	}
	s := strings.Join(words, " ")
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}

// acrossWorkspaceCommands are the commands --workspace FILE takes across
// a workspace's repositories.
var acrossWorkspaceCommands = map[string]bool{"list": true, "show": true, "context": true, "check": true, "index": true, "graph": true, "mcp": true}

// takeWorkspaceFlag lets cmd take the global --workspace after its name
// too (git adr mcp --workspace FILE, as agents' settings write it). The
// flag has no destination of its own: urfave/cli sets a destination to
// the flag's default when the command's flags are parsed, which would
// clear the global flag's value.
func takeWorkspaceFlag(env *Env, cmd *cli.Command) {
	cmd.Flags = append(cmd.Flags, &cli.StringFlag{Name: "workspace", Usage: "answer across the repositories `FILE` names, as git adr --workspace FILE " + cmd.Name + " does (docs/workspace.md)"})
	before := cmd.Before
	cmd.Before = func(c *cli.Context) error {
		if c.IsSet("workspace") {
			env.Workspace = c.String("workspace")
		}
		if before != nil {
			return before(c)
		}
		return nil
	}
}

func newApp(env *Env) *cli.App {
	app := &cli.App{
		Name:      "git-adr",
		HelpName:  "git adr",
		Usage:     "a Git-native decision log and context engine for Architecture Decision Records",
		Version:   buildVersion(),
		Writer:    env.Out,
		ErrWriter: env.Err,
		Reader:    env.In,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "C", Usage: "run as if started in `DIR`", Destination: &env.Dir},
			&cli.StringSliceFlag{Name: "root", Usage: "use `DIR` as an ADR root instead of discovery (repeatable)"},
			&cli.StringFlag{Name: "workspace", Usage: "answer list, show, context, check, index, graph and mcp across the repositories `FILE` names (docs/workspace.md); " + workspace.EnvVar + " names it for all of them but check", Destination: &env.Workspace},
			// urfave/cli adds -h itself only when no command is named
			// help; ours is (git adr help [COMMAND]).
			cli.HelpFlag,
		},
		Before: func(c *cli.Context) error {
			env.Roots = c.StringSlice("root")
			return nil
		},
		Commands: []*cli.Command{
			initCommand(env),
			newCommand(env),
			proposeCommand(env),
			listCommand(env),
			showCommand(env),
			contextCommand(env),
			linkCommand(env),
			decideCommand(env),
			indexCommand(env),
			graphCommand(env),
			checkCommand(env),
			compactionCommand(env),
			archiveCommand(env),
			renumberCommand(env),
			recoverCommand(env),
			explainCommand(env),
			logCommand(env),
			hooksCommand(env),
			hookCommand(env),
			rootsCommand(env),
			navCommand(env),
			mcpCommand(env),
			helpCommand(env),
			trustCommand(env),
			memoryCommand(env),
			budgetCommand(env),
			guardCommand(env),
			configCommand(env),
			installAdrShimCommand(env),
			completionCommand(env),
			exportCommand(env),
			importCommand(env),
			workspaceCommand(env),
		},
		HideHelpCommand:      true,
		EnableBashCompletion: false,
		// Errors are printed once, by Main; urfave/cli must not exit.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			return usagef("%s", strings.Replace(err.Error(), "flag provided but not defined: ", "unknown flag ", 1)).
				hint("run `git adr -h` for usage")
		},
		CommandNotFound: func(c *cli.Context, name string) {
			env.exit = report(env.Err, unknownCommand("git adr", name, c.App.Commands))
		},
	}
	for _, cmd := range app.Commands {
		if acrossWorkspaceCommands[cmd.Name] {
			takeWorkspaceFlag(env, cmd)
		}
		setUsageHandler(cmd, "")
	}
	return app
}

// setUsageHandler rewrites flag errors of cmd (named after its parents,
// "nav read") into git-adr's usage errors.
func setUsageHandler(cmd *cli.Command, parent string) {
	name := strings.TrimSpace(parent + " " + cmd.Name)
	cmd.OnUsageError = func(c *cli.Context, err error, _ bool) error {
		msg := err.Error()
		if strings.HasPrefix(msg, "flag provided but not defined: ") {
			// Go's flag package prints every flag with one dash.
			name := strings.TrimPrefix(msg, "flag provided but not defined: ")
			if len(name) > 2 && !strings.HasPrefix(name, "--") {
				name = "-" + name
			}
			msg = "unknown flag " + fmt.Sprintf("%q", name)
			if s := flagSuggestion(cmd.Flags, name); s != "" {
				return usagef("%s", msg).hint(fmt.Sprintf("did you mean %s?", s), fmt.Sprintf("run `git adr %s -h` for usage", name2(parent, cmd.Name)))
			}
		}
		if i := strings.Index(msg, " for flag -"); i >= 0 && strings.HasPrefix(msg, "invalid value ") {
			// `invalid value "x" for flag -start-line: parse error`
			flag, _, _ := strings.Cut(msg[i+len(" for flag -"):], ":")
			if len(flag) > 1 {
				flag = "-" + flag
			}
			msg = fmt.Sprintf("-%s: %s is not a valid value", flag, msg[len("invalid value "):i])
		}
		return usagef("%s", msg).hint(fmt.Sprintf("run `git adr %s -h` for usage", name))
	}
	for _, sub := range cmd.Subcommands {
		setUsageHandler(sub, name)
	}
}

// permuteArgs moves flags written after positional arguments in front of
// them, so `git adr new "Title" --status proposed` works like git does;
// urfave/cli v2 stops reading flags at the first positional argument.
// Everything after "--" stays positional.
func permuteArgs(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	out := []string{args[0]}
	i := 1
	// Global flags up to the command name.
	for i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != "--" {
		out = append(out, args[i])
		if takesValue(app.Flags, args[i]) && i+1 < len(args) {
			i++
			out = append(out, args[i])
		}
		i++
	}
	if i >= len(args) {
		return out
	}
	var cmd *cli.Command
	for _, c := range app.Commands {
		if c.HasName(args[i]) {
			cmd = c
		}
	}
	out = append(out, args[i])
	i++
	for cmd != nil && len(cmd.Subcommands) > 0 && i < len(args) {
		var sub *cli.Command
		for _, c := range cmd.Subcommands {
			if c.HasName(args[i]) {
				sub = c
			}
		}
		if sub == nil {
			break
		}
		cmd = sub
		out = append(out, args[i])
		i++
	}
	if cmd == nil {
		return append(out, args[i:]...)
	}
	var flags, pos []string
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i:]...)
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			flags = append(flags, a)
			if takesValue(cmd.Flags, a) && !strings.Contains(a, "=") && i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
			continue
		}
		pos = append(pos, a)
	}
	out = append(out, flags...)
	if len(pos) > 0 && pos[0] != "--" {
		out = append(out, "--")
	}
	return append(out, pos...)
}

func takesValue(flags []cli.Flag, arg string) bool {
	name := strings.TrimLeft(arg, "-")
	if i := strings.IndexByte(name, '='); i >= 0 {
		return false
	}
	for _, f := range flags {
		for _, n := range f.Names() {
			if n != name {
				continue
			}
			if _, ok := f.(*cli.BoolFlag); ok {
				return false
			}
			return true
		}
	}
	return false
}

func name2(parent, name string) string { return strings.TrimSpace(parent + " " + name) }
