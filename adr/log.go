package adr

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"
)

// Log is the whole decision log of a repository: every root and every
// record in it, archived records included.
type Log struct {
	FS     fs.FS
	Config *Config
	Roots  []*Root
	// Records are in root order, and within a root as an index lists
	// them (numbered records by number, then by ID; see sortRecords).
	Records []*Record
	// Notes say how roots were found or what was skipped.
	Notes []string
	// Options are the options the log was loaded with (Reload reuses
	// them).
	Options LoadOptions

	// ensured counts the records Ensure was asked to parse.
	ensured int

	byPath   map[string]*Record
	byID     map[string][]*Record
	byNumber map[int][]*Record
}

// LoadOptions tunes Load.
type LoadOptions = DiscoverOptions

// ErrNoRoots means no ADR directory was configured or found.
var ErrNoRoots = errors.New("no ADR directory found")

// Load discovers the roots of fsys (a repository work tree, index or commit
// tree) and parses every record.
func Load(fsys fs.FS, opt LoadOptions) (*Log, error) {
	cfg, err := LoadConfig(fsys)
	if err != nil {
		return nil, err
	}
	return LoadWithConfig(fsys, cfg, opt)
}

// LoadWithConfig is Load with an already read configuration.
func LoadWithConfig(fsys fs.FS, cfg *Config, opt LoadOptions) (*Log, error) {
	if opt.Cache != nil && !(opt.Lazy && (opt.NoSample || opt.Only != nil)) {
		// Read the cache file on the other core while discovery lists
		// the roots: the first record read waits for it otherwise. (A
		// load that parses no sample reads few records, if any: the
		// cache is read when one is.)
		go opt.Cache.load()
	}
	memo := newDirMemo(fsys)
	roots, notes, err := Discover(memo, cfg, opt)
	if err != nil {
		return nil, err
	}
	l := &Log{FS: fsys, Config: cfg, Roots: roots, Notes: notes, Options: opt}
	for _, root := range roots {
		if err := root.scanRecords(memo, opt); err != nil {
			return nil, err
		}
		if root.Refused != nil {
			if root.Source == "--root" {
				return nil, fmt.Errorf("ADR root %q: %w", root.Dir(), root.Refused)
			}
			l.Notes = append(l.Notes, fmt.Sprintf("%v; its records are not read and nothing is written there", root.Refused))
		}
		if !root.Exists && root.Source == "--root" && !opt.AllowMissing {
			return nil, fmt.Errorf("ADR root %q: %w", root.Dir(), fs.ErrNotExist)
		}
		if n := root.emptyNote(fsys); n != "" {
			l.Notes = append(l.Notes, n)
		}
		l.Records = append(l.Records, root.Records...)
	}
	markNestedRoots(roots)
	l.resolveRelations()
	for _, r := range l.Records {
		if r.src != nil {
			r.src.log = l
		}
	}
	return l, nil
}

// markNestedRoots says of a folder a root skips that is a root itself
// ("proposed-adrs/" in a log) that it is one, not that its files are no
// records.
func markNestedRoots(roots []*Root) {
	isRoot := map[string]bool{}
	for _, r := range roots {
		isRoot[r.Path] = true
	}
	for _, r := range roots {
		for i, sk := range r.Skipped {
			if strings.HasSuffix(sk.Path, "/") && isRoot[strings.TrimSuffix(sk.Path, "/")] {
				r.Skipped[i].Reason = "a root of its own (its records are listed under it)"
			}
		}
	}
}

// ensureDirect is how many records Ensure parses before it turns to the
// parse cache.
const ensureDirect = 16

