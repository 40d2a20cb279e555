package gitops

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"math/rand"
	"runtime"
	"sort"
	"testing"
)

// encodeDelta writes a delta that makes target from base by the copies
// and inserts ops name: each op is a copy of base[from:from+n] (from >= 0)
// or an insert of the next n bytes of target (from < 0).
func encodeDelta(base, target []byte, ops [][2]int) []byte {
	d := binary.AppendUvarint(nil, uint64(len(base)))
	d = binary.AppendUvarint(d, uint64(len(target)))
	at := 0
	for _, op := range ops {
		from, n := op[0], op[1]
		if from < 0 {
			for n > 0 {
				k := min(n, 127)
				d = append(d, byte(k))
				d = append(d, target[at:at+k]...)
				at, n = at+k, n-k
			}
			continue
		}
		code, args := byte(0x80), []byte{}
		for i := range 4 {
			if b := byte(from >> (8 * i)); b != 0 {
				code |= 1 << i
				args = append(args, b)
			}
		}
		if n != 0x10000 {
			for i := range 3 {
				if b := byte(n >> (8 * i)); b != 0 {
					code |= 0x10 << i
					args = append(args, b)
				}
			}
		}
		d = append(append(d, code), args...)
		at += n
	}
	return d
}

// A delta of copies and inserts makes its target; one that does not add
// up is refused, never read past.
func TestApplyDelta(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for range 500 {
		base := make([]byte, 1+rng.Intn(70000))
		rng.Read(base)
		var target []byte
		var ops [][2]int
		for range 1 + rng.Intn(8) {
			if rng.Intn(2) == 0 {
				from := rng.Intn(len(base))
				n := 1 + rng.Intn(len(base)-from)
				if n > 0x10000 {
					n = 0x10000
				}
				ops = append(ops, [2]int{from, n})
				target = append(target, base[from:from+n]...)
			} else {
				ins := make([]byte, 1+rng.Intn(300))
				rng.Read(ins)
				ops = append(ops, [2]int{-1, len(ins)})
				target = append(target, ins...)
			}
		}
		got, ok := applyDelta(base, encodeDelta(base, target, ops))
		if !ok || !bytes.Equal(got, target) {
			t.Fatalf("ops %v: %d bytes, %v; want %d", ops, len(got), ok, len(target))
		}
	}
	base := []byte("0123456789")
	for name, delta := range map[string][]byte{
		"base size wrong":     {9, 1, 0x91, 0, 1},
		"copy past the base":  {10, 5, 0x91, 8, 5},
		"insert past the end": {10, 5, 5, 'a', 'b'},
		"opcode 0":            {10, 1, 0},
		"target size short":   {10, 5, 0x91, 0, 4},
		"target size long":    {10, 2, 0x91, 0, 4},
		"copy args cut":       {10, 2, 0x91},
		"no sizes":            {},
		"size too big":        append([]byte{10}, binary.AppendUvarint(nil, maxObject+1)...),
	} {
		if out, ok := applyDelta(base, delta); ok {
			t.Errorf("%s: made %q", name, out)
		}
	}
	// A copy of size 0 copies 65,536 bytes.
	big := bytes.Repeat([]byte{'x'}, 0x10000)
	if got, ok := applyDelta(big, encodeDelta(big, big, [][2]int{{0, 0x10000}})); !ok || !bytes.Equal(got, big) {
		t.Errorf("a copy of 65,536 bytes: %d bytes, %v", len(got), ok)
	}
}

func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("0123456789"), []byte{10, 5, 0x91, 2, 5})
	f.Add([]byte("abc"), []byte{3, 4, 0x90, 2, 'x', 'y'})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		out, ok := applyDelta(base, delta)
		if !ok {
			return
		}
		if _, n := binary.Uvarint(delta); n > 0 {
			if want, _ := binary.Uvarint(delta[n:]); uint64(len(out)) != want {
				t.Fatalf("made %d bytes, the delta says %d", len(out), want)
			}
		}
	})
}

// packEntryBytes is a pack's entry as git writes them: each a header of type
// and size, for an OFS_DELTA its base's offset back, then zlib data.
func packEntryBytes(typ byte, data []byte, back int64) []byte {
	size := len(data)
	c := typ<<4 | byte(size&0x0f)
	size >>= 4
	var b []byte
	for size > 0 {
		b = append(b, c|0x80)
		c = byte(size & 0x7f)
		size >>= 7
	}
	b = append(b, c)
	if typ == ofsDelta {
		var enc []byte
		enc = append(enc, byte(back&0x7f))
		for back >>= 7; back > 0; back >>= 7 {
			back--
			enc = append(enc, 0x80|byte(back&0x7f))
		}
		for i := len(enc) - 1; i >= 0; i-- {
			b = append(b, enc[i])
		}
	}
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write(data)
	w.Close()
	return append(b, z.Bytes()...)
}

