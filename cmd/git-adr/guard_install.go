package main

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/guard"
	"github.com/git-adr/git-adr/hooks"
)

// agentNames are the agents as people call them.
var agentNames = map[hooks.Agent]string{hooks.Claude: "Claude Code", hooks.OpenCode: "OpenCode", hooks.Codex: "Codex CLI"}

// guardInstallResult is `git adr guard install|uninstall --json`.
type guardInstallResult struct {
	Agent   hooks.Agent `json:"agent"`
	Path    string      `json:"path"`
	Changed bool        `json:"changed"`
	// State is installed, already-installed, removed, restored (put back
	// byte for byte) or not-installed.
	State string   `json:"state"`
	Mode  string   `json:"mode"`
	Notes []string `json:"notes,omitempty"`
}

func runGuardInstall(env *Env, a hooks.Agent, uninstall, asJSON bool) error {
	r, err := env.Repo()
	if err != nil {
		return err
	}
	if err := env.lockWrites(); err != nil {
		return err
	}
	cs, err := env.Changeset()
	if err != nil {
		return err
	}
	gc, err := hooks.ChangeGuard(r, a, uninstall, cs)
	var re *hooks.SetupReadError
	switch {
	case errors.As(err, &re):
		return failf("%v", err).hint("git-adr writes only a regular file inside the repository; move what is there")
	case errors.Is(err, hooks.ErrForeign):
		return failf("%s exists and is not git-adr's plugin; not overwriting it", gc.Setup.Path).
			hint("move it aside, or add the call `git adr guard --hook opencode` to it yourself (docs/guard.md)")
	case err != nil:
		return changesetErr(err)
	}
	setup := gc.Setup
	res := guardInstallResult{Agent: a, Path: setup.Path, State: string(gc.State), Changed: gc.State.Changed(), Mode: gc.Mode, Notes: gc.Notes}
	if asJSON {
		return writeJSON(env.Out, res)
	}
	name := agentNames[a]
	switch res.State {
	case "installed":
		fmt.Fprintf(env.Out, "installed the read guard for %s in %s\n", name, setup.Path)
	case "already-installed":
		fmt.Fprintf(env.Out, "the read guard is already installed for %s in %s\n", name, setup.Path)
	case "restored":
		fmt.Fprintf(env.Out, "removed the read guard for %s: %s is back as it was before install\n", name, setup.Path)
	case "removed":
		fmt.Fprintf(env.Out, "removed the read guard for %s from %s\n", name, setup.Path)
	case "not-installed":
		fmt.Fprintf(env.Out, "the read guard is not installed for %s (%s has no git-adr hook); nothing changed\n", name, setup.Path)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(env.Err, "git-adr: note: %s\n", n)
	}
	return nil
}

// changesetErr gives a changeset's error its exit code as applyChanges
// does.
func changesetErr(err error) error {
	if errors.Is(err, adr.ErrChangedOnDisk) {
		return withCode(ExitConflict, err).hint("another program changed the file while git-adr worked; run the command again")
	}
	return err
}

func runGuardStatus(env *Env, asJSON bool) error {
	r, err := env.Repo()
	if err != nil {
		return err
	}
	st, setting, serr := hooks.ReadGuardStatus(r, env.LazyLog)
	if asJSON {
		return writeJSON(env.Out, st)
	}
	if serr != nil {
		fmt.Fprintf(env.Out, "mode: unknown: %s (the hooks refuse reads until it is fixed)\n", adr.Escape(serr.Error()))
	} else {
		fmt.Fprintf(env.Out, "mode: %s\n", setting)
		if setting.Source == guard.FromGitConfig && setting.File != "" && setting.File != setting.Mode {
			fmt.Fprintf(env.Out, "      (.adr.toml says %s; git config overrides it)\n", setting.File)
		}
	}
	for _, a := range st.Agents {
		state := "not installed"
		if a.Installed {
			state = "installed"
		}
		fmt.Fprintf(env.Out, "%-12s %-14s %s\n", agentNames[a.Agent], state, a.Path)
	}
	if len(st.Roots) > 0 {
		fmt.Fprintf(env.Out, "protected: %s (archives: %s)\n", adr.Escape(strings.Join(st.Roots, ", ")), adr.Escape(archives(st.Roots)))
	}
	if st.Error != "" && serr == nil {
		fmt.Fprintf(env.Out, "degraded: %s (the hooks refuse reads in guard mode until it is fixed)\n", adr.Escape(st.Error))
	}
	return nil
}

func archives(roots []string) string {
	var out []string
	for _, r := range roots {
		out = append(out, path.Join(r, adr.ArchiveDir)+"/")
	}
	return strings.Join(out, ", ")
}
