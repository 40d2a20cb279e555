package adr

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/git-adr/git-adr/internal/lazyre"
)

var (
	// refDefinition is a Markdown link reference definition: "[x]: path.md".
	refDefinition = lazyre.New(`^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?`)
	inlineCode    = lazyre.New("`+[^`]*`+")
	urlScheme     = lazyre.New(`^[A-Za-z][A-Za-z0-9+.-]*:`)
)

// links reports relations that resolve to no record and Markdown links to
// relative *.md files that do not exist (case-only differences included,
// since git and most servers are case-sensitive).
func (c *checker) links(r *Record) {
	// What is reported already, by line and target: a relation is also
	// a link of the text. One map for every record, emptied for each.
	if c.reported == nil {
		c.reported = map[lineTarget]bool{}
	}
	clear(c.reported)
	report := func(line int, target string) bool {
		k := lineTarget{line, target}
		if c.reported[k] {
			return false
		}
		c.reported[k] = true
		return true
	}
	for _, rel := range r.Relations {
		if rel.TargetID != "" {
			continue
		}
		f, ok := c.brokenRelation(r, rel)
		if !ok {
			continue
		}
		report(rel.Line, rel.Target)
		c.add(f)
	}
	for _, l := range r.facts().links {
		if !report(l.line+1, l.dest) {
			continue
		}
		if f, ok := c.brokenLink(r, l.line+1, l.dest); ok {
			c.add(f)
		}
	}
}

// lineTarget is a link target written on a 1-based line.
type lineTarget struct {
	line   int
	target string
}

// brokenRelation explains a relation whose target is no record. A target
// that is an existing file (a design document, say) or a URL is not a
// broken reference.
func (c *checker) brokenRelation(r *Record, rel Relation) (Finding, bool) {
	phrase := rel.Label
	if phrase == "" {
		phrase = rel.Type.Label()
	}
	f := Finding{Kind: KindBrokenReference, Path: r.Path, Line: rel.Line, IDs: []string{r.ID}}
	if isIDText(rel.Target) {
		id, _ := SplitLocator(strings.TrimSpace(rel.Target))
		var amb *AmbiguousError
		if _, err := c.l.resolveIn(id, r.Root); errors.As(err, &amb) {
			var paths []string
			sections := false
			for _, cand := range amb.Candidates {
				paths = append(paths, cand.Locus())
				sections = sections || cand.InLogFile()
			}
			f.IDs = append(f.IDs, amb.Candidates[0].ID)
			f.Message = fmt.Sprintf("%q names %s, which %d records carry: %s", phrase, rel.Target, len(paths), strings.Join(paths, ", "))
			f.Fix = fmt.Sprintf("link the record meant by its file, for example \"%s [%s](%s)\" on line %d, or renumber one of them (`git adr renumber %s`)",
				phrase, amb.Candidates[0].ID, r.Link(amb.Candidates[0]), rel.Line, ShellWord(amb.Candidates[len(amb.Candidates)-1].Path))
			if sections {
				f.Fix = fmt.Sprintf("give one of %s a free number by hand (git-adr does not rewrite single-file logs)", strings.Join(paths, ", "))
			}
			return f, true
		}
		f.Message = fmt.Sprintf("%q names %s, which is no record", phrase, rel.Target)
		f.Fix = fmt.Sprintf("correct or remove %q on line %d (`git adr list` shows the IDs)", phrase+" "+rel.Target, rel.Line)
		return f, true
	}
	return c.brokenLink(r, rel.Line, rel.Target)
}

// LinkedFile is the repository-relative Markdown file that a link
// written in the file at from names, as `git adr check` reads links: ok
// is false for what check never checks (a URL of any scheme, "//host/x",
// an "#anchor", a file that is not Markdown, a path that leaves the
// repository). site reports a site-absolute link ("/docs/adr/x.md"),
// which names the file from the repository's top or, as documentation
// sites publish a log, a record of the root by its file name.
func LinkedFile(from, dest string) (file string, site, ok bool) {
	tg := strings.Trim(strings.TrimSpace(dest), "<>")
	if tg == "" || strings.HasPrefix(tg, "#") || urlScheme.MatchString(tg) || strings.HasPrefix(tg, "//") {
		return "", false, false
	}
	p := linkPath(tg)
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	if recordExt(p) == "" {
		return "", false, false
	}
	if strings.HasPrefix(p, "/") {
		return cleanRel(p), true, true
	}
	file = cleanRel(path.Join(dirOf(from), p))
	if file == ".." || strings.HasPrefix(file, "../") {
		return "", false, false // outside the repository: cannot be checked
	}
	return file, false, true
}

