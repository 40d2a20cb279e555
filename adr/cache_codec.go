package adr

import (
	"encoding/binary"
	"errors"
	"sync"
)

// The parse cache stores what [Parse] derives from a record's bytes, and
// nothing that depends on where the file is (ID, number, path, root,
// archive state, resolved relation targets: the load sets those as it
// does for a parsed record). The text itself is not stored; see
// [Record.Text].

// errCacheEntry means a cache entry does not decode: the cache is not
// trusted.
var errCacheEntry = errors.New("corrupt parse cache entry")

// scratchBufs are buffers that encoding reuses: a cold load encodes every
// record it parses (Cache.store), on every worker.
var scratchBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// encodeParsed appends the parse-derived fields of r to b.
func encodeParsed(b []byte, r *Record) []byte {
	e := cacheEncoder{b: b}
	e.str(r.Title)
	e.str(r.RawTitle)
	e.int(r.TitleNumber)
	e.str(string(r.Status))
	e.str(r.RawStatus)
	e.field(r.StatusField)
	e.str(r.Date)
	e.strs(r.Domains)
	e.str(r.Iteration)
	e.str(r.Scope)
	e.strs(r.AppliesTo)
	e.str(r.ReviewBy)
	e.len(r.Relations == nil, len(r.Relations))
	for _, rel := range r.Relations {
		e.str(string(rel.Type))
		e.str(rel.Label)
		e.str(rel.Target)
		e.str(rel.TargetID)
		e.int(rel.Line)
		e.str(rel.Section)
	}
	e.str(string(r.Style))
	// The units are one length-prefixed block: a load keeps it encoded
	// until they are asked for (Record.Units).
	// Encoded in a scratch buffer and appended: a string conversion
	// and the growth of a fresh buffer for every record were a fifth of
	// what a cold load of a long log allocated.
	sp := scratchBufs.Get().(*[]byte)
	u := encodeUnits((*sp)[:0], r.Units())
	e.uint(uint64(len(u)))
	e.b = append(e.b, u...)
	*sp = u
	scratchBufs.Put(sp)
	e.strs(r.Problems)
	e.len(r.otherStatuses == nil, len(r.otherStatuses))
	for _, m := range r.otherStatuses {
		e.str(m.Raw)
		e.str(string(m.Status))
		e.int(m.Line)
	}
	e.bool(r.onlyTitle)
	e.str(r.bareTitle)
	e.str(r.sum)
	// The text facts as one string: a record the cache serves keeps it
	// undecoded until check asks (facts), so no other command pays for it.
	fe := cacheEncoder{}
	f := r.facts()
	fe.bool(f.frontMatter)
	fe.bool(f.nul)
	fe.uint(uint64(len(f.links)))
	for _, l := range f.links {
		fe.int(l.line)
		fe.str(l.dest)
	}
	fe.uint(uint64(len(f.prose)))
	for _, c := range f.prose {
		fe.int(c.line)
		fe.str(c.said)
		fe.strs(c.targets)
	}
	e.uint(uint64(len(fe.b)))
	e.b = append(e.b, fe.b...)
	return e.b
}

// decodeFacts reads the text facts encodeParsed wrote.
func decodeFacts(s string) (*textFacts, error) {
	d := cacheDecoder{s: s}
	f := &textFacts{frontMatter: d.bool(), nul: d.bool()}
	if n := d.uint(); n > 0 && n <= uint64(len(d.s)) {
		f.links = make([]factLink, n)
		for i := range f.links {
			f.links[i] = factLink{line: d.int(), dest: d.str()}
		}
	} else if n > 0 {
		d.fail()
	}
	if n := d.uint(); n > 0 && n <= uint64(len(d.s)) {
		f.prose = make([]proseClaim, n)
		for i := range f.prose {
			f.prose[i] = proseClaim{line: d.int(), said: d.str(), targets: d.strs()}
		}
	} else if n > 0 {
		d.fail()
	}
	if d.err != nil || d.s != "" {
		return nil, errCacheEntry
	}
	return f, nil
}

// decodeParsed reads a record encoded by encodeParsed. Strings are slices
// of s, which holds the whole cache file: decoding allocates no string.
func decodeParsed(s string) (*Record, error) {
	d := cacheDecoder{s: s}
	r := &Record{}
	r.Title = d.str()
	r.RawTitle = d.str()
	r.TitleNumber = d.int()
	r.Status = Status(d.str())
	r.RawStatus = d.str()
	r.StatusField = d.field()
	r.Date = d.str()
	r.Domains = d.strs()
	r.Iteration = d.str()
	r.Scope = d.str()
	r.AppliesTo = d.strs()
	r.ReviewBy = d.str()
	if n, isNil := d.len(); !isNil {
		r.Relations = make([]Relation, n)
		for i := range r.Relations {
			rel := &r.Relations[i]
			rel.Type = RelationType(d.str())
			rel.Label = d.str()
			rel.Target = d.str()
			rel.TargetID = d.str()
			rel.Line = d.int()
			rel.Section = d.str()
		}
	}
	r.Style = Style(d.str())
	if units := d.str(); d.err == nil {
		r.lunits = &lazyUnits{enc: units, owner: r}
	}
	r.Problems = d.strs()
	if n, isNil := d.len(); !isNil {
		r.otherStatuses = make([]statusMention, n)
		for i := range r.otherStatuses {
			m := &r.otherStatuses[i]
			m.Raw = d.str()
			m.Status = Status(d.str())
			m.Line = d.int()
		}
	}
	r.onlyTitle = d.bool()
	r.bareTitle = d.str()
	r.sum = d.str()
	r.factsEnc = d.str()
	if d.err != nil || d.s != "" {
		return nil, errCacheEntry
	}
	return r, nil
}

