package adr

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// Reading a root: the entries of its folder and of archive/ become
// records (read and parsed on every CPU, from the parse cache when it
// holds them) or skipped entries with a reason; a lazy or narrow load
// parses a sample and keeps the rest by name.

// scanRecords lists and parses the records of a root and its archive, and
// derives the root's naming conventions from them.
func (root *Root) scanRecords(fsys fs.FS, opt LoadOptions) error {
	lazy, cache := opt.Lazy, opt.Cache
	sample := lazySample
	if opt.NoSample {
		sample = 0
	}
	var only map[string]bool
	if lazy && opt.Only != nil {
		only = make(map[string]bool, len(opt.Only))
		for _, p := range opt.Only {
			only[p] = true
		}
	}
	dir := root.Path
	if dir == "" {
		dir = "."
	}
	if fi, err := fs.Stat(fsys, dir); err == nil && fi.Mode().IsRegular() {
		return root.readLogFile(fsys)
	}
	entries, err := fs.ReadDir(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if errors.Is(err, fs.ErrPermission) {
		root.Refused = err
		return nil
	}
	if err != nil {
		return fmt.Errorf("read ADR root %q: %w", root.Dir(), err)
	}
	root.Exists = true
	root.avoidIndexTwin(entries)
	live, err := root.readRecords(fsys, dir, entries, false, lazy, sample, only, cache, opt.Progress, opt.Parsed)
	if err != nil {
		return err
	}
	root.Records = live
	for _, e := range entries {
		if !e.IsDir() || e.Name() != ArchiveDir {
			continue
		}
		// archive/ and, in the hierarchical layout, archive/<year>/.
		adir := path.Join(dir, ArchiveDir)
		aentries, err := fs.ReadDir(fsys, adir)
		if err != nil {
			return fmt.Errorf("read archive %q: %w", adir, err)
		}
		archived, err := root.readRecords(fsys, adir, aentries, true, lazy, sample, only, cache, opt.Progress, nil)
		if err != nil {
			return err
		}
		root.Records = append(root.Records, archived...)
		for _, y := range aentries {
			if !y.IsDir() || !IsArchiveYear(y.Name()) {
				continue
			}
			ydir := path.Join(adir, y.Name())
			yentries, err := fs.ReadDir(fsys, ydir)
			if err != nil {
				return fmt.Errorf("read archive %q: %w", ydir, err)
			}
			archived, err := root.readRecords(fsys, ydir, yentries, true, lazy, sample, only, cache, opt.Progress, nil)
			if err != nil {
				return err
			}
			root.Records = append(root.Records, archived...)
		}
	}
	sort.Slice(root.Skipped, func(i, j int) bool { return root.Skipped[i].Path < root.Skipped[j].Path })
	root.deriveConventions()
	return nil
}

// readBatch is the most records a reading worker claims at once.
const readBatch = 32

// lazySample is how many records a lazy load parses to learn a root's
// style.
const lazySample = 12

// Skipped is an entry of an ADR root (or its archive) that is not a
// record, with the reason; `git adr roots --verbose` lists them.
type Skipped struct {
	// Path is repository-relative; a folder ends with "/".
	Path   string `json:"path"`
	Reason string `json:"reason"`
	// Problem marks an entry `git adr check` reports: a special file or a
	// name git-adr cannot open.
	Problem bool `json:"problem,omitempty"`
}

func (root *Root) skip(dir, name, reason string, problem bool) {
	p := name
	if dir != "." {
		p = dir + "/" + name
	}
	root.Skipped = append(root.Skipped, Skipped{Path: p, Reason: reason, Problem: problem})
}

// specialFileReason names a file that is neither regular, a folder nor a
// link. Reading a FIFO would block; none of them can be a record.
func specialFileReason(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO), not a regular file"
	case m&fs.ModeSocket != 0:
		return "a socket, not a regular file"
	case m&fs.ModeDevice != 0:
		return "a device, not a regular file"
	}
	return "not a regular file"
}

// progressDelay is how long a folder's records are read before progress
// is reported: a load from the parse cache ends before it.
const progressDelay = 200 * time.Millisecond

