package adr

import (
	"fmt"
	"slices"
	"strings"
)

// Filling a new record's sections with text given for them (a proposal's
// context, decision and consequences): the text replaces what the log's
// template says under the section's own heading, whatever the heading is
// called ("## Context and Problem Statement", "### Consequences" under
// MADR's "## Decision Outcome", "## Contexte"), and a section the template
// lacks is added where the log's records keep it. The text is checked
// first, so that it can only ever be the body of its section: it cannot
// end the section with a heading of its own, leave a code fence or a
// comment open over the rest of the record, or change what the record's
// metadata says.

// SectionText is the text one section of a new record is to hold.
type SectionText struct {
	// Anchor is the section: "context", "decision" or "consequences".
	Anchor string
	Text   string
}

// SectionAnchors are the sections [NewOptions.Sections] may fill, in the
// order a record gives them.
var SectionAnchors = []string{"context", "decision", "consequences"}

// sectionHeadings are the headings a section the template lacks is given.
var sectionHeadings = map[string]string{"context": "Context", "decision": "Decision", "consequences": "Consequences"}

// SectionTextError is section text that cannot go into the record as it
// is; nothing is written.
type SectionTextError struct {
	Anchor string
	// Line is the line of the text (from 1) the reason is about; 0 for
	// the whole text.
	Line   int
	Reason string
}

func (e *SectionTextError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("the %s text, line %d: %s", e.Anchor, e.Line, e.Reason)
	}
	return fmt.Sprintf("the %s text: %s", e.Anchor, e.Reason)
}

// placedSection is where a section's text goes in the record: the body
// lines [from, to) that are replaced, or, when the template has no such
// section, a heading of level at line from (to == from).
type placedSection struct {
	SectionText
	from, to int
	level    int  // the heading's level
	add      bool // no such section: a heading is written first
}

