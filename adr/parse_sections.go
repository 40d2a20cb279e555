package adr

import (
	"strconv"
	"strings"

	"github.com/git-adr/git-adr/internal/lazyre"
)

// linkIndex is mdLink.FindStringIndex for a line that may hold no link.
func linkIndex(s string) []int {
	if !strings.Contains(s, "](") {
		return nil
	}
	return mdLink.FindStringIndex(s)
}

// customLabels says which unknown link labels parseRelationLine accepts.
type customLabels uint8

const (
	// noCustom accepts known relation labels only.
	noCustom customLabels = iota
	// customInStatus accepts any label linking a Markdown file by a
	// relative path: adr-tools writes its -l links ("Clarifies [3.
	// X](0003-x.md)") in the Status section.
	customInStatus
	// customRecordLinks accepts a label only when it links a record by
	// its file name ("NNNN-slug.md", a date slug) or ID, and is not
	// written as a key ("Background: [the design](../design.md)" is a
	// reference): the bullets of "## Links" or "## More Information".
	customRecordLinks
)

// parseRelationLine reads "Supersedes [5. X](0005-x.md)", "- Amended by
// [X](x.md), [Y](y.md)" or "Superseded by ADR-0009". Custom labels
// ("Clarifies [3. X](0003-x.md)", as adr-tools writes them) are accepted
// as custom says; a URL is never the target of a custom label.
func parseRelationLine(s string, custom customLabels) (label string, targets []string, ok bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "-*+ \t")
	// "⌛️ Superseded by [7. X](0007-x.md)": the emoji decorates the label;
	// "2021-05-06 Superseded by [9. Y](0009-y.md)": the date is when.
	s = s[decorationLen(s):]
	s = s[leadingDateLen(s):]
	if s == "" {
		return "", nil, false
	}
	// Most lines hold no link: skip the (backtracking) link pattern then.
	if loc := linkIndex(s); loc != nil {
		label = strings.Trim(trimDecoration(strings.TrimSpace(s[:loc[0]])), "*_: \t")
		if label == "" || len(strings.Fields(label)) > 5 || strings.ContainsAny(label, ".,;!?()[]`") {
			return "", nil, false
		}
		for _, m := range mdLink.FindAllStringSubmatch(s, -1) {
			targets = append(targets, linkTarget(m[1], m[2]))
		}
		// Anything after the links must be separators only.
		rest := mdLink.ReplaceAllString(s[loc[0]:], "")
		if strings.Trim(rest, " ,;and&*_.") != "" && !strings.EqualFold(strings.TrimSpace(rest), "and") {
			return "", nil, false
		}
		t := ParseRelationType(label)
		if !t.Known() {
			if _, rel, isKey := metaKeyOf(label); isKey && rel != "" {
				return label, targets, true
			}
			if custom == noCustom {
				return "", nil, false
			}
			keyed := strings.HasSuffix(strings.TrimRight(strings.TrimSpace(s[:loc[0]]), "*_ \t"), ":")
			if custom == customRecordLinks && keyed {
				return "", nil, false
			}
			for _, tg := range targets {
				p := linkPath(tg)
				switch {
				case urlScheme.MatchString(tg) || strings.HasPrefix(tg, "//"):
					return "", nil, false
				case isIDText(tg):
				case strings.HasSuffix(p, "/"):
					// A record folder: "../2023-01-05-some-slug/".
					if _, ok := folderRecordName(baseOf(strings.TrimSuffix(p, "/"))); !ok {
						return "", nil, false
					}
				case recordExt(p) == "":
					return "", nil, false
				case custom == customRecordLinks:
					if fn := nameOf(p); !fn.Numbered && !isDateSlug(fn.Stem) {
						return "", nil, false
					}
				}
			}
		}
		return label, targets, true
	}
	// "Superseded by ADR-0009" / "Amends: 3, 4".
	fields := strings.Fields(s)
	for n := min(3, len(fields)-1); n >= 1; n-- {
		label = strings.TrimRight(strings.Join(fields[:n], " "), ":")
		t := ParseRelationType(label)
		if !t.Known() {
			if _, rel, isKey := metaKeyOf(label); !isKey || rel == "" {
				continue
			}
		}
		ts := relationTargets(strings.Join(fields[n:], " "))
		if len(ts) > 0 {
			return label, ts, true
		}
	}
	return "", nil, false
}

