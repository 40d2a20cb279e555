//go:build !linux

package confine

import (
	"io/fs"
	"os"
)

// readDir lists the open directory f (see the Linux version).
func readDir(f *os.File, _ func(string) (fs.FileInfo, error)) ([]fs.DirEntry, error) {
	return f.ReadDir(-1)
}
