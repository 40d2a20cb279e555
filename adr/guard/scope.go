package guard

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/confine"
)

// Class is what a path is to the guard.
type Class int

// Classes of paths, from unrelated to protected.
const (
	// Unrelated is anything outside every ADR root and not holding one:
	// source code, other documents, a folder named archive elsewhere, and
	// everything outside the repository.
	Unrelated Class = iota
	// Ancestor is a directory that holds an ADR root (the repository's
	// top, docs/ for docs/adr): a recursive search of it covers records.
	Ancestor
	// RootDir is an ADR root itself.
	RootDir
	// InRoot is a path inside a root but outside its archive: a live
	// record, an index, a view, a template, a folder.
	InRoot
	// ArchiveDir is a root's archive folder or a folder inside it.
	ArchiveDir
	// Archived is a file inside a root's archive folder.
	Archived
)

// Place is a path located in the repository.
type Place struct {
	// Written is the path as the tool call wrote it.
	Written string
	// Rel is the repository-relative slash path with links and letter
	// case resolved ("." for the top); "" when the path is outside the
	// repository (or leads out through a link).
	Rel   string
	Class Class
	// Root is the ADR root the path is in (or, for RootDir, is).
	Root *adr.Root
	// Record is the record at Rel, live or archived, if it is one.
	Record *adr.Record
}

// Candidate is a file a recursive read or search of a directory would
// output: a record (live or archived) or another file of an archive.
type Candidate struct {
	Rel      string
	Root     *adr.Root
	Record   *adr.Record
	Archived bool
}

// Scope is the protected layout of one repository: its ADR roots, their
// archives and their records, and how paths written by an agent map onto
// them. Paths are resolved through the work tree's confinement layer
// ([confine.ConfinedFS]): links are followed while they stay inside the
// repository, and a path that leads outside is unrelated.
type Scope struct {
	fs    Tree
	log   *adr.Log
	roots []*adr.Root // readable roots, deepest first

	cands []Candidate // built on first use
}

// Tree is the work tree as a scope reads it: a [*confine.ConfinedFS],
// which resolves links only inside the repository.
type Tree interface {
	fs.ReadDirFS
	fs.StatFS
	Lstat(name string) (fs.FileInfo, error)
	Resolve(name string) (string, error)
	Within(abs string) (string, bool)
	Top() string
}

var _ Tree = (*confine.ConfinedFS)(nil)

// NewScope describes the protected layout of log, whose work tree fsys
// is. Refused roots (links leading out, unreadable folders) hold nothing
// git-adr reads, so nothing in them is protected either.
func NewScope(log *adr.Log, fsys Tree) *Scope {
	s := &Scope{fs: fsys, log: log}
	for _, r := range log.Roots {
		if r.Refused == nil {
			s.roots = append(s.roots, r)
		}
	}
	sort.SliceStable(s.roots, func(i, j int) bool { return depth(s.roots[i].Path) > depth(s.roots[j].Path) })
	return s
}

// Roots are the roots the scope protects, deepest first.
func (s *Scope) Roots() []*adr.Root { return s.roots }

// Top is the work tree's directory.
func (s *Scope) Top() string { return s.fs.Top() }

func depth(p string) int {
	if p == "" {
		return 0
	}
	return strings.Count(p, "/") + 1
}

// within reports whether p is dir or lies below it (slash paths relative
// to the top; "" and "." are the top).
func within(p, dir string) bool {
	if dir == "" || dir == "." {
		return true
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// Locate finds what the path p, as written by a tool call that ran in the
// directory dir (absolute), is in the repository.
func (s *Scope) Locate(dir, p string) Place {
	pl := Place{Written: p}
	rel, ok := s.rel(dir, p)
	if !ok {
		return pl
	}
	pl.Rel = rel
	pl.Class, pl.Root = s.classify(rel)
	if pl.Root != nil {
		pl.Record = s.log.ByPath(rel)
	}
	return pl
}

// rel turns p into a canonical repository-relative path.
func (s *Scope) rel(dir, p string) (string, bool) {
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, abs)
	}
	abs = filepath.Clean(abs)
	rel, ok := s.fs.Within(abs)
	if !ok {
		// A path outside that leads in through a link (/tmp/l -> repo/doc).
		real, err := evalExisting(abs)
		if err != nil {
			return "", false
		}
		if rel, ok = s.fs.Within(real); !ok {
			return "", false
		}
	}
	if rel == ".git" || strings.HasPrefix(rel, ".git/") {
		return "", false // git's own data: nothing of the log is read from there
	}
	res, err := s.fs.Resolve(rel)
	if err != nil {
		return "", false // leads outside the repository through a link
	}
	return s.fixCase(res), true
}

