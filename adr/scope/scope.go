// Package scope answers which decisions govern a path: the code scope
// records declare ("Applies to:" globs, applies_to in front matter,
// .adr.toml [[scope]] tables), the markers source files carry (ADR-0012 or
// @adr 12 in a comment), and, last, records that name the path or its
// folder. It reads only what it is given (the log, the markers found by
// the caller through git grep, and the cache folder LoadMentions is
// given); it never walks the work tree.
package scope

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/git-adr/git-adr/adr"
)

// Why a record governs a path, strongest first.
const (
	Declared  = "applies_to"
	Config    = "config"
	ByMarker  = "marker"
	ByMention = "mention"
)

// Bounds of the marker search (git grep over the tracked files): lines
// per file and lines in all.
const (
	MarkersPerFile = 20
	MarkersMax     = 5000
)

// Match is one record governing one path.
type Match struct {
	Record *adr.Record
	Path   string
	// Kind is Declared, Config, ByMarker or ByMention.
	Kind string
	// Why says it for a person: "applies_to: payments/**", "marker at
	// payments/cache.go:12", "names payments/".
	Why string
}

// rank orders kinds: declared scope first, then markers, then mentions.
func rank(kind string) int {
	switch kind {
	case Declared, Config:
		return 0
	case ByMarker:
		return 1
	}
	return 2
}

// Marker is an ID found in a source file.
type Marker struct {
	Path string
	Line int
	// Ref is the reference as written ("ADR-0012", "12").
	Ref string
}

// rule is one glob a record declares.
type rule struct {
	rec     *adr.Record
	pattern string
	kind    string
}

// Index knows every record's declared scope and the markers found.
type Index struct {
	log     *adr.Log
	rules   []rule
	markers map[string][]marked
	// Problems are globs that are not valid patterns and [[scope]] IDs
	// that name no record.
	Problems []Problem
	// Unknown are markers that name no record.
	Unknown []Marker
	// Mentions, when set, are the path tokens of the same log's records
	// (LoadMentions): Govern then searches only the records that can name
	// a path instead of every record's text.
	Mentions *Mentions
}

type marked struct {
	rec  *adr.Record
	line int
	ref  string
}

// Problem is a scope declaration that cannot be used.
type Problem struct {
	Record  *adr.Record
	Path    string
	Message string
}

// New reads the declared scopes of l (records' AppliesTo and l's
// configuration) and the markers found.
func New(l *adr.Log, markers []Marker) *Index {
	x := &Index{log: l, markers: map[string][]marked{}}
	if l.Options.Lazy {
		// A lazy load knows most records by name only: any of them may
		// declare a scope, and a marker's record needs its status.
		for _, r := range l.Records {
			_ = l.Ensure(r) // one that cannot be read declares nothing
		}
	}
	add := func(r *adr.Record, pattern, kind string) {
		p := strings.TrimPrefix(path.Clean(strings.TrimPrefix(pattern, "./")), "/")
		if strings.HasSuffix(pattern, "/") {
			p += "/**" // a folder governs what is in it
		}
		if !doublestar.ValidatePattern(p) {
			x.Problems = append(x.Problems, Problem{Record: r, Path: r.Path, Message: fmt.Sprintf("%q is not a valid path pattern", pattern)})
			return
		}
		x.rules = append(x.rules, rule{rec: r, pattern: p, kind: kind})
	}
	for _, r := range l.Records {
		for _, g := range r.AppliesTo {
			add(r, g, Declared)
		}
	}
	if l.Config != nil {
		for _, sc := range l.Config.Scope {
			for _, id := range sc.IDs {
				r, err := l.Resolve(id)
				if err != nil {
					x.Problems = append(x.Problems, Problem{Path: adr.ConfigFile, Message: fmt.Sprintf("[[scope]] names %q, which is no record", id)})
					continue
				}
				for _, g := range sc.Paths {
					add(r, g, Config)
				}
			}
		}
	}
	for _, m := range markers {
		r, err := l.Resolve(m.Ref)
		if err != nil {
			x.Unknown = append(x.Unknown, m)
			continue
		}
		x.markers[m.Path] = append(x.markers[m.Path], marked{rec: r, line: m.Line, ref: m.Ref})
	}
	return x
}

// Patterns lists every valid declared glob with its record.
func (x *Index) Patterns() []Match {
	var out []Match
	for _, r := range x.rules {
		out = append(out, Match{Record: r.rec, Path: r.pattern, Kind: r.kind, Why: r.kind + ": " + r.pattern})
	}
	return out
}

