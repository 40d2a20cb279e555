// Package atomicfile replaces a file whole or not at all: the data goes to
// a temporary file beside it (".NAME.*.tmp"), which is renamed over it, so
// a reader sees the old file or the new one, never a part. It is for
// git-adr's own files (hook scripts, caches, the adr shim, state under the
// git directory); record edits in the work tree go through journalled
// changesets instead.
package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces path with data, mode perm. On any error the temporary
// file is removed and path is left as it was.
func Write(path string, data []byte, perm fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), perm)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
