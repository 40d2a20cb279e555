package adr

import "io/fs"

// IndexesOver renders the INDEX.md of every root of l. When named is set
// (the run named some roots with --root) relations are resolved against
// the whole log fsys holds, read from cwd (see [Log.IndexesWithin]), so
// that an index never depends on which roots a run named.
func (l *Log) IndexesOver(fsys fs.FS, cwd string, named bool) ([]Index, error) {
	if !named {
		return l.Indexes()
	}
	full, err := Load(fsys, LoadOptions{Cwd: cwd})
	if err != nil {
		full = nil
	}
	return l.IndexesWithin(full)
}

// KeepsIndex reports whether any root of l has its index file, as exists
// says of a repository path. Most logs keep none: then a change leaves no
// index to bring up to date.
func (l *Log) KeepsIndex(exists func(rel string) bool) bool {
	for _, r := range l.Roots {
		if exists(r.Join(r.IndexName())) {
			return true
		}
	}
	return false
}

// StaleIndexChanges reads the log fsys holds now (opt as the command read
// it; named as for [Log.IndexesOver]) and returns the changes that bring
// each stale generated index up to date, so that an index a team keeps
// stays true without a separate step. Missing and hand-written indexes
// are left alone.
func StaleIndexChanges(fsys fs.FS, opt LoadOptions, named bool) ([]FileChange, error) {
	l, err := Load(fsys, opt)
	if err != nil {
		return nil, err
	}
	ixs, err := l.IndexesOver(fsys, opt.Cwd, named)
	if err != nil {
		return nil, err
	}
	var changes []FileChange
	for _, ix := range ixs {
		if ix.State == IndexStale {
			changes = append(changes, FileChange{Path: ix.Path, Old: ix.Current, New: ix.Content})
		}
	}
	return changes, nil
}