// fillSections puts each section's text in content (a new record just
// rendered from its template) and returns the new content.
func fillSections(content string, style Style, secs []SectionText) (string, error) {
	if len(secs) == 0 {
		return content, nil
	}
	if style == StyleOCP {
		return "", &SectionTextError{Anchor: secs[0].Anchor, Reason: "the log's records are sectioned containers (one \"§N\" section per decision), which take no context, decision or consequences section; write the container by hand"}
	}
	before := Parse([]byte(content))
	t := before.Text()
	heads := t.Headings()
	title := titleHeading(before)
	unitLevel := 0
	for _, h := range heads {
		if h.Line != title && h.Level > 1 && (unitLevel == 0 || h.Level < unitLevel) {
			unitLevel = h.Level
		}
	}
	if unitLevel == 0 {
		unitLevel = 2
	}
	// find is the first heading of a section, -1 when the template has none.
	find := func(anchor string) int {
		for i, h := range heads {
			if h.Line != title && canonicalAnchors[headingKey(h.Text)] == anchor {
				return i
			}
		}
		return -1
	}
	// bodyEnd is the line where heading i's own text ends: the next
	// heading, of any level (a template's subsections stay).
	bodyEnd := func(i int) int {
		if i+1 < len(heads) {
			return heads[i+1].Line
		}
		return len(t.Lines)
	}
	// sectionEnd is the line where heading i's section ends, its
	// subsections included.
	sectionEnd := func(i int) int {
		for _, h := range heads[i+1:] {
			if h.Level <= heads[i].Level {
				return h.Line
			}
		}
		return len(t.Lines)
	}
	var places []placedSection
	for _, s := range secs {
		if i := find(s.Anchor); i >= 0 {
			from := heads[i].Line + 1
			if heads[i].Setext {
				from++
			}
			to := bodyEnd(i)
			// A comment that ends the body is the next section's
			// ("<!-- This is an optional element. -->" above MADR's
			// headings): it stays.
			end := to
			for end > from && t.Lines[end-1].Kind == LineBlank {
				end--
			}
			if end > from && t.Lines[end-1].Kind == LineComment {
				for end > from && t.Lines[end-1].Kind == LineComment {
					end--
				}
				to = end
			}
			places = append(places, placedSection{SectionText: s, from: from, to: to, level: heads[i].Level})
			continue
		}
		// Where the log's records keep the missing section: the context
		// before the decision; the decision after the context; the
		// consequences inside MADR's "Decision Outcome", else after the
		// decision; anything else at the end.
		p := placedSection{SectionText: s, from: len(t.Lines), level: unitLevel, add: true}
		switch s.Anchor {
		case "context":
			if d := find("decision"); d >= 0 {
				p.from = heads[d].Line
			}
		case "decision":
			if c := find("context"); c >= 0 {
				p.from = sectionEnd(c)
			}
		case "consequences":
			if d := find("decision"); d >= 0 {
				p.from = sectionEnd(d)
				if headingKey(heads[d].Text) == "decision outcome" {
					p.level = heads[d].Level + 1
				}
			}
		}
		p.to = p.from
		places = append(places, p)
	}
	type placedEdit struct {
		Edit
		anchor string
	}
	var edits []placedEdit
	for _, p := range places {
		text, err := sectionBody(p.SectionText, p.level)
		if err != nil {
			return "", err
		}
		text = strings.ReplaceAll(text, "\n", t.EOL)
		at, end := len(t.Src), len(t.Src)
		if p.from < len(t.Lines) {
			at = t.Lines[p.from].Start
		}
		if p.to < len(t.Lines) {
			end = t.Lines[p.to].Start
		}
		var b strings.Builder
		if p.add {
			if at > 0 && !endsWithBlank(t.Src[:at]) {
				b.WriteString(t.EOL)
			}
			b.WriteString(strings.Repeat("#", p.level) + " " + sectionHeadings[p.Anchor] + t.EOL)
		}
		b.WriteString(t.EOL + text + t.EOL)
		if end < len(t.Src) {
			b.WriteString(t.EOL) // a blank line before the next heading
		}
		edits = append(edits, placedEdit{Edit{Start: at, End: end, New: b.String()}, p.Anchor})
	}
	// Two texts for one section (a template that keeps, say, its context
	// under its decision heading) cannot both go in.
	slices.SortStableFunc(edits, func(a, b placedEdit) int { return a.Start - b.Start })
	plain := make([]Edit, len(edits))
	for i, e := range edits {
		if i > 0 && e.Start < edits[i-1].End {
			return "", &SectionTextError{Anchor: e.anchor, Reason: "the template gives it no section of its own"}
		}
		plain[i] = e.Edit
	}
	out := string(t.Apply(plain...))
	// What the text may never do, however it is written: change the
	// record's title, status, date, domains or relations, or make a
	// section disappear.
	after := Parse([]byte(out))
	if after.Title != before.Title || after.RawStatus != before.RawStatus || after.Status != before.Status ||
		after.Date != before.Date || len(after.Relations) != len(before.Relations) || !slices.Equal(after.Domains, before.Domains) {
		anchor := secs[0].Anchor
		for _, s := range secs[1:] {
			// The text that does it alone is the one to name.
			if _, err := fillSections(content, style, []SectionText{s}); err != nil {
				anchor = s.Anchor
			}
		}
		return "", &SectionTextError{Anchor: anchor, Reason: "it changes what the record's title, status, date, domains or relations say; write it as paragraphs, lists and deeper headings"}
	}
	heads = after.Text().Headings()
	for _, s := range secs {
		if !slices.ContainsFunc(heads, func(h Heading) bool { return canonicalAnchors[headingKey(h.Text)] == s.Anchor }) {
			return "", &SectionTextError{Anchor: s.Anchor, Reason: "the record it makes has no " + s.Anchor + " section; write it as paragraphs, lists and deeper headings"}
		}
	}
	return out, nil
}

