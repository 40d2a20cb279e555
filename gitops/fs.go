package gitops

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// WorktreeFS is the work tree as saved on disk, confined to it: see
// [ConfinedFS]. Each call opens it afresh (directory handles are not
// shared between loads); should the work tree not open, every read fails
// with the reason.
func (r *Repo) WorktreeFS() fs.FS {
	c, err := r.Worktree()
	if err != nil {
		return errFS{err}
	}
	return c
}

// Worktree opens the work tree as a [ConfinedFS], for reads and for the
// few writes made outside a changeset.
func (r *Repo) Worktree() (*ConfinedFS, error) { return OpenFS(r.Top) }

// TreeFS is the tree of a commit (any revision git understands) as a
// read-only file system with slash-separated paths relative to the root.
func (r *Repo) TreeFS(rev string) (fs.FS, error) {
	if rev == "HEAD" {
		if c, ok := r.headCommit(); ok {
			rev = c
			if g := r.goGit(); g != nil {
				if t, err := r.commitTree(c); err == nil {
					if _, ok := r.treeEntries(t); ok {
						return newLazyFS(r.treeLister(t), r.readBlob), nil
					}
				}
			}
		}
	}
	hash, err := r.ResolveRef(rev + "^{tree}")
	if err != nil {
		return nil, err
	}
	if g := r.goGit(); g != nil {
		if _, ok := r.treeEntries(hash); ok {
			return newLazyFS(r.treeLister(hash), r.readBlob), nil
		}
	}
	return newLazyFS(r.lsTreeLister(hash), r.readBlob), nil
}

// IndexFS is the index as git sees it, honouring GIT_INDEX_FILE (inside a
// pre-commit hook git may point it at a temporary index). Only stage-0
// entries are visible.
func (r *Repo) IndexFS() (fs.FS, error) {
	files, ok := r.readIndexFile()
	if !ok {
		var err error
		if files, err = r.lsFiles(); err != nil {
			return nil, err
		}
	}
	return indexTree(files, r.readBlob), nil
}

// lsFiles lists the index's stage-0 entries through the git binary.
func (r *Repo) lsFiles() ([]entry, error) {
	out, err := r.Git("ls-files", "-s", "-z")
	if err != nil {
		return nil, err
	}
	var files []entry
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		tab := bytes.IndexByte(rec, '\t')
		if tab < 0 {
			continue
		}
		f := strings.Fields(string(rec[:tab]))
		if len(f) != 3 || f[2] != "0" {
			continue
		}
		mode, _ := strconv.ParseUint(f[0], 8, 32)
		files = append(files, entry{name: string(rec[tab+1:]), hash: f[1], mode: filemode.FileMode(mode)})
	}
	return files, nil
}

// indexTree arranges index entries (name holding the full path) as the
// directories of a lazyFS.
func indexTree(files []entry, read func(string) ([]byte, error)) fs.FS {
	// The folders are arranged on first use: a hook reads one of the two
	// states it builds only at the paths a commit changes (or not at all).
	var once sync.Once
	var dirs map[string][]entry
	list := func(dir string) ([]entry, error) {
		once.Do(func() { dirs = indexDirs(files) })
		es, ok := dirs[dir]
		if !ok && dir != "." {
			return nil, fs.ErrNotExist
		}
		return es, nil
	}
	l := newLazyFS(list, read)
	// The index is sorted by path (byte order; a state derived from it
	// may not be): a file is found by binary search.
	if !sort.SliceIsSorted(files, func(i, j int) bool { return files[i].name < files[j].name }) {
		files = slices.Clone(files)
		sort.SliceStable(files, func(i, j int) bool { return files[i].name < files[j].name })
	}
	l.lookup = func(name string) (entry, error) {
		i := sort.Search(len(files), func(i int) bool { return files[i].name >= name })
		_, base := splitClean(name)
		if i < len(files) && files[i].name == name {
			e := files[i]
			e.name = base
			return e, nil
		}
		// A folder is a prefix of the files in it ("a/" sorts after "a"
		// and "a.md", and before "a0").
		dir := name + "/"
		if j := sort.Search(len(files), func(j int) bool { return files[j].name >= dir }); j < len(files) && strings.HasPrefix(files[j].name, dir) {
			return entry{name: base, mode: filemode.Dir}, nil
		}
		return entry{}, fs.ErrNotExist
	}
	return l
}

