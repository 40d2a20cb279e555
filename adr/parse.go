package adr

import (
	"strings"
	"unicode/utf8"

	"github.com/git-adr/git-adr/internal/lazyre"
)

// Parse reads a record from its bytes. It never fails: whatever cannot be
// classified is kept raw (RawStatus, Problems) and reported as unknown.
// Identity fields (ID, Number, Root, Path) are filled by the caller, which
// knows the file name and root (root_read.go's readRecords).
func Parse(src []byte) *Record {
	t := NewText(src)
	p := &parser{t: t, rec: &Record{text: t, TitleNumber: -1, Status: Unknown}}
	p.run()
	// Found with the text in hand, and kept in the parse cache with the
	// record: check then reads no text of a record the cache serves.
	p.rec.tfacts = factsOf(t)
	return p.rec
}

type parser struct {
	t        *Text
	rec      *Record
	headings []Heading
	// keys are the headings' headingKey, found once: most passes ask.
	keys     []string
	title    int // index into headings of the title, -1 when none
	fm       []fmEntry
	forceOCP bool
	// titleAt is the 1-based line of the title heading when the caller
	// knows it (a section of a single-file log), 0 otherwise.
	titleAt int
}

func (p *parser) run() {
	t := p.t
	if !utf8.Valid(t.Src) {
		p.rec.Problems = append(p.rec.Problems, "not valid UTF-8")
	}
	p.headings = t.Headings()
	p.keys = make([]string, len(p.headings))
	for i, h := range p.headings {
		p.keys[i] = headingKey(h.Text)
	}
	p.noBreakHeadings()
	p.frontMatter()
	p.findTitle()
	p.preambleMeta()
	p.metadataSectionMeta()
	p.statusSection()
	p.changeLogStatus()
	p.otherSections()
	p.statusDate()
	p.units()
	p.classifyStyle()
	if p.rec.RawStatus != "" || p.rec.StatusField.Kind != FieldNone {
		p.rec.Status = NormalizeStatus(p.rec.RawStatus)
	}
	p.titleOnly()
}

// statusDate: a record that states no date of its own takes the one its
// status value carries ("Accepted, 2016-11-23", "Proposed on 3 May
// 2021"): the date its status was set, the nearest it says to when it
// was decided.
func (p *parser) statusDate() {
	if p.rec.Date != "" || p.rec.RawStatus == "" {
		return
	}
	if m := dateInText.FindString(p.rec.RawStatus); m != "" {
		if d := normalizeDate(m); len(d) == 10 && d[4] == '-' && d[7] == '-' {
			p.rec.Date = d
		}
	}
}

// titleOnly notes a record that holds its title and nothing else (a stub
// someone created and never wrote): it is a record, with a problem.
func (p *parser) titleOnly() {
	if p.title < 0 || p.rec.StatusField.Kind != FieldNone {
		return
	}
	h := p.headings[p.title]
	from := h.Line + 1
	if h.Setext {
		from++
	}
	for i := from; i < len(p.t.Lines); i++ {
		if p.t.Lines[i].Kind != LineBlank {
			return
		}
	}
	for i := 0; i < h.Line; i++ {
		if k := p.t.Lines[i].Kind; k != LineBlank && k != LineFrontMatter {
			return
		}
	}
	p.rec.onlyTitle = true
	p.rec.Problems = append(p.rec.Problems, "the record holds only its title")
}

// preambleEnd returns the line index where the preamble (the lines after
// the title that hold metadata) ends: the next heading.
func (p *parser) preambleRange() (from, to int) {
	from = 0
	if p.title >= 0 {
		from = p.headings[p.title].Line + 1
		if p.headings[p.title].Setext {
			from++
		}
	}
	to = len(p.t.Lines)
	for _, h := range p.headings {
		if h.Line >= from {
			to = h.Line
			break
		}
	}
	return from, to
}

func (p *parser) preambleMeta() {
	from, to := p.preambleRange()
	p.metaLines(from, to, "", true)
}

