package adr

import (
	"errors"
	"fmt"
	"path/filepath"
)

// IndexesWithin renders the INDEX.md of every root of l, a log read with
// some of the roots named (--root), with the relations resolved against
// full, the log discovery finds, so that an index never depends on which
// roots a run happened to name. When full lacks one of l's roots, or
// cannot be read (nil), l's own indexes are rendered.
func (l *Log) IndexesWithin(full *Log) ([]Index, error) {
	if full == nil {
		return l.Indexes()
	}
	want := map[string]bool{}
	for _, r := range l.Roots {
		if !r.File {
			want[r.Path] = true
		}
	}
	all, err := full.Indexes()
	if err != nil {
		return nil, err
	}
	var out []Index
	for _, ix := range all {
		if want[ix.Root.Path] {
			out = append(out, ix)
		}
	}
	if len(out) != len(want) {
		return l.Indexes()
	}
	return out, nil
}

// IndexProblem is the first index of ixs that git-adr must not write: a
// hand-written INDEX.md ([*ForeignIndexError]) or one that is another
// file on a case-insensitive file system ([*IndexCollisionError]).
func IndexProblem(ixs []Index) error {
	for _, ix := range ixs {
		switch ix.State {
		case IndexForeign:
			return &ForeignIndexError{Path: ix.Path}
		case IndexCollision:
			return &IndexCollisionError{Path: ix.Path, Other: ix.Other}
		}
	}
	return nil
}

// Stage adds the index to cs when it is missing or stale, and reports
// whether it did.
func (ix Index) Stage(cs *Changeset) bool {
	switch ix.State {
	case IndexMissing:
		cs.Create(ix.Path, ix.Content)
		return true
	case IndexStale:
		cs.Update(ix.Path, ix.Current, ix.Content)
		return true
	}
	return false
}

// ErrNotIndexOutput means a file named as an index's output exists, was
// not written by `git adr index` and has no adr-log section.
var ErrNotIndexOutput = errors.New("was not written by git adr index and has no adr-log section")

// IndexOutput is the content of the file an index is written to instead
// of the root's INDEX.md (--output), which holds cur when it exists: its
// adr-log section filled, or the whole index where there is no file or
// the file is one `git adr index` wrote ([ErrNotIndexOutput] otherwise).
// Without a prefix, links are relative to dir, the file's folder; abs
// gives a record's absolute path.
func IndexOutput(cur []byte, exists bool, dir string, abs func(string) string, root *Root, l *Log, o IndexOptions) ([]byte, error) {
	if o.Prefix == "" {
		o.Link = func(r *Record) string {
			p, err := filepath.Rel(dir, abs(r.Path))
			if err != nil {
				return r.Path
			}
			return filepath.ToSlash(p)
		}
	}
	switch {
	case exists && HasAdrlogSection(cur):
		return FillAdrlogSection(cur, root, l, o)
	case !exists || IsGeneratedIndex(cur):
		return RenderIndexWith(root, l, o), nil
	}
	return nil, ErrNotIndexOutput
}

// IndexNotes say why some roots get no INDEX.md or another name for it:
// single-file logs are their own index, and a root holding a file that a
// case-insensitive file system takes for INDEX.md gets the configured
// other name.
func (l *Log) IndexNotes() (logs, renamed []string) {
	for _, r := range l.LogFiles() {
		logs = append(logs, fmt.Sprintf("%s is a single-file log and its own index; no %s is written for it", r.Path, r.IndexName()))
	}
	for _, r := range l.Roots {
		if twin := r.IndexTwin(); twin != "" {
			renamed = append(renamed, fmt.Sprintf("%s has %s, which is %s on case-insensitive file systems (macOS, Windows): the index is %s (index_file in %s names it otherwise)",
				r.Dir(), twin, IndexFile, r.Join(r.IndexName()), ConfigFile))
		}
	}
	return logs, renamed
}
