package evidence

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"path/filepath"

	"github.com/git-adr/git-adr/internal/atomicfile"
	"github.com/git-adr/git-adr/internal/cachefile"
	"github.com/git-adr/git-adr/internal/confine"
	"github.com/git-adr/git-adr/internal/offheap"
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

// cachedDoc is a record's analysed body and title, their terms numbered
// in the cache's vocabulary.
type cachedDoc struct {
	body, title retrieve.NumberedTerms
}

type termCache struct {
	path string
	// vocab numbers the terms of every entry, and of the records a query
	// analyses, which join the cache (and the indexes built from it).
	vocab   *retrieve.Vocabulary
	entries map[cacheKey]cachedDoc
	used    map[cacheKey]bool
	dirty   bool
	// loaded counts the entries the file held when read; added those
	// this run put.
	loaded, added int
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
	c := &termCache{vocab: retrieve.NewVocabulary(0), entries: map[cacheKey]cachedDoc{}, used: map[cacheKey]bool{}}
	if dir == "" {
		return c
	}
	c.path = filepath.Join(dir, "terms.bin")
	f, fi, err := confine.OpenRegularFile(c.path)
	if err != nil {
		return c
	}
	defer f.Close()
	// Read outside the heap and given back once decoded (which copies
	// what it keeps): at 10,000 records the file is 9 MB that would
	// otherwise bring the next collection that much nearer.
	_ = offheap.Use(f, fi.Size(), func(data []byte) error {
		vocab, entries, err := decodeCache(data)
		if err == nil {
			c.vocab, c.entries, c.loaded = vocab, entries, len(entries)
		}
		return err
	})
	return c
}

func (c *termCache) get(k cacheKey) (cachedDoc, bool) {
	d, ok := c.entries[k]
	if ok {
		c.used[k] = true
	}
	return d, ok
}

// put adds a record's analysed body and title, numbering their terms.
func (c *termCache) put(k cacheKey, body, title retrieve.DocTerms) cachedDoc {
	d := cachedDoc{body: c.vocab.Number(body), title: c.vocab.Number(title)}
	c.entries[k] = d
	c.used[k] = true
	c.dirty = true
	c.added++
	return d
}

// putNumbered adds a record's analysed body and title numbered in vocab,
// renumbering them unless vocab is the cache's, which it becomes when the
// cache is empty.
func (c *termCache) putNumbered(k cacheKey, d cachedDoc, vocab *retrieve.Vocabulary) cachedDoc {
	if len(c.entries) == 0 && c.vocab.Len() == 0 {
		c.vocab = vocab
	}
	if vocab != c.vocab {
		d = cachedDoc{body: c.vocab.Renumber(d.body, vocab), title: c.vocab.Renumber(d.title, vocab)}
	}
	c.entries[k] = d
	c.used[k] = true
	c.dirty = true
	c.added++
	return d
}

// worthSaving reports whether what this run changed is worth rewriting
// the file for: every entry new (a first query), or new and unused
// entries together at least 1/128 of the file's. The file is megabytes at
// 10,000 records, and rewriting it for the one record an edit changed
// cost the first question after the edit a tenth of its CPU; an entry
// left out costs a later rebuild of the task index one record's analysis
// (tens of microseconds). Unused entries only grow the file by as much.
func (c *termCache) worthSaving() bool {
	unused := len(c.entries) - len(c.used)
	return c.loaded == 0 || (c.added+unused)*128 >= c.loaded
}

