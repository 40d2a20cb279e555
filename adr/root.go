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
	"unicode"
	"unicode/utf8"
)

// Root is a directory of ADRs with its own ID namespace.
type Root struct {
	// Path is slash-separated and relative to the repository root ("" for
	// the repository root itself).
	Path string
	// Source says how the root was found: ".adr.toml", ".adr-dir",
	// ".log4brains.yml", "conventional", "detected" or "--root".
	Source string
	// Name is the module name (log4brains packages), "" for the main root.
	Name string
	// Prefix and Digits render IDs: "ADR-" and 4 give "ADR-0007".
	Prefix string
	Digits int
	// Style is the style new records are written in.
	Style Style
	// Lead and Sep are how record file names start: "adr-" and "-" in
	// "adr-017-x.md". DateSlugs reports a root whose files are
	// YYYYMMDD-slug (log4brains) or, with DashedDates, YYYY-MM-DD-slug.
	Lead, Sep   string
	DateSlugs   bool
	DashedDates bool
	// NoSlug reports file names without a slug ("ADR-48.md").
	NoSlug bool
	// Folders reports a log that keeps each record in its own folder
	// ("2023-01-05-some-slug/README.md"); RecordFile is the file name
	// inside ("README.md").
	Folders    bool
	RecordFile string
	// File reports a root that is a single-file log: Path names one
	// Markdown file whose decision sections are the records.
	File bool
	// Template is a project template for new records ("" for built-in).
	Template string
	// Records are the live and the archived records, in number order
	// (records identified by slug after numbered ones, by ID).
	Records []*Record
	// Exists reports whether the directory exists yet.
	Exists bool
	// Refused is why the directory was not read although it is there:
	// a symbolic link that leads outside the repository, or a directory
	// that cannot be read (errors.Is fs.ErrPermission). A refused root has
	// no records and nothing is written into it.
	Refused error
	// Skipped are the entries of the root and its archive that are not
	// records, each with the reason.
	Skipped []Skipped

	// unlisted are the records a load made no Record for (they lie
	// outside LoadOptions.Only): their paths and names only.
	unlisted []unlisted

	// noStatus and parsed count the root's parsed records without any
	// status and in all (see StatusesOptional).
	noStatus, parsed int

	// indexFile is the configured name of the generated index ("" for
	// IndexFile); see IndexName.
	indexFile string
	// indexTwin is a file of the root named INDEX.md in another case
	// ("index.md"), and indexAlt the name the generated index takes
	// instead when none is configured (see [Root.IndexTwin]).
	indexTwin, indexAlt string

	// templates are the template files the root holds (adr-template.md,
	// template.md, 0000-template.md, ADRXXX-title.md), in no order.
	templates []string

	configured bool // style/digits/prefix fixed by configuration
	digitsSet  bool
	prefixSet  bool
}

// RefusedRootError means a record would be written into a refused root
// (see Root.Refused).
type RefusedRootError struct{ Root *Root }

func (e *RefusedRootError) Error() string {
	return fmt.Sprintf("not writing into ADR root %s: %v", e.Root.Dir(), e.Root.Refused)
}

func (e *RefusedRootError) Unwrap() error { return e.Root.Refused }

// ArchiveDir is the folder under a root that holds archived records.
const ArchiveDir = "archive"

// Archive layouts: where archival puts a record (see [Root.ArchivePath]).
const (
	// ArchiveFlat puts every archived record in the root's archive/.
	ArchiveFlat = "flat"
	// ArchiveByYear puts a record in archive/<year>/, the year of its date.
	ArchiveByYear = "year"
)

// IsArchiveYear reports a folder name archive/<year>/ uses: four digits.
func IsArchiveYear(name string) bool {
	if len(name) != 4 {
		return false
	}
	for i := 0; i < 4; i++ {
		if name[i] < '0' || name[i] > '9' {
			return false
		}
	}
	return true
}

// ArchivePath is where archival moves the file name base of this root:
// archive/<base>, or archive/<year>/<base> when year is not empty.
func (root *Root) ArchivePath(base, year string) string {
	if year != "" {
		return root.Join(ArchiveDir + "/" + year + "/" + base)
	}
	return root.Join(ArchiveDir + "/" + base)
}

