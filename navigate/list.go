package navigate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
)

// Listing limits.
const (
	// MaxListEntries is the most entries one listing page holds.
	MaxListEntries = 200
	// MaxListPageBytes bounds the JSON encoding of a page's entries: 16 KiB.
	MaxListPageBytes = 16 << 10
)

// Entry types reported in [Entry.Type].
const (
	TypeFile    = "file"
	TypeDir     = "dir"
	TypeSymlink = "symlink" // never followed; the link's own entry
	TypeOther   = "other"   // device, socket, pipe
)

// Entry is one directory entry.
type Entry struct {
	Name string `json:"name"`
	// Type is file, dir, symlink or other.
	Type string `json:"type"`
	// Size is the size in bytes of a file; nil for anything else.
	Size *int64 `json:"size"`
}

// Listing is one page of a directory, sorted by name (byte order). The
// JSON shape is documented in docs/json.md.
type Listing struct {
	// Path is the directory, relative to the tree's current directory.
	Path    string  `json:"-"`
	Entries []Entry `json:"entries"`
	// NextAfter is the name to continue after; nil when the page is the
	// last one.
	NextAfter *string `json:"next_after"`
}

// ListOptions choose a page.
type ListOptions struct {
	// After is a cursor: only names sorting after it are listed. It need
	// not exist (an entry deleted between pages does not break paging).
	After string
	// Budget bounds the entries as the caller sends them: a page stops
	// before the entry that would pass it (a page holds one entry at
	// least).
	Budget Budget
}

// List returns one page of the directory at dir (relative to the current
// directory, or absolute inside the tree). .git is never listed.
func (t *Tree) List(dir string, o ListOptions) (*Listing, error) {
	if strings.ContainsAny(o.After, "/\x00") {
		return nil, &ArgError{Arg: "after", Value: fmt.Sprintf("%q", o.After), Problem: "must be an entry name, not a path"}
	}
	lexical, real, err := t.locate(dir)
	if err != nil {
		return nil, err
	}
	f, err := t.open(dir, real, true)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%q: %w", dir, ErrNotDir)
	}
	// Read in chunks and keep only the smallest names past the cursor, so
	// a directory of a million entries costs a page's memory, not its own.
	var keep []fs.DirEntry
	for {
		chunk, err := f.ReadDir(1024)
		for _, e := range chunk {
			if e.Name() > o.After && e.Name() != ".git" {
				keep = append(keep, e)
			}
		}
		if len(keep) > 4*MaxListEntries {
			keep = smallest(keep, MaxListEntries+1)
		}
		if errors.Is(err, io.EOF) || (err == nil && len(chunk) == 0) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%q: %w", dir, err)
		}
	}
	keep = smallest(keep, MaxListEntries+1)
	l := &Listing{Path: t.show(lexical), Entries: []Entry{}}
	size, cost := 0, 0
	for i, e := range keep {
		if i == MaxListEntries {
			break
		}
		ent := entryOf(e)
		b, _ := json.Marshal(ent)
		if size+len(b)+1 > MaxListPageBytes && len(l.Entries) > 0 {
			break
		}
		if o.Budget.on() {
			c := o.Budget.Cost(ent)
			if cost+c > o.Budget.Max && len(l.Entries) > 0 {
				break
			}
			cost += c
		}
		size += len(b) + 1
		l.Entries = append(l.Entries, ent)
	}
	if len(l.Entries) < len(keep) {
		last := l.Entries[len(l.Entries)-1].Name
		l.NextAfter = &last
	}
	return l, nil
}

// smallest sorts es by name and keeps the first n.
func smallest(es []fs.DirEntry, n int) []fs.DirEntry {
	slices.SortFunc(es, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	if len(es) > n {
		es = es[:n]
	}
	return es
}

func entryOf(e fs.DirEntry) Entry {
	ent := Entry{Name: e.Name(), Type: TypeOther}
	switch t := e.Type(); {
	case t&fs.ModeSymlink != 0:
		ent.Type = TypeSymlink
	case t.IsDir():
		ent.Type = TypeDir
	case t.IsRegular():
		ent.Type = TypeFile
		if fi, err := e.Info(); err == nil {
			sz := fi.Size()
			ent.Size = &sz
		}
	}
	return ent
}