// relationTargets reads the targets of a relation value: Markdown links,
// IDs ("ADR-8", "ADR-0042§3", "12") or file names, comma separated.
func relationTargets(v string) []string {
	v = strings.TrimSpace(v)
	if links := mdLink.FindAllStringSubmatch(v, -1); len(links) > 0 {
		var out []string
		for _, m := range links {
			out = append(out, linkTarget(m[1], m[2]))
		}
		return out
	}
	var out []string
	for _, item := range splitList(v) {
		item = strings.TrimRight(strings.Trim(item, "*_` "), ".")
		if isIDText(item) || recordExt(item) != "" {
			out = append(out, item)
		} else if m := idWithTitle.FindStringSubmatch(item); m != nil {
			out = append(out, m[1]) // "ADR 018: Errors Management"
		} else if m := idWithDate.FindStringSubmatch(item); m != nil {
			out = append(out, m[1]) // "ADR-9 on 2024-05-01"
		} else if m := bracketedID.FindStringSubmatch(item); m != nil {
			out = append(out, m[1]) // "[ADR 9] - with the addition of read models"
		} else if maybePrefixedID(item) && prefixedID.MatchString(item) {
			out = append(out, item) // "DR008", a log's own prefix
		}
	}
	return out
}

// The parts of an ID as records write it: "ADR-", "adr ", "RFC_" (any
// case; optional where the patterns say), then the number, "#" allowed
// before it, a letter after it ("ADR-0004a").
const (
	idPrefix = `(?i:(?:adr|rfc)[-_ ]?)`
	idNumber = `#?\d{1,9}[a-z]?`
)

// idWithTitle is an ID followed by its record's title: "ADR 018: Errors
// Management", "ADR-7 - Use Go".
var idWithTitle = lazyre.New(`^(` + idPrefix + idNumber + `)\s*(?::|\s[-–—])\s+\S`)

// bracketedID is an ID in brackets, a reference-style link, that may be
// followed by prose: "[ADR 9] - with the addition of read models" (a
// list's split may have taken its opening bracket).
var bracketedID = lazyre.New(`^\[?(` + idPrefix + `?` + idNumber + `)\](?:\s|$)`)

// prefixedID is an ID with a prefix other than ADR, as a log numbers its
// records ("DR008", "DDR-12", "ODH-ADR-0003"): a relation's value only,
// where nothing else is expected; Log.Target resolves it by the log's
// own IDs.
var prefixedID = lazyre.New(`^[A-Za-z]{1,8}(?:-[A-Za-z]{1,8})*[-_ ]?\d{1,6}$`)

// maybePrefixedID is the cheap test before prefixedID: an ID ends in a
// digit and holds no path or extension. Every relation of a log is
// resolved on every load, and nearly all are file names.
func maybePrefixedID(s string) bool {
	return s != "" && s[len(s)-1] >= '0' && s[len(s)-1] <= '9' && !strings.ContainsAny(s, "/.")
}

// linkTarget is what a relation's link names: its destination, or, when
// that is no record file, ID or record folder (a documentation site's
// path, Docusaurus's "/adr/7"), the ID its text gives ("ADR 7", "ADR-0007:
// Use X"). A URL is kept as it is.
func linkTarget(text, dest string) string {
	p := linkPath(dest)
	// The cheap tests first: nearly every link names a record file.
	if recordExt(p) != "" || strings.HasSuffix(p, "/") || strings.Contains(dest, "://") || isIDText(dest) {
		return dest
	}
	t := strings.TrimSpace(text)
	if isIDText(t) {
		return t
	}
	if m := idWithTitle.FindStringSubmatch(t); m != nil {
		return m[1]
	}
	return dest
}