// A chain of OFS_DELTAs is followed to its base and made back up; what
// the chain made is kept for the next reads, and a read of a kept base
// gives the caller its own bytes. A chain longer than maxDeltaChain, a
// base of another type and an offset past the pack's start are refused.
func TestPackDeltaChain(t *testing.T) {
	base := []byte("# 1. Use PostgreSQL\n\n## Status\n\nAccepted\n")
	var pack []byte
	var offs []int64
	add := func(typ byte, data []byte, base int64) {
		offs = append(offs, int64(len(pack)))
		pack = append(pack, packEntryBytes(typ, data, int64(len(pack))-base)...)
	}
	add(packBlob, base, 0)
	want := [][]byte{base}
	for i := 1; i < 6; i++ {
		prev := want[i-1]
		next := append(append([]byte(nil), prev...), []byte("More.\n")...)
		add(ofsDelta, encodeDelta(prev, next, [][2]int{{0, len(prev)}, {-1, 6}}), offs[i-1])
		want = append(want, next)
	}
	ix := &packIndex{}
	f := bytes.NewReader(pack)
	for _, i := range []int{5, 3, 5, 0, 4} {
		got, ok := ix.object(f, offs[i], packBlob)
		if !ok || !bytes.Equal(got, want[i]) {
			t.Fatalf("entry %d: %q, %v", i, got, ok)
		}
		got[0] = 'X' // the caller's bytes: the kept bases do not change
	}
	if _, ok := ix.object(f, offs[5], packTree); ok {
		t.Error("a blob's chain read as a tree")
	}
	for i := 1; i < 5; i++ {
		if b, _, ok := ix.bases.get(offs[i]); !ok || !bytes.Equal(b, want[i]) {
			t.Errorf("base %d kept: %q, %v", i, b, ok)
		}
	}
	// An offset back past the pack's start.
	bad := packEntryBytes(ofsDelta, []byte{1, 1, 'a'}, 1000)
	if _, ok := (&packIndex{}).object(bytes.NewReader(bad), 0, packBlob); ok {
		t.Error("a delta whose base is before the pack was read")
	}
}

func FuzzPackEntry(f *testing.F) {
	f.Add(packEntryBytes(packBlob, []byte("hello"), 0), uint16(0))
	first := packEntryBytes(packBlob, []byte("hello"), 0)
	f.Add(append(first, packEntryBytes(ofsDelta, []byte{5, 6, 0x90, 5, '!'}, int64(len(first)))...), uint16(len(first)))
	f.Fuzz(func(t *testing.T, pack []byte, off uint16) {
		ix := &packIndex{}
		if int(off) >= len(pack) {
			return
		}
		ix.object(bytes.NewReader(pack), int64(off), packBlob)
	})
}

// packIndexOf writes a version 2 pack index naming objects at offsets.
func packIndexOf(names [][20]byte, offs []uint32) []byte {
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return bytes.Compare(names[order[a]][:], names[order[b]][:]) < 0 })
	b := []byte("\377tOc\x00\x00\x00\x02")
	for first := range 256 {
		n := 0
		for _, nm := range names {
			if int(nm[0]) <= first {
				n++
			}
		}
		b = binary.BigEndian.AppendUint32(b, uint32(n))
	}
	for _, i := range order {
		b = append(b, names[i][:]...)
	}
	for range order {
		b = append(b, 0, 0, 0, 0) // CRCs, not read
	}
	for _, i := range order {
		b = binary.BigEndian.AppendUint32(b, offs[i])
	}
	return append(b, make([]byte, 40)...) // the checksums, not read
}

// Two REF_DELTAs that name each other as their base are a loop no real
// pack holds: the chain stops at maxDeltaChain and the object is
// refused, not read forever.
func TestRefDeltaLoopRefused(t *testing.T) {
	a, b := [20]byte{1}, [20]byte{2}
	entry := func(base [20]byte) []byte {
		e := packEntryBytes(refDelta, []byte{1, 1, 'x'}, 0)
		// The header is one byte (a size under 16); the base's name
		// follows it, before the zlib data.
		return append(append([]byte{e[0]}, base[:]...), e[1:]...)
	}
	pack := entry(b)
	offB := uint32(len(pack))
	pack = append(pack, entry(a)...)
	idx := packIndexOf([][20]byte{a, b}, []uint32{0, offB})
	ix, ok := openPackIndex(bytes.NewReader(idx), int64(len(idx)))
	if !ok {
		t.Fatal("the index does not open")
	}
	if off, ok := ix.offset(b[:]); !ok || off != int64(offB) {
		t.Fatalf("b at %d, %v; want %d", off, ok, offB)
	}
	// Each entry reads, and names the other: the loop is real.
	for _, at := range [][2]int64{{0, int64(offB)}, {int64(offB), 0}} {
		if e, ok := ix.readEntry(bytes.NewReader(pack), at[0]); !ok || e.typ != refDelta || e.base != at[1] {
			t.Fatalf("entry at %d: %+v, %v; want a REF_DELTA on %d", at[0], e, ok, at[1])
		}
	}
	if got, ok := ix.object(bytes.NewReader(pack), 0, packBlob); ok {
		t.Fatalf("a loop of deltas made %q", got)
	}
}

// A size is what an entry claims, not what it holds: an entry, a delta
// or a loose object that says 1 GiB before five bytes is refused having
// allocated about what it held (readExactly grows as bytes arrive).
func TestForgedSizesAllocateLittle(t *testing.T) {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write([]byte("hello"))
	w.Close()
	entry := []byte{packBlob<<4 | 0x80}
	entry = append(entry, binary.AppendUvarint(nil, maxObject>>4)...)
	entry = append(entry, z.Bytes()...)
	delta := append(binary.AppendUvarint([]byte{5}, maxObject), 5, 'h', 'e', 'l', 'l', 'o')
	for name, read := range map[string]func() bool{
		"pack entry": func() bool {
			_, ok := (&packIndex{}).readEntry(bytes.NewReader(entry), 0)
			return ok
		},
		"delta": func() bool {
			_, ok := applyDelta([]byte("world"), delta)
			return ok
		},
		"loose object": func() bool {
			_, ok := readExactly(bytes.NewReader([]byte("hello")), maxObject)
			return ok
		},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		ok := read()
		runtime.ReadMemStats(&after)
		if ok {
			t.Errorf("%s: a forged size was read", name)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
			t.Errorf("%s: %d bytes allocated for five", name, got)
		}
	}
}
