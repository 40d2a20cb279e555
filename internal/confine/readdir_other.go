//go:build !linux

package confine

import (
	"io/fs"
	"os"
)

// readDir lists the open directory f (see the Linux version).
func readDir(_ *os.Root, f *os.File, _ bool) ([]fs.DirEntry, error) { return f.ReadDir(-1) }