// idWithDate is an ID followed by when it took effect: "ADR-9 on
// 2024-05-01", "ADR-9 since March".
var idWithDate = lazyre.New(`^(` + idPrefix + idNumber + `)\s+(?i:on|in|since|as of|from|dated|effective)\s+\S`)

var idText = lazyre.New(`^` + idPrefix + `?` + idNumber + `(?:§\d+|#[\p{L}\p{N}._-]+)?$`)

func isIDText(s string) bool { return idText.MatchString(strings.TrimSpace(s)) }

func stripFragment(s string) string {
	if i := strings.IndexAny(s, "#?"); i >= 0 {
		return s[:i]
	}
	return s
}

// statusHeadings are section titles that hold the status.
var statusHeadings = map[string]bool{
	"status": true, "statut": true, "état": true, "etat": true, "estado": true, "stato": true,
	"zustand": true, "状态": true, "状態": true, "상태": true, "статус": true, "decision status": true,
	"adr status": true, "current status": true, "status of this decision": true,
}

// headingKey is what a heading says, to look it up among the known
// sections: lower case, without emphasis, a section number ("2. Status",
// "8.1 Statut") or the emoji that decorate it ("⚡ Status", "Context 🤔").
func headingKey(s string) string {
	s = undecoratedHeading(strings.ToLower(strings.TrimSpace(s)))
	if n := sectionNumberLen(s); n > 0 && n < len(s) {
		s = undecoratedHeading(s[n:])
	} else if s != "" && (s[0] == '[' || s[0] >= '0' && s[0] <= '9') {
		// titleNum starts with a '[' or a digit.
		if m := titleNum.FindStringIndex(s); m != nil && m[1] < len(s) {
			s = undecoratedHeading(s[m[1]:]) // "2. ✅ Status"
		}
	}
	return strings.Join(strings.Fields(s), " ")
}

// undecoratedHeading strips the emphasis, colons and decoration (emoji,
// their variation selectors, other symbols: see isDecoration) around a
// heading's words.
func undecoratedHeading(s string) string {
	s = strings.Trim(s, "*_`: ")
	// Decoration is never ASCII: most headings need no look at it.
	if s != "" && (s[0] >= 0x80 || s[len(s)-1] >= 0x80) {
		s = strings.Trim(trimDecoration(s), "*_`: ")
	}
	return s
}

// sectionNumberLen is the length of a multi-level section number and the
// space after it ("8.1 " in "8.1 Statut", "2.3. " in "2.3. Context"), 0
// when s does not start with one.
func sectionNumberLen(s string) int {
	i, levels := 0, 0
	for {
		d := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == d {
			return 0
		}
		levels++
		if i+1 < len(s) && s[i] == '.' && s[i+1] >= '0' && s[i+1] <= '9' {
			i++
			continue
		}
		break
	}
	if levels < 2 {
		return 0
	}
	if i < len(s) && (s[i] == '.' || s[i] == ')') {
		i++
	}
	sp := i
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i == sp {
		return 0
	}
	return i
}

// metadataSections are sections that hold the record's metadata as lines,
// bullets or a table ("## Metadata" then "- Status: Accepted").
var metadataSections = map[string]bool{
	"metadata": true, "meta data": true, "meta": true, "document metadata": true, "adr metadata": true,
	"record metadata": true, "decision metadata": true, "document information": true, "properties": true,
	"métadonnées": true, "metadaten": true, "metadatos": true, "metadados": true, "元数据": true, "メタデータ": true,
}

// metadataSectionMeta reads the metadata of every metadata section, in
// document order (one may repeat: a header and a footer).
func (p *parser) metadataSectionMeta() {
	for hi, h := range p.headings {
		if hi == p.title || !metadataSections[headingKey(h.Text)] {
			continue
		}
		end := p.sectionEnd(hi)
		start := h.Line + 1
		if h.Setext {
			start++
		}
		p.metaLines(start, end, "", true)
	}
}

