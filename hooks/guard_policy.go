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