// IsArchiveDir reports whether dir (repository-relative) is this root's
// archive/ or one of its archive/<year>/ folders.
func (root *Root) IsArchiveDir(dir string) bool {
	a := root.Join(ArchiveDir)
	if dir == a {
		return true
	}
	rest, ok := strings.CutPrefix(dir, a+"/")
	return ok && IsArchiveYear(rest)
}

// Dir returns the root path for display ("." for the repository root).
func (root *Root) Dir() string {
	if root.Path == "" {
		return "."
	}
	return root.Path
}

// Join returns the repository-relative path of name inside the root.
func (root *Root) Join(name string) string {
	if root.Path == "" {
		return name
	}
	return root.Path + "/" + name
}

// Holds reports whether the repository path p lies in the root (or is
// it).
func (root *Root) Holds(p string) bool {
	d := root.Dir()
	return d == "." || p == d || strings.HasPrefix(p, d+"/")
}

// Holders lists the paths of the root's records (archived included, and
// those a load left unlisted) numbered n.
func (root *Root) Holders(n int) []string {
	var out []string
	for _, r := range root.Records {
		if r.Numbered && r.Number == n {
			out = append(out, r.Path)
		}
	}
	for _, u := range root.unlisted {
		if u.fn.Numbered && u.fn.Number == n {
			out = append(out, u.path)
		}
	}
	return out
}

