package adr

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
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
	// Template is a project template for new records ("" for built-in).
	Template string
	// Records are the live and the archived records, in number order
	// (records identified by slug after numbered ones, by ID).
	Records []*Record
	// Exists reports whether the directory exists yet.
	Exists bool

	configured bool // style/digits/prefix fixed by configuration
	digitsSet  bool
}

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
func (root *Root) scanRecords(fsys fs.FS, lazy bool) error {
	dir := root.Path
	if dir == "" {
		dir = "."
	}
	entries, err := fs.ReadDir(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read ADR root %q: %w", root.Dir(), err)
	}
	root.Exists = true
	live, err := root.readRecords(fsys, dir, entries, false, lazy)
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
		archived, err := root.readRecords(fsys, adir, aentries, true, lazy)
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
			archived, err := root.readRecords(fsys, ydir, yentries, true, lazy)
			if err != nil {
				return err
			}
			root.Records = append(root.Records, archived...)
		}
	}
	root.deriveConventions()
	return nil
}

// lazySample is how many records a lazy load parses to learn a root's
// style.
const lazySample = 12

func (root *Root) readRecords(fsys fs.FS, dir string, entries []fs.DirEntry, archived, lazy bool) ([]*Record, error) {
	type cand struct {
		name string
		fn   fileName
	}
	var cands []cand
	numbered := false
	for _, e := range entries {
		if e.IsDir() || e.Type()&fs.ModeSymlink != 0 || !isRecordFileName(e.Name()) {
			continue
		}
		fn := parseFileName(e.Name())
		numbered = numbered || fn.Numbered
		cands = append(cands, cand{e.Name(), fn})
	}
	// In a numbered log, an unnumbered file is documentation beside the
	// records, not a record.
	kept := cands[:0]
	for _, c := range cands {
		if !numbered || c.fn.Numbered || isDateSlug(c.fn.Stem) {
			kept = append(kept, c)
		}
	}
	cands = kept
	// A lazy load parses only a sample (and files whose name does not say
	// they are records); the rest are known by name.
	parse := make([]bool, len(cands))
	for i, c := range cands {
		parse[i] = !lazy || !c.fn.Numbered && !isDateSlug(c.fn.Stem) || len(cands) <= lazySample ||
			i%((len(cands)+lazySample-1)/lazySample) == 0
	}
	// Reading and parsing are independent per file: spread them over the
	// CPUs, keeping the directory order.
	recs := make([]*Record, len(cands))
	errs := make([]error, len(cands))
	var wg sync.WaitGroup
	next := make(chan int)
	workers := min(runtime.GOMAXPROCS(0), 8, max(len(cands), 1))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p := path.Join(dir, cands[i].name)
				if dir == "." {
					p = cands[i].name
				}
				if !parse[i] {
					recs[i] = &Record{Path: p, Status: Unknown, TitleNumber: -1, lazy: true}
					continue
				}
				data, err := fs.ReadFile(fsys, p)
				if err != nil {
					errs[i] = fmt.Errorf("read %q: %w", p, err)
					continue
				}
				rec := Parse(data)
				rec.Path = p
				recs[i] = rec
			}
		}()
	}
	for i := range cands {
		next <- i
	}
	close(next)
	wg.Wait()
	var out []*Record
	for i, c := range cands {
		if errs[i] != nil {
			return nil, errs[i]
		}
		rec := recs[i]
		if !c.fn.Numbered && !isDateSlug(c.fn.Stem) && !looksLikeADR(rec) {
			continue
		}
		rec.Root = root
		if rec.Title == "" {
			rec.Title = humanize(c.fn.Slug)
		}
		rec.Archived = archived
		rec.Numbered, rec.Number = c.fn.Numbered, c.fn.Number
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

// isDateSlug reports a file stem that starts with a date, as log4brains
// ("20201016-use-slugs") and blog-style logs ("2021-03-04-use-slugs")
// name records: such records are identified by their slug.
func isDateSlug(stem string) bool {
	return dashedDate(stem) || len(stem) > 9 && isDatePrefix(stem[:8]) && (stem[8] == '-' || stem[8] == '_')
}

// dashedDate reports a stem starting "YYYY-MM-DD-" (or "_").
func dashedDate(stem string) bool {
	if len(stem) < 12 || stem[4] != '-' || stem[7] != '-' || stem[10] != '-' && stem[10] != '_' {
		return false
	}
	return isDatePrefix(stem[:4] + stem[5:7] + stem[8:10])
}

// looksLikeADR reports ADR structure: a status, or context and decision
// sections, or an ADR-style title.
func looksLikeADR(r *Record) bool {
	if r.StatusField.Kind != FieldNone {
		return true
	}
	if hasUnit(r, "decision") && (hasUnit(r, "context") || hasUnit(r, "consequences") || hasUnit(r, "options")) {
		return true
	}
	return r.TitleNumber >= 0 && hasUnit(r, "decision")
}

// deriveConventions reads padding, file-name lead and style from the
// records unless configuration fixed them, and assigns display IDs.
func (root *Root) deriveConventions() {
	leads := map[string]int{}
	seps := map[string]int{}
	styles := map[Style]int{}
	padded, unpadded, noSlug, dated, numbered, dashed := 0, 0, 0, 0, 0, 0
	width := 0
	for _, r := range root.Records {
		fn := parseFileName(baseOf(r.Path))
		if r.Style != StylePlain && !r.lazy {
			styles[r.Style]++
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
	if !root.digitsSet {
		if padded > 0 && padded >= unpadded/4 {
			root.Digits = width
		} else if padded == 0 && numbered > 0 {
			root.Digits = 0
		}
	}
	root.Lead = mostCommon(leads, root.Lead)
	root.Sep = mostCommon(seps, root.Sep)
	root.NoSlug = noSlug > 0 && noSlug*2 > len(root.Records)
	root.DateSlugs = dated > 0 && len(leads) == 0
	root.DashedDates = root.DateSlugs && dashed*2 > dated
	if !root.configured {
		best := 0
		for _, s := range WritableStyles {
			if styles[s] > best {
				best, root.Style = styles[s], s
			}
		}
	}
	for _, r := range root.Records {
		if r.Numbered {
			r.ID = root.FormatID(r.Number)
		}
		r.assignUnitIDs()
	}
	sortRecords(root.Records)
}

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
	s := strings.TrimSpace(strings.NewReplacer("-", " ", "_", " ").Replace(slug))
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}
