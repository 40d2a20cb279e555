package guard

import (
	"path"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// Kind is what an access does with a path.
type Kind int

// Kinds of access.
const (
	// Read outputs the content of a file (a directory outputs nothing).
	Read Kind = iota
	// Search outputs lines of a file, or with Recursive of every file
	// under a directory that Filter keeps.
	Search
	// List outputs names only: always allowed.
	List
	// Write changes a file: judged only for the guard's own configuration.
	Write
)

// Access is one thing a tool call does to one path.
type Access struct {
	Kind Kind
	// Path is as written; Dir is the absolute directory it is relative to.
	Path, Dir string
	// Recursive: a directory is read or searched with everything below it.
	Recursive bool
	// Filter keeps some of the files under a recursive directory.
	Filter Filter
	// Group numbers the accesses one expansion produced (a glob, a loop,
	// xargs, find -exec): a group that reaches several records is an
	// unscoped read even when each path is named. 0 is no group.
	Group int
	// Via is the command or tool, for messages ("grep -r", "cat", "Read").
	Via string
	// Rev is the revision a Read reads from (git show REV:PATH): the path
	// is where the file was then, and may name nothing now.
	Rev string
	// Restore marks a Write by git restore or git checkout -- PATHSPEC,
	// which writes the files the pathspec Path (relative to Dir) covers
	// from Rev ("" for the index).
	Restore bool
}

// Filter is a conjunction of conditions on the files under a searched
// directory; the empty filter keeps every file.
type Filter []Cond

// Cond is one condition of a [Filter].
type Cond interface {
	// Keep reports whether the file at rel (repository-relative), sub
	// (relative to the searched directory) is kept.
	Keep(rel, sub string) bool
}

// Keep reports whether every condition keeps the file.
func (f Filter) Keep(rel, sub string) bool {
	for _, c := range f {
		if !c.Keep(rel, sub) {
			return false
		}
	}
	return true
}

// globRE compiles a glob (with braces, **, and in Filenames mode * not
// crossing /) to a regular expression; nil when it is not a valid glob.
func globRE(glob string, filenames, fold bool) *regexp.Regexp {
	var alts []string
	for _, g := range braces(glob) {
		mode := pattern.EntireString
		if filenames {
			mode |= pattern.Filenames
		}
		if fold {
			mode |= pattern.NoGlobCase
		}
		mode |= pattern.GlobLeadingDot
		re, err := pattern.Regexp(g, mode)
		if err != nil {
			return nil
		}
		alts = append(alts, re)
	}
	re, err := regexp.Compile(strings.Join(alts, "|"))
	if err != nil {
		return nil
	}
	return re
}

// braces expands {a,b} and {1..3} in a glob as a shell would.
func braces(glob string) []string {
	if !strings.Contains(glob, "{") {
		return []string{glob}
	}
	w := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: glob}}}
	if !syntax.SplitBraces(w) {
		return []string{glob}
	}
	var out []string
	for x, err := range expand.BracesSeq(nil, w) {
		if err != nil {
			break
		}
		var b strings.Builder
		for _, p := range x.Parts {
			if l, ok := p.(*syntax.Lit); ok {
				b.WriteString(l.Value)
			}
		}
		out = append(out, b.String())
		if len(out) > 256 {
			break
		}
	}
	return out
}

// NameGlob keeps files whose base name matches (grep --include, find
// -name, OpenCode's include); with Not, files whose name does not match
// (grep --exclude).
type NameGlob struct {
	Glob     string
	Fold     bool
	Not      bool
	re       *regexp.Regexp
	compiled bool
}

// Keep implements [Cond].
func (g *NameGlob) Keep(rel, sub string) bool {
	if !g.compiled {
		g.re, g.compiled = globRE(g.Glob, false, g.Fold), true
	}
	if g.re == nil {
		return true // not a glob the tool would accept either: keep (judge strictly)
	}
	return g.re.MatchString(path.Base(rel)) != g.Not
}

// AnyName keeps files matching at least one of several name globs (grep
// with several --include).
type AnyName []*NameGlob

// Keep implements [Cond].
func (a AnyName) Keep(rel, sub string) bool {
	for _, g := range a {
		if g.Keep(rel, sub) {
			return true
		}
	}
	return len(a) == 0
}

// ExcludeDir drops files below a directory whose name matches (grep
// --exclude-dir), counted from the searched directory.
type ExcludeDir struct {
	Glob string
	re   *regexp.Regexp
	done bool
}

// Keep implements [Cond].
func (x *ExcludeDir) Keep(rel, sub string) bool {
	if !x.done {
		x.re, x.done = globRE(strings.TrimSuffix(x.Glob, "/"), false, false), true
	}
	if x.re == nil {
		return true
	}
	dirs := strings.Split(sub, "/")
	for _, d := range dirs[:len(dirs)-1] {
		if x.re.MatchString(d) {
			return false
		}
	}
	// grep also matches the directory given on the command line.
	return true
}

// RgGlobs are ripgrep's -g/--glob rules (also Claude Code's Grep glob):
// gitignore-style globs matched against the path below the searched
// directory, "!" excludes, the last matching glob wins, and when any glob
// includes, a file no glob matches is dropped.
type RgGlobs struct {
	Globs []string
	Fold  bool
	res   []*regexp.Regexp
	done  bool
}