// statusSection reads "## Status": the first paragraph is the status, link
// lines are relations, ">" quotes (template guidance) are skipped. A heading
// "## Status: Accepted" carries the value itself.
func (p *parser) statusSection() {
	t := p.t
	empty := -1 // the first status heading without a value
	for hi, h := range p.headings {
		if hi == p.title {
			continue
		}
		key := headingKey(h.Text)
		inline, after := "", 0 // after: offset in h.Text past the colon
		if i := strings.IndexAny(h.Text, ":："); i > 0 && statusHeadings[headingKey(h.Text[:i])] {
			key = headingKey(h.Text[:i])
			after = i + len(string([]rune(h.Text[i:])[0]))
			inline = strings.TrimSpace(h.Text[after:])
		}
		if !statusHeadings[key] {
			continue
		}
		end := p.sectionEnd(hi)
		start := h.Line + 1
		if h.Setext {
			start++
		}
		if inline == "" {
			if p.statusBody(h.Line, start, end, false) {
				return
			}
			// An empty status heading: a later one may hold the value
			// ("## Status" repeated, or "### Status" inside it).
			if empty < 0 {
				empty = hi
			}
			continue
		}
		// "## Status: Accepted": the heading holds the value; the section
		// may still hold link lines.
		line := t.LineText(h.Line)
		// The value follows the colon; searching from the end could
		// land in a closing "##" sequence.
		off := strings.Index(line, h.Text) + after
		off += strings.Index(line[off:], inline)
		p.setStatus(inline, Field{Kind: FieldSection, Line: h.Line, Section: h.Line, Start: t.Lines[h.Line].Start + off, End: t.Lines[h.Line].Start + off + len(inline)}, h.Line)
		p.statusBody(h.Line, start, end, true)
		return
	}
	if empty >= 0 {
		h := p.headings[empty]
		start := h.Line + 1
		if h.Setext {
			start++
		}
		p.statusBody(h.Line, start, start, true)
	}
}

// textBetween reports a text line in lines [from, to).
func textBetween(t *Text, from, to int) bool {
	for i := from; i < to; i++ {
		if t.Lines[i].Kind == LineText {
			return true
		}
	}
	return false
}

var checkedBox = lazyre.New(`^\s{0,3}[-*+]\s+\[[xX]\]\s+(.*?)\s*$`)
var uncheckedBox = lazyre.New(`^\s{0,3}[-*+]\s+\[ \]\s+`)

