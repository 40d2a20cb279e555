package adr

import (
	"strings"

	"github.com/git-adr/git-adr/internal/lazyre"
)

// Status sections: "## Status" and its forms (a value in the heading, a
// checklist, a dated history, a quote, relation lines below the value),
// and the change log's last entry for a record that states no status
// elsewhere. Status lines and tables are read in parse.go, front matter in
// parse_frontmatter.go.

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
		key := p.keys[hi]
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
		if hi == p.title || !changelogSections[p.keys[hi]] {
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
