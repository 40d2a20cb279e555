package navigate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/git-adr/git-adr/gitops"
)

// Search limits (ADR-0069 of the reference), and the bounds of what one
// result may hold.
const (
	MaxScanEntries = 10_000   // directory entries looked at
	MaxScanFiles   = 1_000    // files read
	MaxScanBytes   = 16 << 20 // bytes read: 16 MiB
	MaxDepth       = 32       // directory levels below the searched directory
	MaxMatches     = 100      // matching lines returned
	// MaxExcerptRunes bounds a match's text: a longer line is cut to a
	// window of this many code points around the match, "…" marking cuts.
	MaxExcerptRunes = 200
	// MaxSearchPageBytes bounds the JSON encoding of the matches: 32 KiB.
	MaxSearchPageBytes = 32 << 10
)

// Names of the limits in [SearchResult.LimitsHit].
const (
	LimitEntries = "entries"
	LimitFiles   = "files"
	LimitBytes   = "bytes"
	LimitDepth   = "depth"
	LimitMatches = "matches"
	LimitOutput  = "output"
)

// skipDirs are dependency, build and version-control folders that search
// does not enter (at any depth). Naming one as the search path searches it.
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true,
	"node_modules": true, "bower_components": true, "jspm_packages": true, "vendor": true,
	".venv": true, "venv": true, "__pycache__": true, ".tox": true, ".mypy_cache": true, ".pytest_cache": true,
	".gradle": true, ".next": true, ".nuxt": true, ".svelte-kit": true, ".terraform": true,
	"target": true, "dist": true, "build": true, ".build": true,
}

// Match is one matching line.
type Match struct {
	// Path is the file, relative to the tree's current directory.
	Path string `json:"path"`
	// Line is the 1-based line number.
	Line int `json:"line"`
	// Text is the line without its line end, or a window of at most
	// MaxExcerptRunes code points around the first match with "…" at each
	// cut. Bytes that are not UTF-8 are shown as U+FFFD.
	Text string `json:"text"`
}

// SearchResult is the answer to a search. The JSON shape is documented in
// docs/json.md.
type SearchResult struct {
	Matches []Match `json:"matches"`
	// Truncated reports that matches may be missing: a limit was hit.
	Truncated bool `json:"truncated"`
	// LimitsHit names the limits that were hit, in the order of
	// [LimitEntries] ... [LimitOutput]; empty when none was.
	LimitsHit []string `json:"limits_hit"`
	// Hint says how to narrow a truncated search, or where else to look
	// when nothing matched; nil otherwise.
	Hint *string `json:"hint"`
	// Stats describe the scan (not part of the JSON shape).
	Stats SearchStats `json:"-"`
	words Words
}

// SearchStats count what a search looked at and left out.
type SearchStats struct {
	Entries, Files int
	Bytes          int64
	// Skipped are the dependency/build folders not entered (paths shown
	// relative to the current directory; the first 20).
	Skipped      []string
	SkippedCount int
	Links        int // symbolic links not followed
	Binary       int // files with a NUL byte in their first 8000 bytes
}

// Words are the names a front end gives the search's arguments, for hints:
// "--path" and "--glob" on the command line, "path" and "glob" in JSON.
type Words struct{ Path, Glob string }

// SearchOptions describe a search.
type SearchOptions struct {
	// Pattern is the literal text to find within one line.
	Pattern string
	// Glob limits the files searched: without "/" it matches the base
	// name (*.go), with "/" the path below the searched directory
	// (cmd/*/main.go); path.Match syntax.
	Glob string
	// CaseSensitive turns off Unicode simple case folding.
	CaseSensitive bool
	// Path is the directory or file to search (relative to the current
	// directory, or absolute inside the tree); "" is the current directory.
	Path string
	// Words name the arguments in Hint; zero means "path" and "glob".
	Words Words
	// Budget bounds the matches as the caller sends them (on top of
	// MaxSearchPageBytes); the scan stops with limit "output" before the
	// match that would pass it.
	Budget Budget
}

