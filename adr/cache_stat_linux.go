package adr

import (
	"io/fs"
	"syscall"

	"github.com/git-adr/git-adr/internal/confine"
)

// fileStat is what the parse cache compares to trust a work-tree file
// without reading it; false when the entry carries no such data (a git
// tree, or another file system).
func fileStat(fsys fs.FS, p string, e fs.DirEntry) (statKey, statEntry, bool) {
	if ls, ok := underlying(fsys).(listedStater); ok {
		if st, ok := ls.StatListed(p); ok {
			if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
				return statKey{}, statEntry{}, false
			}
			return statKey{path: p, dev: st.Dev, ino: st.Ino},
				statEntry{size: st.Size, mtime: st.Mtime, ctime: st.Ctime}, true
		}
	}
	fi, err := e.Info()
	if err != nil {
		return statKey{}, statEntry{}, false
	}
	return infoStat(p, fi)
}

// listedStater stats a file its caller found in a listing without
// allocating (confine.ConfinedFS, the work tree): a warm load stats every
// record.
type listedStater interface {
	StatListed(name string) (confine.FileStat, bool)
}

// infoStat is fileStat from a description of the file at p.
func infoStat(p string, fi fs.FileInfo) (statKey, statEntry, bool) {
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
