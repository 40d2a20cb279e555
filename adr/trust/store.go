// Package trust decides whether a repository's configuration may run
// programs or send credentials.
//
// # The model
//
// A cloned repository must not run code or send secrets by itself. The
// settings that do — the command drafter's program, the openai drafter's
// endpoint and the name of the variable sent as its key ([Settings]) — are
// honoured from git config (any scope git reads: system, global, local,
// worktree, -c), which a repository cannot ship, or from a `.adr.toml` the
// user trusted with `git adr trust`. Everything else in `.adr.toml` needs
// no trust.
//
// Trust works the way direnv's `allow` and mise's `trust` do: the
// canonical absolute path of the file and the SHA-256 of its bytes are
// recorded in a [Store] outside the work tree and outside the git
// directory (a tarball can ship a .git). A file whose bytes differ from
// the recorded hash is untrusted again until it is trusted anew.
//
// # Layout
//
// The store is a directory, by default
// ${XDG_STATE_HOME:-$HOME/.local/state}/git-adr/trust ([Dir]), holding one
// JSON [Entry] per trusted path, named by the SHA-256 of the path. Entries
// are written atomically (temporary file, then rename) with mode 0600 in a
// 0700 directory; an entry another user could have written, or one that
// does not parse, is a [*StoreError], never trust.
package trust

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// EntrySchema names the format of a store entry.
const EntrySchema = "git-adr/trust/v1"

// maxEntry bounds how much of an entry file is read.
const maxEntry = 64 << 10

// Dir returns the trust store directory: $XDG_STATE_HOME/git-adr/trust, or
// $HOME/.local/state/git-adr/trust when XDG_STATE_HOME is unset or not an
// absolute path (the XDG base directory specification says to ignore a
// relative one).
func Dir(getenv func(string) string) (string, error) {
	if d := getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "git-adr", "trust"), nil
	}
	home := getenv("HOME")
	if !filepath.IsAbs(home) {
		return "", errors.New("the trust store needs $HOME or $XDG_STATE_HOME set to an absolute path")
	}
	return filepath.Join(home, ".local", "state", "git-adr", "trust"), nil
}

// State says whether a file is trusted.
type State string

// States of a file.
const (
	// Untrusted: the file was never trusted, or the trust was revoked.
	Untrusted State = "untrusted"
	// Trusted: the file holds exactly the bytes that were trusted.
	Trusted State = "trusted"
	// Changed: the file was trusted, and its bytes changed since.
	Changed State = "changed"
)

// Entry is what the store records for one trusted file.
type Entry struct {
	Schema string `json:"schema"`
	// Path is the canonical absolute path of the file ([Canonical]).
	Path string `json:"path"`
	// SHA256 is the hex SHA-256 of the bytes that were trusted.
	SHA256 string `json:"sha256"`
	// Trusted is when.
	Trusted time.Time `json:"trusted_at"`
}

// Status is the trust of one file's current content.
type Status struct {
	// Path is the canonical absolute path of the file.
	Path string
	// SHA256 is the hex SHA-256 of the content asked about.
	SHA256 string
	State  State
	// Entry is the recorded trust (nil when there is none); with Changed,
	// its SHA256 is the content that was trusted.
	Entry *Entry
	// File is the store entry for Path (it may not exist).
	File string
}

// StoreError is a store entry that cannot be relied on: unreadable, not
// an entry, about another path, or writable by other users.
type StoreError struct {
	File string
	Msg  string
}

func (e *StoreError) Error() string { return fmt.Sprintf("trust store entry %s: %s", e.File, e.Msg) }

// Store is the trust store directory.
type Store struct {
	Dir string
}

// Sum is the hex SHA-256 of data, as Entry.SHA256 records it.
func Sum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// Canonical is the absolute path of a file with every symbolic link in its
// directory resolved, so a repository reached through a linked path has
// one identity. The file's own name is kept: a symlinked `.adr.toml` is
// trusted at the place it is read from, where its relative commands run.
func Canonical(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.Base(abs)), nil
}

// entryFile is where the entry of a canonical path lives.
func (s *Store) entryFile(canonical string) string {
	return filepath.Join(s.Dir, Sum([]byte(canonical))+".json")
}

