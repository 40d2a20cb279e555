package adr

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/git-adr/git-adr/internal/lazyre"
)

// fileName is a record file name taken apart: "adr-017-simplify.md" has
// Lead "adr-", Digits "017", Sep "-", Slug "simplify", Ext ".md".
type fileName struct {
	Lead     string
	Digits   string
	Number   int
	Numbered bool
	// Suffix is the letter of an inserted record ("a" in
	// "0004a-some-slug.md"): its ID is the number and the letter.
	Suffix string
	Sep    string
	Slug   string
	Ext    string
	Stem   string
}

// recordExts are the extensions a record file may have (any case).
var recordExts = []string{".md", ".markdown", ".mdx"}

// recordExt returns the record extension of a name as written, or "".
func recordExt(name string) string {
	for _, e := range recordExts {
		if len(name) > len(e) && strings.EqualFold(name[len(name)-len(e):], e) {
			return name[len(name)-len(e):]
		}
	}
	return ""
}

// leads are the words a numbered file name may start with ("adr-017-x.md").
var leads = []string{"adr", "rfc", "dr", "decision"}

// parseFileName splits a record file name: an optional lead word and
// separator, 1 to 9 digits, then the end or a separator run and the slug,
// then the extension. Eight-digit date prefixes (log4brains' YYYYMMDD-slug)
// are not numbers: those records are identified by their slug. A date
// followed by a number ("2022-03-28_017-udp-networking.md") is a
// numbered name whose lead is the date. Record
// loading parses every file name, so this is written out by hand rather
// than as a regular expression.
func parseFileName(name string) fileName {
	ext := recordExt(name)
	stem := strings.TrimSuffix(name, ext)
	fn := fileName{Ext: ext, Stem: stem, Slug: stem}
	if ext == "" {
		return fn
	}
	try := func(lead string) (fileName, bool) {
		rest := stem[len(lead):]
		d := 0
		for d < len(rest) && d < 10 && rest[d] >= '0' && rest[d] <= '9' {
			d++
		}
		if d == 0 || d > 9 {
			return fileName{}, false
		}
		digits, after := rest[:d], rest[d:]
		suffix := ""
		// "0004a-some-slug.md" is a record inserted after 0004. A padded
		// number or a lead word is required, so that "3d-printing.md" stays
		// a slug.
		if len(after) > 0 && after[0] >= 'a' && after[0] <= 'z' && (len(after) == 1 || strings.IndexByte("-_ .", after[1]) >= 0) && (lead != "" || d >= 3) {
			suffix, after = after[:1], after[1:]
		}
		sepEnd := 0
		for sepEnd < len(after) && strings.IndexByte("-_ .", after[sepEnd]) >= 0 {
			sepEnd++
		}
		if sepEnd == 0 && after != "" {
			return fileName{}, false
		}
		n, err := strconv.Atoi(digits)
		if err != nil {
			return fileName{}, false
		}
		return fileName{Lead: lead, Digits: digits, Number: n, Numbered: true, Suffix: suffix, Sep: after[:sepEnd], Slug: after[sepEnd:], Ext: ext, Stem: stem}, true
	}
	if lead := datedLead(stem); lead != "" {
		// "2022-03-28_017-udp-networking.md": the date leads the number.
		if got, ok := try(lead); ok && !isDatePrefix(got.Digits) {
			return got
		}
		return fn
	}
	var got fileName
	ok := false
	for _, w := range leads {
		if len(stem) > len(w) && strings.EqualFold(stem[:len(w)], w) {
			lead := stem[:len(w)]
			if c := stem[len(w)]; c == '-' || c == '_' || c == ' ' {
				lead = stem[:len(w)+1]
			}
			if got, ok = try(lead); ok {
				break
			}
		}
	}
	if !ok {
		// "ODH-ADR-0003-x.md", "ODH-ADR-Operator-0007-x.md": a project or
		// component word beside the lead word.
		if lead, named := projectLead(stem); named {
			got, ok = try(lead)
		}
	}
	if !ok {
		got, ok = try("")
	}
	if !ok || isDatePrefix(got.Digits) || dashedDate(stem) || partialDate(stem) {
		return fn
	}
	return got
}