// evalExisting resolves the links of the longest existing prefix of abs
// and keeps the rest as written.
func evalExisting(abs string) (string, error) {
	rest := ""
	cur := abs
	for {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return "", err
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// fixCase spells rel as the directory entries do when the file system
// found it under another letter case (a case-insensitive file system
// opens DOC/ADR/archive/x.md as doc/adr/archive/x.md). Only paths that
// match an ADR root when case is ignored are checked, so ordinary paths
// cost nothing; on a case-sensitive file system a path that does not
// exist as written is kept as written (reading it fails anyway).
func (s *Scope) fixCase(rel string) string {
	if c, _ := s.classify(rel); c != Unrelated {
		return rel
	}
	low := strings.ToLower(rel)
	hit := false
	for _, r := range s.roots {
		rp := strings.ToLower(r.Path)
		if within(low, rp) || within(rp, low) {
			hit = true
			break
		}
	}
	if !hit || rel == "." {
		return rel
	}
	parts := strings.Split(rel, "/")
	cur := "."
	for i, el := range parts {
		next := path.Join(cur, el)
		if _, err := s.fs.Lstat(next); err != nil {
			return path.Join(append([]string{cur}, parts[i:]...)...)
		}
		name := el
		if es, err := s.fs.ReadDir(cur); err == nil {
			exact, folded := false, ""
			n := 0
			for _, e := range es {
				if e.Name() == el {
					exact = true
					break
				}
				if strings.EqualFold(e.Name(), el) {
					folded = e.Name()
					n++
				}
			}
			if !exact && n == 1 {
				name = folded
			}
		}
		cur = path.Join(cur, name)
	}
	if res, err := s.fs.Resolve(cur); err == nil {
		return res
	}
	return cur
}

// classify places a canonical relative path.
func (s *Scope) classify(rel string) (Class, *adr.Root) {
	for _, r := range s.roots {
		if !within(rel, r.Path) {
			continue
		}
		arch := r.Join(adr.ArchiveDir)
		if within(rel, arch) {
			if rel == arch || s.isDir(rel) {
				return ArchiveDir, r
			}
			return Archived, r
		}
		if rel == r.Path || r.Path == "" && rel == "." {
			return RootDir, r
		}
		return InRoot, r
	}
	for _, r := range s.roots {
		if within(r.Path, rel) {
			return Ancestor, nil
		}
	}
	return Unrelated, nil
}

func (s *Scope) isDir(rel string) bool {
	fi, err := s.fs.Stat(rel)
	return err == nil && fi.IsDir()
}

// IsDir reports whether the located path is an existing directory.
func (s *Scope) IsDir(p Place) bool { return p.Rel != "" && s.isDir(p.Rel) }

// maxArchiveWalk bounds the entries read from archive folders.
const maxArchiveWalk = 20000

// candidates are every record of every root and every other file in an
// archive folder, in path order.
func (s *Scope) candidates() []Candidate {
	if s.cands != nil {
		return s.cands
	}
	seen := map[string]bool{}
	out := []Candidate{}
	for _, r := range s.roots {
		for _, rec := range r.Records {
			if seen[rec.Path] {
				continue
			}
			seen[rec.Path] = true
			out = append(out, Candidate{Rel: rec.Path, Root: r, Record: rec, Archived: rec.Archived})
		}
		arch := r.Join(adr.ArchiveDir)
		n := 0
		fs.WalkDir(s.fs, arch, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if n++; n > maxArchiveWalk {
				return fs.SkipAll
			}
			if d.IsDir() || seen[p] {
				return nil
			}
			seen[p] = true
			out = append(out, Candidate{Rel: p, Root: r, Archived: true})
			return nil
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	s.cands = out
	return out
}

// ArchivedNamed finds the archived record whose file name is the last
// element of rel (a path as it was in an older revision: archiving keeps
// a record's file name), in any root.
func (s *Scope) ArchivedNamed(rel string) (Candidate, bool) {
	base := path.Base(rel)
	if rel == "" || base == "." || base == "/" {
		return Candidate{}, false
	}
	for _, r := range s.roots {
		for _, rec := range r.Records {
			if rec.Archived && strings.EqualFold(path.Base(rec.Path), base) {
				return Candidate{Rel: rec.Path, Root: r, Record: rec, Archived: true}, true
			}
		}
	}
	return Candidate{}, false
}

// Under lists the candidates a recursive read of the directory rel would
// reach ("." for the whole repository).
func (s *Scope) Under(rel string) []Candidate {
	var out []Candidate
	for _, c := range s.candidates() {
		if within(c.Rel, rel) {
			out = append(out, c)
		}
	}
	return out
}

// Glob expands a shell pattern written in the directory dir the way a
// shell does (no match: nothing, the pattern then names no file), with
// matches as absolute paths. It reads at most maxGlobDirs directories and
// returns at most maxFields matches, so no pattern can make a hook slow
// (a pattern over the whole file system is cut short).
func Glob(dir, pattern string) []string {
	p := pattern
	if !filepath.IsAbs(p) {
		p = escapeGlob(dir) + string(filepath.Separator) + p
	}
	comps := strings.Split(filepath.ToSlash(p), "/")
	results := []string{"/"}
	if comps[0] != "" {
		results = []string{comps[0]} // a volume name
	}
	dirs := 0
	for _, c := range comps[1:] {
		switch {
		case c == "" || c == ".":
			continue
		case !hasMeta(c):
			lit := unescapeGlob(c)
			for i, r := range results {
				results[i] = filepath.Join(r, lit)
			}
			continue
		}
		var next []string
		for _, r := range results {
			if dirs++; dirs > maxGlobDirs {
				break
			}
			es, err := os.ReadDir(r)
			if err != nil {
				continue
			}
			for _, e := range es {
				if strings.HasPrefix(e.Name(), ".") && !strings.HasPrefix(c, ".") {
					continue // a shell's * does not match a leading dot
				}
				if ok, _ := filepath.Match(c, e.Name()); ok && len(next) < maxFields {
					next = append(next, filepath.Join(r, e.Name()))
				}
			}
		}
		results = next
		if len(results) == 0 {
			return nil
		}
	}
	out := results[:0]
	for _, r := range results {
		if exists(r) {
			out = append(out, r)
		}
	}
	sort.Strings(out)
	return out
}

// maxGlobDirs bounds the directories one glob reads.
const maxGlobDirs = 256

// hasMeta reports an unescaped glob metacharacter.
func hasMeta(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

func unescapeGlob(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// exists reports whether an absolute path exists.
func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