// Keep implements [Cond].
func (g *RgGlobs) Keep(rel, sub string) bool {
	if !g.done {
		for _, x := range g.Globs {
			x = strings.TrimPrefix(x, "!")
			g.res = append(g.res, gitignoreRE(x, g.Fold))
		}
		g.done = true
	}
	anyInclude := false
	decision := 0 // 0 none, 1 keep, -1 drop
	for i, x := range g.Globs {
		neg := strings.HasPrefix(x, "!")
		if !neg {
			anyInclude = true
		}
		re := g.res[i]
		if re == nil {
			continue
		}
		if matchGitignore(re, sub) {
			if neg {
				decision = -1
			} else {
				decision = 1
			}
		}
	}
	switch decision {
	case 1:
		return true
	case -1:
		return false
	}
	return !anyInclude
}

// gitignoreRE compiles a gitignore-style glob: with a slash (other than a
// trailing one) it is anchored at the searched directory, else it matches
// a name at any depth.
func gitignoreRE(glob string, fold bool) *regexp.Regexp {
	g := strings.TrimSuffix(glob, "/")
	anchored := strings.Contains(g, "/")
	g = strings.TrimPrefix(g, "/")
	if !anchored {
		g = "**/" + g
	}
	return globRE(g, true, fold)
}

// matchGitignore reports whether the path or one of its directories
// matches (a glob naming a directory covers what is below it).
func matchGitignore(re *regexp.Regexp, sub string) bool {
	for p := sub; p != "." && p != ""; p = path.Dir(p) {
		if re.MatchString(p) {
			return true
		}
	}
	return false
}

// PathGlob keeps files whose path below the searched directory matches
// (find -path, matched against the start point plus the path); with Not,
// those that do not.
type PathGlob struct {
	Glob   string
	Prefix string // the start point as written, joined before sub
	Fold   bool
	Not    bool
	re     *regexp.Regexp
	done   bool
}

// Keep implements [Cond].
func (g *PathGlob) Keep(rel, sub string) bool {
	if !g.done {
		g.re, g.done = globRE(g.Glob, false, g.Fold), true
	}
	if g.re == nil {
		return true
	}
	p := sub
	if g.Prefix != "" {
		p = strings.TrimSuffix(g.Prefix, "/") + "/" + sub
	}
	return g.re.MatchString(p) != g.Not
}

// Pathspecs are git pathspecs relative to the searched directory (git
// grep -- SPEC...): plain prefixes, globs, and ":!"/":(exclude)" excludes.
type Pathspecs struct {
	Specs []string
}

// Keep implements [Cond].
func (p Pathspecs) Keep(rel, sub string) bool {
	include, anyInclude := false, false
	for _, s := range p.Specs {
		neg := false
		switch {
		case strings.HasPrefix(s, ":!"), strings.HasPrefix(s, ":^"):
			neg, s = true, s[2:]
		case strings.HasPrefix(s, ":(exclude)"):
			neg, s = true, s[len(":(exclude)"):]
		case strings.HasPrefix(s, ":(top)"), strings.HasPrefix(s, ":/"):
			// relative to the top: compare with rel
			s = strings.TrimPrefix(strings.TrimPrefix(s, ":(top)"), ":/")
			if specMatch(s, rel) {
				include = true
			}
			anyInclude = true
			continue
		}
		s = strings.TrimPrefix(path.Clean("./"+s), "./")
		m := specMatch(s, sub)
		if neg {
			if m {
				return false
			}
			continue
		}
		anyInclude = true
		if m {
			include = true
		}
	}
	return include || !anyInclude
}

func specMatch(spec, p string) bool {
	if spec == "" || spec == "." {
		return true
	}
	if within(p, spec) {
		return true
	}
	if pattern.HasMeta(spec, 0) {
		if re := globRE(spec, false, false); re != nil && re.MatchString(p) {
			return true
		}
	}
	return false
}

// FileTypes keeps files of ripgrep types (-t/--type, Claude Code's Grep
// type); with Not, drops them (-T/--type-not).
type FileTypes struct {
	Types []string
	Not   bool
}

// Keep implements [Cond].
func (t FileTypes) Keep(rel, sub string) bool {
	in := false
	for _, ty := range t.Types {
		if typeHas(ty, rel) {
			in = true
		}
	}
	if t.Not {
		return !in
	}
	return in || len(t.Types) == 0
}

// rgTypes are the ripgrep types whose globs cover the extensions ADR
// records are written with; any other type name keeps none of them.
var rgTypes = map[string][]string{
	"md":       {".md", ".markdown", ".mdown", ".mdwn", ".mkd", ".mkdn", ".mdx"},
	"markdown": {".md", ".markdown", ".mdown", ".mdwn", ".mkd", ".mkdn", ".mdx"},
	"txt":      {".txt"},
	"text":     {".txt"},
	"rst":      {".rst"},
	"asciidoc": {".adoc", ".asciidoc", ".asc"},
	"adoc":     {".adoc", ".asciidoc", ".asc"},
	"org":      {".org"},
	"all":      nil, // every file
}

func typeHas(ty, rel string) bool {
	exts, ok := rgTypes[strings.ToLower(ty)]
	if !ok {
		return false
	}
	if exts == nil {
		return true
	}
	ext := strings.ToLower(path.Ext(rel))
	for _, e := range exts {
		if e == ext {
			return true
		}
	}
	return false
}
