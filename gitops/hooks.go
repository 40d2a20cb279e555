package gitops

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/git-adr/git-adr/internal/atomicfile"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// ChainSuffix is appended to a hook that was there before git-adr's: the
// git-adr hook runs it first, with the same arguments and input, and
// `git adr hooks uninstall` puts it back.
const ChainSuffix = ".pre-git-adr"

// hookMarker identifies a hook file git-adr wrote.
const hookMarker = "# git-adr hook: installed by `git adr hooks install`"

// HookScript is the file git-adr installs as the named hook. It runs
// `git-adr hook NAME` when git-adr is on PATH; otherwise it says so and
// still runs the hook it chained, so a missing binary never silently drops
// a team's own hook.
func HookScript(name string) []byte {
	return []byte(`#!/bin/sh
` + hookMarker + `; ` + "`git adr hooks uninstall`" + ` removes it
# and puts back the hook that was here before (kept as ` + name + ChainSuffix + `, run first).
if command -v git-adr >/dev/null 2>&1; then
	GIT_ADR_HOOK_DIR="${0%/*}" exec git-adr hook ` + name + ` "$@"
fi
echo "git-adr: warning: git-adr is not on PATH; its ` + name + ` checks did not run" >&2
h="$(dirname "$0")/` + name + ChainSuffix + `"
if [ -x "$h" ]; then exec "$h" "$@"; fi
exit 0
`)
}

// HookDirEnv is set by git-adr's hook scripts to the directory they run
// from, so `git adr hook` finds the hook it chained without asking git.
const HookDirEnv = "GIT_ADR_HOOK_DIR"

// HooksDir is the directory git runs hooks from: `git rev-parse
// --git-path hooks`, which honours core.hooksPath and linked worktrees.
func (r *Repo) HooksDir() (string, error) {
	out, err := r.Git("rev-parse", "--git-path", "hooks")
	if err != nil {
		return "", err
	}
	dir := strings.TrimSpace(string(out))
	if !filepath.IsAbs(dir) {
		base := r.Top
		if r.Bare {
			base = r.GitDir // git ran there
		}
		dir = filepath.Join(base, dir)
	}
	return filepath.Clean(dir), nil
}

// HookState says what is installed as one hook.
type HookState struct {
	Name string `json:"name"`
	Path string `json:"path"`
	// Installed means the hook is git-adr's.
	Installed bool `json:"installed"`
	// Foreign means another hook is there (not git-adr's).
	Foreign bool `json:"foreign"`
	// Chained is the earlier hook git-adr runs first ("" when none).
	Chained string `json:"chained,omitempty"`
}

// HookStatus reports the named hook in dir.
func HookStatus(dir, name string) (HookState, error) {
	st := HookState{Name: name, Path: filepath.Join(dir, name)}
	data, err := os.ReadFile(st.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return st, err
	case bytes.Contains(data, []byte(hookMarker)):
		st.Installed = true
	default:
		st.Foreign = true
	}
	if _, err := os.Lstat(st.Path + ChainSuffix); err == nil {
		st.Chained = st.Path + ChainSuffix
	}
	return st, nil
}

