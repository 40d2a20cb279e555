package hooks

import (
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/guard"
	"github.com/git-adr/git-adr/gitops"
)

// GuardChange is what installing or removing the read guard for an agent
// did, and what the person should know about it.
type GuardChange struct {
	Setup Setup
	State InstallState
	// Mode is the guard's mode in effect, "unknown" when it cannot be
	// read.
	Mode string
	// Notes say what keeps the hook from judging (a mode that cannot be
	// read, or is off) and, after an install, what the agent needs to run
	// it.
	Notes []string
}

// SetupReadError is an agent's settings file that cannot be read (not a
// regular file inside the repository).
type SetupReadError struct {
	Path string
	Err  error
}

func (e *SetupReadError) Error() string { return fmt.Sprintf("reading %s: %v", e.Path, e.Err) }
func (e *SetupReadError) Unwrap() error { return e.Err }

// ChangeGuard installs the read guard for agent a in r's work tree, or
// with uninstall removes it ([InstallGuard], [UninstallGuard]), through
// cs, the command's changeset, then reads the mode in effect. The caller
// holds the project lock.
func ChangeGuard(r *gitops.Repo, a Agent, uninstall bool, cs *adr.Changeset) (GuardChange, error) {
	setup, _ := SetupFor(a)
	c := GuardChange{Setup: setup}
	cur, exists, err := adr.ReadWorkFile(r.Top, setup.Path)
	if err != nil {
		return c, &SetupReadError{Path: setup.Path, Err: err}
	}
	if !exists {
		cur = nil
	}
	if uninstall {
		c.State, err = UninstallGuard(r, setup, cur, cs)
	} else {
		c.State, err = InstallGuard(r, setup, cur, cs)
	}
	if err != nil {
		return c, err
	}
	setting, serr := GuardSetting(r)
	c.Mode = string(setting.Mode)
	if serr != nil {
		c.Mode = "unknown"
		c.Notes = append(c.Notes, fmt.Sprintf("the guard mode cannot be read (%v): until it is fixed the hook refuses reads", serr))
	} else if !uninstall && setting.Mode == guard.Off {
		c.Notes = append(c.Notes, "the guard mode is off: the hook judges nothing until a person runs `git adr config guard warn` or `git adr config guard guard`")
	}
	if !uninstall {
		c.Notes = append(c.Notes, agentNotes(a)...)
	}
	return c, nil
}

// agentNotes say what agent a needs to run the installed hook.
func agentNotes(a Agent) []string {
	switch a {
	case Claude:
		return []string{"Claude Code reads the hook from the project's .claude/settings.json at session start and runs it before its permission checks, for subagents too; commit the file to share it"}
	case OpenCode:
		return []string{"OpenCode loads .opencode/plugin/*.js at start (restart running sessions); the plugin runs `git adr guard --hook opencode`, so git-adr must be on the PATH OpenCode sees"}
	case Codex:
		return []string{"Codex CLI runs .codex/hooks.json only in a trusted project and only after you review the hook (/hooks in the Codex TUI; `codex exec --dangerously-bypass-hook-trust` for one run); until then it skips the hook without a word, and the guard is not active in Codex",
			"Codex has no file-read tool: the guard judges its shell commands and MCP calls"}
	}
	return nil
}
