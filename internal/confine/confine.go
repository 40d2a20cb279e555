package confine

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// Confinement errors. [*EscapeError] and [*SpecialFileError] match them
// with errors.Is, and also match the io/fs sentinels a package that does
// not import gitops can test for: fs.ErrPermission (a path that leads
// outside is not permitted) and fs.ErrInvalid (a special file is not a
// valid thing to read).
var (
	// ErrOutside means a path leads outside the directory tree: through
	// a symbolic link that points out, or by ".." or an absolute path.
	ErrOutside = errors.New("outside the repository")
	// ErrSpecialFile means a path names a named pipe, socket or device:
	// reading one can block forever or act on a device.
	ErrSpecialFile = errors.New("not a regular file")
)

// EscapeError says which symbolic link leads outside the tree.
type EscapeError struct {
	// Link is the slash-separated path of the link, relative to the top.
	Link string
	// Target is the link's target as written.
	Target string
}

func (e *EscapeError) Error() string {
	return fmt.Sprintf("%s is a symbolic link to %q, outside the repository", e.Link, e.Target)
}

// Is matches [ErrOutside] and fs.ErrPermission.
func (e *EscapeError) Is(target error) bool {
	return target == ErrOutside || target == fs.ErrPermission
}

// SpecialFileError is a path that names something other than a regular
// file or a directory.
type SpecialFileError struct {
	Path string // slash-separated, relative to the top
	Mode fs.FileMode
}

func (e *SpecialFileError) Error() string {
	return fmt.Sprintf("%s is a %s, not a regular file", e.Path, FileKind(e.Mode))
}

// Is matches [ErrSpecialFile] and fs.ErrInvalid.
func (e *SpecialFileError) Is(target error) bool {
	return target == ErrSpecialFile || target == fs.ErrInvalid
}

// FileKind names a file's type for messages: "named pipe", "socket",
// "device", "symbolic link", "directory" or "regular file".
func FileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m.IsDir():
		return "directory"
	case m.IsRegular():
		return "regular file"
	}
	return "special file"
}

// maxLinks bounds the symbolic links one path may go through, as the
// kernel's ELOOP does.
const maxLinks = 40

// maxDirHandles bounds the directory handles a ConfinedFS keeps open.
const maxDirHandles = 64

// ConfinedFS is a directory tree (the work tree) as a read-only [fs.FS]
// that cannot be left: every path is opened through an [os.Root], symbolic
// links are followed only while they stay inside the tree (absolute ones
// included), and a link that leads out is refused with an [*EscapeError]
// naming it. Named pipes, sockets and devices are refused with a
// [*SpecialFileError] before they are opened; a file swapped for one after
// that check is opened without blocking and refused too. It is the one
// confinement layer of git-adr: the log, templates, context sources, the
// drafting worktree and nav all read through it.
//
// It implements fs.ReadFileFS, fs.ReadDirFS, fs.StatFS and fs.ReadLinkFS
// and is safe for concurrent use.
type ConfinedFS struct {
	top  string // absolute, as given
	real string // top with symbolic links resolved
	root *os.Root

	mu   sync.Mutex
	dirs map[string]*os.Root // directory handles by slash path, for reading many files of one directory
	// listed holds the open directories ReadDir listed through a kept
	// handle, for ReadListed.
	listed map[string]*os.File
}

// OpenFS opens the directory tree at dir.
func OpenFS(dir string) (*ConfinedFS, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("open %q: %w", dir, err)
	}
	root, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("open %q: %w", dir, err)
	}
	return &ConfinedFS{top: abs, real: real, root: root, dirs: map[string]*os.Root{}, listed: map[string]*os.File{}}, nil
}

// Top is the tree's directory as given to OpenFS, made absolute.
func (c *ConfinedFS) Top() string { return c.top }

// RealTop is Top with symbolic links resolved.
func (c *ConfinedFS) RealTop() string { return c.real }

// Root is the tree's os.Root, for callers that walk it themselves.
func (c *ConfinedFS) Root() *os.Root { return c.root }

