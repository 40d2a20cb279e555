package adr

import (
	"errors"
	"io/fs"
	"path/filepath"
	"sort"
	"sync"

	"github.com/git-adr/git-adr/internal/atomicfile"
	"github.com/git-adr/git-adr/internal/cachefile"
)

// Detection (a log nobody configured) lists every folder of the work tree
// down to scanMaxDepth, and reads a few files of each folder that could
// be a log: in a repository of ten thousand source files it costs more
// than reading the log. Its result is remembered in the parse cache's
// folder with the stat data of everything it looked at (every folder it
// listed, every file it read, every path it found missing), and reused
// while each of those stats the same: a folder's modification and change
// times move whenever an entry is added, removed or renamed in it, a
// file's when it is written. As for the parse cache, stat data less than
// statMargin old when recorded are never trusted (the change could fall
// in the same tick), and a work tree without such data (another system, a
// git tree) is scanned every time.

// detectFile holds the remembered detection.
const detectFile = "detect.bin"

// detectMagic starts the file; its version changes with the layout. The
// build that wrote it is recorded too (another may detect otherwise).
const detectMagic = "git-adr detect 1\n"

// probe is one path detection looked at, and what it was then.
type probe struct {
	path string
	sig  pathSig
}

// pathSig is what a path's stat data say; zero for a missing path.
type pathSig struct {
	dev, ino     uint64
	mode         uint32
	size         int64
	mtime, ctime int64
}

// recorder is the file system detection runs over when its result is to
// be remembered: every path it touches is noted.
type recorder struct {
	fs.FS
	mu    sync.Mutex
	paths map[string]bool
}

func (r *recorder) note(name string) {
	r.mu.Lock()
	r.paths[name] = true
	r.mu.Unlock()
}

func (r *recorder) Open(name string) (fs.File, error) {
	r.note(name)
	return r.FS.Open(name)
}

func (r *recorder) ReadDir(name string) ([]fs.DirEntry, error) {
	r.note(name)
	return fs.ReadDir(r.FS, name)
}

func (r *recorder) ReadFile(name string) ([]byte, error) {
	r.note(name)
	return fs.ReadFile(r.FS, name)
}

func (r *recorder) Stat(name string) (fs.FileInfo, error) {
	r.note(name)
	return fs.Stat(r.FS, name)
}

// detectRemembered is detect(fsys), from the remembered result when every
// path it depends on is as it was.
func detectRemembered(fsys fs.FS, c *Cache) []string {
	if c == nil || c.dir == "" {
		return detect(fsys)
	}
	if sig, ok := sigOf(fsys, "."); !ok || sig == (pathSig{}) {
		return detect(fsys) // a git tree, or no stat data
	}
	file := filepath.Join(c.dir, detectFile)
	if found, probes, ok := readDetect(file); ok && probesHold(fsys, probes) {
		return found
	}
	rec := &recorder{FS: fsys, paths: map[string]bool{}}
	found := detect(rec)
	if c.readOnly {
		return found
	}
	now := cacheNow()
	lim := now.Add(-statMargin).UnixNano()
	probes := make([]probe, 0, len(rec.paths))
	for p := range rec.paths {
		sig, ok := sigOf(fsys, p)
		if !ok || sig != (pathSig{}) && (sig.mtime >= lim || sig.ctime >= lim) {
			return found // no stat data, or too recent to be trusted
		}
		probes = append(probes, probe{p, sig})
	}
	sort.Slice(probes, func(i, j int) bool { return probes[i].path < probes[j].path })
	// Remembering is only worth time: a folder or file that cannot be
	// written leaves the next command to scan again.
	if atomicfile.MkdirCache(c.dir, 0o755) == nil {
		_ = atomicfile.Write(file, encodeDetect(found, probes), 0o600)
	}
	return found
}

// probesHold reports whether every path stats as recorded.
func probesHold(fsys fs.FS, probes []probe) bool {
	for _, p := range probes {
		if sig, ok := sigOf(fsys, p.path); !ok || sig != p.sig {
			return false
		}
	}
	return true
}

// sigOf stats a path as detection saw it (links followed, as listing and
// reading follow them); false when the file system gives no stat data
// or the stat fails other than by the path missing.
func sigOf(fsys fs.FS, p string) (pathSig, bool) {
	fi, err := fs.Stat(fsys, p)
	if errors.Is(err, fs.ErrNotExist) {
		return pathSig{}, true
	}
	if err != nil {
		return pathSig{}, false
	}
	return statSig(fi)
}

// encodeDetect writes the memo with the parse cache's codec.
func encodeDetect(found []string, probes []probe) []byte {
	e := &cacheEncoder{b: []byte(detectMagic)}
	e.str(buildIdentity())
	e.uint(uint64(len(found)))
	for _, f := range found {
		e.str(f)
	}
	e.uint(uint64(len(probes)))
	for _, p := range probes {
		e.str(p.path)
		for _, v := range []uint64{p.sig.dev, p.sig.ino, uint64(p.sig.mode), uint64(p.sig.size), uint64(p.sig.mtime), uint64(p.sig.ctime)} {
			e.uint(v)
		}
	}
	return cachefile.Seal(e.b)
}

// readDetect reads a remembered detection; false when there is none or
// it is damaged, foreign or from another version.
func readDetect(file string) (found []string, probes []probe, ok bool) {
	data, err := cachefile.ReadFile(file)
	if err != nil {
		return nil, nil, false
	}
	body, ok := cachefile.Open(data, []byte(detectMagic))
	if !ok {
		return nil, nil, false
	}
	d := &cacheDecoder{s: string(body)}
	// count is a number of entries, each at least a byte of what is left.
	count := func() int {
		if n := d.uint(); n <= uint64(len(d.s)) {
			return int(n)
		}
		d.fail()
		return 0
	}
	if d.str() != buildIdentity() || d.err != nil {
		return nil, nil, false // another git-adr build may detect otherwise
	}
	n := count()
	for i := 0; i < n && d.err == nil; i++ {
		f := d.str()
		if f != "" && !fs.ValidPath(f) {
			return nil, nil, false // not a path detection finds: forged or damaged
		}
		found = append(found, f)
	}
	n = count()
	for i := 0; i < n && d.err == nil; i++ {
		p := probe{path: d.str()}
		if !fs.ValidPath(p.path) {
			return nil, nil, false
		}
		p.sig.dev, p.sig.ino = d.uint(), d.uint()
		p.sig.mode, p.sig.size = uint32(d.uint()), int64(d.uint())
		p.sig.mtime, p.sig.ctime = int64(d.uint()), int64(d.uint())
		probes = append(probes, p)
	}
	if d.err != nil || len(d.s) != 0 || len(probes) == 0 {
		return nil, nil, false
	}
	return found, probes, true
}
