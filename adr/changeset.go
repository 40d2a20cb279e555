package adr

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Changeset is a group of file writes, renames and removals in the work
// tree that must happen together. Apply stages every new content next to
// its destination, records a journal under the git directory, then moves
// the files into place; an interrupted Apply is completed by
// [RecoverJournals] on the next run, so a reader never sees half of a
// change for longer than the interruption and nothing is lost.
type Changeset struct {
	// Top is the absolute work tree root; paths are relative to it.
	Top string
	// JournalDir holds journals ($GIT_COMMON_DIR/adr/journal).
	JournalDir string
	ops        []changeOp
}

type changeOp struct {
	Path string // destination
	From string // a rename's source ("" for a plain write)
	Data []byte
	// Expect is the content the caller read; nil for "must not exist".
	Expect []byte
	Create bool
}

// ErrChangedOnDisk means a file changed between reading and writing; the
// caller should reload and try again.
var ErrChangedOnDisk = errors.New("file changed on disk since it was read")

// Create adds a new file; Apply fails if it exists by then.
func (c *Changeset) Create(path string, data []byte) {
	c.ops = append(c.ops, changeOp{Path: path, Data: data, Create: true})
}

// Update replaces a file whose current content is old.
func (c *Changeset) Update(path string, old, data []byte) {
	if bytes.Equal(old, data) {
		return
	}
	for i := range c.ops {
		if c.ops[i].Path == path {
			c.ops[i].Data = data
			return
		}
	}
	c.ops = append(c.ops, changeOp{Path: path, Data: data, Expect: old})
}

// Rename moves from (whose content is old) to path with new content.
func (c *Changeset) Rename(from, path string, old, data []byte) {
	c.ops = append(c.ops, changeOp{Path: path, From: from, Data: data, Expect: old})
}

// Paths lists every path the changeset touches, sorted.
func (c *Changeset) Paths() []string {
	var ps []string
	for _, op := range c.ops {
		ps = append(ps, op.Path)
		if op.From != "" {
			ps = append(ps, op.From)
		}
	}
	sort.Strings(ps)
	return ps
}

// Empty reports whether there is nothing to do.
func (c *Changeset) Empty() bool { return len(c.ops) == 0 }

type journal struct {
	Steps []journalStep `json:"steps"`
}

type journalStep struct {
	Tmp    string `json:"tmp"`
	Final  string `json:"final"`
	Remove string `json:"remove,omitempty"`
}

// Apply checks every precondition, then performs the changes.
func (c *Changeset) Apply() error {
	if len(c.ops) == 0 {
		return nil
	}
	abs := func(p string) string { return filepath.Join(c.Top, filepath.FromSlash(p)) }
	for _, op := range c.ops {
		cur, err := os.ReadFile(abs(op.Path))
		switch {
		case op.Create || op.From != "":
			if err == nil {
				return fmt.Errorf("%q already exists", op.Path)
			}
			if !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		case err != nil:
			return fmt.Errorf("%q: %w", op.Path, err)
		case !bytes.Equal(cur, op.Expect):
			return fmt.Errorf("%q: %w", op.Path, ErrChangedOnDisk)
		}
		if op.From != "" {
			cur, err := os.ReadFile(abs(op.From))
			if err != nil {
				return fmt.Errorf("%q: %w", op.From, err)
			}
			if !bytes.Equal(cur, op.Expect) {
				return fmt.Errorf("%q: %w", op.From, ErrChangedOnDisk)
			}
		}
	}
	var j journal
	cleanup := func() {
		for _, s := range j.Steps {
			os.Remove(s.Tmp)
		}
	}
	for _, op := range c.ops {
		dst := abs(op.Path)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			cleanup()
			return err
		}
		mode := fs.FileMode(0o644)
		src := dst
		if op.From != "" {
			src = abs(op.From)
		}
		if fi, err := os.Stat(src); err == nil {
			mode = fi.Mode().Perm()
		}
		tmp, err := writeTemp(filepath.Dir(dst), filepath.Base(dst), op.Data, mode)
		if err != nil {
			cleanup()
			return err
		}
		step := journalStep{Tmp: tmp, Final: dst}
		if op.From != "" {
			step.Remove = abs(op.From)
		}
		j.Steps = append(j.Steps, step)
	}
	jpath, err := c.writeJournal(j)
	if err != nil {
		cleanup()
		return err
	}
	if err := runJournal(j); err != nil {
		return fmt.Errorf("%w (the journal %s completes it on the next git-adr run)", err, jpath)
	}
	return os.Remove(jpath)
}

func (c *Changeset) writeJournal(j journal) (string, error) {
	if err := os.MkdirAll(c.JournalDir, 0o755); err != nil {
		return "", err
	}
	data, err := json.Marshal(j)
	if err != nil {
		return "", err
	}
	name := randomName() + ".json"
	tmp, err := writeTemp(c.JournalDir, name, data, 0o644)
	if err != nil {
		return "", err
	}
	final := filepath.Join(c.JournalDir, name)
	if err := os.Rename(tmp, final); err != nil {
		return "", err
	}
	return final, nil
}

func runJournal(j journal) error {
	for _, s := range j.Steps {
		if _, err := os.Stat(s.Tmp); err == nil {
			if err := os.Rename(s.Tmp, s.Final); err != nil {
				return err
			}
		}
		if s.Remove != "" && s.Remove != s.Final {
			if err := os.Remove(s.Remove); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// RecoverJournals completes changesets an earlier run left unfinished and
// returns the paths it completed.
func RecoverJournals(journalDir string) ([]string, error) {
	entries, err := os.ReadDir(journalDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var done []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		p := filepath.Join(journalDir, e.Name())
		data, err := os.ReadFile(p)
		if err != nil {
			return done, err
		}
		var j journal
		if err := json.Unmarshal(data, &j); err != nil {
			return done, fmt.Errorf("journal %s is corrupt: %w", p, err)
		}
		if err := runJournal(j); err != nil {
			return done, err
		}
		for _, s := range j.Steps {
			done = append(done, s.Final)
		}
		if err := os.Remove(p); err != nil {
			return done, err
		}
	}
	return done, nil
}

func writeTemp(dir, base string, data []byte, mode fs.FileMode) (string, error) {
	f, err := os.CreateTemp(dir, "."+base+".git-adr-*.tmp")
	if err != nil {
		return "", err
	}
	name := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(name, mode)
	}
	if err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

func randomName() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
