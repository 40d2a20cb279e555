package adr

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/git-adr/git-adr/internal/atomicfile"
	"github.com/git-adr/git-adr/internal/cachefile"
	"github.com/git-adr/git-adr/internal/confine"
	"github.com/git-adr/git-adr/internal/offheap"
)

// A Cache keeps what parsing found in each record, keyed by the git blob
// hash of the record's bytes, in one file under $GIT_DIR/adr/cache, so
// that a log that did not change costs no parsing at all:
//
//   - A commit tree or the index names every file's blob: a record whose
//     blob is in the cache is not even read (see [Record.Text]).
//   - In the work tree the cache keeps the stat data (device, inode, size,
//     modification and change times) of every file it read with the blob
//     hash of the bytes it read: a file whose stat data are unchanged is
//     not read either. git's own index is not used for this, because the
//     bytes in the work tree are not always the blob the index names
//     (core.autocrlf, eol attributes, filters): the cache trusts only
//     bytes it hashed itself. A file changed less than two seconds before
//     it was read is never recorded, nor trusted when it changed less than
//     two seconds before the cache file was written (the file system's
//     clock, as git compares with its index file's time), so a change
//     within one tick of the file system clock cannot go unseen, not even
//     one that keeps size and modification time (git's "racily clean"
//     entries).
//   - Any other file is read and hashed; only a hash the cache does not
//     know is parsed.
//
// The file is derived data. It carries a format version, the identity of
// the git-adr build that wrote it (a new build may parse differently) and
// a CRC-32C of everything else; a file that is missing, truncated,
// corrupt, foreign or from another build is ignored and rebuilt, never
// trusted. It is written whole to a temporary file in the cache folder
// and renamed into place, so readers and concurrent writers only ever see
// a complete file (the last writer wins; a lost entry costs one parse).
// It stays bounded: entries not used by any of the last few saves are
// dropped, and so are the oldest once it holds more than a limit.
type Cache struct {
	dir      string
	readOnly bool
	// read reads the file; see ReadOutsideHeap.
	read offheap.Reader

	once sync.Once
	// data is the file read, as one string that decoded records share.
	data string
	gen  uint32
	// written is the modification time of the file read (Unix ns), on
	// the clock of the file system that holds it.
	written int64
	blobs   map[string]cacheEntry // blob hash -> encoded record
	stats   map[statKey]statEntry
	// used and kept mark, by index, the entries of blobs and stats this
	// run used (the workers of a load mark them without a lock).
	used, kept []atomic.Bool

	mu       sync.Mutex
	added    map[string]string // blob hash -> encoded record, new in this run
	newStats map[statKey]statEntry
	changed  bool
}

type cacheEntry struct {
	rec string
	gen uint32
	idx int32 // in Cache.used
}

// statKey names a file of a work tree: its path and what the file system
// calls it, so that linked worktrees keep entries of their own.
type statKey struct {
	path     string
	dev, ino uint64
}

// statEntry is what a file's stat data were when the cache read it.
type statEntry struct {
	size, mtime, ctime int64
	blob               string
	gen                uint32
	idx                int32 // in Cache.kept
}

// CacheFile is the file name of the parse cache in its folder.
const CacheFile = "parse.bin"

// cacheMagic starts the file; cacheVersion changes with the layout or
// with what Parse derives.
const (
	cacheMagic   = "git-adr parse cache\n"
	cacheVersion = 4
)

// The bounds of the file: entries unused by the last cacheKeepGens saves
// are dropped, and the oldest beyond cacheMaxEntries (a variable, so that
// a test can lower it).
const cacheKeepGens = 8

var cacheMaxEntries = 200_000

// statMargin: a file modified or changed less than this before the cache
// looked at it is read again next time rather than trusted by its stat
// data (coarse file system clocks, FAT's two seconds included).
const statMargin = 2 * time.Second

// cacheNow is the clock the stat margin is measured with (tests move it).
var cacheNow = time.Now

// OpenCache returns the cache kept in dir ($GIT_DIR/adr/cache). Nothing
// is read until a load uses it. A read-only cache is used but never
// written.
func OpenCache(dir string, readOnly bool) *Cache {
	return &Cache{dir: dir, readOnly: readOnly}
}

// ReadOutsideHeap makes the cache read its file into memory the garbage
// collector does not manage (package offheap), before anything loads: for
// a command that runs once and exits, never a long-running process (each
// file it read would stay until it ended).
func (c *Cache) ReadOutsideHeap() { c.read.On = true }

