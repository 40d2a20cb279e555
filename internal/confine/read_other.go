//go:build !linux

package confine

import "io/fs"

// readListed is Linux's fewer-system-calls read (see read_linux.go);
// elsewhere the caller reads the usual way.
func (c *ConfinedFS) readListed(string, fs.DirEntry) ([]byte, fs.FileInfo, bool) {
	return nil, nil, false
}
