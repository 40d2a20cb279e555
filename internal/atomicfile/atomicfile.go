// Package atomicfile replaces a file whole or not at all: the data goes to
// a temporary file beside it (".NAME.*.tmp"), which is renamed over it, so
// a reader sees the old file or the new one, never a part. It is for
// git-adr's own files (hook scripts, caches, the adr shim, state under the
// git directory); record edits in the work tree go through journalled
// changesets instead.
package atomicfile

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-adr/git-adr/internal/failpoint"
)

// StaleAfter is the age past which a temporary file of a write is taken
// for one a killed process left: a live write holds its temporary file
// for the time one write and one rename take.
const StaleAfter = time.Hour

// Write replaces path with data, mode perm. On any error the temporary
// file is removed and path is left as it was. After a write, temporary
// files of earlier writes to path that are older than StaleAfter (left by
// a process killed before its rename) are removed.
func Write(path string, data []byte, perm fs.FileMode) error {
	return WriteFunc(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc is Write of what write writes, through a buffer: a file of
// megabytes is written as it is made, not made whole in memory first. An
// error from write leaves path as it was.
func WriteFunc(path string, perm fs.FileMode, write func(w io.Writer) error) error {
	return place(path, perm, write, func(tmp string) error { return os.Rename(tmp, path) })
}

// Create writes data to a new file at path, mode perm, whole or not at
// all, and never over a file that is there: then it returns an error
// that is [fs.ErrExist] and leaves path as it was, however many
// processes create it at once (the written temporary file takes the
// name with link(2), or rename(2) that replaces nothing where a file
// system has no links; either fails when the name is taken).
func Create(path string, data []byte, perm fs.FileMode) error {
	write := func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
	return place(path, perm, write, func(tmp string) error {
		err := link(tmp, path)
		if err == nil || errors.Is(err, fs.ErrExist) {
			os.Remove(tmp)
			return err
		}
		return renameNoReplace(tmp, path)
	})
}

// link gives a file a second name (a variable: a test takes links away,
// as a file system without them does).
var link = os.Link

// place writes what write writes to a temporary file beside path, then
// gives it path's name with name (which removes the temporary file's
// own, or leaves that to place on an error).
func place(path string, perm fs.FileMode, write func(w io.Writer) error, name func(tmp string) error) error {
	dir, base := filepath.Dir(path), filepath.Base(path)
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), perm)
	}
	// Two names for one place: the N-th write of any file, and the N-th
	// write of this file, which is the same write however the writes of
	// a command that saves several files at once happen to interleave.
	failpoint.Hit("atomicfile-temp")
	failpoint.Hit("atomicfile-temp/" + base)
	if err == nil {
		err = name(f.Name())
	}
	if err != nil {
		os.Remove(f.Name())
		return err
	}
	sweep(dir, base, time.Now().Add(-StaleAfter))
	return nil
}

// sweep removes the temporary files of writes to base in dir last
// modified before cutoff. It never follows a link: a temporary file is a
// regular file this package created.
func sweep(dir, base string, cutoff time.Time) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := "." + base + "."
	for _, e := range es {
		n := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(n, prefix) || !strings.HasSuffix(n, ".tmp") || len(n) <= len(prefix)+len(".tmp") {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && fi.ModTime().Before(cutoff) {
			os.Remove(filepath.Join(dir, n))
		}
	}
}

// errNotDir is a folder to make where a file is.
var errNotDir = errors.New("not a directory")

// MkdirCache makes the folder dir and the folders above it that are
// missing, as os.MkdirAll does, except a folder whose name ends in
// ".git": git-adr's caches live inside a repository's git folder, and a
// write into one that was removed meanwhile (a workspace mirror a prune
// moved aside) must not make it again, empty, where the repository was.
// The missing folders are made one at a time from the top, each only
// inside a folder that exists.
func MkdirCache(dir string, perm fs.FileMode) error {
	var missing []string
	for d := filepath.Clean(dir); ; {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				return &fs.PathError{Op: "mkdir", Path: d, Err: errNotDir}
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if strings.HasSuffix(filepath.Base(d), ".git") {
			return &fs.PathError{Op: "mkdir", Path: d, Err: fs.ErrNotExist}
		}
		missing = append(missing, d)
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(missing[i], perm); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	return nil
}