// Ensure parses a record that a lazy load read by name only. It is a
// no-op for parsed records.
func (l *Log) Ensure(r *Record) error {
	if !r.lazy {
		return nil
	}
	var n *Record
	// The parse cache is read whole on its first use: worth it for a pass
	// over many records (a root's index), not for the few a hook or
	// `show` parses. The first records are parsed directly.
	l.ensured++
	if c := l.Options.Cache; c != nil && l.ensured > ensureDirect {
		// As a whole load reads it: from the parse cache by the blob the
		// entry names or by the file's stat data, else parsed (and kept).
		if fi, err := fs.Stat(l.FS, r.Path); err == nil && fi.Mode().IsRegular() {
			e, ok := fi.(fs.DirEntry)
			if !ok {
				e = fs.FileInfoToDirEntry(fi)
			}
			if n, err = readRecord(l.FS, r.Path, e, c, cacheNow()); err != nil {
				return err
			}
			if n.src != nil {
				n.src.log = l
			}
		}
	}
	if n == nil {
		data, err := fs.ReadFile(l.FS, r.Path)
		if err != nil {
			return fmt.Errorf("read %q: %w", r.Path, err)
		}
		n = Parse(data)
	}
	n.ID, n.Number, n.Numbered, n.Suffix, n.Path, n.Root, n.Archived = r.ID, r.Number, r.Numbered, r.Suffix, r.Path, r.Root, r.Archived
	n.settleTitle(nameOf(r.Path))
	*r = *n
	r.assignUnitIDs()
	l.listNeighbours(r)
	for i := range r.Relations {
		if t := l.Target(r, r.Relations[i].Target); t != nil {
			r.Relations[i].TargetID = t.ID
		}
	}
	return nil
}

// Reload loads the log again over another file system (an Overlay of a
// proposal, a commit tree) with the same configuration and options, so
// that roots and IDs are found the same way.
func (l *Log) Reload(fsys fs.FS) (*Log, error) {
	opt := l.Options
	opt.Lazy = false
	return LoadWithConfig(fsys, l.Config, opt)
}

// NotFoundError means a reference names no record.
type NotFoundError struct{ Ref string }

func (e *NotFoundError) Error() string { return fmt.Sprintf("no record %q", e.Ref) }

// AmbiguousError means a reference names several records.
type AmbiguousError struct {
	Ref        string
	Candidates []*Record
	// Prefix reports a reference that starts several records' names
	// (see [Log.Lookup]) rather than naming each of them.
	Prefix bool
}

// Paths lists the candidates' paths, comma-separated.
func (e *AmbiguousError) Paths() string {
	var ps []string
	for _, r := range e.Candidates {
		ps = append(ps, r.Path)
	}
	return strings.Join(ps, ", ")
}

func (e *AmbiguousError) Error() string {
	var c []string
	for _, r := range e.Candidates {
		c = append(c, r.ID+" ("+r.Path+")")
	}
	return fmt.Sprintf("%q is ambiguous: %s", e.Ref, strings.Join(c, ", "))
}

// Resolve finds the record a reference names: an ID in any form
// ("ADR-0007", "adr-7", "7", "0007"), a slug, a file name or a path
// relative to the repository root. A unit locator ("#decision", "§3") is
// ignored here; see [SplitLocator].
func (l *Log) Resolve(ref string) (*Record, error) {
	return l.resolveIn(ref, nil)
}

func (l *Log) resolveIn(ref string, prefer *Root) (*Record, error) {
	rref, _ := SplitLocator(strings.TrimSpace(ref))
	if rref == "" {
		return nil, &NotFoundError{Ref: ref}
	}
	pick := func(cands []*Record) (*Record, error) {
		if len(cands) == 1 {
			return cands[0], nil
		}
		if len(cands) > 1 && prefer != nil {
			var in []*Record
			for _, c := range cands {
				if c.Root == prefer {
					in = append(in, c)
				}
			}
			if len(in) == 1 {
				return in[0], nil
			}
			if len(in) > 1 {
				cands = in
			}
		}
		if len(cands) > 1 {
			return nil, &AmbiguousError{Ref: ref, Candidates: cands}
		}
		return nil, nil
	}
	var cands []*Record
	// A section of a single-file log by its place: "docs/DECISIONS.md:21".
	if r := l.sectionAt(rref); r != nil {
		return r, nil
	}
	// A path or file name.
	if strings.Contains(rref, "/") || recordExt(rref) != "" {
		p := cleanRel(rref)
		if r := l.recordAt(p); r != nil {
			return r, nil
		}
		for _, r := range l.Records {
			if baseOf(r.Path) == baseOf(p) {
				cands = append(cands, r)
			}
		}
		if r, err := pick(cands); r != nil || err != nil {
			return r, err
		}
	}
	// An exact display ID or slug.
	if l.byID == nil {
		l.index()
	}
	if r, err := pick(l.byID[strings.ToLower(rref)]); r != nil || err != nil {
		return r, err
	}
	// A number, with or without a prefix.
	if prefix, n, suffix, ok := parseIDNumber(rref); ok {
		cands = nil
		for _, r := range l.byNumber[n] {
			if (prefix == "" || prefixMatches(r.Root, prefix)) && strings.EqualFold(r.Suffix, suffix) {
				cands = append(cands, r)
			}
		}
		if r, err := pick(cands); r != nil || err != nil {
			return r, err
		}
	}
	// A file stem or slug without its date or number.
	cands = nil
	for _, r := range l.Records {
		fn := nameOf(r.Path)
		slug := fn.Slug
		if !fn.Numbered && isDateSlug(fn.Stem) {
			slug = dateSlugRest(fn.Stem)
		}
		if strings.EqualFold(fn.Stem, rref) || slug != "" && strings.EqualFold(slug, rref) {
			cands = append(cands, r)
		}
	}
	if r, err := pick(cands); r != nil || err != nil {
		return r, err
	}
	return nil, &NotFoundError{Ref: ref}
}

