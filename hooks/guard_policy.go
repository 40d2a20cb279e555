package hooks

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/guard"
	"github.com/git-adr/git-adr/gitops"
)

// GuardDir is where the guard keeps a work tree's state (sessions, what
// install did).
func GuardDir(r *gitops.Repo) string { return filepath.Join(r.GitDir, "adr", "guard") }

// GuardSetting reads the mode in effect: git config adr.guard.mode, then
// .adr.toml's [guard] mode.
func GuardSetting(r *gitops.Repo) (guard.Setting, error) {
	var git, scope string
	switch v, err := r.ConfigOrigin(guard.GitKey); {
	case err == nil:
		git, scope = v.Value, v.Scope
	case !errors.Is(err, gitops.ErrNotFound):
		return guard.Setting{}, &guard.ModeError{Where: "git config " + guard.GitKey, Err: err}
	}
	var file guard.Mode
	data, ferr := fs.ReadFile(r.WorktreeFS(), adr.ConfigFile)
	switch {
	case errors.Is(ferr, fs.ErrNotExist):
		ferr = nil
	case ferr == nil:
		file, ferr = guard.FileMode(data)
	}
	return guard.Resolve(git, scope, file, ferr)
}

// LoadPolicy builds the guard's policy for the repository that holds dir,
// for one agent's session, and returns what closes what it opened.
// Outside a repository there is nothing to guard (off); anything that
// cannot be read is the policy's Err, and judged as the degraded state it
// is: LoadPolicy never fails.
func LoadPolicy(dir, agent, session string) (*guard.Policy, func()) {
	nothing := func() {}
	r, err := gitops.Open(dir)
	if errors.Is(err, gitops.ErrNotRepository) || errors.Is(err, gitops.ErrBare) {
		return &guard.Policy{Setting: guard.Setting{Mode: guard.Off, Source: guard.FromDefault}}, nothing
	}
	if err != nil {
		return &guard.Policy{Err: &guard.ModeError{Where: "the repository", Err: err}}, nothing
	}
	closeRepo := func() { r.Close() }
	setting, err := GuardSetting(r)
	p := &guard.Policy{Setting: setting, Top: r.Top, GitConfig: filepath.Join(r.CommonDir, "config")}
	if err != nil {
		p.Err = err
		return p, closeRepo
	}
	if setting.Mode == guard.Off {
		return p, closeRepo
	}
	cfs, err := r.Worktree()
	if err != nil {
		p.Err = err
		return p, closeRepo
	}
	closeAll := func() { cfs.Close(); r.Close() }
	log, err := adr.Load(cfs, adr.LoadOptions{Lazy: true})
	if err != nil {
		p.Err = err
		return p, closeAll
	}
	p.Log, p.Scope = log, guard.NewScope(log, cfs)
	p.Restored = guard.GitRestorer(r.Git)
	if s, err := guard.OpenSession(GuardDir(r), agent, session); err == nil {
		p.Session = s
	}
	return p, closeAll
}

// GuardStatus is the read guard's state in a repository (`git adr guard
// status --json`).
type GuardStatus struct {
	Mode   string             `json:"mode"`
	Source guard.Source       `json:"source,omitempty"`
	Scope  string             `json:"scope,omitempty"`
	File   string             `json:"file_mode,omitempty"`
	Error  string             `json:"error,omitempty"`
	Agents []GuardAgentStatus `json:"agents"`
	Roots  []string           `json:"protected_roots"`
}

// GuardAgentStatus says whether the guard's hook is installed for one
// agent.
type GuardAgentStatus struct {
	Agent     Agent  `json:"agent"`
	Path      string `json:"path"`
	Installed bool   `json:"installed"`
}

// ReadGuardStatus reads the guard's state in r: the mode in effect (its
// error is the setting's, and the status says "unknown"), the agents
// whose project settings hold the hook, and the roots whose archives it
// protects, from the log load gives (an error there is the status's
// Error, when the mode has none).
func ReadGuardStatus(r *gitops.Repo, load func() (*adr.Log, error)) (GuardStatus, guard.Setting, error) {
	st := GuardStatus{Agents: []GuardAgentStatus{}, Roots: []string{}}
	setting, serr := GuardSetting(r)
	st.Mode, st.Source, st.Scope, st.File = string(setting.Mode), setting.Source, setting.Scope, string(setting.File)
	if serr != nil {
		st.Mode, st.Error = "unknown", serr.Error()
	}
	for _, s := range Setups {
		cur, exists, _ := adr.ReadWorkFile(r.Top, s.Path)
		st.Agents = append(st.Agents, GuardAgentStatus{Agent: s.Agent, Path: s.Path, Installed: exists && s.Installed(cur)})
	}
	if l, err := load(); err == nil {
		for _, root := range l.Roots {
			// The guard protects archived records; a single-file log has
			// no archive.
			if root.Refused == nil && !root.File {
				st.Roots = append(st.Roots, root.Dir())
			}
		}
	} else if st.Error == "" {
		st.Error = err.Error()
	}
	return st, setting, serr
}
