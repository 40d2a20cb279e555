package adr

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
)

// Overlay is a read-only file system that shows Files (slash paths) over
// Base: it lets git-adr compute a log's future state (a proposal applied)
// in memory, without touching the disk. A nil entry hides a Base file.
type Overlay struct {
	Base  fs.FS
	Files map[string][]byte
}

// Open implements fs.FS.
func (o *Overlay) Open(name string) (fs.File, error) {
	if data, ok := o.Files[name]; ok {
		if data == nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
		}
		return &overlayFile{name: path.Base(name), r: bytes.NewReader(data), size: int64(len(data))}, nil
	}
	if o.isOverlayDir(name) {
		entries, err := o.ReadDir(name)
		if err != nil {
			return nil, err
		}
		return &overlayDir{name: path.Base(name), entries: entries}, nil
	}
	return o.Base.Open(name)
}

// ReadFile implements fs.ReadFileFS.
func (o *Overlay) ReadFile(name string) ([]byte, error) {
	if data, ok := o.Files[name]; ok {
		if data == nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
		}
		return append([]byte(nil), data...), nil
	}
	return fs.ReadFile(o.Base, name)
}

func (o *Overlay) isOverlayDir(name string) bool {
	prefix := name + "/"
	if name == "." {
		prefix = ""
	}
	for p, data := range o.Files {
		if data != nil && strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// ReadDir implements fs.ReadDirFS: Base's entries merged with the
// overlay's files and the folders they imply.
func (o *Overlay) ReadDir(name string) ([]fs.DirEntry, error) {
	byName := map[string]fs.DirEntry{}
	base, err := fs.ReadDir(o.Base, name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, e := range base {
		byName[e.Name()] = e
	}
	prefix := name + "/"
	if name == "." {
		prefix = ""
	}
	found := err == nil
	for p, data := range o.Files {
		if !strings.HasPrefix(p, prefix) {
			continue
		}
		rest := p[len(prefix):]
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			if data != nil {
				found = true
				if _, ok := byName[rest[:i]]; !ok {
					byName[rest[:i]] = overlayEntry{name: rest[:i], dir: true}
				}
			}
			continue
		}
		if data == nil {
			delete(byName, rest)
			continue
		}
		found = true
		byName[rest] = overlayEntry{name: rest, size: int64(len(data))}
	}
	if !found {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	out := make([]fs.DirEntry, 0, len(byName))
	for _, e := range byName {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

type overlayEntry struct {
	name string
	dir  bool
	size int64
}

func (e overlayEntry) Name() string { return e.name }
func (e overlayEntry) IsDir() bool  { return e.dir }
func (e overlayEntry) Type() fs.FileMode {
	if e.dir {
		return fs.ModeDir
	}
	return 0
}
func (e overlayEntry) Info() (fs.FileInfo, error) { return e, nil }
func (e overlayEntry) Size() int64                { return e.size }
func (e overlayEntry) Mode() fs.FileMode {
	if e.dir {
		return fs.ModeDir | 0o755
	}
	return 0o644
}
func (e overlayEntry) ModTime() time.Time { return time.Time{} }
func (e overlayEntry) Sys() any           { return nil }

type overlayFile struct {
	name string
	r    *bytes.Reader
	size int64
}

func (f *overlayFile) Stat() (fs.FileInfo, error) {
	return overlayEntry{name: f.name, size: f.size}, nil
}
func (f *overlayFile) Read(p []byte) (int, error) { return f.r.Read(p) }
func (f *overlayFile) Close() error               { return nil }

type overlayDir struct {
	name    string
	entries []fs.DirEntry
	pos     int
}

func (d *overlayDir) Stat() (fs.FileInfo, error) { return overlayEntry{name: d.name, dir: true}, nil }
func (d *overlayDir) Read([]byte) (int, error)   { return 0, errors.New("is a directory") }
func (d *overlayDir) Close() error               { return nil }
func (d *overlayDir) ReadDir(n int) ([]fs.DirEntry, error) {
	if n <= 0 {
		out := d.entries[d.pos:]
		d.pos = len(d.entries)
		return out, nil
	}
	if d.pos >= len(d.entries) {
		return nil, io.EOF
	}
	end := min(d.pos+n, len(d.entries))
	out := d.entries[d.pos:end]
	d.pos = end
	return out, nil
}