// projectLead returns the lead of a name that carries a project or
// component word beside the lead word: two to four words of letters, each
// followed by "-" or "_", one of them a lead word, then the number
// ("ODH-ADR-", "ODH-ADR-Operator-", "ADR-MS-", "decision-records-").
func projectLead(stem string) (string, bool) {
	i, hasLead := 0, false
	for words := 1; words <= 4; words++ {
		j := i
		for j < len(stem) && isLetter(stem[j]) {
			j++
		}
		if j == i || j-i > 24 || j == len(stem) || stem[j] != '-' && stem[j] != '_' {
			return "", false
		}
		for _, w := range leads {
			hasLead = hasLead || strings.EqualFold(stem[i:j], w)
		}
		i = j + 1
		if i < len(stem) && stem[i] >= '0' && stem[i] <= '9' {
			return stem[:i], hasLead && words >= 2
		}
	}
	return "", false
}

// datedLead is the date and separator a numbered name starts with
// ("2022-03-28_" of "2022-03-28_017-udp-networking", "20220328-" of
// "20220328-017-x"), or "". After "_" any number follows; after "-" only a
// zero-padded one, so that "2023-01-05-100-percent-coverage" stays a
// dated slug.
func datedLead(stem string) string {
	n := 0
	switch {
	case dashedDate(stem):
		n = 11
	case len(stem) > 9 && isDatePrefix(stem[:8]) && (stem[8] == '-' || stem[8] == '_'):
		n = 9
	default:
		return ""
	}
	rest := stem[n:]
	d := 0
	for d < len(rest) && rest[d] >= '0' && rest[d] <= '9' {
		d++
	}
	if d == 0 || stem[n-1] != '_' && (rest[0] != '0' || d < 2) {
		return ""
	}
	return stem[:n]
}

