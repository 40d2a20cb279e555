//go:build !linux

package confine

import (
	"io/fs"
	"os"
	"slices"
	"strings"
)

// readDir lists the open directory f, sorted by name (see the Linux
// version).
func readDir(f *os.File, _ func(string) (fs.FileInfo, error)) ([]fs.DirEntry, error) {
	es, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(es, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return es, nil
}
