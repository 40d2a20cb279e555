package adr

import (
	"fmt"
	"io/fs"
	"strings"
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