// Search finds the lines holding opts.Pattern, literally. It does not
// follow symbolic links, skips .git and the folders of skipDirs and
// files with a NUL byte in their first 8000 bytes, and visits directories
// and files in name order, so equal trees give equal answers.
func (t *Tree) Search(opts SearchOptions) (*SearchResult, error) {
	if opts.Pattern == "" {
		return nil, &ArgError{Arg: "pattern", Value: `""`, Problem: "is empty"}
	}
	if strings.ContainsAny(opts.Pattern, "\n\r") {
		return nil, &ArgError{Arg: "pattern", Value: fmt.Sprintf("%q", opts.Pattern), Problem: "holds a line break; search matches within one line"}
	}
	if !utf8.ValidString(opts.Pattern) {
		return nil, &ArgError{Arg: "pattern", Value: fmt.Sprintf("%q", opts.Pattern), Problem: "is not UTF-8"}
	}
	if _, err := path.Match(opts.Glob, ""); err != nil {
		return nil, &ArgError{Arg: "glob", Value: fmt.Sprintf("%q", opts.Glob), Problem: "is not a valid glob (syntax: * ? [a-z] \\x)"}
	}
	if opts.Words == (Words{}) {
		opts.Words = Words{Path: "path", Glob: "glob"}
	}
	p := opts.Path
	if p == "" {
		p = "."
	}
	lexical, real, err := t.locate(p)
	if err != nil {
		return nil, err
	}
	s := &scan{t: t, opts: opts, res: &SearchResult{Matches: []Match{}, LimitsHit: []string{}}}
	s.pattern = []byte(opts.Pattern)
	if !opts.CaseSensitive && hasCase(opts.Pattern) {
		s.fold = true
		s.pattern = foldBytes(nil, s.pattern)
		s.ascii, _ = newASCIIFinder(s.pattern)
	}
	s.patRunes = utf8.RuneCount(s.pattern)
	fi, err := t.root.Stat(real)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%q: %w", p, ErrNotFound)
		}
		return nil, err
	}
	switch {
	case fi.IsDir():
		sub, err := t.root.OpenRoot(real)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", p, err)
		}
		s.dir(sub, lexical, "", 0)
		sub.Close()
	case fi.Mode().IsRegular():
		if s.globOK(path.Base(lexical), path.Base(lexical)) {
			s.file(t.root, real, lexical)
		}
	default:
		return nil, fmt.Errorf("%q is a %s: %w", p, kind(fi.Mode()), ErrNotRegular)
	}
	s.finish()
	return s.res, nil
}

// scan is one search in progress.
type scan struct {
	t        *Tree
	opts     SearchOptions
	res      *SearchResult
	pattern  []byte // folded when fold
	patRunes int
	fold     bool
	// ascii finds an ASCII pattern under folding without folding the
	// text (nil for a pattern with other runes).
	ascii    *asciiFinder
	hit      map[string]bool
	stop     bool
	outBytes int
	outCost  int
	buf      []byte
	folded   []byte
}

// limit records that a limit was hit; all but depth end the scan.
func (s *scan) limit(name string) {
	if s.hit == nil {
		s.hit = map[string]bool{}
	}
	s.hit[name] = true
	if name != LimitDepth {
		s.stop = true
	}
}