// progressReport counts the records a folder's workers have read and
// reports them, from one worker at a time, once reading takes long.
type progressReport struct {
	start time.Time
	mu    sync.Mutex
	n     int
}

func (r *progressReport) done(progress func(done, total int), total int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	if time.Since(r.start) >= progressDelay {
		progress(r.n, total)
	}
}

// unlisted is a record known by its name only (see LoadOptions.Only).
type unlisted struct {
	path string
	// fn points into the listing's candidates (it is large; a log of
	// thousands of records keeps one of each).
	fn       *fileName
	archived bool
}

// readRecords reads the records among a folder's entries. A lazy read
// parses a sample of sample records; with only set, it makes records for
// those paths alone and keeps the others' names (root.unlisted). Parsed,
// when set, is LoadOptions.Parsed.
func (root *Root) readRecords(fsys fs.FS, dir string, entries []fs.DirEntry, archived, lazy bool, sample int, only map[string]bool, cache *Cache, progress func(done, total int), parsed func(*Record)) ([]*Record, error) {
	type cand struct {
		name string
		fn   fileName
		// entry is the file's directory entry (nil for a record folder).
		entry fs.DirEntry
	}
	cands := make([]cand, 0, len(entries))
	numbered, dated := 0, 0
	for _, e := range entries {
		name := e.Name()
		switch {
		case !utf8.ValidString(name):
			// Such a name cannot be opened through an fs.FS; one bad name
			// must not fail every command.
			root.skip(dir, strings.ToValidUTF8(name, "\uFFFD"), fmt.Sprintf("its name %q is not valid UTF-8; rename it", name), true)
		case e.IsDir():
			if !archived && name == ArchiveDir || name == ".git" {
				continue
			}
			fn, named := folderRecordName(name)
			if !named {
				if t := placeholderFolder(fsys, path.Join(dir, name)); !archived && t != "" {
					// "RFC-0000/": the log's template, as a record folder.
					root.skip(dir, name+"/", reasonTemplate, false)
					root.templates = append(root.templates, t)
					continue
				}
				root.skip(dir, name+"/", folderReason(name), false)
				continue
			}
			// A folder per record: "2023-01-05-some-slug/README.md".
			file := recordFolderFile(fsys, path.Join(dir, name))
			if file == "" {
				root.skip(dir, name+"/", "named like a record, but holds no README.md (or index.md) to read as one", false)
				continue
			}
			if fn.Numbered {
				numbered++
			} else {
				dated++
			}
			cands = append(cands, cand{name + "/" + file, fn, nil})
		case e.Type()&fs.ModeSymlink != 0:
			root.skip(dir, name, "a symbolic link; git-adr does not follow links in an ADR folder", false)
		case !e.Type().IsRegular():
			root.skip(dir, name, specialFileReason(e.Type()), true)
		default:
			if name == root.IndexName() {
				root.skip(dir, name, "the generated index (git adr index writes it)", false)
				continue
			}
			if reason := nonRecordReason(name); reason != "" {
				root.skip(dir, name, reason, false)
				if reason == reasonTemplate && !archived {
					root.templates = append(root.templates, path.Join(dir, name))
				}
				continue
			}
			fn := parseFileName(name)
			switch {
			case fn.Numbered:
				numbered++
			case isDateSlug(fn.Stem):
				dated++
			}
			cands = append(cands, cand{name, fn, e})
		}
	}
	// A lazy load parses only a sample (and files whose name does not say
	// they are records); the rest are known by name.
	parse := make([]bool, len(cands))
	for i, c := range cands {
		parse[i] = !lazy || !c.fn.Numbered && !isDateSlug(c.fn.Stem) ||
			sample > 0 && (len(cands) <= sample || i%((len(cands)+sample-1)/sample) == 0)
	}
	// Reading and parsing are independent per file: spread them over the
	// CPUs, keeping the directory order. Records known by name only are
	// made here (handing each to a worker would cost more than making it).
	recs := make([]*Record, len(cands))
	errs := make([]error, len(cands))
	candPath := func(i int) string {
		if dir == "." {
			return cands[i].name
		}
		return dir + "/" + cands[i].name // dir is clean, a name one part (or "folder/README.md")
	}
	toRead := make([]int, 0, len(cands))
	if only != nil {
		root.unlisted = slices.Grow(root.unlisted, len(cands))
	}
	for i := range cands {
		if !parse[i] {
			if p := candPath(i); only == nil || only[p] {
				recs[i] = &Record{Path: p, Status: Unknown, TitleNumber: -1, lazy: true}
			} else {
				root.unlisted = append(root.unlisted, unlisted{p, &cands[i].fn, archived})
			}
			continue
		}
		toRead = append(toRead, i)
	}
	now := cacheNow()
	rep := progressReport{start: time.Now()}
	if parsed != nil {
		rep.start = time.Time{} // reported from the first record
	}
	// Workers claim the records in runs (one atomic add each, not a
	// channel hand-off per record: at 10,000 records the hand-offs cost
	// a quarter of a warm load), short enough that a small log is still
	// shared among them.
	var wg sync.WaitGroup
	var claimed atomic.Int64
	workers := min(runtime.GOMAXPROCS(0), 8, max(len(toRead), 1))
	batch := max(1, min(readBatch, len(toRead)/(4*workers)))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				end := int(claimed.Add(int64(batch)))
				start := end - batch
				if start >= len(toRead) {
					return
				}
				for _, i := range toRead[start:min(end, len(toRead))] {
					p := candPath(i)
					rec, err := readRecord(fsys, p, cands[i].entry, cache, now)
					if progress != nil {
						rep.done(progress, len(toRead))
					}
					if err != nil {
						errs[i] = err
						continue
					}
					rec.Path = p
					recs[i] = rec
					if parsed != nil && rec.text != nil {
						rec.settleTitle(cands[i].fn) // settled again below: the same
						parsed(rec)
					}
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	// Files named by a slug alone are records when they have ADR structure,
	// and then only in a log that does not number its records: in a
	// numbered log, an unnumbered file is documentation beside the
	// records. The log's scheme is what most of its records say, so one
	// odd name never decides it. A file holding only a title is a stub
	// record there (check reports it), even the first file of a new log.
	slugs := 0
	for i, c := range cands {
		if !c.fn.Numbered && !isDateSlug(c.fn.Stem) && looksLikeADR(recs[i]) {
			slugs++
		}
	}
	numberedLog := numbered > 0 && numbered >= slugs
	out := make([]*Record, 0, len(cands))
	for i, c := range cands {
		rec := recs[i]
		if rec == nil {
			continue // unlisted
		}
		if !c.fn.Numbered && !isDateSlug(c.fn.Stem) {
			switch {
			case numberedLog && !(isDraftStem(c.fn.Stem) && looksLikeADR(rec)):
				root.skip(dir, c.name, "documentation beside the records: the log numbers its records and this name has no number", false)
				continue
			case !numberedLog && !looksLikeADR(rec) && !rec.onlyTitle && !(slugs > 0 && framedLikeADR(rec)):
				root.skip(dir, c.name, "no ADR structure (no status, and no context and decision sections)", false)
				continue
			}
		}
		rec.Root = root
		rec.settleTitle(c.fn)
		rec.name = &cands[i].fn
		rec.Archived = archived
		rec.Numbered, rec.Number, rec.Suffix = c.fn.Numbered, c.fn.Number, c.fn.Suffix
		if !rec.Numbered {
			rec.ID = c.fn.Stem
			if root.Name != "" {
				rec.ID = root.Name + "/" + c.fn.Stem
			}
		}
		out = append(out, rec)
	}
	return out, nil
}

// emptyNote explains a root that exists but holds no record while holding
// other things (a layout git-adr does not read), "" otherwise.
func (root *Root) emptyNote(fsys fs.FS) string {
	if !root.Exists || len(root.Records) > 0 || len(root.unlisted) > 0 {
		return ""
	}
	if root.File {
		return fmt.Sprintf("ADR log %q holds no decision sections; a single-file log holds two or more headings such as \"## ADR-001: Title\" or \"## Decision 2: Title\"", root.Dir())
	}
	folders, files := 0, 0
	var deeper []string
	for _, s := range root.Skipped {
		switch {
		case s.Reason == reasonHidden:
		case strings.HasSuffix(s.Path, "/"):
			folders++
			dir := strings.TrimSuffix(s.Path, "/")
			if entries, err := fs.ReadDir(fsys, dir); err == nil && len(recordNames(fsys, dir, entries, 2)) == 2 {
				deeper = append(deeper, dir)
			}
		default:
			files++
		}
	}
	if folders+files == 0 {
		return ""
	}
	msg := fmt.Sprintf("ADR root %q holds no records (%s and %s that are not records; `git adr roots --verbose` says why for each)", root.Dir(), plural(folders, "folder"), plural(files, "file"))
	if len(deeper) > 0 {
		return msg + fmt.Sprintf("; records sit one level down, in %s: name that folder with --root, or list each in %s", strings.Join(deeper, ", "), ConfigFile)
	}
	return msg + "; records are Markdown files named NNNN-slug.md or YYYY-MM-DD-slug.md (or slug.md with a status), or folders NNNN-slug/ or YYYY-MM-DD-slug/ holding a README.md"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// recordFolderFile returns the name of the file that makes dir a record
// folder (README.md, or index.md), or "".
func recordFolderFile(fsys fs.FS, dir string) string {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return ""
	}
	for _, want := range folderRecordFiles {
		for _, e := range entries {
			if e.Name() == want && e.Type().IsRegular() {
				return want
			}
		}
	}
	return ""
}

// folderReason says why a subfolder of a root holds no records.
func folderReason(name string) string {
	if r := specialFolder(name); r != "" {
		return r
	}
	if len(name) <= 7 && !strings.ContainsAny(name, " ") && name == strings.ToLower(name) && !strings.ContainsAny(name, "0123456789") {
		return "a folder; records are the Markdown files of the root and of archive/ (a short name like this one is often a translation mirror)"
	}
	return "a folder; records are the Markdown files of the root and of archive/"
}

// specialFolder is why a folder of an ADR root holds no records of its own
// (templates, assets, drafts), or "".
func specialFolder(name string) string {
	switch strings.ToLower(name) {
	case "templates", "template":
		return "templates (git adr new uses templates/template.md)"
	case "assets", "images", "img", "media", "diagrams", "attachments", "static":
		return "assets"
	case "drafts", "draft":
		return "drafts are not records"
	}
	return ""
}

// framedLikeADR reports a record framed as a decision without a section
// named after it: two or more of context, options, consequences and
// rationale ("Background", "Options considered", "Consequences"). That
// is enough only beside records with ADR structure: a log of slug-named
// records where one weighs its options and leaves the choice to them.
func framedLikeADR(r *Record) bool {
	n := 0
	for _, a := range []string{"context", "options", "consequences", "rationale"} {
		if hasUnit(r, a) {
			n++
		}
	}
	return n >= 2
}

// isDraftStem reports a record name that holds the place of a number with
// a word saying the record has none yet: "adr-draft-spectrum-spec",
// "ADR-WIP-retries", "rfc-tbd-quotas". In a numbered log such a file is a
// record still to be numbered, not documentation beside the records.
func isDraftStem(stem string) bool {
	rest, lead := afterLead(strings.ToLower(stem))
	if !lead {
		return false
	}
	for _, w := range []string{"draft", "wip", "tbd"} {
		if strings.HasPrefix(rest, w) && len(rest) > len(w)+1 && strings.IndexByte("-_", rest[len(w)]) >= 0 {
			return true
		}
	}
	return false
}

// looksLikeADR reports ADR structure: a status, or context and decision
// sections, or an ADR-style title.
func looksLikeADR(r *Record) bool {
	if r.StatusField.Kind != FieldNone {
		return true
	}
	if hasUnit(r, "decision") && (hasUnit(r, "context") || hasUnit(r, "consequences") || hasUnit(r, "options") || hasUnit(r, "rationale")) {
		return true
	}
	return r.TitleNumber >= 0 && hasUnit(r, "decision")
}
