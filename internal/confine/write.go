package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
)

// The few writes made outside a changeset (the manual drafter's brief)
// go through the same confinement as reads.

// WriteFile replaces the file name with data: written to a temporary file
// beside it and renamed over it, all through the root, so that a link
// leading out is refused and a reader never sees half a file. Missing
// directories are created.
func (c *ConfinedFS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	if !fs.ValidPath(name) || name == "." {
		return &fs.PathError{Op: "write", Path: name, Err: fs.ErrInvalid}
	}
	real, err := c.Resolve(name)
	if err != nil {
		return err
	}
	if dir := path.Dir(real); dir != "." {
		if err := c.root.MkdirAll(dir, 0o755); err != nil {
			return relabel(err, "write", name)
		}
	}
	if fi, err := c.root.Lstat(real); err == nil && !fi.Mode().IsRegular() {
		return &SpecialFileError{Path: name, Mode: fi.Mode()}
	}
	tmp, f, err := createTemp(c.root, real)
	if err != nil {
		return relabel(err, "write", name)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = c.root.Chmod(tmp, perm)
	}
	if err == nil {
		err = c.root.Rename(tmp, real)
	}
	if err != nil {
		c.root.Remove(tmp)
		return relabel(err, "write", name)
	}
	return nil
}

// Remove removes the file name; a missing file is not an error.
func (c *ConfinedFS) Remove(name string) error {
	if !fs.ValidPath(name) || name == "." {
		return &fs.PathError{Op: "remove", Path: name, Err: fs.ErrInvalid}
	}
	d, err := c.Resolve(path.Dir(name))
	if err != nil {
		return err
	}
	err = c.root.Remove(path.Join(d, path.Base(name)))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return relabel(err, "remove", name)
	}
	return nil
}

// createTemp creates a new file beside name in r, named like git-adr's
// other temporary files.
func createTemp(r *os.Root, name string) (string, *os.File, error) {
	var err error
	for i := 0; i < 100; i++ {
		tmp := path.Join(path.Dir(name), fmt.Sprintf(".%s.git-adr-%d-%d.tmp", path.Base(name), os.Getpid(), i))
		var f *os.File
		f, err = r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return tmp, f, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	return "", nil, err
}
