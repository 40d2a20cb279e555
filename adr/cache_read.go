package adr

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"sync"
	"sync/atomic"
	"time"
)

// readRecord returns the parsed record at p: from the cache without
// reading the file when the cache knows the blob the file holds (its git
// tree or index entry names it, or its stat data are unchanged), from the
// cache after reading and hashing it, or parsed. Identity fields are left
// to the caller.
func readRecord(fsys fs.FS, p string, e fs.DirEntry, cache *Cache, now time.Time) (*Record, error) {
	if cache == nil {
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, fmt.Errorf("read %q: %w", p, err)
		}
		return Parse(data), nil
	}
	var (
		key     statKey
		st      statEntry
		hasStat bool
	)
	if e != nil {
		if bh, ok := e.(blobHasher); ok {
			// A git tree or the index: the entry names the bytes.
			if blob := bh.BlobHash(); blob != "" {
				if rec := cache.lookup(blob); rec != nil {
					rec.src = &lazySource{fsys: underlying(fsys), path: p, blob: blob}
					rec.blob = blob
					return rec, nil
				}
			}
		} else if cache.hasStats() {
			if key, st, hasStat = fileStat(fsys, p, e); hasStat {
				if blob, ok := cache.statBlob(key, st); ok {
					if rec := cache.lookup(blob); rec != nil {
						rec.src = &lazySource{fsys: underlying(fsys), path: p, entry: e, blob: blob, verify: true}
						rec.blob = blob
						return rec, nil
					}
				}
			}
		} else {
			// Nothing to match the stat data against (a first load):
			// the file's description comes with its bytes below.
			hasStat = true
		}
	}
	data, fi, err := readListed(fsys, p, e)
	if err != nil {
		return nil, fmt.Errorf("read %q: %w", p, err)
	}
	if hasStat {
		// What was read is what the stat data describe: the file's own
		// description when the read gave one, else a stat after it.
		if fi != nil {
			key, st, hasStat = infoStat(p, fi)
		} else {
			key, st, hasStat = fileStat(fsys, p, e)
		}
	}
	blob := gitBlobHash(data)
	rec := cache.lookup(blob)
	if rec != nil {
		rec.text = NewText(data)
	} else {
		rec = Parse(data)
		sum := sha256.Sum256(data)
		rec.sum = string(sum[:])
		enc := cache.store(blob, rec)
		// The record as the cache serves it in later runs: its fields
		// share the bytes of the entry the cache holds anyway, where the
		// parsed record holds its own copies (a first load of a long log
		// held three times as much for its records).
		if d, err := decodeParsed(enc); err == nil {
			d.text = rec.text
			rec = d
		}
	}
	rec.blob = blob
	// The record keeps the text it was parsed from, and can let go of it
	// (ReleaseText): it is read again, checked against its blob, if used.
	_, named := e.(blobHasher)
	src := &lazySource{fsys: underlying(fsys), path: p, entry: e, blob: blob, verify: !named, text: rec.text}
	src.loaded.Store(true)
	rec.src = src
	if hasStat {
		st.blob = blob
		cache.noteStat(key, st, now)
	}
	return rec, nil
}

// listedReader reads a file its caller found in a listing with fewer
// system calls than a plain read, and describes what it read
// (confine.ConfinedFS, the work tree).
type listedReader interface {
	ReadListed(name string, e fs.DirEntry) ([]byte, fs.FileInfo, error)
}

// readListed reads the file at p, listed as e (nil when unknown), and
// describes it when the file system could (fi is nil otherwise).
func readListed(fsys fs.FS, p string, e fs.DirEntry) ([]byte, fs.FileInfo, error) {
	if lr, ok := underlying(fsys).(listedReader); ok && e != nil {
		return lr.ReadListed(p, e)
	}
	data, err := fs.ReadFile(fsys, p)
	return data, nil, err
}

