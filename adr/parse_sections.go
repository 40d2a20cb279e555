package adr

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/git-adr/git-adr/internal/lazyre"
)

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
	return joinFields(s)
}

// joinFields is strings.Join(strings.Fields(s), " "): s itself, without
// a copy, when it is ASCII with one space between words (most headings).
func joinFields(s string) string {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf, c == '\t', c == '\n', c == '\v', c == '\f', c == '\r',
			c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' '):
			return strings.Join(strings.Fields(s), " ")
		}
	}
	return s
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
		if hi == p.title || !metadataSections[p.keys[hi]] {
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
		if p.rec.Date == "" && hi != p.title && changelogSections[p.keys[hi]] {
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
		if p.rec.Date == "" && hi != p.title && metaKeys[p.keys[hi]] == keyDate {
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
		if hi == p.title || !linkSections[p.keys[hi]] {
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
			key := p.keys[hi]
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
