package adr

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
)

// What `git adr new` takes from a root besides its records: the template
// the log keeps (beside its records, as a placeholder record folder, or
// above a root, as a log of component folders keeps it), and the numbers that files it does
// not read as records carry.

// LogTemplate is the template the log keeps beside its records, for
// `git adr new` when neither .adr.toml nor $ADR_TEMPLATE names one
// (adr-tools' templates/template.md is looked up by the command first):
// MADR's adr-template.md, then a template named as such in the log's
// language (template.md, PLANTILLA.md, Vorlage.md; hidden or not:
// .TEMPLATE.md), then a numbered
// 0000-template.md or an RFC-0000/ placeholder folder, then a placeholder
// name such as ADRXXX-title.md. "" when there is none.
func (root *Root) LogTemplate() string {
	rank := func(p string) int {
		base := baseOf(p)
		if isFolderRecordFile(base) {
			return 2 // RFC-0000/README.md
		}
		stem := strings.TrimLeft(strings.ToLower(strings.TrimSuffix(base, path.Ext(p))), "_.")
		switch {
		case stem == "adr-template":
			return 0
		case slices.Contains(templateWords, stem):
			return 1
		case parseFileName(base).Numbered:
			return 2
		case !slices.ContainsFunc(templateWords, func(w string) bool { return strings.Contains(stem, w) }):
			return 3 // ADRXXX-title
		}
		return 4 // adr-template-minimal, template-short, ...
	}
	best := ""
	for _, t := range root.templates {
		p := strings.TrimPrefix(t, "./")
		if best == "" || rank(p) < rank(best) || rank(p) == rank(best) && p < best {
			best = p
		}
	}
	return best
}

// placeholderFolder is the file of a folder that is the log's template
// written as a record folder: numbered 0 with no slug ("RFC-0000/",
// "0000/") and holding a README.md whose title is left to fill in ("#
// RFC-NNNN Title", "# Title"). "" for any other folder.
func placeholderFolder(fsys fs.FS, dir string) string {
	fn := parseFileName(baseOf(dir) + ".md")
	if !fn.Numbered || fn.Number != 0 || fn.Slug != "" {
		return ""
	}
	file := recordFolderFile(fsys, dir)
	if file == "" {
		return ""
	}
	data, err := fs.ReadFile(fsys, path.Join(dir, file))
	if err != nil {
		return ""
	}
	rec := Parse(data)
	if !placeholderTitled(rec) {
		return ""
	}
	return path.Join(dir, file)
}

// placeholderTitled reports a record whose title line is a template's:
// a placeholder title ("Title", "{short title ...}"), or a number still
// to fill in before it ("RFC-NNNN Title", "ADR-XXX: Title").
func placeholderTitled(rec *Record) bool {
	return rec.RawTitle != "" && (rec.Title == "" || numberPlaceholder.MatchString(rec.RawTitle))
}

// ParentTemplate is the template kept in the folder above a root, as a
// log of component folders keeps it (Anthony-Nolan/Atlas's
// ArchitecturalDecisionRecord/000-template.md above Phase0/, Phase1/,
// ...): the one file there named as a template, when it reads as an ADR
// template (a status, or decision sections). "" when there is none or
// more than one, and for a root at the top of the repository, whose
// parent holds the whole project.
func (root *Root) ParentTemplate(fsys fs.FS) string {
	parent := dirOf(root.Path)
	if root.File || root.Path == "" || parent == "" || parent == "." {
		return ""
	}
	entries, err := fs.ReadDir(fsys, parent)
	if err != nil {
		return ""
	}
	found := ""
	for _, e := range entries {
		if !e.Type().IsRegular() || nonRecordReason(e.Name()) != reasonTemplate {
			continue
		}
		if found != "" {
			return "" // which one is the log's is anyone's guess
		}
		found = path.Join(parent, e.Name())
	}
	if found == "" {
		return ""
	}
	data, err := fs.ReadFile(fsys, found)
	if err != nil || !looksLikeADR(Parse(data)) {
		return ""
	}
	return found
}

// SkippedNumbers are the numbers that files of the root (and its archive)
// carry in their names although they are not records git-adr reads:
// records of another format ("0001-purpose-of-this-repo.rst"), links, a
// diagram named for its record. A new record takes none of them, as it
// takes no record's. Hidden files and templates hold no number.
func (root *Root) SkippedNumbers() []int {
	var out []int
	for _, s := range root.Skipped {
		if fn, ok := skippedNumbered(s); ok {
			out = append(out, fn.Number)
		}
	}
	return out
}

// skippedNumbered takes apart the name of a skipped file that carries a
// record number, whatever its extension.
func skippedNumbered(s Skipped) (fileName, bool) {
	if strings.HasSuffix(s.Path, "/") || s.Reason == reasonHidden || s.Reason == reasonTemplate {
		return fileName{}, false
	}
	name := baseOf(s.Path)
	ext := path.Ext(name)
	if recordExt(name) != "" {
		ext = recordExt(name)
	}
	fn := parseFileName(strings.TrimSuffix(name, ext) + ".md")
	fn.Ext = ext
	return fn, fn.Numbered
}

// UnreadNote tells of the numbered files of another format the root holds
// that are records of their own (no Markdown record carries their
// number), by format: git-adr reads none of them, and new numbered a
// record past them. "" when there are none.
func (root *Root) UnreadNote(number int) string {
	// Nearly every log skips no numbered file of another format: the
	// numbers its records hold are gathered only when one does.
	var other []fileName
	for _, s := range root.Skipped {
		if s.Reason != reasonNotMarkdown {
			continue
		}
		if fn, ok := skippedNumbered(s); ok {
			other = append(other, fn)
		}
	}
	if len(other) == 0 {
		return ""
	}
	held := map[int]bool{}
	for _, r := range root.Records {
		if r.Numbered {
			held[r.Number] = true
		}
	}
	byExt := map[string]int{}
	for _, fn := range other {
		if !held[fn.Number] {
			byExt[strings.ToLower(fn.Ext)]++
		}
	}
	if len(byExt) == 0 {
		return ""
	}
	exts := make([]string, 0, len(byExt))
	n := 0
	for e, c := range byExt {
		exts = append(exts, e)
		n += c
	}
	sort.Strings(exts)
	var parts []string
	for _, e := range exts {
		if e == "" {
			// "0016-handle-concurrent-git-operations": a record that lost
			// its .md.
			parts = append(parts, plural(byExt[e], "numbered file")+" with no extension")
			continue
		}
		parts = append(parts, plural(byExt[e], "numbered "+e+" file"))
	}
	them := "them"
	if n == 1 {
		them = "it"
	}
	return fmt.Sprintf("%s holds %s that git-adr does not read (it reads Markdown records); %s is numbered past %s",
		root.Dir(), strings.Join(parts, " and "), root.FormatID(number), them)
}
