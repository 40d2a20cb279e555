package hooks

import (
	"fmt"

	"github.com/git-adr/git-adr/gitops"
)

// GitHooks are the git hooks git-adr installs, in order.
var GitHooks = []string{"pre-commit", "pre-push", "commit-msg", "pre-receive"}

// DefaultHooks are the hooks `git adr hooks install` installs when none
// is named: pre-receive on a server (a bare repository), else pre-commit
// and pre-push.
func DefaultHooks(bare bool) []string {
	if bare {
		return GitHooks[3:]
	}
	return GitHooks[:2]
}

// HooksState is the state of git-adr's git hooks (`git adr hooks ...
// --json`).
type HooksState struct {
	Dir     string      `json:"dir"`
	Hooks   []HookState `json:"hooks"`
	Manager string      `json:"manager,omitempty"`
}

// HookState is one hook: what git's hooks directory holds and, when a
// manager owns the hooks, how it runs git-adr's.
type HookState struct {
	gitops.HookState
	Through *Wiring `json:"through,omitempty"`
}

// InstallPlan is what installing hooks in a repository whose hooks a
// manager (husky, lefthook, pre-commit, a global core.hooksPath) may own
// comes to: which hooks the manager already runs git-adr through, which
// git-adr installs itself, and which need lines added to the manager's
// configuration.
type InstallPlan struct {
	State HooksState
	// Manager is the manager found (nil: none).
	Manager *gitops.HookManager
	// Direct are the hooks git-adr installs in git's hooks directory.
	Direct []string
	// Skipped: the manager is configured, but git does not run it for
	// these hooks in this clone, so git-adr's own are installed (a
	// subset of Direct).
	Skipped []string
	// Missing are the hooks the manager owns and does not run git-adr
	// through, with their wiring: git-adr edits none of its files.
	Missing []string
	Wirings []Wiring
}

// PlanInstall decides how the hooks names are installed in r, whose
// hooks directory is dir: State.Hooks are those a manager already runs
// git-adr through (on an error, those found before it). A hook a manager already runs git-adr through
// is left to it; one it does not is missing (the lines to add are
// [Snippet]'s); and where pre-commit or lefthook is configured but was
// never installed in this clone (git runs none of its scripts), git-adr's
// own hook is installed, so a commit is never left unguarded silently.
func PlanInstall(r *gitops.Repo, dir string, names []string) (*InstallPlan, error) {
	m, err := r.DetectHookManager()
	if err != nil {
		return nil, err
	}
	p := &InstallPlan{State: HooksState{Dir: dir}, Manager: m}
	if m == nil {
		p.Direct = names
		return p, nil
	}
	p.State.Manager = m.Name
	tree := r.WorktreeFS()
	for _, n := range names {
		w := ManagerWiring(tree, dir, m, n)
		switch {
		case w.Runs():
			h, err := gitops.HookStatus(dir, n)
			if err != nil {
				return p, err
			}
			p.State.Hooks = append(p.State.Hooks, HookState{HookState: h, Through: &w})
		case !w.Installed && !OwnsHooksDir(m):
			p.Direct = append(p.Direct, n)
			p.Skipped = append(p.Skipped, n)
		default:
			p.Missing = append(p.Missing, n)
			p.Wirings = append(p.Wirings, w)
		}
	}
	return p, nil
}

// Status is the state of every git hook git-adr installs in r, whose
// hooks directory is dir: git-adr's, another's, or run through a
// manager.
func Status(r *gitops.Repo, dir string) (HooksState, error) {
	st := HooksState{Dir: dir}
	m, err := r.DetectHookManager()
	if err != nil {
		m = nil
	}
	if m != nil {
		st.Manager = m.Name
	}
	for _, n := range GitHooks {
		h, err := gitops.HookStatus(dir, n)
		if err != nil {
			return st, err
		}
		hs := HookState{HookState: h}
		if m != nil && !h.Installed {
			w := ManagerWiring(r.WorktreeFS(), dir, m, n)
			if w.Installed || w.Config != "" {
				hs.Through = &w
			}
		}
		st.Hooks = append(st.Hooks, hs)
	}
	return st, nil
}

// Change is what installing or removing one git hook did.
type Change struct {
	// State is the hook's state after.
	State   gitops.HookState
	Changed bool
	// Restored: removing git-adr's hook put back the one that was there
	// before it.
	Restored bool
}

// HookError is a git hook that could not be installed or removed.
type HookError struct {
	// Op is "installing" or "removing".
	Op, Name string
	Err      error
}

func (e *HookError) Error() string { return fmt.Sprintf("%s %s: %v", e.Op, e.Name, e.Err) }
func (e *HookError) Unwrap() error { return e.Err }

// Install installs git-adr's hooks names in git's hooks directory dir,
// each beside the hook already there (kept, and run first); on an error
// (a [*HookError]) the changes made before it.
func Install(dir string, names []string) ([]Change, error) {
	var out []Change
	for _, n := range names {
		h, changed, err := gitops.InstallHook(dir, n)
		if err != nil {
			return out, &HookError{Op: "installing", Name: n, Err: err}
		}
		out = append(out, Change{State: h, Changed: changed})
	}
	return out, nil
}

// Uninstall removes git-adr's hooks names from dir, putting back what was
// there before; a hook that is not git-adr's is left alone. On an error
// (a [*HookError]) it returns the changes made before it.
func Uninstall(dir string, names []string) ([]Change, error) {
	var out []Change
	for _, n := range names {
		before, _ := gitops.HookStatus(dir, n)
		h, changed, err := gitops.UninstallHook(dir, n)
		if err != nil {
			return out, &HookError{Op: "removing", Name: n, Err: err}
		}
		out = append(out, Change{State: h, Changed: changed, Restored: changed && before.Chained != ""})
	}
	return out, nil
}