// Govern returns the records governing paths (slash-separated, relative
// to the repository root): declared scope first, then markers, then
// records that name a path or its folder, each record once per path.
// Archived records never govern.
func (x *Index) Govern(paths []string) []Match {
	var out []Match
	for _, p := range paths {
		seen := map[*adr.Record]bool{}
		addm := func(m Match) {
			if m.Record.Archived || seen[m.Record] {
				return
			}
			seen[m.Record] = true
			out = append(out, m)
		}
		for _, r := range x.rules {
			if ok, _ := doublestar.Match(r.pattern, p); ok {
				addm(Match{Record: r.rec, Path: p, Kind: r.kind, Why: r.kind + ": " + r.pattern})
			}
		}
		for _, m := range x.markers[p] {
			addm(Match{Record: m.rec, Path: p, Kind: ByMarker, Why: fmt.Sprintf("marker %s at %s:%d", m.ref, p, m.line)})
		}
		for _, r := range x.mayName(p) {
			if seen[r] || r.Archived {
				continue
			}
			// Read, not kept: a folder many records name would otherwise
			// hold every text (explain of a log's own folder did).
			t := r.PeekText()
			if t == nil {
				continue
			}
			if what := mentions(r.ContentIn(t), p); what != "" {
				addm(Match{Record: r, Path: p, Kind: ByMention, Why: "names " + what})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i].Kind) < rank(out[j].Kind) })
	return out
}

// mayName are the records whose text may name p or its folder (see
// mentions): those Mentions finds, else every record.
func (x *Index) mayName(p string) []*adr.Record {
	if x.Mentions == nil {
		return x.log.Records
	}
	strs := []string{p}
	if d := path.Dir(p); d != "." && d != "/" {
		strs = append(strs, d+"/")
	}
	if recs, ok := x.Mentions.candidates(strs...); ok {
		return recs
	}
	return x.log.Records
}

// mentions says which of p or its package (the folder holding it) src, a
// record's text, names ("" when none). The folder is named with its
// trailing slash, so that a word in prose does not count; folders further
// up are not asked about: "src/" would name every file.
func mentions(src []byte, p string) string {
	if bytes.Contains(src, []byte(p)) {
		return p
	}
	if d := path.Dir(p); d != "." && d != "/" && bytes.Contains(src, []byte(d+"/")) {
		return d + "/"
	}
	return ""
}

// Folder is the folder a pattern's literal start names ("src/pay" of
// "src/pay/**/*.go"): every path it matches starts with it. "" when the
// pattern starts with a wildcard.
func Folder(pattern string) string {
	i := strings.IndexAny(pattern, "*?[{\\")
	if i < 0 {
		return pattern
	}
	lit := pattern[:i]
	if j := strings.LastIndexByte(lit, '/'); j >= 0 {
		return lit[:j]
	}
	return ""
}

// MatchesAny reports whether pattern matches one of sorted (paths in
// sorted order), trying only those under the pattern's folder.
func MatchesAny(pattern string, sorted []string) bool {
	dir := Folder(pattern)
	for _, f := range sorted[sort.SearchStrings(sorted, dir):] {
		if !strings.HasPrefix(f, dir) {
			return false
		}
		if ok, _ := doublestar.Match(pattern, f); ok {
			return true
		}
	}
	return false
}

// Unmatched returns the declared globs that match none of files (the
// tracked files of the repository).
func (x *Index) Unmatched(files []string) []Match {
	var out []Match
	// Each glob is tried on the files under its folder only: thousands of
	// scoped records in a large tree cost a search each, not a pass over
	// every file.
	sorted := slices.Sorted(slices.Values(files))
	for _, r := range x.rules {
		hit := MatchesAny(r.pattern, sorted)
		if !hit {
			out = append(out, Match{Record: r.rec, Path: r.pattern, Kind: r.kind, Why: r.kind + ": " + r.pattern})
		}
	}
	return out
}

// ParseMarkers reads `git grep -n -o -I -E` output ("path:line:match"
// lines) into markers, at most max of them.
func ParseMarkers(out []byte, max int) []Marker {
	var ms []Marker
	for _, line := range strings.Split(string(out), "\n") {
		if len(ms) >= max {
			break
		}
		p, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		n, match, ok := strings.Cut(rest, ":")
		if !ok {
			continue
		}
		var ln int
		if _, err := fmt.Sscan(n, &ln); err != nil {
			continue
		}
		ref := strings.TrimSpace(match)
		if i := strings.Index(ref, "@adr"); i >= 0 {
			ref = strings.TrimLeft(ref[i+len("@adr"):], " :")
		} else {
			ref = strings.TrimLeft(ref, "/#*-;<!\t ")
		}
		if ref == "" {
			continue
		}
		ms = append(ms, Marker{Path: p, Line: ln, Ref: ref})
	}
	return ms
}

// MarkerPattern is the extended regular expression git grep looks for: an
// "@adr 12" anywhere, or a comment that starts with an ID ("// ADR-0012:",
// "# ADR-12"), so that an ID quoted in code or prose is not a marker.
const MarkerPattern = `@adr[ :]?[0-9]+|(//|#|/\*|\*|--|;|<!--)[[:space:]]*ADR[-_]?[0-9]{1,6}\b`

// MarkerExclude are the files a marker is never looked for in: prose,
// where IDs are written to be read, not to tag code, and test fixtures
// (the folders discovery skips too), which quote records as data.
var MarkerExclude = []string{"**/*.md", "**/*.markdown", "**/*.rst", "**/*.adoc", "**/*.txt",
	"**/testdata/**", "**/fixtures/**", "**/node_modules/**", "**/vendor/**"}
