package gitops

import (
	"bufio"
	"encoding/binary"
	"io"
	"sync"
)

// A pack keeps most versions of a file as a delta: an offset back to
// another entry of the pack (OFS_DELTA) or that entry's name (REF_DELTA),
// then, deflated, the instructions that make the object from it. git-adr
// follows a chain itself down to the entry stored whole and applies the
// deltas back up, keeping the bases it made for the next reads. go-git
// took 70 µs a delta on a 10,000-record log read from its commit, and
// the read peaked 25 MiB higher with it (ADR-0002's amendment).

// Pack entry types (the three bits after an entry's first).
const (
	packCommit = 1
	packTree   = 2
	packBlob   = 3
	packTag    = 4
	ofsDelta   = 6
	refDelta   = 7
)

const (
	// maxDeltaChain bounds a chain followed here: git makes them at most
	// 50 long by default, 250 with gc --aggressive; a longer one (or a
	// loop of REF_DELTAs in a damaged pack) goes to go-git.
	maxDeltaChain = 512
	// baseCacheBytes bounds the bases a pack keeps made.
	baseCacheBytes = 16 << 20
)

// packEntry is one entry of a pack: its type, and its data inflated (an
// object's bytes, or a delta's instructions, whose base is at base).
type packEntry struct {
	typ  byte
	data []byte
	base int64
}

// readEntry reads the entry at off of the pack ix: a header of type
// (three bits) and size (a little-endian base-128 number), a delta's
// base (a big-endian base-128 offset back, each byte but the last adding
// one, or a 20-byte name), then the data, deflated.
func (ix *packIndex) readEntry(f io.ReaderAt, off int64) (packEntry, bool) {
	br := packReaders.Get().(*bufio.Reader)
	br.Reset(io.NewSectionReader(f, off, 1<<62))
	defer packReaders.Put(br)
	c, err := br.ReadByte()
	if err != nil {
		return packEntry{}, false
	}
	e := packEntry{typ: (c >> 4) & 7}
	size := uint64(c & 0x0f)
	for shift := 4; c&0x80 != 0; shift += 7 {
		if c, err = br.ReadByte(); err != nil || shift > 60 {
			return packEntry{}, false
		}
		size |= uint64(c&0x7f) << shift
	}
	if size > maxObject {
		return packEntry{}, false
	}
	switch e.typ {
	case packCommit, packTree, packBlob, packTag:
	case ofsDelta:
		if c, err = br.ReadByte(); err != nil {
			return packEntry{}, false
		}
		back := int64(c & 0x7f)
		for c&0x80 != 0 {
			if c, err = br.ReadByte(); err != nil || back >= 1<<48 {
				return packEntry{}, false
			}
			back = (back+1)<<7 | int64(c&0x7f)
		}
		if back <= 0 || back > off {
			return packEntry{}, false
		}
		e.base = off - back
	case refDelta:
		var name [20]byte
		if _, err := io.ReadFull(br, name[:]); err != nil {
			return packEntry{}, false
		}
		base, ok := ix.offset(name[:])
		if !ok || base == off {
			return packEntry{}, false // a base in another pack: go-git's
		}
		e.base = base
	default:
		return packEntry{}, false
	}
	zr, ok := inflater(br)
	if !ok {
		return packEntry{}, false
	}
	defer zlibReaders.Put(zr)
	if e.data, ok = readExactly(zr, int(size)); !ok {
		return packEntry{}, false
	}
	return e, true
}