func (c *Cache) load() {
	c.once.Do(func() {
		c.blobs = map[string]cacheEntry{}
		c.stats = map[statKey]statEntry{}
		c.added = map[string]string{}
		c.newStats = map[statKey]statEntry{}
		data, release, written, err := readCacheFile(filepath.Join(c.dir, CacheFile), c.read)
		if err != nil {
			return
		}
		c.written = written
		// The file is never changed once read: decoded records share its
		// bytes as strings without a copy.
		if err := c.decode(unsafe.String(unsafe.SliceData(data), len(data))); err != nil {
			// Not trusted: start empty, and replace the file on save.
			c.blobs, c.stats, c.used, c.kept, c.gen = map[string]cacheEntry{}, map[statKey]statEntry{}, nil, nil, 0
			c.changed = true
			release() // nothing was decoded from it
		}
	})
}

// lookup returns the cached record for a blob, decoded afresh (the caller
// owns it), or nil.
func (c *Cache) lookup(blob string) *Record {
	c.load()
	enc, ok := c.blobs[blob]
	if !ok {
		c.mu.Lock()
		s, ok := c.added[blob]
		c.mu.Unlock()
		if !ok {
			return nil
		}
		enc.rec, enc.idx = s, -1 // added entries are all saved
	}
	r, err := decodeParsed(enc.rec)
	if err != nil {
		return nil
	}
	if enc.idx >= 0 {
		c.used[enc.idx].Store(true)
	}
	return r
}

// store records a freshly parsed record under its blob hash and returns
// its entry (encodeParsed's), which the cache holds until it is saved.
func (c *Cache) store(blob string, r *Record) string {
	c.load()
	// One allocation for the entry: encoded in a reused buffer, then
	// copied to its string.
	bp := scratchBufs.Get().(*[]byte)
	b := encodeParsed((*bp)[:0], r)
	enc := string(b)
	*bp = b
	scratchBufs.Put(bp)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.added[blob] = enc
	c.changed = true
	return enc
}

// statBlob returns the blob a work-tree file holds when its stat data are
// those the cache recorded.
func (c *Cache) statBlob(k statKey, st statEntry) (string, bool) {
	c.load()
	e, ok := c.stats[k]
	if !ok || e.size != st.size || e.mtime != st.mtime || e.ctime != st.ctime {
		return "", false
	}
	// git's rule for racily clean entries, on the file system's clock
	// rather than this process's: a file modified or changed less than
	// the margin before the cache file was written may have changed again
	// within the same tick of that clock (a clock skewed from the wall
	// clock, as on network file systems, passes noteStat's check).
	if lim := c.written - int64(statMargin); e.mtime >= lim || e.ctime >= lim {
		return "", false
	}
	c.kept[e.idx].Store(true)
	return e.blob, true
}

// hasStats reports whether the cache holds any stat data to match a
// work-tree file against (a first load has none).
func (c *Cache) hasStats() bool {
	c.load()
	return len(c.stats) > 0
}

// noteStat records that a work-tree file with these stat data, looked at
// at now, held blob.
func (c *Cache) noteStat(k statKey, st statEntry, now time.Time) {
	lim := now.Add(-statMargin).UnixNano()
	if st.mtime >= lim || st.ctime >= lim {
		return // too recent to be told apart from a change in the same tick
	}
	c.load()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.newStats[k] = st
	c.changed = true
}

// Save writes the cache when this run added to it. Errors only cost time
// in later runs; a read-only cache writes nothing and returns nil.
func (c *Cache) Save() error {
	if c == nil || c.readOnly {
		return nil
	}
	c.load()
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.changed {
		return nil
	}
	gen := c.gen + 1
	blobs := map[string]cacheEntry{}
	for h, e := range c.blobs {
		if c.used[e.idx].Load() {
			e.gen = gen
		}
		if gen-e.gen < cacheKeepGens {
			blobs[h] = e
		}
	}
	for h, s := range c.added {
		blobs[h] = cacheEntry{rec: s, gen: gen}
	}
	stats := map[statKey]statEntry{}
	for k, e := range c.stats {
		if c.kept[e.idx].Load() {
			e.gen = gen
		}
		if gen-e.gen < cacheKeepGens {
			stats[k] = e
		}
	}
	for k, e := range c.newStats {
		e.gen = gen
		stats[k] = e
	}
	for k, e := range stats {
		if _, ok := blobs[e.blob]; !ok {
			delete(stats, k) // a stat entry is only worth its record
		}
	}
	if err := atomicfile.MkdirCache(c.dir, 0o755); err != nil {
		return err
	}
	write := func(w io.Writer) error { return writeCacheFile(w, gen, blobs, stats) }
	if err := atomicfile.WriteFunc(filepath.Join(c.dir, CacheFile), 0o600, write); err != nil {
		return err
	}
	c.changed = false
	return nil
}