// statusBody reads the status section whose heading is on line heading
// and whose body is lines [start, end). It reports whether the section
// states a status; an empty section sets an empty status field (where an
// edit writes one) only when setEmpty is set.
func (p *parser) statusBody(heading, start, end int, setEmpty bool) bool {
	t := p.t
	// A checklist of statuses ("- [x] Accepted", "- [ ] Rejected"): the
	// checked item is the status; none checked is an empty status.
	boxes, checked := 0, -1
	for i := start; i < end && t.Lines[i].Kind != LineHeading; i++ {
		if t.Lines[i].Kind != LineText {
			continue
		}
		line := t.LineText(i)
		if m := checkedBox.FindStringSubmatchIndex(line); m != nil {
			boxes++
			if checked < 0 {
				checked = i
				f := Field{Kind: FieldSection, Line: i, Section: heading, Start: t.Lines[i].Start + m[2], End: t.Lines[i].Start + m[3]}
				p.setStatus(line[m[2]:m[3]], f, i)
			}
		} else if uncheckedBox.MatchString(line) {
			boxes++
		}
	}
	if boxes >= 2 {
		if checked < 0 && setEmpty {
			pos := t.Lines[start-1].Next // after the heading (a setext one's underline included)
			p.setStatus("", Field{Kind: FieldSection, Line: heading, Section: heading, Start: pos, End: pos}, heading)
		}
		return checked >= 0
	}
	var valFrom, valTo = -1, -1
	quoted := -1 // the first quoted line that holds a status and nothing else
	for i := start; i < end; i++ {
		l := t.Lines[i]
		if l.Kind == LineHeading {
			// A sub-heading right after the value ("Accepted" then
			// "### Notes") ends it.
			if valFrom >= 0 && valTo < 0 {
				valTo = i
			}
			break
		}
		s := strings.TrimSpace(t.LineText(i))
		if l.Kind != LineText || strings.HasPrefix(s, ">") {
			if valFrom >= 0 && valTo < 0 {
				valTo = i
			}
			if quoted < 0 && l.Kind == LineText && bareStatus(strings.TrimLeft(s, "> \t")) {
				quoted = i
			}
			continue
		}
		// A metadata table ("| Status | Accepted |", "| Relates to |
		// ADR-1 |") is read as in the preamble; it is never the value.
		if strings.HasPrefix(s, "|") {
			p.tableRow(i, "", true)
			if valFrom >= 0 && valTo < 0 {
				valTo = i
			}
			continue
		}
		// "~~Accepted~~ Superseded by [X](x.md)": the struck word is no
		// part of the relation's label.
		if label, targets, ok := parseRelationLine(strings.TrimSpace(withoutStruck(s)), customInStatus); ok {
			rt := ParseRelationType(label)
			for _, tg := range targets {
				p.addRelation(rt, label, tg, i)
			}
			if valFrom < 0 && rt == SupersededBy {
				valFrom, valTo = i, i+1
			} else if valFrom >= 0 && valTo < 0 {
				valTo = i
			}
			continue
		}
		if valFrom < 0 && statusChoices(cleanStatus(s)) {
			// "列表：提议/通过/完成/已弃用/已取代": the choices the status
			// may take, guidance written before it.
			continue
		}
		if valFrom < 0 {
			valFrom = i
		} else if valTo >= 0 {
			// A history written one dated entry a paragraph ("2017-11-22
			// 提议", "", "2017-11-26 完成"): a later entry continues the
			// value, whose last entry is the status.
			if datedStatusEntry(s) && datedStatusEntry(t.LineText(valFrom)) && datedStatusEntry(t.LineText(valTo-1)) && !textBetween(t, valTo, i) {
				valTo = -1
				continue
			}
			continue // a later paragraph: prose, not status
		}
	}
	if valFrom >= 0 && valTo < 0 {
		valTo = end
		for valTo > valFrom && t.Lines[valTo-1].Kind != LineText {
			valTo--
		}
	}
	if valFrom < 0 && quoted >= 0 {
		// "> Accepted" alone: the quote is the status (unfilled guidance
		// such as "> Accepted or Rejected" is not a bare status). The field
		// starts after the quote markers, so an edit keeps them.
		line := t.LineText(quoted)
		lead := len(line) - len(strings.TrimLeft(line, "> \t"))
		val := strings.TrimRight(line[lead:], " \t")
		f := Field{Kind: FieldSection, Line: quoted, Section: heading, Start: t.Lines[quoted].Start + lead}
		f.End = f.Start + len(val)
		p.setStatus(val, f, quoted)
		return true
	}
	if valFrom < 0 {
		if p.rec.StatusField.Kind != FieldNone {
			return true // a metadata table row in the section
		}
		// An empty status section: the value belongs after the heading and
		// one blank line.
		if setEmpty {
			pos := t.Lines[start-1].Next // after the heading (a setext one's underline included)
			p.setStatus("", Field{Kind: FieldSection, Line: heading, Section: heading, Start: pos, End: pos}, heading)
		}
		return false
	}
	var parts []string
	for i := valFrom; i < valTo; i++ {
		if t.Lines[i].Kind == LineText { // not the blank lines between dated entries
			parts = append(parts, strings.TrimSpace(t.LineText(i)))
		}
	}
	f := Field{Kind: FieldSection, Line: valFrom, Section: heading, Start: t.Lines[valFrom].Start, End: t.Lines[valTo-1].End}
	// Keep the indentation out of the value range.
	f.Start += len(t.LineText(valFrom)) - len(strings.TrimLeft(t.LineText(valFrom), " \t"))
	f.End -= len(t.LineText(valTo-1)) - len(strings.TrimRight(t.LineText(valTo-1), " \t"))
	p.setStatus(strings.Join(parts, " "), f, valFrom)
	return true
}