// lazySource reads the text of a record the cache served without reading
// its file, the first time [Record.Text] is called. Copies of the record
// share it.
type lazySource struct {
	once sync.Once
	// loaded is set once load has run (text then holds what it read).
	loaded atomic.Bool
	fsys   fs.FS
	path   string
	// entry is the file's entry in the listing the load read (nil when
	// the file system names blobs), for a read with fewer system calls.
	entry fs.DirEntry
	blob  string
	// verify: the file is in a work tree and may have changed since the
	// load looked at it.
	verify bool
	// log is the log the record belongs to, for a re-parse.
	log  *Log
	text *Text
}

// Text is the record's source: its exact bytes with a line index. A
// record the parse cache served is read from its file on the first call.
// Should that file no longer hold the bytes the record was parsed from (it
// changed while the command ran), the record is parsed again from what
// the file holds now, so that its fields always describe its text. That
// re-parse rewrites the record in place: it is the one case where a
// record changes after the load.
func (r *Record) Text() *Text {
	if r.text == nil && r.src != nil {
		s := r.src
		s.once.Do(func() { s.load(r) })
		return s.text
	}
	return r.text
}

// PeekText is the record's text for a pass that does not need it
// afterwards, such as analysing the terms of every record of a log: a
// text the record holds is returned as it is, and one the parse cache
// left unread is read and returned without being kept, so that such a
// pass over a big log holds one text at a time, not all of them. A file
// that no longer holds the bytes the record was parsed from (or is gone)
// is handled as [Record.Text] handles it: the record is parsed again from
// what the file holds now, and keeps that text.
func (r *Record) PeekText() *Text {
	if r.text != nil || r.src == nil {
		return r.Text()
	}
	s := r.src
	if s.loaded.Load() {
		return s.text
	}
	data, _, err := readListed(s.fsys, s.path, s.entry)
	if err != nil || (s.verify && gitBlobHash(data) != s.blob) {
		return r.Text()
	}
	return NewText(data)
}

// Blob is the git blob hash of the record's text (the object name git
// gives its bytes), known without reading the file when the parse cache
// served the record.
func (r *Record) Blob() string {
	if r.blob != "" {
		return r.blob // re-parsing a changed file clears it
	}
	return gitBlobHash(r.Text().Src)
}

// SourceSHA256 is the SHA-256 of the record's text, known without reading
// the file when the parse cache served the record.
func (r *Record) SourceSHA256() [32]byte {
	if len(r.sum) == sha256.Size {
		return [32]byte([]byte(r.sum))
	}
	return sha256.Sum256(r.Text().Src)
}

// ReleaseText lets go of the record's text, which is read again from its
// file (and checked against its blob) if it is used again: for a pass
// over every record of a long log that needs each text once, so that the
// texts are not all held at once. It does nothing to a record whose text
// cannot be read again (one not read through the parse cache, or parsed
// again after its file changed). Its caller must be the only one using
// the record: another goroutine reading its text at the same time races.
func (r *Record) ReleaseText() { r.releaseText() }

func (r *Record) releaseText() {
	s := r.src
	if s == nil || r.text == nil || r.text != s.text {
		return
	}
	r.text = nil
	r.src = &lazySource{fsys: s.fsys, path: s.path, entry: s.entry, blob: s.blob, verify: s.verify, log: s.log}
}

func (s *lazySource) load(r *Record) {
	defer s.loaded.Store(true)
	data, _, err := readListed(s.fsys, s.path, s.entry)
	if err == nil && (!s.verify || gitBlobHash(data) == s.blob) {
		s.text = NewText(data)
		r.text = s.text
		return
	}
	// Changed or gone: what the file holds now (nothing, when it is
	// gone) is the record.
	n := Parse(data)
	n.ID, n.Number, n.Numbered, n.Suffix = r.ID, r.Number, r.Numbered, r.Suffix
	n.Path, n.Root, n.Archived = r.Path, r.Root, r.Archived
	n.settleTitle(nameOf(r.Path))
	if err != nil {
		n.Problems = append(n.Problems, fmt.Sprintf("could not be read again: %v", err))
	}
	*r = *n
	r.assignUnitIDs()
	if s.log != nil {
		for i := range r.Relations {
			if t := s.log.Target(r, r.Relations[i].Target); t != nil {
				r.Relations[i].TargetID = t.ID
			}
		}
	}
	s.text = r.text
}