// leadOn is the lead a record written on date (YYYY-MM-DD) takes in a
// log whose lead is lead: a log whose names start with their date
// ("2022-03-28_017-x.md") writes the new record's date there, in the
// log's form ("2026-12-01_", "20261201-"); any other lead is the lead.
func leadOn(lead, date string) string {
	if lead == "" || datedLead(lead+"00") != lead || !isISODate(date) {
		return lead
	}
	if len(lead) == 9 {
		return date[:4] + date[5:7] + date[8:10] + lead[8:]
	}
	return date + lead[10:]
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

// nameDate is the date a record's name starts with, as YYYY-MM-DD
// ("2022-02-03-integration-testing", "20201016-use-slugs",
// "2022-03-28_017-udp-networking"), or "". A month alone ("2026-01-plan")
// is no date.
func nameDate(stem string) string {
	switch {
	case dashedDate(stem):
		return stem[:10]
	case len(stem) > 9 && isDatePrefix(stem[:8]) && (stem[8] == '-' || stem[8] == '_'):
		return stem[:4] + "-" + stem[4:6] + "-" + stem[6:8]
	}
	return ""
}

// partialDate reports a stem that starts with a year and a month but no
// day ("2026-01-some-slug"): in a log named by dates it is a dated record,
// never record number 2026.
func partialDate(stem string) bool {
	if len(stem) < 9 || stem[4] != '-' || stem[7] != '-' && stem[7] != '_' {
		return false
	}
	y, ok1 := digitsValue(stem[:4])
	m, ok2 := digitsValue(stem[5:7])
	if !ok1 || !ok2 || y < 1970 || y > 2200 || m < 1 || m > 12 {
		return false
	}
	return stem[8] < '0' || stem[8] > '9'
}

func isDatePrefix(d string) bool {
	return len(d) == 8 && isDate(d[:4], d[4:6], d[6:])
}

// isDate reports a year, month and day written in digits that make a
// plausible record date.
func isDate(year, month, day string) bool {
	y, ok1 := digitsValue(year)
	mo, ok2 := digitsValue(month)
	d, ok3 := digitsValue(day)
	return ok1 && ok2 && ok3 && y >= 1970 && y <= 2200 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31
}

// digitsValue is the value of s when s is one to nine ASCII digits
// (strconv.Atoi would also take a sign, and allocates its error: every
// file name of a load is tried as a date).
func digitsValue(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// nonRecordStems say why a file that lives beside records is never one:
// generated views, indexes, project files.
var nonRecordStems = map[string]string{
	"readme": reasonIndex, "index": reasonIndex, "toc": reasonIndex, "summary": reasonIndex,
	"_sidebar": reasonIndex, "decision-log": reasonIndex, "decisions": reasonIndex, "adr-log": reasonIndex,
	"log": reasonIndex, "overview": reasonIndex, "introduction": reasonIndex, "intro": reasonIndex,
	"about":     reasonIndex,
	"current":   "the generated CURRENT view",
	"changelog": reasonProject, "license": reasonProject, "licence": reasonProject,
	"contributing": reasonProject, "code_of_conduct": reasonProject, "glossary": reasonProject,
	"security": reasonProject,
}

// Reasons discovery gives for files of an ADR folder that are not records.
const (
	reasonIndex    = "an index or introduction beside the records"
	reasonProject  = "project documentation, never a record"
	reasonTemplate = "a template (git adr new uses it)"
	reasonHidden   = "hidden"
	// reasonNotMarkdown is a file of another format; a numbered one still
	// holds its number (see Root.SkippedNumbers).
	reasonNotMarkdown = "not a Markdown file"
)

// nonRecordReason says why a file name can never be a record, or "" when
// it can be one.
func nonRecordReason(name string) string {
	ext := recordExt(name)
	switch {
	case strings.HasPrefix(name, "."):
		// A log may hide its template from listings (".TEMPLATE.md"): a
		// template all the same, and the one `new` follows.
		if ext != "" && isTemplateStem(strings.ToLower(strings.TrimLeft(strings.TrimSuffix(name, ext), "."))) {
			return reasonTemplate
		}
		return reasonHidden
	case ext == "":
		return reasonNotMarkdown
	}
	stem := strings.ToLower(strings.TrimSuffix(name, ext))
	if strings.HasPrefix(name, "_") {
		if isTemplateStem(strings.TrimLeft(stem, "_")) {
			return reasonTemplate // "_template.md", "_TEMPLATE.md"
		}
		return "a partial (its name starts with _)"
	}
	if r := nonRecordStems[stem]; r != "" {
		return r
	}
	if isTemplateStem(stem) {
		return reasonTemplate
	}
	return ""
}

// templateWords name a template file, in the languages logs are kept in.
var templateWords = []string{"template", "plantilla", "vorlage", "modèle", "modele"}

// templateAffixes are how a name starts or ends when it names a template
// by one of templateWords ("adr-template...", "template-...",
// "...-template"), made once: every file of a log is asked.
var templateAffixes = func() (a struct{ prefixes, suffixes []string }) {
	for _, w := range templateWords {
		a.prefixes = append(a.prefixes, "adr-"+w, "adr_"+w, w+"-", w+".")
		a.suffixes = append(a.suffixes, "-"+w, "_"+w)
	}
	return a
}()

// isTemplateStem reports the stem of a template file: "template",
// MADR's "adr-template" (and "adr-template-minimal"), "0000-template",
// "template-nygard", "plantilla", and "ADRXXX-title" (a number still to
// fill in). A name is a template when it says it is one: a record whose
// slug mentions templates ("rfc-145-unarchive-govuk_admin_template",
// "2021-03-04-use-a-template") is a record, for a template is numbered 0
// when it is numbered at all.
func isTemplateStem(stem string) bool {
	// The name's own test first: a record's name, which is what nearly
	// every call is given, fails it without the name being parsed.
	if !templateNamed(stem) {
		return false
	}
	fn := parseFileName(stem + ".md")
	return !(fn.Numbered && fn.Number != 0 || isDateSlug(stem))
}

// templateNamed reports whether stem names a template by a template word
// or a placeholder for the number, numbered or not.
func templateNamed(stem string) bool {
	if slices.Contains(templateWords, stem) {
		return true
	}
	for _, a := range templateAffixes.prefixes {
		if strings.HasPrefix(stem, a) {
			return true
		}
	}
	for _, a := range templateAffixes.suffixes {
		if strings.HasSuffix(stem, a) {
			return true
		}
	}
	// "ADRXXX-*", "adr-xxxx-*", "XXXX-*": placeholders for the number.
	rest, _ := afterLead(stem)
	x := 0
	for x < len(rest) && len(rest) > 0 && (rest[0] == 'x' || rest[0] == 'n') && rest[x] == rest[0] {
		x++
	}
	return x >= 3 && (x == len(rest) || strings.IndexByte("-_ .", rest[x]) >= 0)
}

// afterLead is a lower-case stem without its lead word ("adr", "rfc",
// ...) and the separators after it, and whether it had one.
func afterLead(stem string) (string, bool) {
	for _, w := range leads {
		if strings.HasPrefix(stem, w) {
			return strings.TrimLeft(stem[len(w):], "-_ "), true
		}
	}
	return stem, false
}

// folderRecordFiles are the names of the file that makes a folder a record
// ("docs/decision-records/2023-01-05-some-slug/README.md"), in order of
// preference.
var folderRecordFiles = []string{"README.md", "readme.md", "index.md", "Readme.md", "INDEX.md"}

func isFolderRecordFile(base string) bool {
	for _, f := range folderRecordFiles {
		if base == f {
			return true
		}
	}
	return false
}

// folderRecordName takes apart the name of a folder that may be a record:
// numbered with a slug ("0007-use-kafka") or dated ("2023-01-05-some-slug").
func folderRecordName(name string) (fileName, bool) {
	fn := parseFileName(name + ".md")
	fn.Ext = ""
	return fn, fn.Numbered && fn.Slug != "" || !fn.Numbered && isDateSlug(fn.Stem)
}

// nameOf takes apart the name of the record at p: its file name, or the
// name of its folder when the record is a folder's README.md.
func nameOf(p string) fileName {
	base := baseOf(p)
	if d := dirOf(p); d != "" && isFolderRecordFile(base) {
		if fn, ok := folderRecordName(baseOf(d)); ok {
			return fn
		}
	}
	return parseFileName(base)
}

// isRecordFileName reports whether a file name can be a record at all.
func isRecordFileName(name string) bool { return nonRecordReason(name) == "" }

// slugify turns a title into a file-name slug the way adr-tools does: runs
// of anything but letters and digits become one dash, lower case, no dash
// at either end. Letters of every script are kept.
func slugify(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if isAlnum(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		} else {
			dash = true
		}
	}
	return b.String()
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 0x7f && (isLetterOrDigit(r))
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

// FormatID renders a number with the root's prefix and padding.
func (root *Root) FormatID(n int) string {
	return root.formatID(n, "")
}

// formatID is FormatID(n) + suffix, made with one allocation (a load
// names every numbered record with it).
func (root *Root) formatID(n int, suffix string) string {
	var buf [64]byte
	b := appendPadded(append(buf[:0], root.Prefix...), n, root.Digits)
	return string(append(b, suffix...))
}

func padNumber(n, digits int) string {
	var buf [32]byte
	return string(appendPadded(buf[:0], n, digits))
}

// appendPadded appends n in decimal, zero-padded to digits.
func appendPadded(b []byte, n, digits int) []byte {
	var d [20]byte
	s := strconv.AppendInt(d[:0], int64(n), 10)
	for i := len(s); i < digits; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// MaxNumber is the largest record number: file names hold at most
// MaxDigits digits of number.
const MaxNumber = 999_999_999

// NumberError is a record number that cannot be used, with the reason.
type NumberError struct {
	Number int
	Reason string
}

func (e *NumberError) Error() string { return fmt.Sprintf("%d %s", e.Number, e.Reason) }

// checkNumber reports why the file name base, written for record number n,
// would not read back as record n: a number over MaxNumber, or digits
// that read as a date (log4brains' YYYYMMDD-slug names).
func checkNumber(base string, n int) error {
	if n > MaxNumber {
		return &NumberError{Number: n, Reason: fmt.Sprintf("is over the largest record number, %d (file names hold at most %d digits)", MaxNumber, MaxDigits)}
	}
	if fn := parseFileName(base); !fn.Numbered || fn.Number != n {
		return &NumberError{Number: n, Reason: fmt.Sprintf("would make the file name %q, which does not read as record %d (its digits read as a date)", base, n)}
	}
	return nil
}

// idPattern reads an ID as people write it: "ADR-0007", "adr 7", "#7",
// "0007", "7", "ADR-0042§3", "ADR-0012#decision".
// A prefix may have several words, as project-prefixed logs write their
// IDs ("ODH-ADR-MS-0002").
var idPattern = lazyre.New(`^(?i:((?:[a-z]+[-_ ]){0,3}[a-z]+)[-_ ]?)?#?(\d{1,9})([a-z])?$`)

// parseIDNumber extracts the number, the written prefix and an inserted
// record's letter ("ADR-0004a") from an ID.
func parseIDNumber(s string) (prefix string, n int, suffix string, ok bool) {
	m := idPattern.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return "", 0, "", false
	}
	n, err := strconv.Atoi(m[2])
	if err != nil {
		return "", 0, "", false
	}
	return m[1], n, strings.ToLower(m[3]), true
}

// SplitLocator splits "ADR-0012#decision" or "ADR-0042§3" into the record
// reference and the unit anchor ("" when none).
func SplitLocator(ref string) (record, anchor string) {
	if i := strings.Index(ref, "§"); i > 0 {
		return ref[:i], "§" + ref[i+len("§"):]
	}
	if i := strings.LastIndexByte(ref, '#'); i > 0 {
		return ref[:i], ref[i+1:]
	}
	return ref, ""
}