// changeLogStatus reads the status of a record that states none elsewhere
// from its change log: the state the last entry starts with (a status word,
// plain or as a link's text), as EdgeX's template writes it.
func (p *parser) changeLogStatus() {
	if p.rec.StatusField.Kind != FieldNone {
		return
	}
	t := p.t
	for hi, h := range p.headings {
		if hi == p.title || !changelogSections[headingKey(h.Text)] {
			continue
		}
		end := p.sectionEnd(hi)
		var last *Field
		word := ""
		for i := h.Line + 1; i < end; i++ {
			if t.Lines[i].Kind != LineText {
				continue
			}
			line := t.LineText(i)
			body := strings.TrimLeft(line, " \t")
			indent := len(line) - len(body)
			if len(body) < 3 || !strings.ContainsRune("-*+", rune(body[0])) || body[1] != ' ' {
				continue
			}
			off := indent + 2
			for off < len(line) && line[off] == ' ' {
				off++
			}
			rest := line[off:]
			linked := strings.HasPrefix(rest, "[")
			if linked {
				off++
				rest = rest[1:]
			}
			n := stateWord(rest)
			if NormalizeStatus(rest[:n]) == Unknown {
				// "[revised](PR) - approved (2023-04-17)": the state after
				// the entry's name.
				k := strings.Index(rest, ") ")
				if k < 0 || !linked {
					continue
				}
				after := rest[k+1:]
				trimmed := strings.TrimLeft(after, " -–:")
				if len(after)-len(trimmed) < 2 {
					continue
				}
				off += k + 1 + len(after) - len(trimmed)
				rest = trimmed
				if n = stateWord(rest); NormalizeStatus(rest[:n]) == Unknown {
					continue
				}
			}
			start := t.Lines[i].Start + off
			last = &Field{Kind: FieldChangeLog, Line: i, Section: h.Line, Start: start, End: start + n}
			word = rest[:n]
			if !linked {
				// "superseded by [5. X](0005-x.md) (2026-12-01)": the entry
				// up to its date is the status, relations included.
				word = strings.TrimSpace(rest[:datedAt(rest)])
			}
		}
		if last != nil {
			p.setStatus(word, *last, last.Line)
			return
		}
	}
}

// datedAt is where an entry's date in parentheses starts (" (2026-12-01)"),
// or len(s).
func datedAt(s string) int {
	for k := 0; k+2 < len(s); k++ {
		if s[k] == ' ' && s[k+1] == '(' && s[k+2] >= '0' && s[k+2] <= '9' {
			return k
		}
	}
	return len(s)
}

// stateWord is the length of the word rest starts with (letters, inner
// dashes).
func stateWord(rest string) int {
	n := 0
	for n < len(rest) && (isLetter(rest[n]) || rest[n] == '-' && n > 0) {
		n++
	}
	return n
}

// linkSections are sections whose bullets are relations.
var linkSections = map[string]bool{
	"links": true, "related": true, "related decisions": true, "related adrs": true, "related records": true,
	"relations": true, "see also": true, "more information": true, "supersedes": true, "references": true,
}

// changelogSections hold dated entries, oldest first; the first date is
// the record's date when nothing else gives one (Tendermint's
// "## Changelog"), and the state of the last entry its status when nothing
// else states one (EdgeX's "## Change Log": "- [approved](PR) (2022-07-12)").
var changelogSections = map[string]bool{
	"changelog": true, "change log": true, "history": true, "revision history": true, "revisions": true,
	"change history": true, "document history": true, "status history": true, "status log": true,
}