// dir searches the directory r, shown as rel; below is its path under the
// searched directory (for globs with "/").
func (s *scan) dir(r *os.Root, rel, below string, depth int) {
	f, err := r.Open(".")
	if err != nil {
		return
	}
	var es []fs.DirEntry
	for {
		chunk, err := f.ReadDir(256)
		es = append(es, chunk...)
		if s.res.Stats.Entries+len(es) > MaxScanEntries || err != nil || len(chunk) == 0 {
			break
		}
	}
	f.Close()
	slices.SortFunc(es, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, e := range es {
		if s.stop {
			return
		}
		if s.res.Stats.Entries == MaxScanEntries {
			s.limit(LimitEntries)
			return
		}
		s.res.Stats.Entries++
		name := e.Name()
		childRel, childBelow := path.Join(rel, name), path.Join(below, name)
		switch typ := e.Type(); {
		case typ&fs.ModeSymlink != 0:
			s.res.Stats.Links++
		case typ.IsDir():
			if skipDirs[name] {
				if name != ".git" {
					s.res.Stats.SkippedCount++
					if len(s.res.Stats.Skipped) < 20 {
						s.res.Stats.Skipped = append(s.res.Stats.Skipped, s.t.show(childRel))
					}
				}
				continue
			}
			if depth+1 > MaxDepth {
				s.limit(LimitDepth)
				continue
			}
			sub, err := r.OpenRoot(name)
			if err != nil {
				continue
			}
			s.dir(sub, childRel, childBelow, depth+1)
			sub.Close()
		case typ.IsRegular():
			if name == ".git" || !s.globOK(name, childBelow) {
				continue
			}
			s.file(r, name, childRel)
		}
	}
}

func (s *scan) globOK(name, below string) bool {
	g := s.opts.Glob
	if g == "" {
		return true
	}
	if strings.Contains(g, "/") {
		ok, _ := path.Match(g, below)
		return ok
	}
	ok, _ := path.Match(g, name)
	return ok
}

// file searches the file name in r, shown as rel.
func (s *scan) file(r *os.Root, name, rel string) {
	st := &s.res.Stats
	if st.Files == MaxScanFiles {
		s.limit(LimitFiles)
		return
	}
	left := int64(MaxScanBytes) - st.Bytes
	if left <= 0 {
		s.limit(LimitBytes)
		return
	}
	// The entry was a regular file when listed; should it have become a
	// FIFO since, the open must not block.
	f, err := gitops.OpenNonBlocking(r, name)
	if err != nil {
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	st.Files++
	want := min(fi.Size(), left)
	if int64(cap(s.buf)) < want {
		s.buf = make([]byte, want)
	}
	n, err := io.ReadFull(f, s.buf[:want])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return
	}
	st.Bytes += int64(n)
	data := s.buf[:n]
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		st.Binary++
		return
	}
	s.match(data, rel)
	if fi.Size() > left {
		s.limit(LimitBytes)
	}
}

// match adds the lines of data that hold the pattern.
func (s *scan) match(data []byte, rel string) {
	hay := data
	find := func(pos int) int {
		if i := bytes.Index(hay[pos:], s.pattern); i >= 0 {
			return pos + i
		}
		return -1
	}
	switch {
	case s.fold && s.ascii != nil && !foldsToASCII(data, s.pattern):
		// The text as it is: an ASCII pattern's matches, found without
		// folding every byte first (line numbers and rune columns are
		// the folded text's, as folding keeps both).
		find = s.ascii.in(data).index
	case s.fold:
		s.folded = foldBytes(s.folded[:0], data)
		hay = s.folded
	}
	shown := s.t.show(rel)
	line, counted := 1, 0 // line number at hay offset counted
	oLine, oOff := 1, 0   // start offset in data of line oLine
	for pos := 0; pos <= len(hay); {
		at := find(pos)
		if at < 0 {
			return
		}
		line += bytes.Count(hay[counted:at], []byte{'\n'})
		counted = at
		start := bytes.LastIndexByte(hay[:at], '\n') + 1
		end := len(hay)
		if j := bytes.IndexByte(hay[at:], '\n'); j >= 0 {
			end = at + j
		}
		col := utf8.RuneCount(hay[start:at])
		// The same line in data (folding may change byte lengths, never
		// line breaks).
		for oLine < line {
			oOff += bytes.IndexByte(data[oOff:], '\n') + 1
			oLine++
		}
		oEnd := len(data)
		if j := bytes.IndexByte(data[oOff:], '\n'); j >= 0 {
			oEnd = oOff + j
		}
		m := Match{Path: shown, Line: line, Text: excerpt(data[oOff:oEnd], col, s.patRunes)}
		if !s.add(m) {
			return
		}
		pos = end + 1
	}
}

