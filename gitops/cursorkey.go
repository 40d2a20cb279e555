package gitops

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// CursorKeyFile is the name, under [Repo.AdrDir], of the key that
// authenticates the cursors of `git adr context` and the MCP server.
const CursorKeyFile = "cursor.key"

// CursorKeySize is the size of a cursor key in bytes.
const CursorKeySize = 32

// CursorKeyPath is the absolute path of the repository's cursor key
// ($GIT_COMMON_DIR/adr/cursor.key, shared by all worktrees).
func (r *Repo) CursorKeyPath() string { return filepath.Join(r.AdrDir(), CursorKeyFile) }

// CursorKey returns the repository's cursor key. With create, a missing key
// is made: 32 random bytes written to a private temporary file and linked
// into place, so that a reader never sees half a key and, of concurrent
// creators, the first link wins and the others read the winner's key.
// Without create, a missing key is an error wrapping [fs.ErrNotExist].
func (r *Repo) CursorKey(create bool) ([]byte, error) {
	return loadCursorKey(r.CursorKeyPath(), create)
}

func loadCursorKey(path string, create bool) ([]byte, error) {
	key, err := readCursorKey(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) || !create {
		return key, err
	}
	return createCursorKey(path)
}

func createCursorKey(path string) ([]byte, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create the cursor key: %w", err)
	}
	fresh := make([]byte, CursorKeySize)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("cannot create the cursor key: %w", err)
	}
	tmp, err := os.CreateTemp(dir, CursorKeyFile+".*.tmp") // O_EXCL, 0600
	if err != nil {
		return nil, fmt.Errorf("cannot create the cursor key: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(fresh)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("cannot create the cursor key: %w", err)
	}
	switch err := os.Link(tmp.Name(), path); {
	case err == nil:
		return fresh, nil
	case errors.Is(err, fs.ErrExist):
		// Another process won the race: use its key.
		return readCursorKey(path)
	default:
		// A file system without hard links: create the key in place.
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			return readCursorKey(path)
		}
		if err != nil {
			return nil, fmt.Errorf("cannot create the cursor key: %w", err)
		}
		_, err = f.Write(fresh)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, fmt.Errorf("cannot create the cursor key: %w", err)
		}
		return fresh, nil
	}
}

// readCursorKey reads a key; a file that is not one is reported, not used.
func readCursorKey(path string) ([]byte, error) {
	key, err := os.ReadFile(path)
	if errors.Is(err, syscall.ENOTDIR) {
		// A file where the directory should be: there is no key (and
		// creating one says why it cannot).
		return nil, fmt.Errorf("no cursor key: %w", fs.ErrNotExist)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("cannot read the cursor key: %w", err)
	}
	if err != nil {
		return nil, err
	}
	if len(key) != CursorKeySize {
		return nil, fmt.Errorf("cursor key %s holds %d bytes, not %d: remove it to make a new one (outstanding cursors stop working)", path, len(key), CursorKeySize)
	}
	return key, nil
}
