package evidence

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/git-adr/git-adr/internal/atomicfile"
	"github.com/git-adr/git-adr/internal/cachefile"
	"github.com/git-adr/git-adr/retrieve"
)

// The term cache keeps the analysed words of every record, keyed by its
// path and git blob hash, under $GIT_DIR/adr/cache/. Analysis is
// most of the cost of a task query; with the cache a repeated query over
// 10,000 records only re-analyses records that changed. The cache is
// derived data: a missing, corrupt (a CRC-32C covers the file) or outdated
// file is rebuilt silently, never trusted in part.

// cacheFormat changes whenever analysis or the layout changes (stemming,
// stop words, field weights), so old caches are never read.
const cacheFormat = "git-adr terms v8\n"

type cacheKey [32]byte

type cachedDoc struct {
	body, title retrieve.DocTerms
}

type termCache struct {
	path    string
	entries map[cacheKey]cachedDoc
	used    map[cacheKey]bool
	dirty   bool
}

// keyOf keys a record by its path and git blob hash (the object name git
// gives its bytes), so the cache agrees with git about what changed.
func keyOf(path, blob string) cacheKey {
	// One buffer on the stack for the usual path and blob, one hash: a
	// key is made for every record of the log on every task query.
	var buf [256]byte
	b := append(append(append(buf[:0], path...), 0), blob...)
	return cacheKey(sha256.Sum256(b))
}

func loadTermCache(dir string) *termCache {
	c := &termCache{entries: map[cacheKey]cachedDoc{}, used: map[cacheKey]bool{}}
	if dir == "" {
		return c
	}
	c.path = filepath.Join(dir, "terms.bin")
	data, err := os.ReadFile(c.path)
	if err != nil {
		return c
	}
	if entries, err := decodeCache(data); err == nil {
		c.entries = entries
	}
	return c
}

func (c *termCache) get(k cacheKey) (cachedDoc, bool) {
	d, ok := c.entries[k]
	if ok {
		c.used[k] = true
	}
	return d, ok
}

func (c *termCache) put(k cacheKey, d cachedDoc) {
	c.entries[k] = d
	c.used[k] = true
	c.dirty = true
}

// save writes the entries used by this run (so the file never outgrows the
// log) when anything changed, atomically.
func (c *termCache) save() error {
	if c.path == "" || !c.dirty && len(c.used) == len(c.entries) {
		return nil
	}
	// Every entry used (a first query, or a log that only grew): the
	// entries are the file, without a copy of the map held beside them
	// while it is encoded.
	keep := c.entries
	if len(c.used) != len(c.entries) {
		keep = make(map[cacheKey]cachedDoc, len(c.used))
		for k := range c.used {
			keep[k] = c.entries[k]
		}
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFunc(c.path, 0o600, func(w io.Writer) error { return writeCache(w, keep) })
}

// Layout: format line; vocabulary (count, then length-prefixed strings);
// entries (count, then key, and body and title as length, term count and
// (vocabulary index, frequency) pairs); the CRC-32C of all that.
func encodeCache(entries map[cacheKey]cachedDoc) []byte {
	var b bytes.Buffer
	_ = writeCache(&b, entries) // a bytes.Buffer does not fail
	return b.Bytes()
}

// writeCache writes the term cache's file to w as it encodes it: at
// 10,000 records the file is megabytes, and a cold query would otherwise
// hold it whole, with a number for every term of every record, while it
// also builds its indexes.
func writeCache(w io.Writer, entries map[cacheKey]cachedDoc) error {
	// The vocabulary is numbered in the order the entries are then
	// written (a map is ranged once); each term is looked up again as its
	// entry is written, rather than every number being held in between.
	keys := make([]cacheKey, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	vocab := map[string]uint32{}
	var words []string
	for _, k := range keys {
		d := entries[k]
		for _, dt := range [2]retrieve.DocTerms{d.body, d.title} {
			for _, t := range dt.Terms {
				if _, ok := vocab[t]; !ok {
					vocab[t] = uint32(len(words))
					words = append(words, t)
				}
			}
		}
	}
	sw := cachefile.NewSealer(w)
	var buf []byte
	put := func(v uint64) { buf = binary.AppendUvarint(buf, v) }
	putF := func(f float32) { buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(f)) }
	flush := func() error {
		_, err := sw.Write(buf)
		buf = buf[:0]
		return err
	}
	buf = append(buf, cacheFormat...)
	put(uint64(len(words)))
	for _, t := range words {
		put(uint64(len(t)))
		buf = append(buf, t...)
		if len(buf) > 32<<10 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	put(uint64(len(entries)))
	for _, k := range keys {
		d := entries[k]
		buf = append(buf, k[:]...)
		for _, dt := range [2]retrieve.DocTerms{d.body, d.title} {
			putF(dt.Len)
			put(uint64(len(dt.Terms)))
			for i, t := range dt.Terms {
				put(uint64(vocab[t]))
				putF(dt.TF[i])
			}
		}
		if err := flush(); err != nil {
			return err
		}
	}
	if err := flush(); err != nil {
		return err
	}
	return sw.Close()
}

var errCorrupt = errors.New("corrupt term cache")

func decodeCache(data []byte) (map[cacheKey]cachedDoc, error) {
	b, ok := cachefile.Open(data, []byte(cacheFormat))
	if !ok {
		return nil, errCorrupt
	}
	get := func() (uint64, error) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, errCorrupt
		}
		b = b[n:]
		return v, nil
	}
	getF := func() (float32, error) {
		if len(b) < 4 {
			return 0, errCorrupt
		}
		f := math.Float32frombits(binary.LittleEndian.Uint32(b))
		b = b[4:]
		return f, nil
	}
	nw, err := get()
	if err != nil || nw > uint64(len(b)) {
		return nil, errCorrupt
	}
	words := make([]string, nw)
	for i := range words {
		l, err := get()
		if err != nil || l > uint64(len(b)) {
			return nil, errCorrupt
		}
		words[i] = string(b[:l])
		b = b[l:]
	}
	ne, err := get()
	if err != nil || ne > uint64(len(b)) {
		return nil, errCorrupt
	}
	out := make(map[cacheKey]cachedDoc, ne)
	for i := uint64(0); i < ne; i++ {
		if len(b) < 32 {
			return nil, errCorrupt
		}
		var k cacheKey
		copy(k[:], b[:32])
		b = b[32:]
		var d cachedDoc
		for j := 0; j < 2; j++ {
			var dt retrieve.DocTerms
			if dt.Len, err = getF(); err != nil {
				return nil, err
			}
			n, err := get()
			if err != nil || n > uint64(len(b)) {
				return nil, errCorrupt
			}
			dt.Terms = make([]string, n)
			dt.TF = make([]float32, n)
			for x := range dt.Terms {
				wi, err := get()
				if err != nil || wi >= nw {
					return nil, errCorrupt
				}
				dt.Terms[x] = words[wi]
				if dt.TF[x], err = getF(); err != nil {
					return nil, err
				}
			}
			if j == 0 {
				d.body = dt
			} else {
				d.title = dt
			}
		}
		out[k] = d
	}
	return out, nil
}