// SaveIfWorth is Save when what this run found new is worth rewriting
// the file for. A save costs time in proportion to the whole cache (it
// made `list` after an edit 130 ms slower at 10,000 records); an entry
// left unsaved costs each later run a read, a hash and, for a record, a
// parse of one file (tens of microseconds). So a run saves once its new
// entries (records, and stat data) are at least 1/128 of the cache's
// records: always on a log under 128 records, at 64 or more new entries
// at 8,192. A cache found damaged is always replaced.
func (c *Cache) SaveIfWorth() error {
	return c.saveWhen(func(added, stats, total int) bool {
		pending := added + stats
		return pending == 0 || pending*128 >= total
	})
}

// SaveIfAdded is Save when this run parsed at least min records the cache
// did not know: a run that reads few new records (a hook committing one)
// leaves the rewrite to the next command, and one that parsed a whole
// log (the first after an upgrade) keeps what it parsed.
func (c *Cache) SaveIfAdded(min int) error {
	return c.saveWhen(func(added, _, _ int) bool { return added >= min })
}

// saveWhen is Save when worth, given how many records and stat entries
// this run added and how many records the cache held, says so.
func (c *Cache) saveWhen(worth func(added, stats, total int) bool) error {
	if c == nil || c.readOnly {
		return nil
	}
	c.load()
	c.mu.Lock()
	added, stats, total := len(c.added), len(c.newStats), len(c.blobs)
	c.mu.Unlock()
	if !worth(added, stats, total) {
		return nil
	}
	return c.Save()
}

// readCacheFile reads the cache file (release gives its bytes back, see
// offheap.Reader.ReadFull) and the modification time it has as it is
// read.
func readCacheFile(p string, read offheap.Reader) (data []byte, release func(), written int64, err error) {
	f, fi, err := confine.OpenRegularFile(p)
	if err != nil {
		return nil, nil, 0, err
	}
	defer f.Close()
	// One read of the size the file has: the file is replaced by rename,
	// never written in place, so a size that changed while it is read
	// means damage, which the CRC finds (a growing buffer would cost a
	// copy and a clearing of every byte several times over).
	data, release, err = read.ReadFull(f, fi.Size())
	return data, release, fi.ModTime().UnixNano(), err
}

// Layout (integers are unsigned varints unless said otherwise):
//
//	magic, version, build identity (length, bytes), generation,
//	blob entries: count, then (hash, generation, record) with hash and
//	record length-prefixed, in hash order,
//	stat entries: count, then (path, dev, ino, size, mtime, ctime as
//	zigzag varints, blob hash, generation), in path order,
//	CRC-32C (Castagnoli) of everything before it, 4 bytes little-endian.
func encodeCache(gen uint32, blobs map[string]cacheEntry, stats map[statKey]statEntry) []byte {
	var b bytes.Buffer
	_ = writeCacheFile(&b, gen, blobs, stats) // a bytes.Buffer does not fail
	return b.Bytes()
}

