package adr

import (
	"io/fs"
	"syscall"
)

// fileStat is what the parse cache compares to trust a work-tree file
// without reading it; false when the entry carries no such data (a git
// tree, or another file system).
func fileStat(p string, e fs.DirEntry) (statKey, statEntry, bool) {
	fi, err := e.Info()
	if err != nil {
		return statKey{}, statEntry{}, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || !fi.Mode().IsRegular() {
		return statKey{}, statEntry{}, false
	}
	return statKey{path: p, dev: st.Dev, ino: st.Ino},
		statEntry{size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}, true
}