// add appends m, or records the limit that forbids it.
func (s *scan) add(m Match) bool {
	if len(s.res.Matches) == MaxMatches {
		s.limit(LimitMatches)
		return false
	}
	b, _ := json.Marshal(m)
	if s.outBytes+len(b)+1 > MaxSearchPageBytes {
		s.limit(LimitOutput)
		return false
	}
	if s.opts.Budget.on() {
		c := s.opts.Budget.Cost(m)
		if s.outCost+c > s.opts.Budget.Max {
			s.limit(LimitOutput)
			return false
		}
		s.outCost += c
	}
	s.outBytes += len(b) + 1
	s.res.Matches = append(s.res.Matches, m)
	return true
}

// excerpt is line (without its line end) or, when longer than
// MaxExcerptRunes code points, a window around the match at rune col.
func excerpt(line []byte, col, patRunes int) string {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	n := utf8.RuneCount(line)
	if n <= MaxExcerptRunes {
		return strings.ToValidUTF8(string(line), "\uFFFD")
	}
	from := max(0, col-(MaxExcerptRunes-min(patRunes, MaxExcerptRunes))/2)
	from = min(from, n-MaxExcerptRunes)
	to := from + MaxExcerptRunes
	var b strings.Builder
	if from > 0 {
		b.WriteString("…")
	}
	r := 0
	for i := 0; i < len(line); r++ {
		c, w := utf8.DecodeRune(line[i:])
		if r >= to {
			break
		}
		if r >= from {
			b.WriteRune(c) // RuneError for a byte that is not UTF-8
		}
		i += w
	}
	if to < n {
		b.WriteString("…")
	}
	return b.String()
}

// finish sets Truncated, LimitsHit and Hint.
func (s *scan) finish() {
	for _, name := range []string{LimitEntries, LimitFiles, LimitBytes, LimitDepth, LimitMatches, LimitOutput} {
		if s.hit[name] {
			s.res.LimitsHit = append(s.res.LimitsHit, name)
		}
	}
	s.res.words = s.opts.Words
	s.res.setHint()
}

// setHint sets Truncated and Hint from LimitsHit.
func (res *SearchResult) setHint() {
	w := res.words
	res.Truncated = len(res.LimitsHit) > 0
	res.Hint = nil
	var why []string
	for _, name := range res.LimitsHit {
		switch name {
		case LimitEntries:
			why = append(why, fmt.Sprintf("the scan stopped after %d directory entries", MaxScanEntries))
		case LimitFiles:
			why = append(why, fmt.Sprintf("the scan stopped after %d files", MaxScanFiles))
		case LimitBytes:
			why = append(why, "the scan stopped after 16 MiB")
		case LimitDepth:
			why = append(why, fmt.Sprintf("folders more than %d levels deep were not searched", MaxDepth))
		case LimitMatches:
			why = append(why, fmt.Sprintf("there are more than %d matches", MaxMatches))
		case LimitOutput:
			why = append(why, "the matches filled the result")
		}
	}
	var hint string
	switch {
	case res.Truncated:
		hint = "results are incomplete: " + strings.Join(why, "; ") +
			fmt.Sprintf("; narrow the search with %s (a subdirectory or file), %s (for example \"*.go\") or a longer pattern", w.Path, w.Glob)
	case len(res.Matches) == 0 && res.Stats.SkippedCount > 0:
		hint = fmt.Sprintf("no matches; %s not searched (dependency/build folders): name one with %s to search it",
			strings.Join(quoteAll(res.Stats.Skipped), ", "), w.Path)
	default:
		return
	}
	res.Hint = &hint
}

// cut keeps the first n matches and records that the output limit cut
// the rest.
func (res *SearchResult) cut(n int) {
	res.Matches = res.Matches[:n]
	if !slices.Contains(res.LimitsHit, LimitOutput) {
		res.LimitsHit = append(res.LimitsHit, LimitOutput)
	}
	res.setHint()
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