func prefixMatches(root *Root, written string) bool {
	p := strings.ToLower(strings.TrimRight(root.Prefix, "-_ "))
	w := strings.ToLower(written)
	return w == p || w == "adr" || w == strings.ToLower(strings.TrimRight(root.Lead, "-_ "))
}

// resolveRelations sets TargetID on every relation whose target names a
// record: a relative link from the record's directory (with or without
// ".md", or site-absolute by file name), or an ID resolved in the record's
// own root first.
func (l *Log) resolveRelations() {
	l.index()
	// Target only reads the log once it is indexed; each record's
	// relations are its own.
	inParallel(len(l.Records), func(lo, hi int) {
		for _, r := range l.Records[lo:hi] {
			for i := range r.Relations {
				if t := l.Target(r, r.Relations[i].Target); t != nil {
					r.Relations[i].TargetID = t.ID
				}
			}
		}
	})
}

// Target resolves a relation target written in record from; nil when it
// names no record.
func (l *Log) Target(from *Record, target string) *Record {
	tg := strings.TrimSpace(target)
	if isIDText(tg) {
		rec, _ := SplitLocator(tg)
		if t, err := l.resolveIn(rec, from.Root); err == nil && t != nil {
			return t
		}
		return nil
	}
	if maybePrefixedID(tg) && prefixedID.MatchString(tg) {
		// "DR008": an ID with the log's own prefix.
		if t, err := l.resolveIn(tg, from.Root); err == nil && t != nil {
			return t
		}
		return nil
	}
	p := linkPath(tg)
	if p == "" || strings.Contains(p, "://") || strings.HasPrefix(p, "mailto:") {
		return nil
	}
	var cand string
	if strings.HasPrefix(p, "/") {
		cand = cleanRel(p)
	} else {
		cand = joinRel(dirOf(from.Path), p)
	}
	if r := l.recordAt(cand); r != nil {
		return r
	}
	if root := l.logFileAt(cand); root != nil {
		return sectionByFragment(root, tg)
	}
	// Site-absolute links ("/docs/0003-x") and links to a record that has
	// moved into or out of the root's archive: match by file name within
	// the same root.
	if d := dirOf(cand); from.Root != nil && (strings.HasPrefix(p, "/") || d == from.Root.Path || from.Root.IsArchiveDir(d)) {
		base := baseOf(cand)
		for _, r := range from.Root.Records {
			b := baseOf(r.Path)
			if b == base || strings.TrimSuffix(b, path.Ext(b)) == base {
				return r
			}
		}
	}
	return nil
}

// joinRel is cleanRel(path.Join(dir, p)) for a clean dir, with one
// allocation when p is a plain relative path (no "", "." or ".." part, no
// backslash), as nearly every link between records is.
func joinRel(dir, p string) string {
	plain := p != "" && !strings.Contains(p, "\\")
	for rest := p; plain; {
		part, tail, more := strings.Cut(rest, "/")
		plain = part != "" && part != "." && part != ".."
		if !more {
			break
		}
		rest = tail
	}
	switch {
	case !plain:
		return cleanRel(path.Join(dir, p))
	case dir == "":
		return p
	}
	return dir + "/" + p
}

