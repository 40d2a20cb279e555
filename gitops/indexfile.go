package gitops

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"

	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// decodeIndex reads the stage-0 entries of a git index file (versions 2,
// 3 and 4) for the read paths that only need names, modes and blobs:
// about five times faster than go-git's decoder, which reads every field
// through reflection. It refuses (ok false, and the caller asks go-git or
// git) anything it does not read completely: another version, a SHA-256
// repository's longer names, a split index ("link"), a sparse index
// ("sdir" or a directory entry), any other mandatory extension, and every
// inconsistency. The trailing checksum is not verified: git itself does
// not verify it when it reads an index.
func decodeIndex(b []byte) (entries []entry, ok bool) {
	idx, ok := decodeIndexFile(b)
	return idx.entries, ok
}

// indexFile is what decodeIndexFile reads of an index.
type indexFile struct {
	entries []entry
	// conflicted means some path has stages 1-3 (an unresolved merge).
	conflicted bool
	// tree is the body of the TREE (cache-tree) extension, nil without.
	tree []byte
}

// decodeIndexFile is decodeIndex, also saying whether the index holds a
// conflict and returning its cache-tree.
func decodeIndexFile(b []byte) (idx indexFile, ok bool) {
	const hashLen = 20
	var entries []entry
	if len(b) < 12+hashLen || string(b[:4]) != "DIRC" {
		return idx, false
	}
	version := binary.BigEndian.Uint32(b[4:8])
	if version < 2 || version > 4 {
		return idx, false
	}
	n := binary.BigEndian.Uint32(b[8:12])
	body := b[:len(b)-hashLen]
	if uint64(n) > uint64(len(body))/(40+hashLen) {
		return indexFile{}, false // more entries than the file could hold
	}
	entries = make([]entry, 0, n)
	// Names are cut from one copy of the file, and object names from
	// one hexadecimal buffer: two allocations, not two per entry.
	str := string(b)
	hexes := make([]byte, 0, 2*hashLen*int(n))
	pos := 12
	var prev []byte
	for i := uint32(0); i < n; i++ {
		start := pos
		if pos+40+hashLen+2 > len(body) {
			return indexFile{}, false
		}
		mode := binary.BigEndian.Uint32(b[pos+24 : pos+28])
		hexes = hex.AppendEncode(hexes, b[pos+40:pos+40+hashLen])
		flags := binary.BigEndian.Uint16(b[pos+40+hashLen : pos+42+hashLen])
		pos += 42 + hashLen
		var ita bool
		if flags&0x4000 != 0 { // extended flags
			if version < 3 || pos+2 > len(body) {
				return indexFile{}, false
			}
			ext := binary.BigEndian.Uint16(b[pos : pos+2])
			ita = ext&0x2000 != 0
			pos += 2
		}
		stage := (flags >> 12) & 3
		var name []byte
		nameAt := -1 // where name lies in b, when it does (versions 2, 3)
		if version == 4 {
			// The name is the previous one less a varint count of bytes,
			// then a NUL-terminated suffix; no padding.
			strip, used := offsetVarint(b[pos:len(body)])
			if used == 0 || strip > uint64(len(prev)) {
				return indexFile{}, false
			}
			pos += used
			end := bytes.IndexByte(b[pos:len(body)], 0)
			if end < 0 {
				return indexFile{}, false
			}
			name = append(append([]byte(nil), prev[:len(prev)-int(strip)]...), b[pos:pos+end]...)
			pos += end + 1
		} else {
			end := bytes.IndexByte(b[pos:len(body)], 0)
			if end < 0 {
				return indexFile{}, false
			}
			name, nameAt = b[pos:pos+end], pos
			// Entries are padded with NULs to a multiple of eight bytes.
			size := (pos + end - start + 8) &^ 7
			pos = start + size
			if pos > len(body) {
				return indexFile{}, false
			}
		}
		if l := int(flags & 0xfff); l < 0xfff && l != len(name) {
			return indexFile{}, false
		}
		prev = name
		if len(name) == 0 || name[len(name)-1] == '/' || filemode.FileMode(mode) == filemode.Dir {
			return indexFile{}, false // a sparse index's directory entry
		}
		if stage != 0 {
			idx.conflicted = true
			hexes = hexes[:len(hexes)-2*hashLen]
			continue // a conflict's stages 1-3: not what a commit would hold
		}
		e := entry{mode: filemode.FileMode(mode), intentToAdd: ita}
		if nameAt >= 0 {
			e.name = str[nameAt : nameAt+len(name)]
		} else {
			e.name = string(name)
		}
		entries = append(entries, e)
	}
	hexStr := string(hexes)
	for i := range entries {
		entries[i].hash = hexStr[2*hashLen*i : 2*hashLen*(i+1)]
	}
	// Extensions: four-byte signature, four-byte size. An upper-case
	// first letter marks an optional one (TREE, REUC, UNTR, ...).
	for pos < len(body) {
		if pos+8 > len(body) {
			return indexFile{}, false
		}
		sig := b[pos : pos+4]
		size := binary.BigEndian.Uint32(b[pos+4 : pos+8])
		if sig[0] < 'A' || sig[0] > 'Z' {
			return indexFile{}, false // "link", "sdir" or another mandatory one
		}
		if uint64(size) > uint64(len(body)-pos-8) {
			return indexFile{}, false
		}
		if string(sig) == "TREE" {
			idx.tree = b[pos+8 : pos+8+int(size)]
		}
		pos += 8 + int(size)
	}
	idx.entries = entries
	return idx, true
}

// offsetVarint reads the variable-length integer of index version 4 (the
// "offset" encoding of git's varint.c: each continuation adds one before
// shifting); used is 0 when it does not fit.
func offsetVarint(b []byte) (v uint64, used int) {
	for i, c := range b {
		if i == 9 {
			return 0, 0
		}
		if i > 0 {
			v++
		}
		v = v<<7 | uint64(c&0x7f)
		if c&0x80 == 0 {
			return v, i + 1
		}
	}
	return 0, 0
}
