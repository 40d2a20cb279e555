package adr

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// JournalVersion is the journal format [Changeset.Apply] writes.
const JournalVersion = 2

// Journal is the record of a changeset kept under $GIT_DIR/adr/journal
// while it is applied. It holds everything needed to finish the change
// (the new content of every file) and everything needed to know whether
// finishing is still safe (the hash of what the change read), so a run
// interrupted at any point is completed, or reported, by the next one.
type Journal struct {
	Version int    `json:"version"`
	ID      string `json:"id"`
	// Command, PID, Host and Started describe the run that wrote it.
	Command string        `json:"command,omitempty"`
	PID     int           `json:"pid,omitempty"`
	Host    string        `json:"host,omitempty"`
	Started time.Time     `json:"started"`
	Steps   []JournalStep `json:"steps"`
}

// JournalStep is one file of a changeset. A write replaces Path (whose
// content hashed to Old, or which did not exist when Old is empty) with
// Data; a rename (From set) moves From, whose content hashed to Old, to the
// absent Path with the content Data; a deletion (Delete set) removes Path,
// whose content hashed to Old.
type JournalStep struct {
	Path   string `json:"path"`
	From   string `json:"from,omitempty"`
	Delete bool   `json:"delete,omitempty"`
	Old    string `json:"old,omitempty"`
	New    string `json:"new,omitempty"`
	Mode   uint32 `json:"mode,omitempty"`
	Data   []byte `json:"data"`
}

// ErrBadJournal means a journal file cannot be trusted: unreadable, of an
// unknown version, or naming a path outside the work tree. It is reported
// and never carried out.
var ErrBadJournal = errors.New("journal cannot be used")

// maxJournalSteps bounds what a journal may ask for.
const maxJournalSteps = 1 << 20

// DecodeJournal parses and validates a journal file named name (its base
// name, "<id>.json"). Every path must be a clean relative path inside the
// work tree and outside .git; every hash must match its data.
func DecodeJournal(name string, data []byte) (*Journal, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrBadJournal, name, fmt.Sprintf(format, args...))
	}
	var j Journal
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&j); err != nil {
		return nil, bad("not a journal (%v)", err)
	}
	if dec.More() {
		return nil, bad("trailing data after the journal")
	}
	if j.Version != JournalVersion {
		return nil, bad("version %d, this git-adr reads version %d", j.Version, JournalVersion)
	}
	if !validJournalID(j.ID) || name != j.ID+".json" {
		return nil, bad("id %q does not match the file name", j.ID)
	}
	if len(j.Steps) == 0 || len(j.Steps) > maxJournalSteps {
		return nil, bad("%d steps", len(j.Steps))
	}
	seen := map[string]bool{}
	for i, s := range j.Steps {
		names := []string{s.Path}
		if s.From != "" {
			names = append(names, s.From)
		}
		for _, p := range names {
			if err := checkWorkPath(p); err != nil {
				return nil, bad("step %d: %v", i+1, err)
			}
			if seen[p] {
				return nil, bad("step %d: %q is named twice", i+1, p)
			}
			seen[p] = true
		}
		if s.Old != "" && !validHash(s.Old) {
			return nil, bad("step %d: malformed hash", i+1)
		}
		if s.From != "" && s.Old == "" {
			return nil, bad("step %d: a rename without the content it read", i+1)
		}
		if s.Delete {
			if s.Old == "" || s.From != "" || s.New != "" || len(s.Data) > 0 {
				return nil, bad("step %d: a deletion names only the path and the content it read", i+1)
			}
			continue
		}
		if !validHash(s.New) {
			return nil, bad("step %d: malformed hash", i+1)
		}
		if contentHash(s.Data) != s.New {
			return nil, bad("step %d: the data of %q does not match its hash", i+1, s.Path)
		}
		if s.Mode&^0o777 != 0 {
			return nil, bad("step %d: mode %o", i+1, s.Mode)
		}
	}
	return &j, nil
}

// checkWorkPath accepts a slash-separated path inside the work tree that
// is not git's own directory and not one of git-adr's temporary names.
func checkWorkPath(p string) error {
	if !fs.ValidPath(p) || p == "." || strings.ContainsAny(p, "\\\x00") {
		return fmt.Errorf("%q is not a path inside the work tree", p)
	}
	first, _, _ := strings.Cut(p, "/")
	if strings.EqualFold(first, ".git") {
		return fmt.Errorf("%q is inside .git", p)
	}
	if strings.Contains(path.Base(p), tmpMarker) {
		return fmt.Errorf("%q is a temporary file name", p)
	}
	return nil
}

func validJournalID(id string) bool {
	if len(id) != 16 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil && strings.ToLower(id) == id
}

func validHash(h string) bool {
	if len(h) != 64 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil && strings.ToLower(h) == h
}

// ContentHash is the hash journals record of a file's content (SHA-256,
// hex).
func ContentHash(data []byte) string { return contentHash(data) }

func contentHash(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// tmpMarker is in the name of every temporary file a changeset makes in
// the work tree: ".<name>.git-adr-<journal id>.tmp", beside its destination.
const tmpMarker = ".git-adr-"

// tmpPath is the temporary file a journal's step is staged in.
func tmpPath(p, id string) string {
	dir, base := path.Split(p)
	return dir + "." + base + tmpMarker + id + ".tmp"
}

// IsTempName reports whether a file name is one of git-adr's temporary
// files (left in the work tree only by a run that was killed).
func IsTempName(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tmpMarker) && strings.HasSuffix(name, ".tmp")
}

// writeJournal stores j under dir, whole or not at all: it is written to a
// temporary name, flushed to disk, then renamed into place.
func writeJournal(dir string, j *Journal) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	data, err := json.Marshal(j)
	if err != nil {
		return "", err
	}
	final := filepath.Join(dir, j.ID+".json")
	tmp := final + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, final)
	}
	if err != nil {
		os.Remove(tmp)
		return "", err
	}
	syncDir(dir)
	return final, nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
