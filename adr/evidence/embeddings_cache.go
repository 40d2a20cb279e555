package evidence

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"math"
	"path/filepath"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/internal/atomicfile"
	"github.com/git-adr/git-adr/internal/cachefile"
)

// The vector cache keeps each record's embedding in
// $GIT_DIR/adr/cache/vectors.bin, keyed by the endpoint's model and base
// URL, the record's path and its git blob hash: a task answer sends only
// the records that changed (and the task) to the endpoint. Like the term
// cache it is derived data: a missing, damaged (a CRC-32C covers it) or
// foreign file is ignored and replaced, never trusted in part.

// vectorFormat changes with the layout of vectors.bin and with what is
// embedded of a record (embedText), so that no vector of another recipe
// is compared with a new one.
const vectorFormat = "git-adr vectors v1\n"

type vectorCache struct {
	path    string
	entries map[cacheKey][]float32
	used    map[cacheKey]bool
	dirty   bool
}

// vectorKey keys a record's vector: the endpoint (model and base URL:
// one model name may be different models at two servers) and the
// record's own key, as the term cache keys it.
func vectorKey(ep *EmbeddingEndpoint, r *adr.Record) cacheKey {
	rk := recordCacheKey(r)
	h := sha256.New()
	h.Write([]byte(ep.Model))
	h.Write([]byte{0})
	h.Write([]byte(strings.TrimRight(ep.URL, "/")))
	h.Write([]byte{0})
	h.Write(rk[:])
	return cacheKey(h.Sum(nil))
}

// recordCacheKey is the key taskIndexes gives r's analysed terms: its
// path and blob hash, or for a section of a single-file log its place
// and the hash of its own bytes.
func recordCacheKey(r *adr.Record) cacheKey {
	if r.InLogFile() {
		return keyOf(r.Locus(), view.BlobHash(r.Content()))
	}
	return keyOf(r.Path, r.Blob())
}

func loadVectorCache(dir string) *vectorCache {
	c := &vectorCache{entries: map[cacheKey][]float32{}, used: map[cacheKey]bool{}}
	if dir == "" {
		return c
	}
	c.path = filepath.Join(dir, "vectors.bin")
	data, err := cachefile.ReadFile(c.path)
	if err != nil {
		return c
	}
	if entries, err := decodeVectors(data); err == nil {
		c.entries = entries
	}
	return c
}

// get returns the vector of k when it has dims numbers (a vector of
// another length is another model's, whatever its name).
func (c *vectorCache) get(k cacheKey, dims int) ([]float32, bool) {
	v, ok := c.entries[k]
	if !ok || len(v) != dims {
		return nil, false
	}
	c.used[k] = true
	return v, true
}

func (c *vectorCache) put(k cacheKey, v []float32) {
	c.entries[k] = v
	c.used[k] = true
	c.dirty = true
}

// save writes the entries this answer used (so the file never outgrows
// the log, and another model's vectors leave it), atomically, when
// anything changed.
func (c *vectorCache) save() error {
	if c.path == "" || !c.dirty && len(c.used) == len(c.entries) {
		return nil
	}
	keep := map[cacheKey][]float32{}
	for k := range c.used {
		keep[k] = c.entries[k]
	}
	if err := atomicfile.MkdirCache(filepath.Dir(c.path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(c.path, encodeVectors(keep), 0o600)
}

// Layout: format line; entry count; each entry's key, length and numbers
// (float32, little-endian); the CRC-32C of all that.
func encodeVectors(entries map[cacheKey][]float32) []byte {
	size := len(vectorFormat) + 8
	for _, v := range entries {
		size += 32 + 4 + 4*len(v)
	}
	buf := make([]byte, 0, size+4)
	buf = append(buf, vectorFormat...)
	buf = binary.AppendUvarint(buf, uint64(len(entries)))
	for k, v := range entries {
		buf = append(buf, k[:]...)
		buf = binary.AppendUvarint(buf, uint64(len(v)))
		for _, x := range v {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(x))
		}
	}
	return cachefile.Seal(buf)
}

var errCorruptVectors = errors.New("corrupt vector cache")

func decodeVectors(data []byte) (map[cacheKey][]float32, error) {
	b, ok := cachefile.Open(data, []byte(vectorFormat))
	if !ok {
		return nil, errCorruptVectors
	}
	n, w := binary.Uvarint(b)
	if w <= 0 || n > uint64(len(b)) {
		return nil, errCorruptVectors
	}
	b = b[w:]
	out := make(map[cacheKey][]float32, n)
	for i := uint64(0); i < n; i++ {
		if len(b) < 32 {
			return nil, errCorruptVectors
		}
		var k cacheKey
		copy(k[:], b[:32])
		b = b[32:]
		dims, w := binary.Uvarint(b)
		if w <= 0 || dims == 0 || dims > uint64(len(b)-w)/4 {
			return nil, errCorruptVectors
		}
		b = b[w:]
		v := make([]float32, dims)
		for j := range v {
			v[j] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*j:]))
		}
		b = b[4*dims:]
		out[k] = v
	}
	if len(b) != 0 {
		return nil, errCorruptVectors
	}
	return out, nil
}
