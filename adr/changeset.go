package adr

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"time"

	"github.com/git-adr/git-adr/internal/confine"
	"github.com/git-adr/git-adr/internal/failpoint"
)

// Changeset is a group of file writes, renames and removals in the work
// tree that must happen together. The caller holds the project lock (see
// gitops.Repo.Lock) from reading the files to applying the changeset.
//
// Apply checks that every file still holds what the caller read, records a
// journal (the new content of every file and the hash of what was read)
// under the git directory, then moves the files into place one by one. A
// run interrupted at any point is completed by [RecoverJournals] on the
// next write, but only where each file is still what the change read or
// already what it wrote; anything else is reported, never overwritten.
//
// Every path is relative to Top and resolved through an [os.Root], so no
// path and no symbolic link can make a changeset write outside the work
// tree; a changeset also never writes through a symbolic link.
type Changeset struct {
	// Top is the absolute work tree root; paths are relative to it.
	Top string
	// JournalDir holds journals ($GIT_DIR/adr/journal).
	JournalDir string
	// Command is recorded in the journal for whoever finds it.
	Command string
	ops     []changeOp
}

type changeOp struct {
	Path string // destination
	From string // a rename's source ("" for a plain write)
	Data []byte
	// Expect is the content the caller read; nil for "must not exist".
	Expect []byte
	Create bool
	Delete bool
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

// Delete removes a file whose current content is old.
func (c *Changeset) Delete(path string, old []byte) {
	c.ops = append(c.ops, changeOp{Path: path, Expect: old, Delete: true})
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

// Apply checks every precondition, then performs the changes.
func (c *Changeset) Apply() error {
	if len(c.ops) == 0 {
		return nil
	}
	root, err := os.OpenRoot(c.Top)
	if err != nil {
		return err
	}
	defer root.Close()
	j := &Journal{Version: JournalVersion, ID: randomName(), Command: c.Command, PID: os.Getpid(), Started: time.Now().UTC()}
	j.Host, _ = os.Hostname()
	for _, op := range c.ops {
		step, err := c.check(root, op)
		if err != nil {
			return err
		}
		j.Steps = append(j.Steps, step)
	}
	jpath, err := writeJournal(c.JournalDir, j)
	if err != nil {
		return fmt.Errorf("record the journal: %w", err)
	}
	failpoint.Hit("changeset-journal")
	for _, s := range j.Steps {
		if err := applyStep(root, j.ID, s, stepTodo); err != nil {
			return fmt.Errorf("%w (the journal %s finishes it on the next git-adr write)", err, jpath)
		}
		failpoint.Hit("changeset-step")
	}
	if err := os.Remove(jpath); err != nil {
		return err
	}
	failpoint.Hit("changeset-done")
	return nil
}

// check verifies one operation's precondition and turns it into a step.
func (c *Changeset) check(root *os.Root, op changeOp) (JournalStep, error) {
	if err := checkWorkPath(op.Path); err != nil {
		return JournalStep{}, err
	}
	if op.From != "" {
		if err := checkWorkPath(op.From); err != nil {
			return JournalStep{}, err
		}
	}
	step := JournalStep{Path: op.Path, From: op.From, New: contentHash(op.Data), Data: op.Data, Mode: 0o644, Delete: op.Delete}
	if op.Delete {
		step.New, step.Data = "", nil
	}
	cur, mode, exists, err := readWork(root, op.Path)
	if err != nil {
		return step, err
	}
	switch {
	case op.Create || op.From != "":
		if exists {
			return step, fmt.Errorf("%q already exists", op.Path)
		}
	case !exists:
		return step, fmt.Errorf("%q: %w", op.Path, fs.ErrNotExist)
	case !bytes.Equal(cur, op.Expect):
		return step, fmt.Errorf("%q: %w", op.Path, ErrChangedOnDisk)
	default:
		step.Old, step.Mode = contentHash(cur), uint32(mode.Perm())
	}
	if op.From != "" {
		cur, mode, exists, err := readWork(root, op.From)
		switch {
		case err != nil:
			return step, err
		case !exists:
			return step, fmt.Errorf("%q: %w", op.From, fs.ErrNotExist)
		case !bytes.Equal(cur, op.Expect):
			return step, fmt.Errorf("%q: %w", op.From, ErrChangedOnDisk)
		}
		step.Old, step.Mode = contentHash(cur), uint32(mode.Perm())
	}
	return step, nil
}

// ErrNotRegular means a path git-adr would read or write is a symbolic
// link, a directory or a special file (FIFO, device, socket).
var ErrNotRegular = errors.New("not a regular file")

// readWork reads a work tree file without following a final symbolic link
// and without blocking on a FIFO (the confinement layer's rules: see
// internal/confine). exists is false when there is no file.
func readWork(root *os.Root, p string) (data []byte, mode fs.FileMode, exists bool, err error) {
	fi, err := root.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, fmt.Errorf("%q: %w", p, err)
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, 0, true, fmt.Errorf("%q is a symbolic link; git-adr does not write through links: %w", p, ErrNotRegular)
	case fi.IsDir():
		return nil, 0, true, fmt.Errorf("%q is a directory: %w", p, ErrNotRegular)
	}
	f, fi, err := confine.OpenRegular(root, p, p, false)
	if errors.Is(err, confine.ErrSpecialFile) {
		return nil, 0, true, fmt.Errorf("%w: %w", ErrNotRegular, err)
	}
	if err != nil {
		return nil, 0, true, fmt.Errorf("%q: %w", p, err)
	}
	defer f.Close()
	data, err = io.ReadAll(f)
	if err != nil {
		return nil, 0, true, fmt.Errorf("%q: %w", p, err)
	}
	return data, fi.Mode(), true, nil
}

// stepState is where one journal step stands against the work tree.
type stepState int

const (
	stepDone     stepState = iota // the file holds what the change wrote
	stepTodo                      // the file holds what the change read
	stepRemove                    // a rename's destination is written; its source remains
	stepConflict                  // the file holds something else
)

// applyStep brings one step from state st to done: the new content is
// staged in a temporary file beside its destination (a name the journal
// determines, so recovery can always remove it) and renamed into place.
func applyStep(root *os.Root, id string, s JournalStep, st stepState) error {
	if s.Delete {
		if st == stepDone {
			return nil
		}
		if err := root.Remove(s.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		removeEmptyDirs(root, path.Dir(s.Path))
		return nil
	}
	if st == stepTodo {
		if dir := path.Dir(s.Path); dir != "." {
			if err := root.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
		tmp := tmpPath(s.Path, id)
		if err := root.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		mode := fs.FileMode(s.Mode)
		if mode == 0 {
			mode = 0o644
		}
		f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if err != nil {
			return err
		}
		_, err = f.Write(s.Data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = root.Chmod(tmp, mode) // the umask may have narrowed it
		}
		if err == nil {
			err = root.Rename(tmp, s.Path)
		}
		if err != nil {
			root.Remove(tmp)
			return err
		}
	}
	if s.From != "" && st != stepDone {
		if err := root.Remove(s.From); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		removeEmptyDirs(root, path.Dir(s.From))
	}
	return nil
}

// removeEmptyDirs removes dir and its parents while they are empty, as
// git does when a checkout removes a folder's last file (a record moved
// out of archive/2024/ leaves no empty archive/ behind).
func removeEmptyDirs(root *os.Root, dir string) {
	for ; dir != "." && dir != "/" && dir != ""; dir = path.Dir(dir) {
		// Only a real folder: removing a symbolic link would remove the
		// link, empty target or not.
		if fi, err := root.Lstat(dir); err != nil || !fi.IsDir() {
			return
		}
		if root.Remove(dir) != nil { // not empty: stop
			return
		}
	}
}

func randomName() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// ReadWorkFile reads a work tree file through the same rules a changeset
// writes by: inside top, not through a symbolic link, never blocking on a
// special file. exists is false when there is no such file.
func ReadWorkFile(top, p string) (data []byte, exists bool, err error) {
	if err := checkWorkPath(p); err != nil {
		return nil, false, err
	}
	root, err := os.OpenRoot(top)
	if err != nil {
		return nil, false, err
	}
	defer root.Close()
	data, _, exists, err = readWork(root, p)
	return data, exists, err
}