// writeCacheFile writes the cache file to w as it encodes it: at 10,000
// records the file is megabytes, which a first load held whole, beside
// every record it had parsed, while it wrote them.
func writeCacheFile(w io.Writer, gen uint32, blobs map[string]cacheEntry, stats map[statKey]statEntry) error {
	sealed := cachefile.NewSealer(w)
	e := cacheEncoder{b: make([]byte, 0, 64<<10)}
	flush := func(whole bool) error {
		if !whole && len(e.b) < 32<<10 {
			return nil
		}
		_, err := sealed.Write(e.b)
		e.b = e.b[:0]
		return err
	}
	e.b = append(e.b, cacheMagic...)
	e.uint(cacheVersion)
	e.str(buildIdentity())
	e.uint(uint64(gen))
	hashes := make([]string, 0, len(blobs))
	for h := range blobs {
		hashes = append(hashes, h)
	}
	sort.Strings(hashes)
	if len(hashes) > cacheMaxEntries {
		// The oldest go first.
		sort.SliceStable(hashes, func(i, j int) bool { return blobs[hashes[i]].gen > blobs[hashes[j]].gen })
		hashes = hashes[:cacheMaxEntries]
		sort.Strings(hashes)
	}
	kept := map[string]bool{}
	e.uint(uint64(len(hashes)))
	for _, h := range hashes {
		kept[h] = true
		e.str(h)
		e.uint(uint64(blobs[h].gen))
		e.str(blobs[h].rec)
		if err := flush(false); err != nil {
			return err
		}
	}
	keys := make([]statKey, 0, len(stats))
	for k := range stats {
		if kept[stats[k].blob] {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.path != b.path {
			return a.path < b.path
		}
		if a.dev != b.dev {
			return a.dev < b.dev
		}
		return a.ino < b.ino
	})
	e.uint(uint64(len(keys)))
	for _, k := range keys {
		s := stats[k]
		e.str(k.path)
		e.uint(k.dev)
		e.uint(k.ino)
		e.b = binary.AppendVarint(e.b, s.size)
		e.b = binary.AppendVarint(e.b, s.mtime)
		e.b = binary.AppendVarint(e.b, s.ctime)
		e.str(s.blob)
		e.uint(uint64(s.gen))
		if err := flush(false); err != nil {
			return err
		}
	}
	if err := flush(true); err != nil {
		return err
	}
	return sealed.Close()
}

var errCacheFile = errors.New("parse cache not usable")

func (c *Cache) decode(data string) error {
	body, ok := cachefile.OpenString(data, cacheMagic)
	if !ok {
		return errCacheFile
	}
	d := cacheDecoder{s: body}
	if d.uint() != cacheVersion || d.str() != buildIdentity() {
		return errCacheFile
	}
	gen := uint32(d.uint())
	// Every entry takes several bytes: a count beyond the rest is
	// corruption, not a reason to allocate.
	count := func() int {
		n := d.uint()
		if n > uint64(len(d.s)) {
			d.fail()
			return 0
		}
		return int(n)
	}
	n := count()
	used := make([]atomic.Bool, n) // by index: a repeated hash leaves a gap
	blobs := make(map[string]cacheEntry, n)
	for i := 0; i < n && d.err == nil; i++ {
		h := d.str()
		g := uint32(d.uint())
		blobs[h] = cacheEntry{rec: d.str(), gen: g, idx: int32(i)}
	}
	n = count()
	kept := make([]atomic.Bool, n)
	stats := make(map[statKey]statEntry, n)
	for i := 0; i < n && d.err == nil; i++ {
		k := statKey{path: d.str(), dev: d.uint(), ino: d.uint()}
		var st statEntry
		st.size, st.mtime, st.ctime = d.varint(), d.varint(), d.varint()
		st.blob = d.str()
		st.gen = uint32(d.uint())
		st.idx = int32(i)
		stats[k] = st
	}
	if d.err != nil || d.s != "" {
		return errCacheFile
	}
	c.data, c.gen, c.blobs, c.stats = data, gen, blobs, stats
	c.used, c.kept = used, kept
	return nil
}

// buildIdentity names the git-adr build: the Go build ID of the running
// executable (a new build has a new one), or its size and modification
// time when the ID cannot be read.
func buildIdentity() string {
	buildOnce.Do(func() { buildID = readBuildID() })
	return buildID
}

var (
	buildOnce sync.Once
	buildID   string
)

func readBuildID() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	f, err := os.Open(exe)
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	// The Go linker writes `\xff Go build ID: "..."\n \xff` near the start
	// of the text segment, as `go tool buildid` reads it.
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	const marker = "\xff Go build ID: \""
	if i := bytes.Index(head, []byte(marker)); i >= 0 {
		rest := head[i+len(marker):]
		if j := bytes.IndexByte(rest, '"'); j > 0 {
			return "go:" + string(rest[:j])
		}
	}
	if fi, err := f.Stat(); err == nil {
		return "exe:" + strconv.FormatInt(fi.Size(), 10) + ":" + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
	}
	return "unknown"
}

// gitBlobHash is the object name git gives data as a blob (SHA-1).
func gitBlobHash(data []byte) string {
	h := sha1.New()
	h.Write([]byte("blob "))
	h.Write(strconv.AppendInt(nil, int64(len(data)), 10))
	h.Write([]byte{0})
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// blobHasher is implemented by the directory entries of git trees and of
// the index (gitops): the blob a file holds, known without reading it.
type blobHasher interface{ BlobHash() string }