func (l *Log) index() {
	n := len(l.Records)
	byPath := make(map[string]*Record, n)
	fillPaths := func() {
		for _, r := range l.Records {
			// The sections of a single-file log share its path: a path
			// names none of them (see Target for links to a section).
			if !r.InLogFile() {
				byPath[r.Path] = r
			}
		}
	}
	// A long log fills the path map on another CPU meanwhile.
	var paths sync.WaitGroup
	if n >= parallelMin {
		paths.Go(fillPaths)
	} else {
		fillPaths()
	}
	defer func() {
		paths.Wait()
		l.byPath = byPath
	}()
	l.byID = make(map[string][]*Record, n)
	l.byNumber = make(map[int][]*Record, n)
	keys := idKeys(l.Records)
	// A key's first record is a one-element slice of one shared array (a
	// second record makes the slice its own): two allocations, not one
	// per key.
	ids, nums := make([]*Record, n), make([]*Record, n)
	for i, r := range l.Records {
		k := keys[i]
		if prev, ok := l.byID[k]; ok {
			l.byID[k] = append(prev, r)
		} else {
			ids[i] = r
			l.byID[k] = ids[i : i+1 : i+1]
		}
		if r.Numbered {
			if prev, ok := l.byNumber[r.Number]; ok {
				l.byNumber[r.Number] = append(prev, r)
			} else {
				nums[i] = r
				l.byNumber[r.Number] = nums[i : i+1 : i+1]
			}
		}
	}
}

// idKeys are strings.ToLower of the records' IDs. The ASCII ones that
// change are cut from one string (ADR-0001 is the usual ID), the others
// lowered one by one.
func idKeys(recs []*Record) []string {
	keys := make([]string, len(recs))
	size := 0
	for _, r := range recs {
		if asciiWithUpper(r.ID) {
			size += len(r.ID)
		}
	}
	buf := make([]byte, 0, size)
	ends := make([]int, len(recs))
	for i, r := range recs {
		if asciiWithUpper(r.ID) {
			for j := 0; j < len(r.ID); j++ {
				c := r.ID[j]
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				buf = append(buf, c)
			}
		} else {
			keys[i] = strings.ToLower(r.ID)
		}
		ends[i] = len(buf)
	}
	all, start := string(buf), 0
	for i, r := range recs {
		if asciiWithUpper(r.ID) {
			keys[i] = all[start:ends[i]]
		}
		start = ends[i]
	}
	return keys
}

// asciiWithUpper reports an ASCII string with an upper-case letter.
func asciiWithUpper(s string) bool {
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return false
		}
		upper = upper || 'A' <= c && c <= 'Z'
	}
	return upper
}

// recordAt finds the record a path names: the file itself, the file
// without ".md", or a record folder ("2023-01-05-x" for
// "2023-01-05-x/README.md").
func (l *Log) recordAt(p string) *Record {
	if l.byPath == nil {
		l.index()
	}
	if r := l.byPath[p]; r != nil {
		return r
	}
	if r := l.byPath[p+".md"]; r != nil {
		return r
	}
	for _, f := range folderRecordFiles {
		if r := l.byPath[p+"/"+f]; r != nil {
			return r
		}
	}
	return nil
}

// ByPath returns the record at a repository-relative path, or nil.
func (l *Log) ByPath(p string) *Record {
	if l.byPath == nil {
		l.index()
	}
	return l.byPath[p]
}

// RootFor returns the root a new record goes to: the one named by dir
// (a path relative to the repository root), or the first root that was not
// refused (the first root when all were; see Root.Refused).
func (l *Log) RootFor(dir string) (*Root, error) {
	if dir != "" {
		d := cleanRel(dir)
		for _, r := range l.Roots {
			if r.Path == d || r.Name != "" && r.Name == dir {
				return r, nil
			}
		}
		return nil, fmt.Errorf("%q is not an ADR root", dir)
	}
	if len(l.Roots) == 0 {
		return nil, ErrNoRoots
	}
	// A folder before a single-file log: new records are files.
	for _, r := range l.Roots {
		if r.Refused == nil && !r.File {
			return r, nil
		}
	}
	for _, r := range l.Roots {
		if r.Refused == nil {
			return r, nil
		}
	}
	return l.Roots[0], nil
}

// IsNotFound reports whether err means a reference named no record.
func IsNotFound(err error) bool {
	var nf *NotFoundError
	return errors.As(err, &nf)
}
