package hooks

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
)

// InstallState is what installing or removing the guard's hook did.
type InstallState string

// The states of [InstallGuard] and [UninstallGuard].
const (
	StateInstalled        InstallState = "installed"
	StateAlreadyInstalled InstallState = "already-installed"
	// StateRestored: the file is back byte for byte as it was before
	// install.
	StateRestored     InstallState = "restored"
	StateRemoved      InstallState = "removed"
	StateNotInstalled InstallState = "not-installed"
)

// Changed reports whether the state is one that changed the file.
func (s InstallState) Changed() bool {
	return s == StateInstalled || s == StateRemoved || s == StateRestored
}

// RecordError means the hook was installed, but what uninstall needs to
// put the file back could not be recorded.
type RecordError struct{ Err error }

func (e *RecordError) Error() string {
	return fmt.Sprintf("installed, but could not record how to undo it: %v", e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }

// installRecord is what install remembers, outside the work tree, so that
// uninstall can put a file back byte for byte when it is unchanged since.
type installRecord struct {
	Path string `json:"path"`
	// Original is the file before the first install (absent: null).
	Original *string `json:"original"`
	// Written is the SHA-256 of what install wrote last.
	Written string `json:"written"`
	// Dirs are the folders install created.
	Dirs []string `json:"dirs,omitempty"`
}

func installRecordPath(r *gitops.Repo, a Agent) string {
	return filepath.Join(GuardDir(r), "install", string(a)+".json")
}

func readInstallRecord(r *gitops.Repo, a Agent) *installRecord {
	data, err := os.ReadFile(installRecordPath(r, a))
	if err != nil {
		return nil
	}
	var rec installRecord
	if json.Unmarshal(data, &rec) != nil {
		return nil
	}
	return &rec
}

func writeInstallRecord(r *gitops.Repo, a Agent, rec *installRecord) error {
	p := installRecordPath(r, a)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	data, _ := json.MarshalIndent(rec, "", "  ")
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// InstallGuard installs setup's hook in the file whose content is cur
// (nil: no file) through cs, a changeset of r's work tree under the
// project lock, and remembers what was there before so that
// [UninstallGuard] can put it back. A file that is not git-adr's and
// cannot hold the hook is [ErrForeign]; a changeset that finds the file
// changed on disk is [adr.ErrChangedOnDisk]; a hook installed whose undo
// cannot be recorded is a [*RecordError].
func InstallGuard(r *gitops.Repo, setup Setup, cur []byte, cs *adr.Changeset) (InstallState, error) {
	next, changed, err := setup.Install(cur)
	if err != nil {
		return "", err
	}
	if !changed {
		return StateAlreadyInstalled, nil
	}
	rec := readInstallRecord(r, setup.Agent)
	if rec == nil || rec.Path != setup.Path || rec.Written != sha(cur) {
		// A first install, or the file changed since: what is there now is
		// what uninstall puts back.
		rec = &installRecord{Path: setup.Path}
		if cur != nil {
			s := string(cur)
			rec.Original = &s
		}
		for d := path.Dir(setup.Path); d != "."; d = path.Dir(d) {
			if _, err := os.Lstat(r.Abs(d)); errors.Is(err, os.ErrNotExist) {
				rec.Dirs = append(rec.Dirs, d)
			}
		}
	}
	if cur == nil {
		cs.Create(setup.Path, next)
	} else {
		cs.Update(setup.Path, cur, next)
	}
	if err := cs.Apply(); err != nil {
		return "", err
	}
	rec.Written = sha(next)
	if err := writeInstallRecord(r, setup.Agent, rec); err != nil {
		return "", &RecordError{Err: err}
	}
	return StateInstalled, nil
}

// UninstallGuard removes setup's hook from the file whose content is cur
// (nil: no file) through cs, as [InstallGuard] does: byte for byte back
// to what was there before install when the file is unchanged since, else
// only the hook.
func UninstallGuard(r *gitops.Repo, setup Setup, cur []byte, cs *adr.Changeset) (InstallState, error) {
	rec := readInstallRecord(r, setup.Agent)
	var next []byte
	var state InstallState
	switch {
	case cur == nil:
		if rec != nil {
			os.Remove(installRecordPath(r, setup.Agent))
		}
		return StateNotInstalled, nil
	case rec != nil && rec.Path == setup.Path && rec.Written == sha(cur):
		// Unchanged since install: put back exactly what was there.
		if rec.Original != nil {
			next = []byte(*rec.Original)
		}
		state = StateRestored
	default:
		n, removed, err := setup.Uninstall(cur)
		if err != nil {
			return "", err
		}
		if !removed {
			return StateNotInstalled, nil
		}
		next, state = n, StateRemoved
	}
	if next == nil {
		cs.Delete(setup.Path, cur)
	} else {
		cs.Update(setup.Path, cur, next)
	}
	if err := cs.Apply(); err != nil {
		return "", err
	}
	if rec != nil && state == StateRestored {
		for _, d := range rec.Dirs {
			// Only empty folders, and only real ones (never a link).
			if fi, err := os.Lstat(r.Abs(d)); err == nil && fi.IsDir() {
				os.Remove(r.Abs(d))
			}
		}
	}
	os.Remove(installRecordPath(r, setup.Agent))
	return state, nil
}
