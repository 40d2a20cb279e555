package adr

import (
	"sort"
	"strings"
)

// A root's conventions are what most of its records do: number padding,
// file-name lead and separator, slugs, a folder per record, dated names,
// style, whether statuses are recorded (.adr.toml may fix the padding,
// prefix and style). New records and edits follow them.

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
