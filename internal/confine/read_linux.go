package confine

import (
	"io/fs"
	"path"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// readListed reads a regular file through the handle of the directory
// its caller listed it from: openat, fstat, two reads, close. Going
// through os.Root and os.File costs two more system calls per file (a
// stat before the open, and a poller registration the kernel refuses),
// which a cold load of a long log pays ten thousand times; the fstat
// also spares the caller its own stat. It is safe only
// for one name inside a directory handle the FS holds: O_NOFOLLOW refuses
// a link (the caller then takes the confined path, which follows links
// that stay inside), and the fstat of what was opened refuses anything
// but a regular file. ok is false whenever this path did not read the
// file, for any reason; the caller then reads it the usual way, which
// reports the reason.
func (c *ConfinedFS) readListed(name string, e fs.DirEntry) (data []byte, fi fs.FileInfo, ok bool) {
	if e == nil || !e.Type().IsRegular() {
		return nil, nil, false
	}
	base := path.Base(name)
	var st syscall.Stat_t
	done := c.atListed(name, func(dfd int) {
		fd, err := openAt(dfd, base)
		if err != nil {
			return
		}
		defer syscall.Close(fd)
		if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
			return
		}
		data, ok = readFD(fd, st.Size)
	})
	if !done || !ok {
		return nil, nil, false
	}
	return data, &statInfo{name: base, st: st}, true
}

// atListed runs f on the descriptor of the directory of name, when a
// ReadDir of this FS listed that directory and kept its handle; false
// when it did not run. The descriptor is held open while f runs, so a
// Close racing with it cannot hand the number to another file.
func (c *ConfinedFS) atListed(name string, f func(dfd int)) bool {
	if !fs.ValidPath(name) || name == "." {
		return false
	}
	c.mu.Lock()
	d := c.listed[path.Dir(name)]
	c.mu.Unlock()
	if d == nil {
		return false
	}
	rc, err := d.SyscallConn()
	if err != nil {
		return false
	}
	return rc.Control(func(dfd uintptr) { f(int(dfd)) }) == nil
}

// FileStat is what a stat says of a file that the parse cache compares.
type FileStat struct {
	Dev, Ino     uint64
	Mode         uint32 // st_mode: type and permission bits
	Size         int64
	Mtime, Ctime int64 // nanoseconds since the epoch
}

// StatListed stats name, not following a link, through the handle of
// the directory a ReadDir of this FS listed it from: what
// [fs.DirEntry.Info] of its entry reports, without allocating. It
// reports false when the directory is not one this FS holds listed (the
// caller then asks the entry), or the stat fails.
func (c *ConfinedFS) StatListed(name string) (FileStat, bool) {
	base := path.Base(name)
	var st unix.Stat_t
	var serr error = unix.EBADF
	if !c.atListed(name, func(dfd int) {
		for {
			serr = unix.Fstatat(dfd, base, &st, unix.AT_SYMLINK_NOFOLLOW)
			if serr != unix.EINTR {
				return
			}
		}
	}) || serr != nil {
		return FileStat{}, false
	}
	return FileStat{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Mode: uint32(st.Mode), Size: int64(st.Size),
		Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano()}, true
}

func openAt(dfd int, base string) (int, error) {
	for {
		fd, err := syscall.Openat(dfd, base, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// readFD reads fd to its end (a read that returns nothing), sized by the
// size fstat reported; a file that grew meanwhile is read whole.
func readFD(fd int, size int64) ([]byte, bool) {
	data := make([]byte, 0, size+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := syscall.Read(fd, data[len(data):cap(data)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil || n < 0:
			return nil, false
		case n == 0:
			return data, true
		}
		data = data[:len(data)+n]
	}
}

// statInfo describes a regular file from its fstat.
type statInfo struct {
	name string
	st   syscall.Stat_t
}

func (s *statInfo) Name() string       { return s.name }
func (s *statInfo) Size() int64        { return s.st.Size }
func (s *statInfo) Mode() fs.FileMode  { return fs.FileMode(s.st.Mode & 0o777) }
func (s *statInfo) ModTime() time.Time { return time.Unix(s.st.Mtim.Unix()) }
func (s *statInfo) IsDir() bool        { return false }
func (s *statInfo) Sys() any           { return &s.st }