// indexDirs arranges index entries by folder, each folder's sorted by name
// and holding its subfolders.
func indexDirs(files []entry) map[string][]entry {
	dirs := map[string][]entry{}
	seenDir := map[string]bool{}
	// Index paths are clean, and sorted: a folder's files come together.
	lastDir, last := "", []entry(nil)
	for _, f := range files {
		dir, base := splitClean(f.name)
		if dir != lastDir || last == nil {
			if last != nil {
				dirs[lastDir] = last
			}
			lastDir, last = dir, dirs[dir]
		}
		last = append(last, entry{name: base, hash: f.hash, mode: f.mode})
		for d := dir; d != "."; {
			if seenDir[d] {
				break
			}
			seenDir[d] = true
			parent, name := splitClean(d) // never lastDir: a parent is shorter
			dirs[parent] = append(dirs[parent], entry{name: name, mode: filemode.Dir})
			d = parent
		}
	}
	if last != nil {
		dirs[lastDir] = last
	}
	for _, es := range dirs {
		if !sort.SliceIsSorted(es, func(i, j int) bool { return es[i].name < es[j].name }) {
			sort.Slice(es, func(i, j int) bool { return es[i].name < es[j].name })
		}
	}
	return dirs
}

// splitClean is path.Dir and path.Base of a clean relative path.
func splitClean(p string) (dir, base string) {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i], p[i+1:]
	}
	return ".", p
}

type entry struct {
	name string
	hash string
	mode filemode.FileMode
	size int64
	// intentToAdd marks an index entry of `git add -N` (read in process
	// only): staged as a name, never in HEAD.
	intentToAdd bool
}

func (e entry) isDir() bool { return e.mode == filemode.Dir }

// treeLister lists the folders of a tree in process: a folder is found
// from its parent's listing, which it keeps itself (newLazyFS's own copy
// is held under a lock while a listing is made, so the lister cannot ask
// it for the parent).
func (r *Repo) treeLister(root string) func(string) ([]entry, error) {
	var list func(string) ([]entry, error)
	var mu sync.Mutex
	seen := map[string][]entry{}
	list = func(dir string) ([]entry, error) {
		mu.Lock()
		es, ok := seen[dir]
		mu.Unlock()
		if ok {
			return es, nil
		}
		h := root
		if dir != "." {
			parent, base := splitClean(dir)
			pes, err := list(parent)
			if err != nil {
				return nil, err
			}
			h = ""
			for _, e := range pes {
				if e.name == base && e.mode == filemode.Dir {
					h = e.hash
				}
			}
			if h == "" {
				return nil, fs.ErrNotExist
			}
		}
		es, ok = r.treeEntries(h)
		if !ok {
			return nil, fs.ErrNotExist
		}
		mu.Lock()
		seen[dir] = es
		mu.Unlock()
		return es, nil
	}
	return list
}

func (r *Repo) lsTreeLister(tree string) func(string) ([]entry, error) {
	return func(dir string) ([]entry, error) {
		spec := tree
		if dir != "." {
			spec = tree + ":" + dir
		}
		out, err := r.Git("ls-tree", "-z", spec)
		if err != nil {
			return nil, fs.ErrNotExist
		}
		var es []entry
		for _, rec := range bytes.Split(out, []byte{0}) {
			tab := bytes.IndexByte(rec, '\t')
			if tab < 0 {
				continue
			}
			f := strings.Fields(string(rec[:tab]))
			if len(f) != 3 {
				continue
			}
			mode, _ := strconv.ParseUint(f[0], 8, 32)
			es = append(es, entry{name: string(rec[tab+1:]), hash: f[2], mode: filemode.FileMode(mode)})
		}
		return es, nil
	}
}

// readBlob reads a blob by object name, in process when go-git can and
// through one long-lived `git cat-file --batch` otherwise.
func (r *Repo) readBlob(hash string) ([]byte, error) {
	if g := r.goGit(); g != nil {
		if b, ok := r.storedObject(hash, "blob"); ok {
			return b, nil
		}
		if b, err := g.object(plumbing.BlobObject, plumbing.NewHash(hash)); err == nil {
			return b, nil
		}
	}
	return r.batch().read(hash)
}

type catFile struct {
	mu   sync.Mutex
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	err  error
	repo *Repo
}

func (r *Repo) batch() *catFile {
	r.batchOnce.Do(func() { r.cat = &catFile{repo: r} })
	return r.cat
}

func (c *catFile) read(hash string) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil && c.err == nil {
		cmd := exec.Command("git", "cat-file", "--batch")
		// A bare repository has no work tree: git must run in its git
		// directory, or it reads whatever repository the process is in.
		cmd.Dir = c.repo.Top
		if c.repo.Bare {
			cmd.Dir = c.repo.GitDir
		}
		cmd.Env = gitEnv(c.repo.env)
		in, err := cmd.StdinPipe()
		if err == nil {
			var out io.ReadCloser
			out, err = cmd.StdoutPipe()
			if err == nil {
				err = cmd.Start()
				c.out = bufio.NewReader(out)
			}
		}
		c.cmd, c.in, c.err = cmd, in, err
	}
	if c.err != nil {
		return nil, fmt.Errorf("git cat-file --batch: %w", c.err)
	}
	if _, err := io.WriteString(c.in, hash+"\n"); err != nil {
		return nil, err
	}
	header, err := c.out.ReadString('\n')
	if err != nil {
		return nil, err
	}
	f := strings.Fields(header)
	if len(f) != 3 {
		return nil, fmt.Errorf("object %s: %w", hash, ErrNotFound)
	}
	size, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, fmt.Errorf("git cat-file: bad header %q", header)
	}
	buf := make([]byte, size+1)
	if _, err := io.ReadFull(c.out, buf); err != nil {
		return nil, err
	}
	return buf[:size], nil
}