// Close releases the tree's directory handles.
func (c *ConfinedFS) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, d := range c.dirs {
		d.Close()
	}
	for _, f := range c.listed {
		f.Close()
	}
	c.dirs, c.listed = map[string]*os.Root{}, map[string]*os.File{}
	return c.root.Close()
}

// Within reports p (an absolute path) relative to the top, slash-separated,
// when it is the top or lies below it (as given or with symbolic links
// resolved). It is lexical.
func (c *ConfinedFS) Within(p string) (string, bool) {
	if r, ok := within(c.top, p); ok {
		return r, true
	}
	return within(c.real, p)
}

// within reports p relative to dir (slash-separated, "." for dir itself)
// when p is dir or lies below it.
func within(dir, p string) (string, bool) {
	r, err := filepath.Rel(dir, filepath.Clean(p))
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// Resolve follows the symbolic links of name (an fs.ValidPath path) the
// way the kernel would and returns the path they lead to, relative to the
// top, with no link left in it. A link that leads outside is an
// [*EscapeError] naming the first such link, whether or not its target
// exists (so that answers do not tell what exists elsewhere). Components
// that do not exist are kept as written; the caller's open reports them.
func (c *ConfinedFS) Resolve(name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: "resolve", Path: name, Err: fs.ErrInvalid}
	}
	var done []string // resolved components, no links among them
	todo := strings.Split(name, "/")
	if name == "." {
		todo = nil
	}
	links := 0
	var link, target string // the last link followed, for messages
	for len(todo) > 0 {
		el := todo[0]
		todo = todo[1:]
		switch el {
		case "", ".":
			continue
		case "..":
			if len(done) == 0 {
				// Only a link's target can climb (name is a valid path).
				return "", &EscapeError{Link: link, Target: target}
			}
			done = done[:len(done)-1]
			continue
		}
		cur := path.Join(append(done, el)...)
		fi, err := c.root.Lstat(cur)
		if err != nil {
			// Missing (or not a directory): nothing further can be a link.
			return path.Join(append(append(done, el), todo...)...), nil
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			done = append(done, el)
			continue
		}
		links++
		if links > maxLinks {
			return "", &fs.PathError{Op: "resolve", Path: name, Err: syscall.ELOOP}
		}
		link = cur
		target, err = c.root.Readlink(cur)
		if err != nil {
			return "", &fs.PathError{Op: "resolve", Path: name, Err: err}
		}
		var next []string
		if filepath.IsAbs(target) {
			rel, ok := c.Within(target)
			if !ok {
				return "", &EscapeError{Link: cur, Target: target}
			}
			done = nil
			if rel != "." {
				next = strings.Split(rel, "/")
			}
		} else {
			next = strings.Split(filepath.ToSlash(target), "/")
			// A relative target climbs from the link's directory: ".."
			// past the top leads out.
			depth := len(done)
			for _, t := range next {
				switch t {
				case "..":
					depth--
				case "", ".":
				default:
					depth++
				}
				if depth < 0 {
					return "", &EscapeError{Link: cur, Target: target}
				}
			}
		}
		todo = append(next, todo...)
	}
	if len(done) == 0 {
		return ".", nil
	}
	return path.Join(done...), nil
}

// dir returns a handle on the directory name, following links inside the
// tree; handles are kept for reading many files of one directory.
func (c *ConfinedFS) dir(name string) (*os.Root, bool, error) {
	if name == "." {
		return c.root, false, nil
	}
	c.mu.Lock()
	d, ok := c.dirs[name]
	c.mu.Unlock()
	if ok {
		return d, false, nil
	}
	d, err := c.root.OpenRoot(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		// An absolute link, or one that leads out: os.Root refuses both;
		// find out which.
		real, rerr := c.Resolve(name)
		if rerr != nil {
			return nil, false, rerr
		}
		d, err = c.root.OpenRoot(real)
	}
	if err != nil {
		return nil, false, relabel(err, "open", name)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.dirs[name]; ok {
		d.Close()
		return prev, false, nil
	}
	if len(c.dirs) >= maxDirHandles {
		return d, true, nil // the caller closes it
	}
	c.dirs[name] = d
	return d, false, nil
}

// relabel gives an error from a sub-root the caller's path.
func relabel(err error, op, name string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		var esc *EscapeError
		var sp *SpecialFileError
		if errors.As(pe.Err, &esc) || errors.As(pe.Err, &sp) {
			return pe.Err
		}
		return &fs.PathError{Op: op, Path: name, Err: pe.Err}
	}
	return err
}

