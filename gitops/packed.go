package gitops

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// A pack holds most objects of a repository that has been collected. go-git
// reads them byte by byte through its scanner (16 ms for three trees of a
// 10,000-record log); git-adr reads an object itself: its offset from the
// pack's index (version 2), then its header and its zlib stream, and for
// a delta its chain of bases (delta.go). An index of another version, a
// delta whose base is in another pack, or anything unexpected goes to
// go-git, which reads everything.

// packIndex is one pack's index file, open for the process: its fan-out
// table is read once, and each lookup reads the names its binary search
// visits (an index of a million objects is 28 MB).
type packIndex struct {
	pack   string // the .pack file
	f      io.ReaderAt
	fanout [256]uint32
	size   int64

	// packFile is the .pack file, opened on the first object read from
	// it and kept open: a load of a long log from git objects reads
	// thousands, and an open and a close for each cost more than the read.
	packOnce sync.Once
	packFile *os.File

	// bases are what its chains of deltas made, for the next reads.
	bases baseCache
}

// packReader is the open .pack file, nil when it does not open.
func (ix *packIndex) packReader() io.ReaderAt {
	ix.packOnce.Do(func() {
		if f, err := os.Open(ix.pack); err == nil {
			ix.packFile = f
		}
	})
	if ix.packFile == nil {
		return nil
	}
	return ix.packFile
}

// close closes the files the index holds open.
func (ix *packIndex) close() {
	if c, ok := ix.f.(io.Closer); ok {
		c.Close()
	}
	ix.packOnce.Do(func() {}) // a read after this opens nothing
	if ix.packFile != nil {
		ix.packFile.Close()
	}
}

// packs are the repository's pack indexes, listed once per process.
type packs struct {
	once sync.Once
	idx  []*packIndex
}

func (r *Repo) packIndexes() []*packIndex {
	r.packs.once.Do(func() {
		dir := filepath.Join(r.CommonDir, "objects", "pack")
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			name := e.Name()
			if !strings.HasSuffix(name, ".idx") || !strings.HasPrefix(name, "pack-") {
				continue
			}
			f, err := os.Open(filepath.Join(dir, name))
			if err != nil {
				continue
			}
			fi, err := f.Stat()
			if err != nil {
				f.Close()
				continue
			}
			// Kept open until the process ends: a hook or a command reads
			// from it a few times.
			if ix, ok := openPackIndex(f, fi.Size()); ok {
				ix.pack = filepath.Join(dir, strings.TrimSuffix(name, ".idx")+".pack")
				r.packs.idx = append(r.packs.idx, ix)
			} else {
				f.Close()
			}
		}
	})
	return r.packs.idx
}

// The layout of a version 2 pack index: "\377tOc", version 2, the fan-out
// table (256 counts), the sorted names (20 bytes each), their CRCs, their
// 31-bit offsets (or, high bit set, indexes into the 8-byte large
// offsets), then the pack's and the index's checksums.
const packIndexHead = 8 + 256*4

func openPackIndex(f io.ReaderAt, size int64) (*packIndex, bool) {
	var head [packIndexHead]byte
	if size < packIndexHead+40 {
		return nil, false
	}
	if _, err := f.ReadAt(head[:], 0); err != nil || string(head[:4]) != "\377tOc" || binary.BigEndian.Uint32(head[4:8]) != 2 {
		return nil, false
	}
	ix := &packIndex{f: f, size: size}
	prev := uint32(0)
	for i := range ix.fanout {
		v := binary.BigEndian.Uint32(head[8+4*i:])
		if v < prev {
			return nil, false
		}
		ix.fanout[i], prev = v, v
	}
	if n := int64(ix.fanout[255]); packIndexHead+n*(20+4+4)+40 > size {
		return nil, false
	}
	return ix, true
}

// offset is where the object named raw (20 bytes) starts in the pack.
func (ix *packIndex) offset(raw []byte) (int64, bool) {
	n := int64(ix.fanout[255])
	lo := int64(0)
	if raw[0] > 0 {
		lo = int64(ix.fanout[raw[0]-1])
	}
	hi := int64(ix.fanout[raw[0]])
	if hi <= lo {
		return 0, false
	}
	// The names of one first byte are read at once (a 256th of the
	// index: 800 bytes at 10,000 objects), and searched in memory, not
	// one read per step of the search.
	var i int64
	if b := (hi - lo) * 20; b <= 64<<10 {
		bp := nameBufs.Get().(*[]byte)
		defer nameBufs.Put(bp)
		names := append((*bp)[:0], make([]byte, b)...)
		*bp = names
		if _, err := ix.f.ReadAt(names, packIndexHead+20*lo); err != nil {
			return 0, false
		}
		k := sort.Search(int(hi-lo), func(k int) bool { return bytes.Compare(names[20*k:20*k+20], raw) >= 0 })
		if int64(k) >= hi-lo || !bytes.Equal(names[20*k:20*k+20], raw) {
			return 0, false
		}
		i = lo + int64(k)
	} else {
		var name [20]byte
		bad := false
		i = lo + int64(sort.Search(int(hi-lo), func(k int) bool {
			if _, err := ix.f.ReadAt(name[:], packIndexHead+20*(lo+int64(k))); err != nil {
				bad = true
				return true
			}
			return bytes.Compare(name[:], raw) >= 0
		}))
		if bad || i >= hi {
			return 0, false
		}
		if _, err := ix.f.ReadAt(name[:], packIndexHead+20*i); err != nil || !bytes.Equal(name[:], raw) {
			return 0, false
		}
	}
	var word [8]byte
	if _, err := ix.f.ReadAt(word[:4], packIndexHead+n*24+4*i); err != nil {
		return 0, false
	}
	off := binary.BigEndian.Uint32(word[:4])
	if off&0x80000000 == 0 {
		return int64(off), true
	}
	at := packIndexHead + n*28 + 8*int64(off&^0x80000000)
	if at+8 > ix.size-40 {
		return 0, false
	}
	if _, err := ix.f.ReadAt(word[:], at); err != nil {
		return 0, false
	}
	v := binary.BigEndian.Uint64(word[:])
	if v > 1<<62 {
		return 0, false
	}
	return int64(v), true
}

// packTypes are the pack's object type numbers of the kinds read here.
var packTypes = map[string]byte{"commit": packCommit, "tree": packTree, "blob": packBlob}

// packedObject reads an object of the given kind from a pack; false when
// it is not in one, or is not what it should be (the caller then asks
// go-git).
func (r *Repo) packedObject(h, kind string) ([]byte, bool) {
	want := packTypes[kind]
	raw, err := hex.DecodeString(h)
	if err != nil || len(raw) != 20 || want == 0 {
		return nil, false
	}
	for _, ix := range r.packIndexes() {
		off, ok := ix.offset(raw)
		if !ok {
			continue
		}
		pf := ix.packReader()
		if pf == nil {
			return nil, false
		}
		return ix.object(pf, off, want)
	}
	return nil, false
}

// packReaders are the buffered readers pack entries are read through: a
// load of a long log from git objects reads thousands, and a new 32 KiB
// buffer for each was most of what check --since allocated.
var packReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 32<<10) }}

// nameBufs hold the names of one first byte while an index is searched.
var nameBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}