// object reads the object at off of the pack ix, of type want: stored
// whole, or made from its chain of deltas. The bytes are the caller's.
func (ix *packIndex) object(f io.ReaderAt, off int64, want byte) ([]byte, bool) {
	type step struct {
		off   int64
		delta []byte
	}
	var chain []step
	var obj []byte
	shared := false // obj is the cache's
	at := off
	for {
		if b, typ, ok := ix.bases.get(at); ok {
			if typ != want {
				return nil, false
			}
			obj, shared = b, true
			break
		}
		e, ok := ix.readEntry(f, at)
		if !ok {
			return nil, false
		}
		if e.typ != ofsDelta && e.typ != refDelta {
			if e.typ != want {
				return nil, false // another type
			}
			obj = e.data
			if len(chain) > 0 {
				ix.bases.put(at, obj, want)
			}
			break
		}
		if len(chain) == maxDeltaChain {
			return nil, false
		}
		chain = append(chain, step{at, e.data})
		at = e.base
	}
	for i := len(chain) - 1; i >= 0; i-- {
		next, ok := applyDelta(obj, chain[i].delta)
		if !ok {
			return nil, false
		}
		obj, shared = next, false
		// What the chain made on the way is a base of the entries
		// above it; the object asked for is the caller's alone.
		if i > 0 {
			ix.bases.put(chain[i].off, obj, want)
		}
	}
	if shared {
		return append([]byte(nil), obj...), true
	}
	return obj, true
}

// applyDelta makes an object from base and a delta's instructions: the
// base's size and the object's (little-endian base-128), then copies
// from the base (an opcode with its high bit set, then the offset's and
// the size's bytes its low seven bits name; a size of 0 is 65,536) and
// inserts (an opcode of 1 to 127, then that many bytes). Anything that
// does not add up is refused.
func applyDelta(base, delta []byte) ([]byte, bool) {
	src, n := binary.Uvarint(delta)
	if n <= 0 || src != uint64(len(base)) {
		return nil, false
	}
	delta = delta[n:]
	dst, n := binary.Uvarint(delta)
	if n <= 0 || dst > maxObject {
		return nil, false
	}
	delta = delta[n:]
	// The size is the delta's claim: the first buffer holds what a base
	// and its inserts usually make, and grows only as copies fill it.
	out := make([]byte, 0, min(dst, uint64(len(base)+len(delta))))
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			var off, size uint64
			var ok bool
			if off, delta, ok = copyArg(op, 0, 4, delta); !ok {
				return nil, false
			}
			if size, delta, ok = copyArg(op, 4, 3, delta); !ok {
				return nil, false
			}
			if size == 0 {
				size = 0x10000
			}
			if off+size > uint64(len(base)) || uint64(len(out))+size > dst {
				return nil, false
			}
			out = append(out, base[off:off+size]...)
		case op != 0:
			if int(op) > len(delta) || uint64(len(out))+uint64(op) > dst {
				return nil, false
			}
			out = append(out, delta[:op]...)
			delta = delta[op:]
		default:
			return nil, false // opcode 0 is reserved
		}
	}
	if uint64(len(out)) != dst {
		return nil, false
	}
	return out, true
}

// copyArg reads a copy's offset (bits 0 to 3 of op) or size (bits 4 to
// 6): a byte of delta for each bit set, the least significant first.
func copyArg(op byte, first, n int, delta []byte) (v uint64, rest []byte, ok bool) {
	for i := range n {
		if op&(1<<(first+i)) != 0 {
			if len(delta) == 0 {
				return 0, nil, false
			}
			v |= uint64(delta[0]) << (8 * i)
			delta = delta[1:]
		}
	}
	return v, delta, true
}

// baseCache holds the bases a pack's chains made, by offset, up to
// baseCacheBytes, the oldest let go first. Its bytes are only read.
type baseCache struct {
	mu    sync.Mutex
	byOff map[int64]cachedBase
	order []int64
	bytes int
}

type cachedBase struct {
	data []byte
	typ  byte
}

func (c *baseCache) get(off int64) ([]byte, byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.byOff[off]
	return b.data, b.typ, ok
}

func (c *baseCache) put(off int64, data []byte, typ byte) {
	if len(data) > baseCacheBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byOff[off]; ok {
		return
	}
	if c.byOff == nil {
		c.byOff = map[int64]cachedBase{}
	}
	for c.bytes+len(data) > baseCacheBytes && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= len(c.byOff[old].data)
		delete(c.byOff, old)
	}
	c.byOff[off] = cachedBase{data, typ}
	c.order = append(c.order, off)
	c.bytes += len(data)
}