// at runs f on name's directory handle and base name. Should the handle
// refuse (the base is a link leading out of its directory, or absolute),
// the path is resolved from the top and f runs there.
func (c *ConfinedFS) at(op, name string, f func(r *os.Root, base string) error) error {
	if !fs.ValidPath(name) {
		return &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if name == "." {
		return f(c.root, ".")
	}
	d, temp, err := c.dir(path.Dir(name))
	if err != nil {
		return err
	}
	if temp {
		defer d.Close()
	}
	err = f(d, path.Base(name))
	if err == nil || errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrSpecialFile) || errors.Is(err, syscall.ENOTDIR) {
		return relabel(err, op, name)
	}
	real, rerr := c.Resolve(name)
	if rerr != nil {
		return rerr
	}
	if real == name {
		return relabel(err, op, name)
	}
	return relabel(f(c.root, real), op, name)
}

// Open opens name for reading: a regular file or a directory.
func (c *ConfinedFS) Open(name string) (fs.File, error) {
	var file *os.File
	err := c.at("open", name, func(r *os.Root, base string) error {
		f, _, err := OpenRegular(r, base, name, true)
		file = f
		return err
	})
	if err != nil {
		return nil, err
	}
	return file, nil
}

// ReadFile reads the regular file name.
func (c *ConfinedFS) ReadFile(name string) ([]byte, error) {
	var data []byte
	err := c.at("read", name, func(r *os.Root, base string) error {
		f, fi, err := OpenRegular(r, base, name, false)
		if err != nil {
			return err
		}
		defer f.Close()
		data, err = readAll(f, fi.Size())
		return err
	})
	return data, err
}

// readAll reads f to its end, sized by the size Stat reported.
func readAll(f *os.File, size int64) ([]byte, error) {
	data := make([]byte, 0, size+1) // one more byte sees the end without a second read
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// ReadDir lists the directory name, sorted by file name.
func (c *ConfinedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	d, temp, err := c.dir(name)
	if err != nil {
		return nil, err
	}
	if temp {
		defer d.Close()
	}
	f, err := d.Open(".")
	if err != nil {
		return nil, relabel(err, "readdir", name)
	}
	// A handle the FS keeps stats the entries later; a temporary one is
	// closed on return, so Info opens the folder again, confined.
	lstat := d.Lstat
	if temp {
		lstat = func(n string) (fs.FileInfo, error) { return c.Lstat(path.Join(name, n)) }
	}
	es, err := readDir(f, lstat)
	if err != nil {
		f.Close()
		return nil, relabel(err, "readdir", name)
	}
	if !temp && !c.keepListed(name, f) {
		f.Close()
	}
	return es, nil // readDir sorts them by name
}

// keepListed keeps the open directory name for ReadListed, unless one is
// kept already; false when it did not keep f.
func (c *ConfinedFS) keepListed(name string, f *os.File) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.listed == nil || c.listed[name] != nil {
		return false
	}
	c.listed[name] = f
	return true
}

// ReadListed reads the regular file name, which the caller found in a
// listing of its directory by ReadDir (e is its entry there), and
// describes the file it read (nil when it could not tell). It reads as
// ReadFile does, with the same errors, but in a directory this FS listed
// it does so with fewer system calls, and its description saves the
// caller a stat.
func (c *ConfinedFS) ReadListed(name string, e fs.DirEntry) ([]byte, fs.FileInfo, error) {
	if data, fi, ok := c.readListed(name, e); ok {
		return data, fi, nil
	}
	data, err := c.ReadFile(name)
	return data, nil, err
}

