package confine

import (
	"encoding/binary"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
)

// readDir lists the open directory f, whose handle is d. Go's ReadDir of
// a directory opened in an [os.Root] stats every entry as it lists it;
// this reads the entries' types from the directory itself (getdents) and
// leaves the stat to [fs.DirEntry.Info], so that a caller that stats the
// files it reads (the parse cache) spreads those calls over its workers,
// and one that needs only names and types makes none. An entry whose
// type the file system does not report is stat'ed at once. lstat stats
// an entry by its name in the directory (Info calls it).
func readDir(f *os.File, lstat func(name string) (fs.FileInfo, error)) ([]fs.DirEntry, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var ds []*dirent
	// Entries are made in slabs and their names cut from one string per
	// batch the kernel returns: a folder of 10,000 records costs tens of
	// allocations, not 20,000.
	var slab []dirent
	buf := make([]byte, 32<<10)
	for {
		var n int
		var rerr error
		if err := rc.Read(func(fd uintptr) bool {
			n, rerr = syscall.ReadDirent(int(fd), buf)
			return rerr != syscall.EAGAIN
		}); err != nil {
			return nil, err
		}
		if rerr == syscall.EINTR {
			continue
		}
		if rerr != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: f.Name(), Err: rerr}
		}
		if n <= 0 {
			// Sorted by name here, on the concrete type: fs.ReadDir's
			// order, which its callers then find already in place.
			slices.SortFunc(ds, func(a, b *dirent) int { return strings.Compare(a.name, b.name) })
			es := make([]fs.DirEntry, len(ds))
			for i, d := range ds {
				es[i] = d
			}
			return es, nil
		}
		batch := string(buf[:n])
		for off := 0; off < n; {
			// struct linux_dirent64: ino (8), off (8), reclen (2),
			// type (1), then the name, NUL-terminated.
			b := buf[off:n]
			if len(b) < 19 {
				break
			}
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				break
			}
			typ, name := b[18], batch[off+19:off+reclen]
			off += reclen
			if i := strings.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			if name != "." && name != ".." {
				if len(slab) == cap(slab) {
					slab = make([]dirent, 0, 256)
				}
				slab = append(slab, dirent{lstat: lstat, name: name, typ: direntMode(typ)})
				e := &slab[len(slab)-1]
				if e.typ == unknownType {
					fi, err := lstat(name)
					if err != nil {
						if os.IsNotExist(err) {
							continue // removed while listed, as os.ReadDir does
						}
						return nil, err
					}
					e.typ, e.info = fi.Mode().Type(), fi
				}
				ds = append(ds, e)
			}
		}
	}
}

// unknownType marks an entry whose type getdents did not report.
const unknownType = ^fs.FileMode(0)

func direntMode(t uint8) fs.FileMode {
	switch t {
	case syscall.DT_REG:
		return 0
	case syscall.DT_DIR:
		return fs.ModeDir
	case syscall.DT_LNK:
		return fs.ModeSymlink
	case syscall.DT_FIFO:
		return fs.ModeNamedPipe
	case syscall.DT_SOCK:
		return fs.ModeSocket
	case syscall.DT_BLK:
		return fs.ModeDevice
	case syscall.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice
	}
	return unknownType
}

// dirent is an entry of a directory listed by readDir.
type dirent struct {
	lstat func(name string) (fs.FileInfo, error) // stats an entry of the directory
	name  string
	typ   fs.FileMode
	info  fs.FileInfo // when stat'ed while listed
}

func (e *dirent) Name() string      { return e.name }
func (e *dirent) IsDir() bool       { return e.typ.IsDir() }
func (e *dirent) Type() fs.FileMode { return e.typ }
func (e *dirent) String() string    { return fs.FormatDirEntry(e) }

// Info stats the entry (not following a link) in the directory it was
// listed from: what the file is now, as os.ReadDir's entries say.
func (e *dirent) Info() (fs.FileInfo, error) {
	if e.info != nil {
		return e.info, nil
	}
	return e.lstat(e.name)
}