func (p *parser) otherSections() {
	t := p.t
	for hi, h := range p.headings {
		if p.rec.Date == "" && hi != p.title && changelogSections[headingKey(h.Text)] {
			for i := h.Line + 1; i < len(t.Lines) && p.rec.Date == ""; i++ {
				if t.Lines[i].Kind == LineHeading && atxLevel(strings.TrimLeft(t.LineText(i), " ")) <= h.Level {
					break
				}
				if k := t.Lines[i].Kind; k == LineComment || k == LineCode || k == LineFence {
					continue // a comment or code: guidance, not an entry
				}
				if m := dateInText.FindString(t.LineText(i)); m != "" {
					if d := normalizeDate(m); len(d) == 10 && d[4] == '-' {
						p.rec.Date = d
					}
				}
			}
		}
		if p.rec.Date == "" && hi != p.title && metaKeys[headingKey(h.Text)] == keyDate {
			// "### Date" then "2024-01-01": the first line that is a date.
			for i := h.Line + 1; i < len(t.Lines) && t.Lines[i].Kind != LineHeading; i++ {
				if t.Lines[i].Kind == LineText {
					if d := normalizeDate(t.LineText(i)); len(d) == 10 && d[4] == '-' && d[7] == '-' {
						p.rec.Date = d
					}
					break
				}
			}
		}
		if hi == p.title || !linkSections[headingKey(h.Text)] {
			continue
		}
		end := p.sectionEnd(hi)
		for i := h.Line + 1; i < end; i++ {
			if t.Lines[i].Kind != LineText {
				continue
			}
			s := t.LineText(i)
			if label, targets, ok := parseRelationLine(s, customRecordLinks); ok {
				for _, tg := range targets {
					p.addRelation(ParseRelationType(label), label, tg, i)
				}
			}
		}
	}
}

// canonicalAnchors names the usual sections the same in every language, so
// "ADR-0012#decision" works for "## Decision Outcome" and "## Décision".
var canonicalAnchors = map[string]string{
	"context": "context", "context and problem statement": "context", "problem statement": "context",
	"background": "context", "contexte": "context", "kontext": "context", "contexto": "context",
	"contesto": "context", "背景": "context", "上下文": "context", "コンテキスト": "context", "문맥": "context",
	"decision": "decision", "decisions": "decision", "decision outcome": "decision", "décision": "decision",
	"décisions": "decision", "entscheidung": "decision", "decisión": "decision", "decisão": "decision",
	"decisione": "decision", "决策": "decision", "决定": "decision", "決定": "decision", "결정": "decision",
	"consequences": "consequences", "conséquences": "consequences", "konsequenzen": "consequences",
	"consecuencias": "consequences", "consequências": "consequences", "conseguenze": "consequences",
	"后果": "consequences", "影响": "consequences", "結果": "consequences", "결과": "consequences",
	"considered options": "options", "options considered": "options", "options": "options",
	"alternatives": "options", "alternatives considered": "options",
	"status": "status", "statut": "status", "état": "status", "etat": "status", "estado": "status",
}

var sectionNumber = lazyre.New(`^§\s*(\d+)[.:)]?\s*`)