// InstallHook installs git-adr's hook as name in dir, keeping a foreign
// hook as name+ChainSuffix (renamed, so every byte and its mode are kept).
// Installing again changes nothing.
func InstallHook(dir, name string) (HookState, bool, error) {
	st, err := HookStatus(dir, name)
	if err != nil {
		return st, false, err
	}
	script := HookScript(name)
	if st.Installed {
		if cur, err := os.ReadFile(st.Path); err == nil && bytes.Equal(cur, script) {
			return st, false, nil
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return st, false, err
	}
	if st.Foreign {
		if st.Chained != "" {
			return st, false, fmt.Errorf("%s exists and so does %s: git-adr will not overwrite either; move one away", st.Path, st.Chained)
		}
		if err := os.Rename(st.Path, st.Path+ChainSuffix); err != nil {
			return st, false, err
		}
		st.Chained, st.Foreign = st.Path+ChainSuffix, false
	} else if fi, err := os.Lstat(st.Path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return st, false, fmt.Errorf("%s is a symbolic link: git-adr will not write through it", st.Path)
	}
	if err := writeExecutable(st.Path, script); err != nil {
		return st, false, err
	}
	st.Installed = true
	return st, true, nil
}

// UninstallHook removes git-adr's hook and puts back the hook it chained.
// A foreign hook is never removed.
func UninstallHook(dir, name string) (HookState, bool, error) {
	st, err := HookStatus(dir, name)
	if err != nil || !st.Installed {
		return st, false, err
	}
	if st.Chained != "" {
		if err := os.Rename(st.Chained, st.Path); err != nil {
			return st, false, err
		}
		st.Foreign, st.Chained = true, ""
	} else if err := os.Remove(st.Path); err != nil {
		return st, false, err
	}
	st.Installed = false
	return st, true, nil
}

func writeExecutable(path string, data []byte) error {
	return atomicfile.Write(path, data, 0o755)
}

// HookManager is a tool that owns the repository's hooks, so git-adr
// prints the lines to add to its configuration instead of editing files.
type HookManager struct {
	// Name is husky, lefthook, pre-commit or core.hooksPath.
	Name string
	// Why says how it was recognised.
	Why string
	// Config is the file to add git-adr to ("" for a global hooks path).
	Config string
}

// LefthookConfigs are the files lefthook reads its configuration from, in
// its order.
var LefthookConfigs = []string{"lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml",
	".config/lefthook.yml", ".config/lefthook.yaml"}

// DetectHookManager finds a hook manager: husky (core.hooksPath into
// .husky), lefthook (lefthook.yml), the pre-commit framework
// (.pre-commit-config.yaml), or a core.hooksPath set outside this
// repository's own configuration. nil when git's hooks directory is git-adr's
// to manage.
func (r *Repo) DetectHookManager() (*HookManager, error) {
	hp, err := r.ConfigOrigin("core.hooksPath")
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	exists := func(p string) bool {
		if r.Bare {
			return false
		}
		_, err := os.Stat(filepath.Join(r.Top, p))
		return err == nil
	}
	lefthook := ""
	for _, c := range LefthookConfigs {
		if lefthook == "" && exists(c) {
			lefthook = c
		}
	}
	switch {
	case hp.Value != "" && strings.Contains(filepath.ToSlash(hp.Value), ".husky"):
		return &HookManager{Name: "husky", Why: fmt.Sprintf("core.hooksPath is %q", hp.Value), Config: ".husky/<hook>"}, nil
	case lefthook != "":
		return &HookManager{Name: "lefthook", Why: lefthook + " exists", Config: lefthook}, nil
	case exists(".pre-commit-config.yaml"):
		return &HookManager{Name: "pre-commit", Why: ".pre-commit-config.yaml exists", Config: ".pre-commit-config.yaml"}, nil
	case hp.Value != "" && hp.Scope != "local" && hp.Scope != "worktree":
		return &HookManager{Name: "core.hooksPath", Why: fmt.Sprintf("core.hooksPath is %q (%s scope), shared by every repository", hp.Value, hp.Scope)}, nil
	}
	return nil, nil
}

// DiffEntry is one path a diff changes: Status is git's letter (A, M, D, R,
// C, T), OldPath the source of a rename or copy.
type DiffEntry struct {
	Status  byte
	Path    string
	OldPath string
}

// StagedChanges lists what a commit would change now: the index against
// HEAD (against nothing before the first commit), renames detected, as
// `git diff --cached` says (computed in process when it surely agrees; a
// hook's GIT_INDEX_FILE is honoured either way).
func (r *Repo) StagedChanges() ([]DiffEntry, error) {
	raw, _, ok := r.stagedInProcess()
	if !ok {
		var err error
		if raw, err = r.stagedRaw(); err != nil {
			return nil, err
		}
	}
	var es []DiffEntry
	for _, c := range raw {
		es = append(es, c.DiffEntry)
	}
	return es, nil
}

// stagedRaw is git's `git diff --cached --raw -M`.
func (r *Repo) stagedRaw() ([]rawChange, error) {
	out, err := r.Git("diff", "--cached", "--raw", "-z", "-M", "--no-ext-diff", "--no-abbrev")
	if err != nil {
		return nil, err
	}
	return parseRaw(out)
}

// TreeChanges lists what changes between two commits (renames detected).
func (r *Repo) TreeChanges(from, to string) ([]DiffEntry, error) {
	return r.diffNames("diff-tree", "-r", "--raw", "-z", "-M", "--no-ext-diff", "--no-abbrev", from, to)
}

// diffNames runs a `git diff --raw -z` and returns its changes.
func (r *Repo) diffNames(args ...string) ([]DiffEntry, error) {
	out, err := r.Git(args...)
	if err != nil {
		return nil, err
	}
	raw, err := parseRaw(out)
	var es []DiffEntry
	for _, c := range raw {
		es = append(es, c.DiffEntry)
	}
	return es, err
}

// Staged is what a commit would change, and the two states it changes
// between, read together for the pre-commit hook.
type Staged struct {
	Changes []DiffEntry
	// Next is the index; Base is HEAD (nil before the first commit).
	Next, Base fs.FS
}

// StagedState reads the staged change and the index, and derives HEAD's
// state from them: the index with each change undone (the old blob of
// every modified, deleted and renamed path, added paths left out), so
// HEAD's tree is never walked. It falls back to HEAD's tree whenever the
// change does not say everything (a conflict, an unexpected status).
func (r *Repo) StagedState() (*Staged, error) {
	raw, files, inProcess := r.stagedInProcess()
	if !inProcess {
		var err error
		if raw, err = r.stagedRaw(); err != nil {
			return nil, err
		}
	}
	st := &Staged{}
	for _, c := range raw {
		st.Changes = append(st.Changes, c.DiffEntry)
	}
	if len(st.Changes) == 0 {
		return st, nil
	}
	if !inProcess {
		files, inProcess = r.readIndexFile()
	}
	if !inProcess {
		var err error
		if files, err = r.lsFiles(); err != nil {
			return nil, err
		}
	}
	st.Next = indexTree(files, r.readBlob)
	if _, err := r.Head(); err != nil {
		return st, nil // no commit yet: nothing to compare with
	}
	// Only the index read in process says which entries are `git add -N`
	// names (in the index, never in HEAD, not in the diff).
	if base, ok := undo(files, raw); ok && inProcess {
		st.Base = indexTree(base, r.readBlob)
		return st, nil
	}
	base, err := r.TreeFS("HEAD")
	if err != nil {
		return nil, err
	}
	st.Base = base
	return st, nil
}

// rawChange is one line of `git diff --raw`: the change and the old
// side's mode and blob.
type rawChange struct {
	DiffEntry
	oldMode filemode.FileMode
	oldHash string
}

// parseRaw reads `git diff --raw -z` output: ":old new oldsha newsha
// STATUS\0path\0" (two paths for a rename or copy).
func parseRaw(out []byte) ([]rawChange, error) {
	f := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	var cs []rawChange
	for i := 0; i < len(f); i++ {
		if f[i] == "" {
			continue
		}
		meta := strings.Fields(strings.TrimPrefix(f[i], ":"))
		if len(meta) != 5 || meta[4] == "" {
			return nil, fmt.Errorf("git diff --raw: unexpected line %q", f[i])
		}
		mode, err := strconv.ParseUint(meta[0], 8, 32)
		if err != nil {
			return nil, fmt.Errorf("git diff --raw: bad mode in %q", f[i])
		}
		c := rawChange{DiffEntry: DiffEntry{Status: meta[4][0]}, oldMode: filemode.FileMode(mode), oldHash: meta[2]}
		switch c.Status {
		case 'R', 'C':
			if i+2 >= len(f) {
				return nil, errors.New("git diff --raw: truncated output")
			}
			c.OldPath, c.Path = f[i+1], f[i+2]
			i += 2
		default:
			if i+1 >= len(f) {
				return nil, errors.New("git diff --raw: truncated output")
			}
			c.Path = f[i+1]
			i++
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// undo returns the index entries as they were before the changes: false
// when a change does not say what was there (a conflict, an unknown
// status), so the caller reads HEAD instead.
func undo(files []entry, changes []rawChange) ([]entry, bool) {
	drop := map[string]bool{}
	old := map[string]entry{}
	for _, c := range changes {
		switch c.Status {
		case 'A':
			drop[c.Path] = true
		case 'M', 'T', 'D':
			old[c.Path] = entry{name: c.Path, hash: c.oldHash, mode: c.oldMode}
		case 'R':
			drop[c.Path] = true
			old[c.OldPath] = entry{name: c.OldPath, hash: c.oldHash, mode: c.oldMode}
		case 'C':
			drop[c.Path] = true // the source is unchanged
		default:
			return nil, false
		}
	}
	for _, e := range old {
		if strings.Trim(e.hash, "0") == "" {
			return nil, false
		}
	}
	base := make([]entry, 0, len(files)+len(old))
	for _, f := range files {
		if drop[f.name] {
			continue
		}
		if e, ok := old[f.name]; ok {
			base = append(base, e)
			delete(old, f.name)
			continue
		}
		if f.intentToAdd {
			continue // `git add -N`: never in HEAD
		}
		base = append(base, f)
	}
	for _, e := range old {
		base = append(base, e) // deleted, or the old side of a rename
	}
	return base, true
}
