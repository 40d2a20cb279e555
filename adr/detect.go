package adr

import (
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf8"
)

// Judging whether a folder is an ADR log: which of its names are
// records, the sample of them detection reads, and what makes a folder
// say it holds decisions.

// recordNames returns up to limit names (every one for 0) in dir,
// relative to it, that are numbered or dated records by their name:
// files, or folders with a README.md (one folder per record). At the
// repository root, names must say "adr".
func recordNames(fsys fs.FS, dir string, entries []fs.DirEntry, limit int) []string {
	return recordNamesIn(fsys, dir, entries, limit, false)
}

// recordNamesIn is recordNames; with byName, a record folder is taken by
// its name alone, as "name/README.md", without listing it: a folder of
// many such folders costs one listing, not one per folder (folderFile
// finds the file a sampled one holds).
func recordNamesIn(fsys fs.FS, dir string, entries []fs.DirEntry, limit int, byName bool) []string {
	var names []string
	for _, e := range entries {
		if limit > 0 && len(names) == limit {
			break
		}
		n := e.Name()
		// Special files (a FIFO would block the read) and names an fs.FS
		// cannot open are never records.
		if !utf8.ValidString(n) || strings.HasPrefix(n, ".") {
			continue
		}
		var fn fileName
		switch {
		case e.IsDir():
			var ok bool
			if fn, ok = folderRecordName(n); !ok {
				continue
			}
			f := folderRecordFiles[0]
			if !byName {
				if f = recordFolderFile(fsys, path.Join(dirOrDot(dir), n)); f == "" {
					continue
				}
			}
			n += "/" + f
		case e.Type().IsRegular() && isRecordFileName(n):
			if fn = parseFileName(n); !fn.Numbered && !isDateSlug(fn.Stem) {
				continue
			}
		default:
			continue
		}
		if dir == "" && !leadSaysADR(fn.Lead) {
			continue
		}
		names = append(names, n)
	}
	return names
}

// sampleSize is how many of a folder's records detection reads to judge
// it: enough to see past the oldest few, few enough to stay cheap in a
// repository of many numbered folders.
const sampleSize = 8

// qualifies reports whether a folder looks like an ADR root: at least two
// numbered or date-slug records (one when the folder's place says ADR: a
// conventional ADR folder nested in a project, "services/x/docs/adr", or
// any folder inside a log already found), most of which are ADRs. At the
// repository root, names must say "adr".
//
// A folder of numbered documents is common (chapters, workshop steps,
// migrations' notes); what tells a log apart is its records' ADR structure
// (a status, a decision with its context), or names that say ADR
// ("adr002-x/", "ADR-001-x.md"). The records read are a sample spread
// over the whole folder in record order, not its first few: a log whose
// oldest records predate its template is still a log, and when at least
// six are read, its newest half having ADR structure is enough.
//
// A folder that says it holds ADRs (a nested conventional folder, or one
// inside a log named like "proposed-adrs") may hold plain-slug records
// ("rendering-type.md") when it holds no numbered ones.
func qualifies(fsys fs.FS, dir string, entries []fs.DirEntry, inLog bool) bool {
	// Every name, by name only: a folder's records are judged on a
	// sample of them, and only the sample is read.
	names := recordNamesIn(fsys, dir, entries, 0, true)
	nested := nestedConventional(dir)
	// Inside a log, a folder of unnumbered records ("reviews/",
	// "third-party/") is read too: its files must look like records (a
	// status, or a decision with its context), as every sample is judged.
	strict := false
	if len(names) == 0 && (nested || inLog) {
		names = slugNames(entries)
		// A folder whose name says nothing of records needs records that
		// say more than a status: a decision or its context besides.
		strict = !nested && !folderSaysADR(path.Base(dir))
	}
	if len(names) < 2 && !((inLog || nested) && len(names) == 1) {
		return false
	}
	sample := sampleOf(names)
	checked, ok := 0, 0
	adr := make([]bool, 0, len(sample))
	for _, n := range sample {
		if folder := dirOf(n); folder != "" {
			// A record folder taken by its name: the file it holds.
			f := recordFolderFile(fsys, path.Join(dirOrDot(dir), folder))
			if f == "" {
				continue
			}
			n = folder + "/" + f
		}
		is := nameSaysADR(nameOf(n).Lead)
		if !is {
			data, err := fs.ReadFile(fsys, path.Join(dirOrDot(dir), n))
			if err != nil {
				continue
			}
			r := Parse(data)
			is = looksLikeADR(r) && (!strict || hasUnit(r, "decision") || hasUnit(r, "context"))
		}
		checked++
		if is {
			ok++
		}
		if ok*2 > len(sample) {
			return true // most of the sample, whatever the rest says
		}
		adr = append(adr, is)
	}
	if checked > 0 && ok*2 > checked {
		return true
	}
	newest := adr[len(adr)-len(adr)/2:]
	return len(adr) >= 6 && !slices.Contains(newest, false)
}

// sampleOf returns up to sampleSize of names (a folder's records), spread
// evenly from the oldest to the newest in record order (by number, else
// by name: dates sort as written), both ends included.
func sampleOf(names []string) []string {
	type keyed struct {
		num  int // -1 for a name without a number
		name string
	}
	sorted := make([]keyed, len(names))
	for i, n := range names {
		sorted[i] = keyed{-1, n}
		if fn := nameOf(n); fn.Numbered {
			sorted[i].num = fn.Number
		}
	}
	slices.SortStableFunc(sorted, func(a, b keyed) int {
		if a.num != b.num {
			return a.num - b.num
		}
		return strings.Compare(a.name, b.name)
	})
	k := min(len(sorted), sampleSize)
	out := make([]string, k)
	for j := range out {
		i := 0
		if k > 1 {
			i = j * (len(sorted) - 1) / (k - 1)
		}
		out[j] = sorted[i].name
	}
	return out
}

// slugNames returns the Markdown files of a folder that could be
// plain-slug records: not numbered or dated (recordNames has those), not
// READMEs, indexes or templates.
func slugNames(entries []fs.DirEntry) []string {
	var names []string
	for _, e := range entries {
		n := e.Name()
		if !e.Type().IsRegular() || !utf8.ValidString(n) || !isRecordFileName(n) {
			continue
		}
		names = append(names, n)
	}
	return names
}

// nestedConventional reports a folder whose path ends in a conventional
// ADR folder of more than one part ("repo/domains/reuse/docs/adr" ends in
// "docs/adr"): a component's own log, in the layout the project's log
// uses, which one record makes.
func nestedConventional(dir string) bool {
	d := "/" + strings.ToLower(dir)
	for _, c := range ConventionalDirs {
		if strings.Contains(c, "/") && strings.HasSuffix(d, "/"+c) {
			return true
		}
	}
	return false
}

// folderSaysADR reports a folder name with the word "adr", "adrs",
// "decision" or "decisions" in it ("proposed-adrs", "historic_ADRs",
// "decision-records"), words being runs of letters.
func folderSaysADR(name string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r < 'a' || r > 'z' }) {
		switch w {
		case "adr", "adrs", "decision", "decisions":
			return true
		}
	}
	return false
}

// nameSaysADR reports a record name's lead that is the word ADR, alone or
// after a project word ("adr002-", "ADR-", "ODH-ADR-"): such a record is
// an ADR by its name, whatever its headings. "DR-" (disaster recovery as
// often as decision record) and "RFC-" are not enough.
func nameSaysADR(lead string) bool {
	l := strings.TrimRight(strings.ToLower(lead), "-_. ")
	return l == "adr" || strings.HasSuffix(l, "-adr") || strings.HasSuffix(l, "_adr")
}