// Live returns the unarchived records.
func (root *Root) Live() []*Record {
	var out []*Record
	for _, r := range root.Records {
		if !r.Archived {
			out = append(out, r)
		}
	}
	return out
}

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
	live, err := root.readRecords(fsys, dir, entries, false, lazy, sample, only, cache, opt.Progress)
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
		archived, err := root.readRecords(fsys, adir, aentries, true, lazy, sample, only, cache, opt.Progress)
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
			archived, err := root.readRecords(fsys, ydir, yentries, true, lazy, sample, only, cache, opt.Progress)
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
// those paths alone and keeps the others' names (root.unlisted).
func (root *Root) readRecords(fsys fs.FS, dir string, entries []fs.DirEntry, archived, lazy bool, sample int, only map[string]bool, cache *Cache, progress func(done, total int)) ([]*Record, error) {
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
	var toRead []int
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
	var out []*Record
	for i, c := range cands {
		rec := recs[i]
		if rec == nil {
			continue // unlisted
		}
		if !c.fn.Numbered && !isDateSlug(c.fn.Stem) {
			switch {
			case numberedLog:
				root.skip(dir, c.name, "documentation beside the records: the log numbers its records and this name has no number", false)
				continue
			case !looksLikeADR(rec) && !rec.onlyTitle:
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

// IndexName is the file name of the root's generated index: the
// index_file of .adr.toml, else INDEX.md, or ADR-INDEX.md in a folder
// that has an index.md (see [Root.IndexTwin]).
func (root *Root) IndexName() string {
	if root.indexFile != "" {
		return root.indexFile
	}
	if root.indexAlt != "" {
		return root.indexAlt
	}
	return IndexFile
}

// altIndexFiles are the names the generated index takes, in this order,
// in a folder where INDEX.md would be another file too.
var altIndexFiles = []string{"ADR-INDEX.md", "DECISION-INDEX.md"}

// IndexTwin is the file of the root that INDEX.md would be on a
// case-insensitive file system (macOS, Windows): a Jekyll or MkDocs
// "index.md" beside the records. When no index_file is configured the
// generated index is named otherwise ([Root.IndexName]), so that `git adr
// index` works in such a log with no configuration. "" when there is
// none, or when index_file names the index.
func (root *Root) IndexTwin() string {
	if root.indexAlt == "" {
		return ""
	}
	return root.indexTwin
}

// avoidIndexTwin picks the index's name for a root folder holding
// entries: the first of altIndexFiles no entry takes in any case, when a
// file other than INDEX.md is INDEX.md in another case.
func (root *Root) avoidIndexTwin(entries []fs.DirEntry) {
	root.indexTwin, root.indexAlt = "", ""
	if root.indexFile != "" {
		return
	}
	taken := func(name string) string {
		for _, e := range entries {
			if e.Name() != name && strings.EqualFold(e.Name(), name) {
				return e.Name()
			}
		}
		return ""
	}
	if root.indexTwin = taken(IndexFile); root.indexTwin == "" {
		return
	}
	for _, alt := range altIndexFiles {
		if taken(alt) == "" {
			root.indexAlt = alt
			return
		}
	}
}

// StatusesOptional reports a root most of whose records state no status
// at all (no status field, no status section), as MADR allows: such a log
// does not record statuses, and a record without one is "status not
// recorded" rather than a record whose status is missing. none and total
// count the records read.
func (root *Root) StatusesOptional() (none, total int, ok bool) {
	return root.noStatus, root.parsed, root.parsed > 0 && root.noStatus*2 > root.parsed
}

// StatusNotRecorded reports a record that states no status in a log that
// does not record statuses (see [Root.StatusesOptional]).
func (r *Record) StatusNotRecorded() bool {
	if r.StatusField.Kind != FieldNone || r.Root == nil {
		return false
	}
	_, _, ok := r.Root.StatusesOptional()
	return ok
}

// statusDecoration is how the root's records decorate status st: "✅ "
// when most of its records with that status start it with that emoji, ""
// otherwise (or for a nil root).
func (root *Root) statusDecoration(st Status) string {
	if root == nil {
		return ""
	}
	forms := map[string]int{}
	for _, r := range root.Records {
		if r.lazy || r.Status != st {
			continue
		}
		raw := strings.TrimSpace(r.statusWords())
		forms[raw[:decorationLen(raw)]]++
	}
	keys := make([]string, 0, len(forms))
	for f := range forms {
		keys = append(keys, f)
	}
	sort.Strings(keys)
	best, n := "", forms[""]
	for _, f := range keys {
		if f != "" && forms[f] > n {
			best, n = f, forms[f]
		}
	}
	return best
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

// isDateSlug reports a file stem that starts with a date, as log4brains
// ("20201016-use-slugs") and blog-style logs ("2021-03-04-use-slugs")
// name records: such records are identified by their slug.
func isDateSlug(stem string) bool {
	return dashedDate(stem) || partialDate(stem) || len(stem) > 9 && isDatePrefix(stem[:8]) && (stem[8] == '-' || stem[8] == '_')
}

// dateSlugRest is the slug of a date-slug stem without its date
// ("use-slugs" of "2021-03-04-use-slugs", "20201016-use-slugs" and
// "2021-03-use-slugs").
func dateSlugRest(stem string) string {
	switch {
	case dashedDate(stem):
		return stem[11:]
	case partialDate(stem):
		return stem[8:]
	case isDateSlug(stem):
		return stem[9:]
	}
	return stem
}

// dashedDate reports a stem starting "YYYY-MM-DD-" (or "_").
func dashedDate(stem string) bool {
	if len(stem) < 12 || stem[4] != '-' || stem[7] != '-' || stem[10] != '-' && stem[10] != '_' {
		return false
	}
	return isDate(stem[:4], stem[5:7], stem[8:10])
}

// looksLikeADR reports ADR structure: a status, or context and decision
// sections, or an ADR-style title.
func looksLikeADR(r *Record) bool {
	if r.StatusField.Kind != FieldNone {
		return true
	}
	if hasUnit(r, "decision") && (hasUnit(r, "context") || hasUnit(r, "consequences") || hasUnit(r, "options") || hasUnit(r, "rationale") ||
		hasUnit(r, "background") || hasUnit(r, "motivation") || hasUnit(r, "problem") || hasUnit(r, "problem-statement")) {
		return true
	}
	return r.TitleNumber >= 0 && hasUnit(r, "decision")
}

// deriveConventions reads padding, file-name lead and style from the
// records unless configuration fixed them, and assigns display IDs.
func (root *Root) deriveConventions() {
	leads := map[string]int{}
	seps := map[string]int{}
	var styles [len(writableStyles)]int // counts by index in WritableStyles
	padded, unpadded, noSlug, dated, numbered, dashed := 0, 0, 0, 0, 0, 0
	width := 0
	folders := map[string]int{}
	count := func(p string, fn fileName) {
		if fn.Ext == "" {
			folders[baseOf(p)]++
		}
		if fn.Numbered {
			numbered++
			leads[fn.Lead]++
			if fn.Sep != "" {
				seps[fn.Sep]++
			}
			if fn.Slug == "" {
				noSlug++
			}
			if len(fn.Digits) > 1 && fn.Digits[0] == '0' {
				padded++
				width = max(width, len(fn.Digits))
			} else if len(fn.Digits) > 1 {
				unpadded++
			}
		} else if isDateSlug(fn.Stem) {
			dated++
			if dashedDate(fn.Stem) {
				dashed++
			}
		}
	}
	for _, r := range root.Records {
		count(r.Path, r.fileName())
		if r.Style != StylePlain && !r.lazy {
			for i, s := range WritableStyles {
				if r.Style == s {
					styles[i]++
					break
				}
			}
		}
	}
	for _, u := range root.unlisted {
		count(u.path, *u.fn)
	}
	all := len(root.Records) + len(root.unlisted)
	if !root.digitsSet {
		if padded > 0 && padded >= unpadded/4 {
			root.Digits = width
		} else if padded == 0 && numbered > 0 {
			root.Digits = 0
		}
	}
	root.Lead = mostCommon(leads, root.Lead)
	root.Sep = mostCommon(seps, root.Sep)
	if !root.prefixSet && root.Lead != "" && isLetter(root.Lead[len(root.Lead)-1]) {
		// "ADR019-io-manager.md": the log writes its IDs without a dash,
		// and so does git-adr (ADR019).
		root.Prefix = strings.ToUpper(root.Lead)
	} else if !root.prefixSet {
		if lead, ok := projectLead(root.Lead + "0"); ok && lead == root.Lead {
			// "ODH-ADR-MS-0002-x.md": the log's IDs carry its project and
			// component words, as written, and so do git-adr's.
			root.Prefix = root.Lead
		}
	}
	root.NoSlug = noSlug > 0 && noSlug*2 > all
	n := 0
	for _, c := range folders {
		n += c
	}
	if root.Folders = n*2 > all; root.Folders {
		root.RecordFile = mostCommon(folders, "README.md")
	}
	// One odd name does not change how the log names its records.
	root.DateSlugs = dated > 0 && dated > numbered
	root.DashedDates = root.DateSlugs && dashed*2 > dated
	if !root.configured {
		best := 0
		for i, s := range WritableStyles {
			if styles[i] > best {
				best, root.Style = styles[i], s
			}
		}
	}
	root.noStatus, root.parsed = 0, 0
	for _, r := range root.Records {
		// A stub holding only its title says nothing of whether the log
		// records statuses.
		if !r.lazy && !r.onlyTitle {
			root.parsed++
			if r.StatusField.Kind == FieldNone {
				root.noStatus++
			}
		}
	}
	// Each record's IDs are its own: a long log names them on every CPU.
	inParallel(len(root.Records), func(lo, hi int) {
		for _, r := range root.Records[lo:hi] {
			if r.Numbered {
				r.ID = root.formatID(r.Number, r.Suffix)
			}
			r.assignUnitIDs()
		}
	})
	sortRecords(root.Records)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func mostCommon(m map[string]int, def string) string {
	best, n := def, 0
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if m[k] > n {
			best, n = k, m[k]
		}
	}
	return best
}

// humanize turns a file-name slug into a title: "use-postgres" gives
// "Use postgres".
func humanize(slug string) string {
	s := strings.TrimSpace(slugSpaces.Replace(slug))
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// slugSpaces turns a slug's separators into spaces (built once: a
// Replacer is costly to make per record).
var slugSpaces = strings.NewReplacer("-", " ", "_", " ")