// save writes the entries used by this run (so the file never outgrows the
// log) when anything changed, atomically.
func (c *termCache) save() error {
	if c.path == "" || !c.dirty && len(c.used) == len(c.entries) || !c.worthSaving() {
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
	if err := atomicfile.MkdirCache(filepath.Dir(c.path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFunc(c.path, 0o600, func(w io.Writer) error { return writeCache(w, c.vocab, keep) })
}

// Layout: format line; vocabulary (count, then length-prefixed strings);
// entries (count, then key, and body and title as length, term count and
// (vocabulary index, frequency) pairs); the CRC-32C of all that.
func encodeCache(vocab *retrieve.Vocabulary, entries map[cacheKey]cachedDoc) []byte {
	var b bytes.Buffer
	_ = writeCache(&b, vocab, entries) // a bytes.Buffer does not fail
	return b.Bytes()
}

// writeCache writes the term cache's file to w as it encodes it: at
// 10,000 records the file is megabytes, and a cold query would otherwise
// hold it whole while it also builds its indexes.
func writeCache(w io.Writer, vocab *retrieve.Vocabulary, entries map[cacheKey]cachedDoc) error {
	// The file's vocabulary is the terms the entries use, in vocab's
	// order: a term no kept entry uses any more is left out, and the
	// others renumbered.
	number := make([]int32, vocab.Len())
	for _, d := range entries {
		for _, nt := range [2]retrieve.NumberedTerms{d.body, d.title} {
			for n := range nt.All(vocab) {
				number[n] = 1
			}
		}
	}
	words := 0
	for n, use := range number {
		if use == 0 {
			number[n] = -1
			continue
		}
		number[n] = int32(words)
		words++
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
	put(uint64(words))
	for n, to := range number {
		if to < 0 {
			continue
		}
		t := vocab.Term(int32(n))
		put(uint64(len(t)))
		buf = append(buf, t...)
		if len(buf) > 32<<10 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	put(uint64(len(entries)))
	for k, d := range entries {
		buf = append(buf, k[:]...)
		for _, nt := range [2]retrieve.NumberedTerms{d.body, d.title} {
			putF(nt.Len)
			put(uint64(nt.Count()))
			for n, tf := range nt.All(vocab) {
				put(uint64(number[n]))
				putF(tf)
			}
		}
		if len(buf) > 32<<10 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	return sw.Close()
}

var errCorrupt = errors.New("corrupt term cache")

func decodeCache(data []byte) (*retrieve.Vocabulary, map[cacheKey]cachedDoc, error) {
	b, ok := cachefile.Open(data, []byte(cacheFormat))
	if !ok {
		return nil, nil, errCorrupt
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
		return nil, nil, errCorrupt
	}
	// The file's numbers are the vocabulary's, but for a word written
	// twice (a file this code did not write), which gets the first one's.
	vocab := retrieve.NewVocabulary(int(nw))
	number := make([]int32, nw)
	for i := range number {
		l, err := get()
		if err != nil || l > uint64(len(b)) {
			return nil, nil, errCorrupt
		}
		number[i] = vocab.Add(string(b[:l]))
		b = b[l:]
	}
	ne, err := get()
	if err != nil || ne > uint64(len(b)) {
		return nil, nil, errCorrupt
	}
	out := make(map[cacheKey]cachedDoc, ne)
	var terms []int32 // an entry's, before they are packed
	var tfs []float32
	for i := uint64(0); i < ne; i++ {
		if len(b) < 32 {
			return nil, nil, errCorrupt
		}
		var k cacheKey
		copy(k[:], b[:32])
		b = b[32:]
		var d cachedDoc
		for j := 0; j < 2; j++ {
			l, err := getF()
			if err != nil {
				return nil, nil, err
			}
			n, err := get()
			if err != nil || n > uint64(len(b)) {
				return nil, nil, errCorrupt
			}
			terms, tfs = terms[:0], tfs[:0]
			for range n {
				wi, err := get()
				if err != nil || wi >= nw {
					return nil, nil, errCorrupt
				}
				tf, err := getF()
				if err != nil {
					return nil, nil, err
				}
				terms, tfs = append(terms, number[wi]), append(tfs, tf)
			}
			nt := vocab.Numbered(l, terms, tfs)
			if j == 0 {
				d.body = nt
			} else {
				d.title = nt
			}
		}
		out[k] = d
	}
	return vocab, out, nil
}