// endsWithBlank reports text that ends with a blank line (or is blank).
func endsWithBlank(b []byte) bool {
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	return strings.TrimRight(s, "\n") == "" || strings.HasSuffix(s, "\n\n")
}

// sectionBody is the text of s as it goes under a heading of the given
// level: line ends made "\n", blank lines around it removed. It is refused
// when it holds control characters (tabs and line ends aside), a heading
// of that level or a higher one (it would end the section), or an open
// code fence or HTML comment (it would swallow the rest of the record).
func sectionBody(s SectionText, level int) (string, error) {
	text := strings.ReplaceAll(strings.ReplaceAll(s.Text, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(text, "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return "", &SectionTextError{Anchor: s.Anchor, Reason: "it is empty"}
	}
	for i, l := range lines {
		for _, r := range l {
			if c := string(r); EscapeBody(c) != c {
				return "", &SectionTextError{Anchor: s.Anchor, Line: i + 1, Reason: fmt.Sprintf("it holds the control character %U; write plain text (tabs and line ends are fine)", r)}
			}
		}
	}
	body := strings.Join(lines, "\n")
	// The text between two plain lines, as it will stand in the record:
	// the line after it must still be text, outside any fence or comment.
	const guard = "git-adr section guard"
	t := NewText([]byte(guard + "\n\n" + body + "\n\n" + guard + "\n"))
	if k := t.Lines[len(t.Lines)-1].Kind; k != LineText || t.LineText(len(t.Lines)-1) != guard {
		open := "a code fence"
		if k == LineComment {
			open = "an HTML comment"
		}
		return "", &SectionTextError{Anchor: s.Anchor, Reason: "it leaves " + open + " open, which would swallow the rest of the record; close it"}
	}
	for _, h := range t.Headings() {
		if h.Level <= level {
			return "", &SectionTextError{Anchor: s.Anchor, Line: h.Line - 1, Reason: fmt.Sprintf("%q is a heading of level %d, which would end the section; use %s or deeper, or no heading", shorten(strings.TrimSpace(t.LineText(h.Line)), 80), h.Level, strings.Repeat("#", level+1))}
		}
	}
	return body, nil
}

// TemplateSections lists the headings of a record just made with
// secs whose own text is still its template's: every section with a line
// of text under its heading (before any subsection) but the title, the
// status, the sections filled and the headings the filled texts brought.
func TemplateSections(r *Record, secs []SectionText) []string {
	t := r.Text()
	heads := t.Headings()
	title := titleHeading(r)
	// The lines each filled text took: the blank line after its heading,
	// then the text.
	type span struct{ from, to int }
	var filled []span
	anchors := map[string]bool{}
	for _, s := range secs {
		anchors[s.Anchor] = true
		for _, h := range heads {
			if h.Line != title && canonicalAnchors[headingKey(h.Text)] == s.Anchor {
				if body, err := sectionBody(s, h.Level); err == nil {
					from := h.Line + 2
					if h.Setext {
						from++
					}
					filled = append(filled, span{from, from + strings.Count(body, "\n") + 1})
				}
				break
			}
		}
	}
	var out []string
	for i, h := range heads {
		if h.Line == title || anchors[canonicalAnchors[headingKey(h.Text)]] || canonicalAnchors[headingKey(h.Text)] == "status" ||
			slices.ContainsFunc(filled, func(f span) bool { return h.Line >= f.from && h.Line < f.to }) {
			continue
		}
		from, to := h.Line+1, len(t.Lines)
		if h.Setext {
			from++
		}
		if i+1 < len(heads) {
			to = heads[i+1].Line
		}
		for l := from; l < to; l++ {
			// The links the record was given are not the template's.
			if _, _, link := parseRelationLine(t.LineText(l), noCustom); t.Lines[l].Kind == LineText && !link {
				out = append(out, h.Text)
				break
			}
		}
	}
	return out
}
