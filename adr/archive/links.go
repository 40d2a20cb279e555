package archive

import (
	"net/url"
	"path"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/lazyre"
)

// mover rewrites link destinations for a set of file moves (old
// repository path to new).
type mover struct {
	moves map[string]string
	// bases are the moved files' names, for site-absolute links that
	// name a file without its folder.
	bases map[string]string
}

func newMover(moves map[string]string) *mover {
	m := &mover{moves: moves, bases: map[string]string{}}
	for from := range moves {
		b := path.Base(from)
		m.bases[b] = from
		m.bases[strings.TrimSuffix(b, path.Ext(b))] = from
	}
	return m
}

// where returns where the file at p is after the moves.
func (m *mover) where(p string) string {
	if to, ok := m.moves[p]; ok {
		return to
	}
	return p
}

// target finds the moved file a link's repository path names, with or
// without its extension: the new path written the same way (with or
// without the extension).
func (m *mover) target(p string) (string, bool) {
	if to, ok := m.moves[p]; ok {
		return to, true
	}
	if to, ok := m.moves[p+".md"]; ok {
		return strings.TrimSuffix(to, ".md"), true
	}
	return "", false
}

var scheme = lazyre.New(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// split cuts a destination into its path and the "#fragment" or "?query"
// after it, and decodes the path's percent escapes.
func split(dest string) (raw, suffix, decoded string, ok bool) {
	if dest == "" || strings.HasPrefix(dest, "#") || strings.HasPrefix(dest, "//") || scheme.MatchString(dest) {
		return "", "", "", false
	}
	raw = dest
	if i := strings.IndexAny(dest, "#?"); i >= 0 {
		raw, suffix = dest[:i], dest[i:]
	}
	if raw == "" {
		return "", "", "", false
	}
	decoded = raw
	if u, err := url.PathUnescape(raw); err == nil {
		decoded = u
	}
	return raw, suffix, decoded, true
}

// clean is path.Clean for repository-relative paths ("" for the top).
func clean(p string) string {
	c := path.Clean(p)
	if c == "." {
		return ""
	}
	return c
}

// resolve is the repository path a relative destination written in the
// file at from points at ("../x" outside the repository stays so).
func resolve(from, decoded string) string {
	if strings.HasPrefix(decoded, "/") {
		return clean(decoded[1:])
	}
	return clean(path.Join(path.Dir(from), decoded))
}

// edit is one rewritten destination of a file.
type edit struct {
	adr.Edit
	line     int
	old, new string
}

// rewrite computes the link edits of one Markdown file that was at from
// and will be at to (the same path when it stays): a destination that
// reaches a moved file is made to reach its new place, and when the file
// itself moves, every relative destination is made to reach what it
// reached before. Site-absolute destinations that name a moved file only
// by its name (the site's layout is unknown) are returned as risks.
func (m *mover) rewrite(t *adr.Text, from, to string) (edits []edit, risks []Risk) {
	for _, l := range t.Links() {
		raw, suffix, decoded, ok := split(l.Dest)
		if !ok {
			continue
		}
		var want string // the repository path the new destination must reach
		var next string
		if strings.HasPrefix(decoded, "/") {
			p := clean(decoded[1:])
			nt, moved := m.target(p)
			if !moved {
				if _, named := m.bases[path.Base(p)]; named {
					risks = append(risks, Risk{Path: from, Line: l.Line + 1, Text: l.Dest,
						Why: "a site-absolute link that names a moved record by its file name only: where the site publishes the archive is unknown, so it is not rewritten"})
				}
				continue
			}
			want = nt
			next = insertDirs(raw, path.Dir(p), path.Dir(nt))
			if next == "" || resolve(to, unescape(next)) != want {
				next = "/" + escapeLike(raw, decoded, nt)
			}
		} else {
			p := resolve(from, decoded)
			nt, moved := m.target(p)
			if !moved {
				if from == to {
					continue
				}
				nt = p
			}
			want = nt
			if resolve(to, decoded) == want {
				continue
			}
			next = relink(raw, decoded, from, to, p, nt)
		}
		if next == raw {
			continue
		}
		edits = append(edits, edit{Edit: adr.Edit{Start: l.Start, End: l.Start + len(raw), New: next}, line: l.Line + 1, old: l.Dest, new: next + suffix})
	}
	return edits, risks
}

// relink writes the destination from the file's new place (to) to the
// target's new place (nt), keeping what the author wrote: a destination
// written as the shortest relative path (a leading "./" kept) becomes the
// new shortest path; any other keeps its shape, with folders inserted or
// removed before the file name and "../" added or removed in front, or
// else becomes the shortest path.
func relink(raw, decoded, from, to, p, nt string) string {
	canon := func(c string) string {
		if strings.HasPrefix(raw, "./") && !strings.HasPrefix(c, "../") {
			c = "./" + c
		}
		return escapeLike(raw, decoded, c)
	}
	// Written as the shortest path: written so again.
	if old := adr.RelLink(from, p); decoded == old || decoded == "./"+old {
		return canon(adr.RelLink(to, nt))
	}
	q := raw
	if p != nt {
		q = insertDirs(q, path.Dir(p), path.Dir(nt))
	}
	if q != "" && from != to {
		q = climb(q, path.Dir(from), path.Dir(to))
	}
	if q != "" && resolve(to, unescape(q)) == nt {
		return q
	}
	return canon(adr.RelLink(to, nt))
}

// insertDirs rewrites the folder part of a destination whose file moved
// from folder od to folder nd inside it (archive/, archive/2024/) or out
// of it: the folders are inserted before the file name, or removed from
// before it. "" when the destination is not written that way.
func insertDirs(q, od, nd string) string {
	dir, base := "", q
	if i := strings.LastIndexByte(q, '/'); i >= 0 {
		dir, base = q[:i+1], q[i+1:]
	}
	if base == "" {
		return ""
	}
	switch {
	case strings.HasPrefix(nd, od+"/") || od == "." && nd != ".":
		sub := strings.TrimPrefix(nd, od+"/")
		if od == "." {
			sub = nd
		}
		return dir + sub + "/" + base
	case strings.HasPrefix(od, nd+"/") || nd == "." && od != ".":
		sub := strings.TrimPrefix(od, nd+"/")
		if nd == "." {
			sub = od
		}
		if !strings.HasSuffix(dir, sub+"/") {
			return ""
		}
		return strings.TrimSuffix(dir, sub+"/") + base
	}
	return ""
}

// climb rewrites a destination written in a file that moved from folder
// od to nd, one inside the other: "../" added in front for each level
// down, or removed for each level up. "" when it cannot.
func climb(q, od, nd string) string {
	depth := func(d string) int {
		if d == "." {
			return 0
		}
		return strings.Count(d, "/") + 1
	}
	switch {
	case strings.HasPrefix(nd, od+"/") || od == "." && nd != ".":
		return strings.Repeat("../", depth(nd)-depth(od)) + strings.TrimPrefix(q, "./")
	case strings.HasPrefix(od, nd+"/") || nd == "." && od != ".":
		n := depth(od) - depth(nd)
		for ; n > 0 && strings.HasPrefix(q, "../"); n-- {
			q = q[3:]
		}
		if n > 0 {
			return ""
		}
		if q == "" {
			return "."
		}
		return q
	}
	return ""
}

func unescape(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// escapeLike writes p escaped the way the original destination was:
// percent escapes per path segment when it had any, as it is otherwise.
func escapeLike(raw, decoded, p string) string {
	if raw == decoded {
		return p
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// normalize returns the text with every link destination replaced by the
// repository path it reaches after the moves (plus its fragment), so two
// versions of a file can be compared for everything but how their links
// are written: the archive's proof that it changed nothing else.
func (m *mover) normalize(t *adr.Text, at string, moved bool) string {
	var edits []adr.Edit
	for _, l := range t.Links() {
		raw, suffix, decoded, ok := split(l.Dest)
		if !ok {
			continue
		}
		p := resolve(at, decoded)
		if moved {
			if nt, ok := m.target(p); ok {
				p = nt
			}
		}
		edits = append(edits, adr.Edit{Start: l.Start, End: l.Start + len(raw) + len(suffix), New: "\x00" + p + "\x00" + suffix})
	}
	return string(t.Apply(edits...))
}