// brokenLink checks one link target written on line of record r.
func (c *checker) brokenLink(r *Record, line int, target string) (Finding, bool) {
	tg := strings.Trim(strings.TrimSpace(target), "<>")
	cand, site, ok := LinkedFile(r.Path, target)
	if !ok {
		return Finding{}, false
	}
	p := linkPath(tg)
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	f := Finding{Kind: KindBrokenReference, Path: r.Path, Line: line, IDs: []string{r.ID}}
	if site {
		// Site-absolute: from the repository root, or by file name within
		// the record's root (how documentation sites publish a log).
		if _, exact, _ := c.lookup(cand); exact {
			return Finding{}, false
		}
		if r.Root != nil {
			if c.l.Target(r, tg) != nil {
				return Finding{}, false
			}
			if _, exact, _ := c.lookup(r.Root.Join(baseOf(cand))); exact {
				return Finding{}, false
			}
		}
	}
	actual, exact, found := c.lookup(cand)
	switch {
	case exact:
		return Finding{}, false
	case found:
		right := RelLink(r.Path, actual)
		f.Message = fmt.Sprintf("link to %q differs in case from %s", tg, actual)
		f.Fix = fmt.Sprintf("change the link %q on line %d to %q", p, line, right)
		return f, true
	}
	f.Message = fmt.Sprintf("link to %q: %s does not exist", tg, cand)
	f.Fix = fmt.Sprintf("correct or remove the link %q on line %d", p, line)
	if t, renamed := MeantTarget(r, p); t != nil {
		f.IDs = append(f.IDs, t.ID)
		f.Fix = fmt.Sprintf("change the link %q on line %d to %q (%s)", p, line, r.Link(t), t.ID)
		if renamed {
			f.Fix = fmt.Sprintf("change the link %q on line %d to %q (%s, the record of that name, renumbered)", p, line, r.Link(t), t.ID)
		}
	}
	return f, true
}

// MeantTarget is the record a link of r to a record file that is not
// there most likely means, or nil: the one numbered record of r's root,
// other than r, whose file name has the link's slug under another number
// (renamed is true: it was renumbered since the link was written), else
// the one record of the root with the link's number. `git adr check`'s
// fix for a broken link and `context`'s reading of "superseded by" prose
// both name it.
func MeantTarget(r *Record, link string) (t *Record, renamed bool) {
	fn := parseFileName(baseOf(linkPath(strings.TrimSpace(link))))
	if !fn.Numbered || r.Root == nil {
		return nil, false
	}
	if t := sameSlug(r, fn); t != nil {
		return t, true
	}
	var found *Record
	for _, rec := range r.Root.Records {
		if rec.Numbered && rec.Number == fn.Number && rec.Suffix == fn.Suffix {
			if found != nil {
				return nil, false
			}
			found = rec
		}
	}
	return found, false
}

// sameSlug is the one numbered record of r's root, other than r, whose
// file name has fn's slug under another number, or nil (none, or
// several). r itself is never meant: "superseded by
// [0018-x.md](0018-x.md)" in 0015-x.md, where 0018's file name has a
// typo, names 0018, not the record that writes it.
func sameSlug(r *Record, fn fileName) *Record {
	if fn.Slug == "" {
		return nil
	}
	var found *Record
	for _, rec := range r.Root.Records {
		n := rec.fileName()
		if rec == r || !n.Numbered || !strings.EqualFold(n.Slug, fn.Slug) || n.Number == fn.Number {
			continue
		}
		if found != nil {
			return nil
		}
		found = rec
	}
	return found
}

// lookup finds a repository-relative path component by component. exact
// reports a file or directory with exactly that path; found one that
// differs only in case (actual is its real path).
func (c *checker) lookup(p string) (actual string, exact, found bool) {
	if p == "" || p == ".." || strings.HasPrefix(p, "../") {
		return "", false, false
	}
	// dir is the real path of the components read so far: while each is
	// there as written, the start of p itself.
	dir := ""
	exact = true
	for rest, end := p, 0; ; {
		name, after, more := strings.Cut(rest, "/")
		end += len(name)
		d := c.list(dir)
		if d == nil {
			return "", false, false
		}
		real := name
		if _, ok := slices.BinarySearch(d.names, name); !ok {
			cands := d.folded()[strings.ToLower(name)]
			if len(cands) != 1 {
				return "", false, false
			}
			real, exact = cands[0], false
		}
		switch {
		case exact:
			dir = p[:end]
		case dir == "":
			dir = real
		default:
			dir = dir + "/" + real
		}
		if !more {
			return dir, exact, true
		}
		rest, end = after, end+1
	}
}

// dirListing is the names in a directory, for [checker.lookup].
type dirListing struct {
	names []string // sorted
	// lower keys names by their lower case, for a name that is not
	// there as written: made on the first, as most links name files
	// that are there.
	lower map[string][]string
}

// folded is the listing keyed by lower case, made on its first use.
func (d *dirListing) folded() map[string][]string {
	if d.lower == nil {
		d.lower = make(map[string][]string, len(d.names))
		for _, n := range d.names {
			k := strings.ToLower(n)
			d.lower[k] = append(d.lower[k], n)
		}
	}
	return d.lower
}

// list returns the entries of a directory (nil when it cannot be read).
// Listings are cached: a log links to the same few directories over and
// over.
func (c *checker) list(dir string) *dirListing {
	if d, ok := c.dirs[dir]; ok {
		return d
	}
	var d *dirListing
	if c.l.FS == nil {
		return nil
	}
	if entries, err := fs.ReadDir(c.l.FS, dirOrDot(dir)); err == nil {
		d = &dirListing{names: make([]string, len(entries))}
		for i, e := range entries {
			d.names[i] = e.Name()
		}
		slices.Sort(d.names) // fs.ReadDir sorts; an FS's own ReadDir may not
	}
	c.dirs[dir] = d
	return d
}
