package evidence

import (
	"crypto/sha256"
	"encoding/binary"
	"io"
	"path/filepath"
	"sync"

	"github.com/git-adr/git-adr/internal/atomicfile"
	"github.com/git-adr/git-adr/internal/cachefile"
	"github.com/git-adr/git-adr/internal/confine"
	"github.com/git-adr/git-adr/internal/offheap"
	"github.com/git-adr/git-adr/retrieve"
)

// The task index is the body and title indexes of the live records as
// retrieve stores them, in $GIT_DIR/adr/cache/index.bin, so that a warm
// task query neither decodes the term cache nor rebuilds an inverted
// index: it opens the file and decodes the postings of its own words.
// The file names the records it indexes by a key over their IDs and term
// cache keys (so over their paths and blob hashes) in the order the index
// numbers them, and it is used only when that key is exactly the current
// one. Like the term cache it is derived data: a missing, damaged (a
// CRC-32C covers it), foreign or outdated file is ignored and replaced.

// taskIndexFormat changes with the layout of index.bin; the term cache's
// format (which changes with analysis) is part of every key.
const taskIndexFormat = "git-adr task index v2\n"

// indexKey names an ordered set of documents: their IDs and term cache
// keys.
func indexKey(ids []string, keys []cacheKey) [32]byte {
	h := sha256.New()
	h.Write([]byte(cacheFormat))
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(ids)))
	h.Write(n[:])
	var buf []byte // one buffer: a conversion per record allocated
	for i, id := range ids {
		buf = append(append(append(buf[:0], id...), 0), keys[i][:]...)
		h.Write(buf)
	}
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

func taskIndexPath(dir string) string { return filepath.Join(dir, "index.bin") }

// loadTaskIndex opens the stored indexes when they are those of key,
// over the file's bytes, which read reads.
func loadTaskIndex(dir string, key [32]byte, ids []string, read offheap.Reader) (body, title *retrieve.Index, ok bool) {
	if dir == "" {
		return nil, nil, false
	}
	f, fi, err := confine.OpenRegularFile(taskIndexPath(dir))
	if err != nil {
		return nil, nil, false
	}
	defer f.Close()
	data, release, err := read.ReadFull(f, fi.Size())
	if err != nil {
		return nil, nil, false
	}
	body, title, err = decodeTaskIndex(data, key, ids)
	if err != nil {
		// Another log's index (one record edited since), or damage: the
		// index is rebuilt, and nothing points into these bytes.
		release()
		return nil, nil, false
	}
	return body, title, true
}

// decodeTaskIndex checks the file's format, key and checksum and opens
// both indexes.
func decodeTaskIndex(data []byte, key [32]byte, ids []string) (body, title *retrieve.Index, err error) {
	rest, ok := cachefile.Open(data, append([]byte(taskIndexFormat), key[:]...))
	if !ok {
		return nil, nil, errCorrupt
	}
	body, rest, err = retrieve.OpenIndex(rest, ids)
	if err != nil {
		return nil, nil, errCorrupt
	}
	title, rest, err = retrieve.OpenIndex(rest, ids)
	if err != nil || len(rest) != 0 {
		return nil, nil, errCorrupt
	}
	return body, title, nil
}

// storedIndexes are the body and title indexes of the documents ids,
// numbered in vocab, made in their stored form and opened over it
// (retrieve.StoredNumbered), with those bytes; the title's on another
// core.
func storedIndexes(ids []string, vocab *retrieve.Vocabulary, body, title []retrieve.NumberedTerms) (bodyIx, titleIx *retrieve.Index, bodyData, titleData []byte) {
	var wg sync.WaitGroup
	wg.Go(func() { titleIx, titleData = retrieve.StoredNumbered(ids, vocab, title) })
	bodyIx, bodyData = retrieve.StoredNumbered(ids, vocab, body)
	wg.Wait()
	return bodyIx, titleIx, bodyData, titleData
}

// saveTaskIndex replaces the stored indexes with the body and title
// indexes' stored forms, for key, atomically (concurrent writers: the
// last one wins, and each file is whole).
func saveTaskIndex(dir string, key [32]byte, body, title []byte) error {
	if dir == "" {
		return nil
	}
	if err := atomicfile.MkdirCache(dir, 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFunc(taskIndexPath(dir), 0o600, func(w io.Writer) error {
		sw := cachefile.NewSealer(w)
		for _, part := range [][]byte{[]byte(taskIndexFormat), key[:], body, title} {
			if _, err := sw.Write(part); err != nil {
				return err
			}
		}
		return sw.Close()
	})
}
