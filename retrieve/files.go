package retrieve

import (
	"bytes"
	"io/fs"
	"strings"
	"unicode/utf8"
)

// FileOptions bounds source retrieval.
type FileOptions struct {
	// FS holds the files (the confined work tree, gitops.ConfinedFS, so
	// that a directory that became a link out of the repository is not
	// read through). Symbolic links among Paths are skipped.
	FS fs.FS
	// Paths are the candidate files, slash-separated and relative to Top
	// (for example `git ls-files`), in a deterministic order.
	Paths []string
	// Priority is a file the caller selected; it is ranked first when it
	// exists, whatever its score.
	Priority string
	// Limits; zero means the default.
	MaxFiles    int   // files read (default 5,000)
	MaxBytes    int64 // bytes read in all (default 32 MiB)
	MaxFileSize int64 // larger files are skipped (default 256 KiB)
	Window      int   // lines per excerpt (default 12)
	Results     int   // excerpts returned (default 5)
}

// FileStats says how much was scanned and whether limits cut the scan.
type FileStats struct {
	Files     int      `json:"files"`
	Bytes     int64    `json:"bytes"`
	Skipped   int      `json:"skipped"`
	LimitsHit []string `json:"limits_hit,omitempty"`
}

// Excerpt is a line range of a file as saved on disk.
type Excerpt struct {
	Path string
	// Start and End are 1-based inclusive lines.
	Start, End int
	Text       string
	Score      float64
	// Coverage is the share of the request's words the file matches.
	Coverage float64
	Priority bool
}

// skipDirs are dependency and build folders whose files are not the
// project's own source.
var skipDirs = map[string]bool{
	"node_modules": true, "vendor": true, "third_party": true, "dist": true, "build": true, "target": true,
	".git": true, "out": true, "bin": true, "obj": true, "__pycache__": true, ".venv": true, "venv": true,
	"coverage": true, ".next": true, ".cache": true,
}

// Files ranks the candidate files by the query (path words weigh three
// times content words) and returns the best line window of each of the top
// files. Binary, oversized and non-UTF-8 files are skipped.
func Files(q []QueryTerm, opt FileOptions) ([]Excerpt, FileStats) {
	if opt.MaxFiles == 0 {
		opt.MaxFiles = 5000
	}
	if opt.MaxBytes == 0 {
		opt.MaxBytes = 32 << 20
	}
	if opt.MaxFileSize == 0 {
		opt.MaxFileSize = 256 << 10
	}
	if opt.Window == 0 {
		opt.Window = 12
	}
	if opt.Results == 0 {
		opt.Results = 5
	}
	var st FileStats
	var docs []Doc
	var contents [][]byte
	var paths []string
	for _, p := range opt.Paths {
		if skipPath(p) {
			continue
		}
		if st.Files >= opt.MaxFiles {
			st.LimitsHit = appendOnce(st.LimitsHit, "files")
			break
		}
		if st.Bytes >= opt.MaxBytes {
			st.LimitsHit = appendOnce(st.LimitsHit, "bytes")
			break
		}
		fi, err := fs.Lstat(opt.FS, p)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > opt.MaxFileSize {
			st.Skipped++
			continue
		}
		data, err := fs.ReadFile(opt.FS, p)
		if err != nil || isBinary(data) {
			st.Skipped++
			continue
		}
		st.Files++
		st.Bytes += int64(len(data))
		docs = append(docs, Doc{ID: p, Fields: []Field{{Text: pathWords(p), Weight: 3}, {Text: string(data), Weight: 1}}})
		contents = append(contents, data)
		paths = append(paths, p)
	}
	ix := NewIndex(docs)
	hits := ix.Search(q)
	var out []Excerpt
	prio := -1
	for i, p := range paths {
		if p == opt.Priority {
			prio = i
		}
	}
	if prio >= 0 {
		ex := bestWindow(contents[prio], q, ix, opt.Window)
		ex.Path, ex.Priority = paths[prio], true
		out = append(out, ex)
	}
	for _, h := range hits {
		if len(out) >= opt.Results {
			break
		}
		if h.Doc == prio {
			continue
		}
		ex := bestWindow(contents[h.Doc], q, ix, opt.Window)
		ex.Path, ex.Score, ex.Coverage = paths[h.Doc], h.Score, h.Coverage
		out = append(out, ex)
	}
	return out, st
}

func appendOnce(ss []string, s string) []string {
	for _, x := range ss {
		if x == s {
			return ss
		}
	}
	return append(ss, s)
}

func skipPath(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if skipDirs[seg] {
			return true
		}
	}
	return false
}

// pathWords makes a path searchable: "cmd/git-adr/new.go" -> "cmd git adr new go".
func pathWords(p string) string {
	return strings.NewReplacer("/", " ", ".", " ", "-", " ", "_", " ").Replace(p)
}

func isBinary(data []byte) bool {
	head := data
	if len(head) > 8000 {
		head = head[:8000]
	}
	return bytes.IndexByte(head, 0) >= 0 || !utf8.Valid(head[:validPrefix(head)])
}

// validPrefix trims a multi-byte rune cut at the end of a sample.
func validPrefix(b []byte) int {
	n := len(b)
	for i := 0; i < 3 && n > 0 && !utf8.FullRune(b[:n]); i++ {
		n--
	}
	return n
}

// bestWindow finds the window of lines with the most query weight (ties:
// the earliest), and returns it.
func bestWindow(data []byte, q []QueryTerm, ix *Index, window int) Excerpt {
	lines := strings.SplitAfter(string(data), "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	if len(lines) == 0 {
		return Excerpt{Start: 1, End: 0}
	}
	weights := map[string]float64{}
	for _, t := range q {
		if w := ix.IDF(t.Text) * t.Weight; w > weights[t.Text] {
			weights[t.Text] = w
		}
	}
	a := Analyzer{}
	score := make([]float64, len(lines))
	for i, l := range lines {
		seen := map[string]bool{}
		for _, t := range a.TermTexts(l) {
			if w, ok := weights[t]; ok && !seen[t] {
				seen[t] = true
				score[i] += w
			}
		}
	}
	best, bestStart := -1.0, 0
	cur := 0.0
	for i := range lines {
		cur += score[i]
		if i >= window {
			cur -= score[i-window]
		}
		start := max(0, i-window+1)
		if cur > best+1e-9 {
			best, bestStart = cur, start
		}
	}
	end := min(len(lines), bestStart+window)
	// Trim blank lines at the edges of the window.
	for bestStart < end-1 && strings.TrimSpace(lines[bestStart]) == "" {
		bestStart++
	}
	for end > bestStart+1 && strings.TrimSpace(lines[end-1]) == "" {
		end--
	}
	return Excerpt{Start: bestStart + 1, End: end, Text: strings.Join(lines[bestStart:end], "")}
}
