package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/adrtools"
)

// shimName is the adr-tools name this process was started under ("adr",
// "_adr_autocomplete"), or "" for git-adr itself. A copy on Windows is
// adr.exe.
func shimName(argv0 string) string {
	base := strings.TrimSuffix(filepath.Base(argv0), ".exe")
	switch base {
	case "adr", "_adr_autocomplete":
		return base
	}
	return ""
}

// runShim is `adr ARGS...`: adr-tools 3.0.0 (package adrtools). Inside a
// git work tree its writes go through the project lock and one journalled
// changeset like every git-adr write; elsewhere, as adr-tools works in any
// directory, each file is replaced whole (written beside it, then renamed).
func runShim(env *Env, args []string) int {
	if shimName(args[0]) == "_adr_autocomplete" {
		fmt.Fprint(env.Out, adrtools.Autocomplete(args[1:]))
		return 0
	}
	spelling, ok := adrtools.ParseSpelling(os.Getenv("ADR_SPELLING"))
	if !ok {
		return report(env.Err, usagef("ADR_SPELLING %q is not a spelling", os.Getenv("ADR_SPELLING")).
			hint("use superceded (adr-tools' own: Supercedes, Superceded by) or superseded (Debian's: Supersedes, Superseded by)"))
	}
	tool := &adrtools.Tool{BinDir: adrtools.BinDir(args[0]), Today: time.Now().Format("2006-01-02"), Spelling: spelling}
	words := []string{"adr"}
	for _, a := range args[1:] {
		words = append(words, adr.ShellWord(a))
	}
	env.command = strings.Join(words, " ")
	var repo bool
	if adrtools.Writes(args[1:]) {
		if _, err := env.Repo(); err == nil {
			repo = true
			if err := env.lockWrites(); err != nil {
				return report(env.Err, err)
			}
		}
	}
	plan := tool.Run(args[1:])
	if plan.Code == 0 || len(plan.Writes) > 0 {
		var err error
		if repo {
			err = shimChangeset(env, plan)
		} else {
			err = plan.WriteFiles()
		}
		if err != nil {
			return report(env.Err, err)
		}
	}
	env.unlock()
	if len(plan.Editor) > 0 {
		cmd := exec.Command(plan.Editor[0], plan.Editor[1:]...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = env.In, env.Out, env.Err
		if err := cmd.Run(); err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				return ee.ExitCode()
			}
			fmt.Fprintf(env.Err, "adr: %s: command not found\n", plan.Editor[0])
			return 127
		}
	}
	if plan.Pager {
		pageOut(env, plan.Out)
	} else {
		io.WriteString(env.Out, plan.Out)
	}
	io.WriteString(env.Err, plan.Err)
	return plan.Code
}

// shimChangeset carries out a plan in a repository: one journalled
// changeset under the lock. A file outside the work tree (an .adr-dir
// that leads out of it) is written as outside a repository.
func shimChangeset(env *Env, plan adrtools.Plan) error {
	r, err := env.Repo()
	if err != nil {
		return err
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	changes, outside, err := plan.InWorkTree(r.Top, wd)
	if err != nil {
		return failf("%v", err)
	}
	if len(changes) > 0 {
		if err := applyChanges(env, changes); err != nil {
			return err
		}
	}
	return outside.WriteFiles()
}

// pageOut shows help as adr-help does, through ${ADR_PAGER:-${PAGER:-more}};
// more copies its input when the output is not a terminal, so without
// one (and without a pager set) the text is printed directly.
func pageOut(env *Env, text string) {
	pager := os.Getenv("ADR_PAGER")
	if pager == "" {
		pager = os.Getenv("PAGER")
	}
	out, isFile := env.Out.(*os.File)
	if pager == "" {
		if !isFile || !term.IsTerminal(int(out.Fd())) {
			io.WriteString(env.Out, text)
			return
		}
		pager = "more"
	}
	words := strings.Fields(pager)
	cmd := exec.Command(words[0], words[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(text), env.Out, env.Err
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			io.WriteString(env.Out, text)
		}
	}
}