// encodeUnits appends units to b, keeping nil apart from empty.
func encodeUnits(b []byte, units []Unit) []byte {
	e := cacheEncoder{b: b}
	e.len(units == nil, len(units))
	for _, u := range units {
		e.str(u.ID)
		e.str(u.Anchor)
		e.str(u.Heading)
		e.int(u.Start)
		e.int(u.End)
		e.str(u.Hash)
		e.str(string(u.Status))
		e.str(u.RawStatus)
	}
	return e.b
}

// decodeUnits reads units encoded by encodeUnits; their strings are
// slices of s.
func decodeUnits(s string) ([]Unit, error) {
	d := cacheDecoder{s: s}
	n, isNil := d.len()
	var us []Unit
	if !isNil {
		us = make([]Unit, n)
		for i := range us {
			u := &us[i]
			u.ID = d.str()
			u.Anchor = d.str()
			u.Heading = d.str()
			u.Start = d.int()
			u.End = d.int()
			u.Hash = d.str()
			u.Status = Status(d.str())
			u.RawStatus = d.str()
		}
	}
	if d.err != nil || d.s != "" {
		return nil, errCacheEntry
	}
	return us, nil
}

type cacheEncoder struct{ b []byte }

func (e *cacheEncoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *cacheEncoder) int(v int)     { e.b = binary.AppendVarint(e.b, int64(v)) }
func (e *cacheEncoder) str(s string) {
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}

// len writes a slice length that keeps nil apart from empty: JSON output
// tells them apart (null and []).
func (e *cacheEncoder) len(isNil bool, n int) {
	if isNil {
		e.uint(0)
		return
	}
	e.uint(uint64(n) + 1)
}

func (e *cacheEncoder) strs(ss []string) {
	e.len(ss == nil, len(ss))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *cacheEncoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

func (e *cacheEncoder) field(f Field) {
	e.str(string(f.Kind))
	for _, v := range []int{f.Line, f.Start, f.End, f.Section, f.WordStart, f.WordEnd} {
		e.int(v)
	}
}

type cacheDecoder struct {
	s   string
	err error
}

func (d *cacheDecoder) fail() { d.err, d.s = errCacheEntry, "" }

func (d *cacheDecoder) uint() uint64 {
	if d.s != "" && d.s[0] < 0x80 {
		// Most are lengths and small numbers: one byte.
		v := uint64(d.s[0])
		d.s = d.s[1:]
		return v
	}
	// binary.Uvarint wants bytes; a varint is at most 10 of them.
	var buf [binary.MaxVarintLen64]byte
	n := copy(buf[:], d.s)
	v, k := binary.Uvarint(buf[:n])
	if k <= 0 {
		d.fail()
		return 0
	}
	d.s = d.s[k:]
	return v
}

func (d *cacheDecoder) varint() int64 {
	// A signed varint is the zigzag of an unsigned one (binary.Varint):
	// the low bit is the sign.
	u := d.uint()
	return int64(u>>1) ^ -int64(u&1)
}

func (d *cacheDecoder) int() int {
	v := d.varint()
	if int64(int(v)) != v {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *cacheDecoder) str() string {
	n := d.uint()
	if n > uint64(len(d.s)) {
		d.fail()
		return ""
	}
	v := d.s[:n]
	d.s = d.s[n:]
	return v
}

func (d *cacheDecoder) len() (int, bool) {
	n := d.uint()
	if n == 0 {
		return 0, true
	}
	// Every element takes at least one byte: a length beyond the rest is
	// corruption, not a reason to allocate.
	if n-1 > uint64(len(d.s)) {
		d.fail()
		return 0, true
	}
	return int(n - 1), false
}

func (d *cacheDecoder) strs() []string {
	n, isNil := d.len()
	if isNil {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *cacheDecoder) bool() bool {
	if d.s == "" || d.s[0] > 1 {
		d.fail()
		return false
	}
	v := d.s[0] == 1
	d.s = d.s[1:]
	return v
}

func (d *cacheDecoder) field() Field {
	f := Field{Kind: FieldKind(d.str())}
	f.Line, f.Start, f.End = d.int(), d.int(), d.int()
	f.Section, f.WordStart, f.WordEnd = d.int(), d.int(), d.int()
	return f
}