// Stat describes name, following links inside the tree. It never opens
// the file, so a special file is described, not refused.
func (c *ConfinedFS) Stat(name string) (fs.FileInfo, error) {
	var fi fs.FileInfo
	err := c.at("stat", name, func(r *os.Root, base string) error {
		var err error
		fi, err = r.Stat(base)
		return err
	})
	return fi, err
}

// Lstat describes name without following a link at its end.
func (c *ConfinedFS) Lstat(name string) (fs.FileInfo, error) {
	var fi fs.FileInfo
	err := c.at("lstat", name, func(r *os.Root, base string) error {
		var err error
		fi, err = r.Lstat(base)
		return err
	})
	return fi, err
}

// ReadLink returns the target of the link name as written.
func (c *ConfinedFS) ReadLink(name string) (string, error) {
	var t string
	err := c.at("readlink", name, func(r *os.Root, base string) error {
		var err error
		t, err = r.Readlink(base)
		return err
	})
	return t, err
}

// OpenRegular opens name in r for reading, refusing named pipes, sockets
// and devices (and directories unless dirOK) with a [*SpecialFileError]
// for shown, the path to name in messages. It looks before it opens, so a
// device is never opened, and opens without blocking, so a FIFO swapped
// in after the look cannot hang the read; the opened file is checked
// again.
func OpenRegular(r *os.Root, name, shown string, dirOK bool) (*os.File, fs.FileInfo, error) {
	fi, err := r.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	if err := regular(fi, shown, dirOK); err != nil {
		return nil, nil, err
	}
	f, err := OpenNonBlocking(r, name)
	if err != nil {
		return nil, nil, err
	}
	fi, err = f.Stat()
	if err == nil {
		err = regular(fi, shown, dirOK)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

func regular(fi fs.FileInfo, shown string, dirOK bool) error {
	if fi.Mode().IsRegular() || dirOK && fi.IsDir() {
		return nil
	}
	if fi.IsDir() {
		return &fs.PathError{Op: "read", Path: shown, Err: ErrIsDir}
	}
	return &SpecialFileError{Path: shown, Mode: fi.Mode()}
}

// ErrIsDir is a directory where a file was to be read.
var ErrIsDir = errors.New("is a directory")

// ErrTooLarge is a file larger than its reader accepts
// ([ReadRegularFileUpTo]).
var ErrTooLarge = errors.New("file too large")

// OpenNonBlocking opens name in r for reading without blocking on a FIFO
// and without taking a terminal as the controlling one.
func OpenNonBlocking(r *os.Root, name string) (*os.File, error) {
	return r.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
}

// ReadRegularFile reads a file a person named outside any tree (an
// environment variable, a flag): it follows links, as the person would
// expect, but refuses named pipes, sockets and devices with a
// [*SpecialFileError] instead of blocking on them.
func ReadRegularFile(name string) ([]byte, error) { return ReadRegularFileUpTo(name, -1) }

// OpenRegularFile opens the file at name (following links) to be read, and
// describes it, without ever blocking: a directory is an error wrapping
// [ErrIsDir], and a named pipe, socket or device a [*SpecialFileError],
// found before it is opened and again on what was opened.
func OpenRegularFile(name string) (*os.File, fs.FileInfo, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	if err := regularFile(name, fi); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	if fi, err = f.Stat(); err == nil {
		err = regularFile(name, fi)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// regularFile is nil for a regular file, else OpenRegularFile's error.
func regularFile(name string, fi fs.FileInfo) error {
	switch {
	case fi.Mode().IsRegular():
		return nil
	case fi.IsDir():
		return &fs.PathError{Op: "read", Path: name, Err: ErrIsDir}
	default:
		return &SpecialFileError{Path: name, Mode: fi.Mode()}
	}
}

// ReadRegularFileUpTo is [ReadRegularFile] for a file that may hold at
// most max bytes (a negative max: any size): a larger one is an error
// wrapping [ErrTooLarge], found after reading max+1 bytes of it.
func ReadRegularFileUpTo(name string, max int64) ([]byte, error) {
	f, fi, err := OpenRegularFile(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if max < 0 {
		return readAll(f, fi.Size())
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &fs.PathError{Op: "read", Path: name, Err: ErrTooLarge}
	}
	return data, nil
}
