package adr

import (
	"io/fs"
	"path"
	"strings"
)

// A narrow load (LoadOptions.Only) makes records for a few paths and
// knows the rest of each root by name. What the records it made link to
// must still resolve as in a whole load: Ensure first lists the names a
// record's relations may mean (every one that could be a candidate, so
// that an ambiguous reference stays ambiguous), and no others.

// narrow reports whether a load left records unlisted.
func (l *Log) narrow() bool {
	for _, root := range l.Roots {
		if len(root.unlisted) > 0 {
			return true
		}
	}
	return false
}

// listNeighbours makes records of the unlisted names that r's relations
// may name.
func (l *Log) listNeighbours(r *Record) {
	if len(r.Relations) == 0 || !l.narrow() {
		return
	}
	var matches []func(u unlisted) bool
	for _, rel := range r.Relations {
		tg := strings.TrimSpace(rel.Target)
		if isIDText(tg) {
			ref, _ := SplitLocator(tg)
			matches = append(matches, idCandidate(ref))
			continue
		}
		p := linkPath(tg)
		if p == "" || strings.Contains(p, "://") || strings.HasPrefix(p, "mailto:") {
			continue
		}
		base := baseOf(cleanRel(p))
		matches = append(matches, func(u unlisted) bool { return sameFile(u.path, base) })
	}
	if len(matches) == 0 {
		return
	}
	changed := false
	for _, root := range l.Roots {
		kept := root.unlisted[:0:0]
		var made []*Record
		for _, u := range root.unlisted {
			hit := false
			for _, m := range matches {
				if m(u) {
					hit = true
					break
				}
			}
			if !hit {
				kept = append(kept, u)
				continue
			}
			made = append(made, root.listed(u))
		}
		if len(made) == 0 {
			continue
		}
		changed = true
		root.unlisted = kept
		// A new slice: a caller may be ranging over the old one.
		recs := make([]*Record, 0, len(root.Records)+len(made))
		recs = append(append(recs, root.Records...), made...)
		sortRecords(recs)
		root.Records = recs
	}
	if !changed {
		return
	}
	recs := make([]*Record, 0, len(l.Records))
	for _, root := range l.Roots {
		recs = append(recs, root.Records...)
	}
	l.Records = recs
	l.index()
}

// idCandidate matches the names an ID reference may mean: its number
// (whatever the prefix and suffix) or its stem or slug.
func idCandidate(ref string) func(u unlisted) bool {
	_, n, _, numbered := parseIDNumber(ref)
	base := baseOf(ref)
	return func(u unlisted) bool {
		if numbered && u.fn.Numbered && u.fn.Number == n {
			return true
		}
		fn := nameOf(u.path)
		slug := fn.Slug
		if !fn.Numbered && isDateSlug(fn.Stem) {
			slug = dateSlugRest(fn.Stem)
		}
		return strings.EqualFold(fn.Stem, base) || slug != "" && strings.EqualFold(slug, base) || sameFile(u.path, base)
	}
}

// sameFile reports whether the record at p may be what a link or
// reference to a file named base means: the file, the file without its
// extension, or a record folder of that name.
func sameFile(p, base string) bool {
	b := baseOf(p)
	if b == base || strings.TrimSuffix(b, path.Ext(b)) == base {
		return true
	}
	d := dirOf(p)
	return d != "" && isFolderRecordFile(b) && baseOf(d) == base
}

// listed makes the record of an unlisted name, as a lazy load makes it.
func (root *Root) listed(u unlisted) *Record {
	rec := &Record{Path: u.path, Status: Unknown, TitleNumber: -1, lazy: true}
	rec.Root = root
	rec.settleTitle(*u.fn)
	rec.name = u.fn
	rec.Archived = u.archived
	rec.Numbered, rec.Number, rec.Suffix = u.fn.Numbered, u.fn.Number, u.fn.Suffix
	if rec.Numbered {
		rec.ID = root.FormatID(rec.Number) + rec.Suffix
	} else {
		rec.ID = u.fn.Stem
		if root.Name != "" {
			rec.ID = root.Name + "/" + u.fn.Stem
		}
	}
	rec.assignUnitIDs()
	return rec
}

// Derive is the log as it reads over fsys, a state whose files are l's
// with other contents at the changed paths alone (the parent of a commit
// that only edits records): the roots, names and conventions are l's, and
// the records at those paths are read from fsys when Ensure parses them.
// It reports false, and the caller loads fsys itself, unless l is lazy
// and every changed path is one of its records known by name only (not
// yet parsed: a record whose name does not say it is one was parsed to
// decide that, and another content may decide otherwise) or a file
// outside every root that is not configuration (a dot file).
func (l *Log) Derive(fsys fs.FS, changed []string) (*Log, bool) {
	if !l.Options.Lazy {
		return nil, false
	}
	for _, p := range changed {
		inside := false
		for _, root := range l.Roots {
			inside = inside || root.Holds(p)
		}
		switch r := l.ByPath(p); {
		case r != nil && r.lazy && !r.InLogFile():
		case r == nil && !inside && !strings.HasPrefix(baseOf(p), "."):
		default:
			return nil, false
		}
	}
	d := &Log{FS: fsys, Config: l.Config, Notes: l.Notes, Options: l.Options}
	for _, root := range l.Roots {
		nr := *root
		nr.Records = make([]*Record, len(root.Records))
		for i, r := range root.Records {
			c := *r
			c.Root = &nr
			nr.Records[i] = &c
		}
		d.Roots = append(d.Roots, &nr)
		d.Records = append(d.Records, nr.Records...)
	}
	d.resolveRelations()
	return d, true
}
