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
	setup, _ := hooks.SetupFor(a)
	cur, exists, err := adr.ReadWorkFile(r.Top, setup.Path)
	if err != nil {
		return failf("reading %s: %v", setup.Path, err).hint("git-adr writes only a regular file inside the repository; move what is there")
	}
	if !exists {
		cur = nil
	}
	cs, err := env.Changeset()
	if err != nil {
		return err
	}
	res := guardInstallResult{Agent: a, Path: setup.Path}
	var state hooks.InstallState
	if uninstall {
		state, err = hooks.UninstallGuard(r, setup, cur, cs)
	} else {
		state, err = hooks.InstallGuard(r, setup, cur, cs)
	}
	if errors.Is(err, hooks.ErrForeign) {
		return failf("%s exists and is not git-adr's plugin; not overwriting it", setup.Path).
			hint("move it aside, or add the call `git adr guard --hook opencode` to it yourself (docs/guard.md)")
	}
	if err != nil {
		return changesetErr(err)
	}
	res.State, res.Changed = string(state), state.Changed()
	setting, serr := hooks.GuardSetting(r)
	res.Mode = string(setting.Mode)
	if serr != nil {
		res.Mode = "unknown"
		res.Notes = append(res.Notes, fmt.Sprintf("the guard mode cannot be read (%v): until it is fixed the hook refuses reads", serr))
	} else if !uninstall && setting.Mode == guard.Off {
		res.Notes = append(res.Notes, "the guard mode is off: the hook judges nothing until a person runs `git adr config guard warn` or `git adr config guard guard`")
	}
	if !uninstall {
		res.Notes = append(res.Notes, agentNote(a)...)
	}
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

func agentNote(a hooks.Agent) []string {
	switch a {
	case hooks.Claude:
		return []string{"Claude Code reads the hook from the project's .claude/settings.json at session start and runs it before its permission checks, for subagents too; commit the file to share it"}
	case hooks.OpenCode:
		return []string{"OpenCode loads .opencode/plugin/*.js at start (restart running sessions); the plugin runs `git adr guard --hook opencode`, so git-adr must be on the PATH OpenCode sees"}
	case hooks.Codex:
		return []string{"Codex CLI runs .codex/hooks.json only in a trusted project and only after you review the hook (/hooks in the Codex TUI; `codex exec --dangerously-bypass-hook-trust` for one run); until then it skips the hook without a word, and the guard is not active in Codex",
			"Codex has no file-read tool: the guard judges its shell commands and MCP calls"}
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