// Close stops helper processes started for reads and closes the pack
// files held open for them; a read after it still works, through go-git
// or git.
func (r *Repo) Close() error {
	r.packs.once.Do(func() {}) // listed after this: none
	for _, ix := range r.packs.idx {
		ix.close()
	}
	if r.cat == nil {
		return nil
	}
	c := r.cat
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd != nil && c.cmd.Process != nil {
		c.in.Close()
		err := c.cmd.Wait()
		c.cmd = nil
		return err
	}
	return nil
}

// lazyFS is a read-only fs.FS over a git tree or the index: directories are
// listed on demand and blobs read by object name.
type lazyFS struct {
	list func(dir string) ([]entry, error)
	read func(hash string) ([]byte, error)
	// lookup, when set, finds an entry by its path without listing its
	// folder.
	lookup func(name string) (entry, error)
}

// newLazyFS lists each directory once: a tree object is decoded (or
// ls-tree run) the first time a directory is needed, not on every file of
// it.
func newLazyFS(list func(string) ([]entry, error), read func(string) ([]byte, error)) *lazyFS {
	var mu sync.Mutex
	type listing struct {
		es  []entry
		err error
	}
	cache := map[string]listing{}
	cached := func(dir string) ([]entry, error) {
		mu.Lock()
		defer mu.Unlock()
		if l, ok := cache[dir]; ok {
			return l.es, l.err
		}
		es, err := list(dir)
		cache[dir] = listing{es, err}
		return es, err
	}
	return &lazyFS{list: cached, read: read}
}

func (l *lazyFS) find(name string) (entry, error) {
	if name == "." {
		return entry{name: ".", mode: filemode.Dir}, nil
	}
	if l.lookup != nil {
		return l.lookup(name)
	}
	es, err := l.list(path.Dir(name))
	if err != nil {
		return entry{}, err
	}
	base := path.Base(name)
	for _, e := range es {
		if e.name == base {
			return e, nil
		}
	}
	return entry{}, fs.ErrNotExist
}

func (l *lazyFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	e, err := l.find(name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if e.isDir() {
		es, err := l.list(name)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return &memDir{info: fileInfo{e}, entries: es}, nil
	}
	if e.mode == filemode.Submodule {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	data, err := l.read(e.hash)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	e.size = int64(len(data))
	return &memFile{info: fileInfo{e}, r: bytes.NewReader(data)}, nil
}

func (l *lazyFS) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	e, err := l.find(name)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	if e.isDir() || e.mode == filemode.Submodule {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("is a directory")}
	}
	return l.read(e.hash)
}

func (l *lazyFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	es, err := l.list(name)
	if err != nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
	}
	out := make([]fs.DirEntry, 0, len(es))
	for _, e := range es {
		if e.mode == filemode.Submodule {
			continue
		}
		out = append(out, fileInfo{e})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

type fileInfo struct{ e entry }

// BlobHash is the blob a file entry names ("" for a folder), so that a
// reader that knows that blob's content need not read it (adr's parse
// cache).
func (fi fileInfo) BlobHash() string {
	if fi.e.isDir() {
		return ""
	}
	return fi.e.hash
}

func (fi fileInfo) Name() string { return fi.e.name }
func (fi fileInfo) Size() int64  { return fi.e.size }
func (fi fileInfo) Mode() fs.FileMode {
	switch fi.e.mode {
	case filemode.Dir:
		return fs.ModeDir | 0o755
	case filemode.Symlink:
		return fs.ModeSymlink | 0o777
	case filemode.Executable:
		return 0o755
	}
	return 0o644
}
func (fi fileInfo) ModTime() time.Time         { return time.Time{} }
func (fi fileInfo) IsDir() bool                { return fi.e.isDir() }
func (fi fileInfo) Sys() any                   { return nil }
func (fi fileInfo) Type() fs.FileMode          { return fi.Mode().Type() }
func (fi fileInfo) Info() (fs.FileInfo, error) { return fi, nil }

type memFile struct {
	info fileInfo
	r    *bytes.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Read(p []byte) (int, error) { return f.r.Read(p) }
func (f *memFile) Close() error               { return nil }

type memDir struct {
	info    fileInfo
	entries []entry
	pos     int
}

func (d *memDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *memDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.Name(), Err: errors.New("is a directory")}
}
func (d *memDir) Close() error { return nil }
func (d *memDir) ReadDir(n int) ([]fs.DirEntry, error) {
	var out []fs.DirEntry
	for d.pos < len(d.entries) && (n <= 0 || len(out) < n) {
		out = append(out, fileInfo{d.entries[d.pos]})
		d.pos++
	}
	if n > 0 && len(out) == 0 {
		return nil, io.EOF
	}
	return out, nil
}
