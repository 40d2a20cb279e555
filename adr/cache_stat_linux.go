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

// statSig is what detection remembers of a path it looked at.
func statSig(fi fs.FileInfo) (pathSig, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return pathSig{}, false
	}
	return pathSig{dev: uint64(st.Dev), ino: st.Ino, mode: st.Mode, size: st.Size,
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}, true
}