// metaLines reads "Key: value" lines, "- Key: value" bullets, "**Key:**
// value" lines and "| Key | Value |" table rows in lines [from, to).
// section is the unit anchor the metadata belongs to ("" for the record).
func (p *parser) metaLines(from, to int, section string, record bool) {
	t := p.t
	for i := from; i < to; i++ {
		if t.Lines[i].Kind != LineText {
			continue
		}
		s := t.LineText(i)
		if strings.HasPrefix(strings.TrimSpace(s), "|") {
			p.tableRow(i, section, record)
			continue
		}
		if _, _, _, ok := splitMetaLine(s); !ok {
			if record && p.rec.Date == "" {
				if d, ok := colonlessDate(s); ok {
					p.rec.Date = d // "- Date 2023-09-26"
					continue
				}
			}
			if label, targets, ok := parseRelationLine(s, noCustom); ok {
				for _, tg := range targets {
					p.addRelationIn(ParseRelationType(label), label, tg, i, section)
				}
			}
			continue
		}
		for _, seg := range metaSegments(s) {
			p.metaField(i, s, seg, section, record)
		}
	}
}

// metaSegments splits a line that holds several fields ("**Status:**
// Accepted | **Date:** 2025-02-25 | **Review:** 2026-02-25") at each "|"
// followed by another known "Key:"; a line of one field is one segment.
// Segments are byte ranges of s.
func metaSegments(s string) [][2]int {
	segs := [][2]int{{0, len(s)}}
	for i := strings.IndexByte(s, '|'); i >= 0; {
		if key, _, _, ok := splitMetaLine(s[i+1:]); ok {
			if _, _, known := metaKeyOf(key); known {
				segs[len(segs)-1][1] = i
				segs = append(segs, [2]int{i + 1, len(s)})
			}
		}
		j := strings.IndexByte(s[i+1:], '|')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return segs
}

// metaField reads the field in bytes seg of line i (text s).
func (p *parser) metaField(i int, s string, seg [2]int, section string, record bool) {
	key, vstart, vend, ok := splitMetaLine(s[seg[0]:seg[1]])
	if !ok {
		return
	}
	vstart += seg[0]
	vend += seg[0]
	start := p.t.Lines[i].Start
	p.metaValue(key, s[vstart:vend], Field{Kind: FieldLine, Line: i, Start: start + vstart, End: start + vend}, section, record)
}

// metaValue records the value of a metadata field of line f.Line, found at
// f's bytes: a relation, the status (of the record, or of the section
// named), or one of the record's own fields. Unknown keys are ignored.
func (p *parser) metaValue(key, val string, f Field, section string, record bool) {
	m, rel, known := metaKeyOf(key)
	if !known {
		return
	}
	i := f.Line
	switch {
	case rel != "":
		for _, tg := range relationTargets(val) {
			p.addRelationIn(rel, key, tg, i, section)
		}
	case m == keyStatus:
		if section != "" {
			p.sectionStatus(section, val)
		} else if record {
			p.setStatus(val, f, i)
		}
	case m == keyDate && record && p.rec.Date == "":
		p.rec.Date = recordDate(val)
	case m == keyDomain && record:
		p.addDomains(splitList(val))
	case m == keyIter && record && p.rec.Iteration == "":
		p.rec.Iteration = strings.Trim(strings.TrimSpace(val), "*_`")
	case m == keyScope && record && p.rec.Scope == "":
		p.rec.Scope = strings.ToLower(strings.Trim(strings.TrimSpace(val), "*_`"))
	case m == keyApplies && record:
		p.appliesTo(val, nil)
	case m == keyReview && record && p.rec.ReviewBy == "":
		if d, ok := reviewDate(key, val); ok {
			p.rec.ReviewBy = d
		}
	}
}

var metaLine = lazyre.New(`^\s{0,3}(?:[-*+]\s+)?(?:\*\*|__)?([\p{L}][\p{L}\p{M} _-]{0,29}?)\s*(?:\*\*|__)?\s*[:：]\s*(?:\*\*|__)?\s*`)

// splitMetaLine finds "Key: value" and returns the key and the value's byte
// range within s (decoration and trailing space excluded).
func splitMetaLine(s string) (key string, vstart, vend int, ok bool) {
	// Most lines of a record hold no colon, which the pattern requires.
	if strings.IndexByte(s, ':') < 0 && !strings.Contains(s, "：") {
		return "", 0, 0, false
	}
	m := metaLine.FindStringSubmatchIndex(s)
	if m == nil {
		return "", 0, 0, false
	}
	key = s[m[2]:m[3]]
	vstart = m[1]
	vend = len(strings.TrimRight(s, " \t"))
	if vend < vstart {
		vend = vstart
	}
	// "**Status:** Accepted" leaves the closing "**" before the value when
	// the colon sits inside the emphasis; strip symmetrical decoration.
	v := s[vstart:vend]
	for _, d := range []string{"**", "__"} {
		if strings.HasPrefix(v, d) && strings.HasSuffix(v, d) && len(v) > 2*len(d) {
			vstart += len(d)
			vend -= len(d)
			v = s[vstart:vend]
		} else if strings.HasSuffix(v, d) && len(v) > len(d) && strings.Contains(s[:vstart], d) {
			// "Status: **Accepted**" (the pattern took the opening "**")
			// or "**Status: Accepted**": the closing "**" is decoration
			// too, or an edit of the value would break the emphasis.
			vend -= len(d)
			v = s[vstart:vend]
		}
	}
	return key, vstart, vend, true
}

func (p *parser) tableRow(i int, section string, record bool) {
	line := p.t.LineText(i)
	cells := splitRow(line)
	if len(cells) < 2 {
		return
	}
	key := strings.Trim(line[cells[0][0]:cells[0][1]], "*_ ")
	start := p.t.Lines[i].Start
	p.metaValue(key, line[cells[1][0]:cells[1][1]], Field{Kind: FieldTable, Line: i, Start: start + cells[1][0], End: start + cells[1][1]}, section, record)
}

// splitRow returns the trimmed byte ranges of a table row's cells.
func splitRow(line string) [][2]int {
	var cells [][2]int
	start := strings.IndexByte(line, '|')
	if start < 0 {
		return nil
	}
	pos := start + 1
	for pos <= len(line) {
		j := pos
		for j < len(line) && (line[j] != '|' || j > 0 && line[j-1] == '\\') {
			j++
		}
		if j >= len(line) {
			// Trailing text without a closing pipe is a last cell only when
			// it holds something.
			if strings.TrimSpace(line[pos:]) != "" {
				cells = append(cells, trimRange(line, pos, len(line)))
			}
			break
		}
		cells = append(cells, trimRange(line, pos, j))
		pos = j + 1
	}
	return cells
}

func trimRange(s string, a, b int) [2]int {
	for a < b && (s[a] == ' ' || s[a] == '\t') {
		a++
	}
	for b > a && (s[b-1] == ' ' || s[b-1] == '\t') {
		b--
	}
	return [2]int{a, b}
}

func (p *parser) setStatus(val string, f Field, line int) {
	if p.rec.StatusField.Kind != FieldNone {
		// The first place that states a status wins; a later one that
		// says otherwise is kept for check to report.
		if st := NormalizeStatus(val); st != Unknown && st != NormalizeStatus(p.rec.RawStatus) {
			p.rec.otherStatuses = append(p.rec.otherStatuses, statusMention{Raw: strings.TrimSpace(val), Status: st, Line: line + 1})
		}
		return
	}
	p.rec.RawStatus = strings.TrimSpace(val)
	p.rec.StatusField = f
	// "Superseded by [X](x.md)" is a status and a relation at once.
	if label, targets, ok := parseRelationLine(val, noCustom); ok {
		for _, tg := range targets {
			p.addRelation(ParseRelationType(label), label, tg, line)
		}
	} else if label, targets, ok := statusWithIDs(val); ok {
		for _, tg := range targets {
			p.addRelation(ParseRelationType(label), label, tg, line)
		}
	}
	// "accepted; supersedes ADR-0012", "Proposed (amends ADR-3)": a
	// status followed by relations.
	clauses := statusClauses(val)
	related := false
	for _, seg := range clauses[1:] {
		label, targets, ok := parseRelationLine(seg, noCustom)
		if !ok {
			label, targets, ok = statusWithIDs(seg)
		}
		if !ok || !ParseRelationType(label).Known() {
			continue
		}
		related = true
		for _, tg := range targets {
			p.addRelation(ParseRelationType(label), label, tg, line)
		}
	}
	if head := clauses[0]; related && head != "" && f.End <= len(p.t.Src) {
		if i := strings.Index(string(p.t.Src[f.Start:f.End]), head); i >= 0 {
			p.rec.StatusField.WordStart = f.Start + i
			p.rec.StatusField.WordEnd = f.Start + i + len(head)
		}
	}
}

// statusClauses splits a status value at ";", ",", parentheses, arrows
// and sentence ends (". ") outside Markdown links: "accepted; supersedes [12. A, B](0012-a.md)" is
// "accepted" and "supersedes [12. A, B](0012-a.md)". The first clause is
// the status; later ones may be relations.
func statusClauses(val string) []string {
	var out []string
	start, brackets, link := 0, 0, false
	cut := func(i int) {
		if s := strings.TrimSpace(val[start:i]); s != "" || len(out) == 0 {
			out = append(out, s)
		}
		start = i + 1
	}
	for i := 0; i < len(val); i++ {
		// An arrow ends a clause too: "Deprecated → Superseded by ADR-18".
		if brackets == 0 && !link {
			if w := arrowAt(val[i:]); w > 0 {
				cut(i)
				start = i + w
				i += w - 1
				continue
			}
		}
		switch c := val[i]; {
		case c == '[':
			brackets++
		case c == ']' && brackets > 0:
			brackets--
			link = brackets == 0 && i+1 < len(val) && val[i+1] == '('
			if link {
				i++ // the link destination's "(" is no clause
			}
		case c == ')' && link:
			link = false
		case brackets > 0 || link:
		case c == ';' || c == ',' || c == '(' || c == ')':
			cut(i)
		case c == '.' && i+1 < len(val) && val[i+1] == ' ':
			cut(i) // "Accepted. Superseded by ADR-9."
		}
	}
	cut(len(val))
	return out
}

// historyArrows separate the entries of a status history ("Proposed →
// Accepted"), as ";" does.
var historyArrows = []string{"→", "⇒", "⟶", "->", "=>"}

// arrowAt is the length of the history arrow s starts with, or 0.
func arrowAt(s string) int {
	for _, a := range historyArrows {
		if strings.HasPrefix(s, a) {
			return len(a)
		}
	}
	return 0
}

var statusWithID = lazyre.New(`(?i)^\W*(superseded(?: by)?|superceded(?: by)?|replaced by|invalidated by|obsoleted by|amended by|augmented by|refined by)\s*:?\s+(.+)$`)

func statusWithIDs(val string) (string, []string, bool) {
	m := statusWithID.FindStringSubmatch(strings.TrimSpace(val))
	if m == nil {
		return "", nil, false
	}
	ts := relationTargets(m[2])
	return m[1], ts, len(ts) > 0
}

func (p *parser) addDomains(items []string) {
	for _, d := range items {
		d = strings.ToLower(strings.Trim(strings.TrimSpace(d), "`*_#"))
		if d == "" {
			continue
		}
		dup := false
		for _, x := range p.rec.Domains {
			dup = dup || x == d
		}
		if !dup {
			p.rec.Domains = append(p.rec.Domains, d)
		}
	}
}

func (p *parser) addRelation(t RelationType, label, target string, line int) {
	p.addRelationIn(t, label, target, line, "")
}

func (p *parser) addRelationIn(t RelationType, label, target string, line int, section string) {
	target = strings.TrimSpace(target)
	if target == "" {
		return
	}
	for _, r := range p.rec.Relations {
		if r.Type == t && r.Target == target && r.Section == section {
			return
		}
	}
	p.rec.Relations = append(p.rec.Relations, Relation{Type: t, Label: strings.TrimSpace(label), Target: target, Line: line + 1, Section: section})
}

// sectionStatus is filled in by units() for container sections. Anchors
// are unique and the section is the one just added: search from the end.
func (p *parser) sectionStatus(section, val string) {
	for i := len(p.rec.units) - 1; i >= 0; i-- {
		if p.rec.units[i].Anchor == section {
			if p.rec.units[i].RawStatus == "" {
				p.rec.units[i].RawStatus = strings.TrimSpace(val)
				p.rec.units[i].Status = NormalizeStatus(val)
			}
			return
		}
	}
}

func isAlnumByte(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' }