// units splits the record into decision units: one per top-level section,
// or per "§N" section in a sectioned container.
func (p *parser) units() {
	t := p.t
	level := 0
	for hi, h := range p.headings {
		if hi != p.title && h.Level > 1 && (level == 0 || h.Level < level) {
			level = h.Level
		}
	}
	ocp := p.forceOCP
	for hi, h := range p.headings {
		if hi != p.title && h.Level == level && sectionNumber.MatchString(h.Text) {
			ocp = true
		}
	}
	p.forceOCP = ocp
	seen := map[string]int{}
	ordinal := 0
	for hi, h := range p.headings {
		if hi == p.title || h.Level != level {
			continue
		}
		end := p.sectionEnd(hi)
		ordinal++
		var anchor string
		if ocp {
			if m := sectionNumber.FindStringSubmatch(h.Text); m != nil {
				anchor = "§" + m[1]
			} else if m := titleNum.FindStringSubmatch(h.Text); m != nil {
				anchor = "§" + m[1]
			} else {
				anchor = "§" + strconv.Itoa(ordinal)
			}
		} else {
			key := headingKey(h.Text)
			anchor = canonicalAnchors[key]
			if anchor == "" {
				anchor = slugify(key)
			}
			if anchor == "" {
				anchor = "section-" + strconv.Itoa(ordinal)
			}
		}
		// A repeated heading gets "-2", "-3"...; skip suffixes another
		// heading already took ("## Decision 2" is "decision-2" too).
		base := anchor
		for seen[anchor] > 0 {
			seen[base]++
			anchor = base + "-" + strconv.Itoa(seen[base])
		}
		seen[anchor]++
		p.rec.units = append(p.rec.units, Unit{
			Anchor: anchor, Heading: h.Text, Start: h.Line + 1, End: end,
			Hash: hashLines(t, h.Line, end),
		})
		if ocp {
			bodyFrom := h.Line + 1
			if h.Setext {
				bodyFrom++
			}
			bodyTo := bodyFrom
			for bodyTo < end && bodyTo < bodyFrom+12 && (t.Lines[bodyTo].Kind == LineText || t.Lines[bodyTo].Kind == LineBlank) {
				if t.Lines[bodyTo].Kind == LineText {
					if _, _, _, ok := splitMetaLine(t.LineText(bodyTo)); !ok && !strings.HasPrefix(strings.TrimSpace(t.LineText(bodyTo)), "|") {
						break
					}
				}
				bodyTo++
			}
			p.metaLines(bodyFrom, bodyTo, anchor, false)
		}
	}
	if len(p.rec.units) == 0 {
		from, _ := p.preambleRange()
		if from < len(t.Lines) {
			p.rec.units = append(p.rec.units, Unit{Anchor: "body", Heading: p.rec.Title, Start: from + 1, End: len(t.Lines), Hash: hashLines(t, from, len(t.Lines))})
		}
	}
}

func (p *parser) classifyStyle() {
	r := p.rec
	switch {
	case p.forceOCP:
		r.Style = StyleOCP
	case r.StatusField.Kind == FieldFrontMatter || len(p.fm) > 0 && r.StatusField.Kind == FieldNone:
		r.Style = StyleMADR
	case r.StatusField.Kind == FieldTable:
		r.Style = StyleTable
	case r.StatusField.Kind == FieldLine && strings.HasPrefix(strings.TrimSpace(p.t.LineText(r.StatusField.Line)), "-") ||
		r.StatusField.Kind == FieldLine && strings.HasPrefix(strings.TrimSpace(p.t.LineText(r.StatusField.Line)), "*") && !strings.HasPrefix(strings.TrimSpace(p.t.LineText(r.StatusField.Line)), "**"):
		r.Style = StyleMADR2
	case r.StatusField.Kind == FieldSection:
		r.Style = StyleNygard
	case hasUnit(r, "context") && hasUnit(r, "decision"):
		r.Style = StyleNygard
		for _, u := range r.units {
			if headingKey(u.Heading) == "context and problem statement" || u.Anchor == "options" {
				r.Style = StyleMADR
			}
		}
	default:
		r.Style = StylePlain
	}
}

func hasUnit(r *Record, anchor string) bool {
	_, ok := r.Unit(anchor)
	return ok
}

// sectionEnd is the line where heading hi's section ends: the next heading
// of the same or a higher level, or the end of the text.
func (p *parser) sectionEnd(hi int) int {
	for _, h2 := range p.headings[hi+1:] {
		if h2.Level <= p.headings[hi].Level {
			return h2.Line
		}
	}
	return len(p.t.Lines)
}