// Check reports whether the file at path, holding content with the hex
// SHA-256 sum, is trusted.
func (s *Store) Check(path, sum string) (Status, error) {
	c, err := Canonical(path)
	if err != nil {
		return Status{}, err
	}
	st := Status{Path: c, SHA256: sum, State: Untrusted, File: s.entryFile(c)}
	e, err := s.read(st.File, c)
	if err != nil || e == nil {
		return st, err
	}
	st.Entry = e
	if e.SHA256 == sum {
		st.State = Trusted
	} else {
		st.State = Changed
	}
	return st, nil
}

// read loads the entry in file for the canonical path c; nil when there
// is none.
func (s *Store) read(file, c string) (*Entry, error) {
	fi, err := os.Lstat(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &StoreError{File: file, Msg: err.Error()}
	}
	if !fi.Mode().IsRegular() {
		return nil, &StoreError{File: file, Msg: "is not a regular file"}
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return nil, &StoreError{File: file, Msg: fmt.Sprintf("is writable by other users (mode %04o), so it cannot vouch for anything", fi.Mode().Perm())}
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, &StoreError{File: file, Msg: err.Error()}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxEntry+1))
	if err != nil {
		return nil, &StoreError{File: file, Msg: err.Error()}
	}
	if len(data) > maxEntry {
		return nil, &StoreError{File: file, Msg: fmt.Sprintf("is larger than %d bytes", maxEntry)}
	}
	var e Entry
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return nil, &StoreError{File: file, Msg: fmt.Sprintf("is not a trust entry: %v", err)}
	}
	switch {
	case e.Schema != EntrySchema:
		return nil, &StoreError{File: file, Msg: fmt.Sprintf("has schema %q, want %q", e.Schema, EntrySchema)}
	case e.Path != c:
		return nil, &StoreError{File: file, Msg: fmt.Sprintf("names %q, not %q", e.Path, c)}
	case len(e.SHA256) != sha256.Size*2 || !isHex(e.SHA256):
		return nil, &StoreError{File: file, Msg: fmt.Sprintf("has sha256 %q, which is not a SHA-256 hash", e.SHA256)}
	}
	return &e, nil
}

func isHex(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil
}

// Trust records that the file at path, holding content with the hex
// SHA-256 sum, is trusted, replacing any earlier entry for the path.
func (s *Store) Trust(path, sum string, now time.Time) (Status, error) {
	c, err := Canonical(path)
	if err != nil {
		return Status{}, err
	}
	if len(sum) != sha256.Size*2 || !isHex(sum) {
		return Status{}, fmt.Errorf("trust %s: %q is not a SHA-256 hash", c, sum)
	}
	e := &Entry{Schema: EntrySchema, Path: c, SHA256: sum, Trusted: now.UTC().Truncate(time.Second)}
	data, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return Status{}, err
	}
	file := s.entryFile(c)
	if err := writeAtomic(s.Dir, file, append(data, '\n')); err != nil {
		return Status{}, fmt.Errorf("recording trust in %s: %w", s.Dir, err)
	}
	return Status{Path: c, SHA256: sum, State: Trusted, Entry: e, File: file}, nil
}

// Revoke removes the trust of the file at path. It reports whether there
// was an entry; an entry that does not parse is removed too.
func (s *Store) Revoke(path string) (Status, bool, error) {
	c, err := Canonical(path)
	if err != nil {
		return Status{}, false, err
	}
	st := Status{Path: c, State: Untrusted, File: s.entryFile(c)}
	err = os.Remove(st.File)
	if errors.Is(err, fs.ErrNotExist) {
		return st, false, nil
	}
	if err != nil {
		return st, false, fmt.Errorf("revoking trust: %w", err)
	}
	return st, true, nil
}

// writeAtomic writes data to file through a temporary file in the same
// directory and a rename, so a reader sees the old entry or the new one,
// never a part. The directory is created 0700, the file 0600.
func writeAtomic(dir, file string, data []byte) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".entry-*.tmp")
	if err != nil {
		return err
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if err := tmp.Chmod(0o600); err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(name, file); err != nil {
		return err
	}
	ok = true
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
