package adr

import (
	"io/fs"
	"sync"
)

// dirMemo lists each folder of a file system once: discovery and the scan
// of a root both list the root, which holds every record.
type dirMemo struct {
	fs.FS
	mu   sync.Mutex
	dirs map[string]memoDir
}

type memoDir struct {
	entries []fs.DirEntry
	err     error
}

func newDirMemo(fsys fs.FS) *dirMemo { return &dirMemo{FS: fsys, dirs: map[string]memoDir{}} }

func (m *dirMemo) ReadDir(name string) ([]fs.DirEntry, error) {
	m.mu.Lock()
	d, ok := m.dirs[name]
	m.mu.Unlock()
	if !ok {
		d.entries, d.err = fs.ReadDir(m.FS, name)
		m.mu.Lock()
		m.dirs[name] = d
		m.mu.Unlock()
	}
	// Callers may sort or filter what they get: each gets its own slice.
	return append([]fs.DirEntry(nil), d.entries...), d.err
}

func (m *dirMemo) ReadFile(name string) ([]byte, error)  { return fs.ReadFile(m.FS, name) }
func (m *dirMemo) Stat(name string) (fs.FileInfo, error) { return fs.Stat(m.FS, name) }

// underlying is the file system a memo lists, for readers that outlive
// the load.
func underlying(fsys fs.FS) fs.FS {
	if m, ok := fsys.(*dirMemo); ok {
		return m.FS
	}
	return fsys
}
