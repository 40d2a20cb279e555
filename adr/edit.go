package adr

import (
	"fmt"
	"strings"
)

// Minimal edits. Every function here returns the record's new bytes with
// only the bytes that must change replaced, in the record's own style and
// line endings; the caller writes them through a [Changeset].

// StatusWord is the word written for a status ("Accepted").
func StatusWord(s Status) string {
	if s == "" || s == Unknown {
		return ""
	}
	return strings.ToUpper(string(s[:1])) + string(s[1:])
}

// styleLike writes word in the case and decoration of the text it replaces:
// "accepted" stays lower case, "PROPOSED" upper, "**Accepted**" bold,
// "Proposed." keeps its full stop. An emoji before the status is the log's
// to choose: deco is how the log decorates the new status ("✅ ", see
// [Root.statusDecoration]), "" when it does not.
func styleLike(raw, word string, lower bool, deco string) string {
	raw = strings.TrimSpace(raw)
	raw = raw[decorationLen(raw):]
	return deco + styleWordLike(raw, word, lower)
}

func styleWordLike(raw, word string, lower bool) string {
	core := strings.TrimSpace(raw)
	lead := core[:len(core)-len(strings.TrimLeft(core, "*_`"))]
	rest := core[len(lead):]
	trail := rest[len(strings.TrimRight(rest, "*_`.")):]
	letters := strings.Trim(rest, "*_`.")
	if i := strings.IndexAny(letters, " ([,;:"); i > 0 {
		letters = letters[:i]
	}
	switch {
	case letters != "" && letters == strings.ToUpper(letters) && len([]rune(letters)) > 1:
		word = strings.ToUpper(word)
	case letters != "" && letters == strings.ToLower(letters):
		word = strings.ToLower(word)
	case letters == "" && lower:
		word = strings.ToLower(word)
	}
	if !strings.Contains(raw, "](") && strings.Trim(trail, ".") == strings.Trim(lead, ".") || trail == "." {
		return lead + word + trail
	}
	return word
}

// WithStatus returns the record's bytes with its status set to text
// (written as is: "Accepted", "superseded by [X](x.md)"). A record without
// a status gets one where its style keeps it.
func (r *Record) WithStatus(text string) []byte {
	return r.Text().Apply(r.statusEdits(text, "")...)
}

// WithStatusNote is WithStatus plus a note (a reason) written beside the
// status in the record's style.
func (r *Record) WithStatusNote(text, note string) []byte {
	return r.Text().Apply(r.statusEdits(text, note)...)
}

// statusEdits returns the edits that set the status to text and, when
// note is not empty, add note beside it.
func (r *Record) statusEdits(text, note string) []Edit {
	t := r.Text()
	f := r.StatusField
	eol := t.EOL
	if f.WordEnd > f.WordStart {
		// "accepted; supersedes ADR-0012": only the status words change.
		edits := []Edit{{Start: f.WordStart, End: f.WordEnd, New: text}}
		switch {
		case note == "":
		case f.Kind == FieldSection:
			edits = append(edits, Edit{Start: f.End, End: f.End, New: eol + eol + "Reason: " + note})
		default:
			// The note goes where it goes for a plain value.
			whole := *r
			whole.StatusField.WordStart, whole.StatusField.WordEnd = 0, 0
			edits = append(edits, whole.statusEdits(text, note)[1:]...)
		}
		return edits
	}
	switch f.Kind {
	case FieldChangeLog:
		// A new entry after the last one, in its list's style: the state,
		// today's date and the reason.
		line := t.LineText(f.Line)
		body := strings.TrimLeft(line, " \t")
		item := line[:len(line)-len(body)+2] + text + " (" + Today() + ")"
		if note != "" {
			item += ": " + note
		}
		at := f.Line
		if end := lineEOL(t, at); end != "" {
			return []Edit{{Start: t.Lines[at].Next, End: t.Lines[at].Next, New: end + item}} // no final newline
		}
		return []Edit{{Start: t.Lines[at].Next, End: t.Lines[at].Next, New: item + eol}}
	case FieldFrontMatter:
		v := yamlScalar(text)
		if f.Start == f.End && f.Start > 0 && t.Src[f.Start-1] == ':' {
			v = " " + v // "status:" with no value: YAML needs the space
		}
		edits := []Edit{{Start: f.Start, End: f.End, New: v}}
		if note != "" {
			edits = append(edits, Edit{Start: t.Lines[f.Line].End, End: t.Lines[f.Line].End, New: eol + "status-reason: " + yamlScalar(note)})
		}
		return edits
	case FieldLine:
		v := text
		if f.Start == f.End && f.Start > 0 && t.Src[f.Start-1] == ':' {
			v = " " + v
		}
		edits := []Edit{{Start: f.Start, End: f.End, New: v}}
		if note != "" {
			lead := ""
			if s := strings.TrimLeft(t.LineText(f.Line), " \t"); len(s) > 1 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ' {
				lead = s[:2]
			}
			edits = append(edits, Edit{Start: t.Lines[f.Line].End, End: t.Lines[f.Line].End, New: eol + lead + "Reason: " + note})
		}
		return edits
	case FieldTable:
		edits := []Edit{r.cellEdit(text)}
		if note != "" {
			row := tableRowLike(t.LineText(f.Line), "Reason", note)
			edits = append(edits, Edit{Start: t.Lines[f.Line].End, End: t.Lines[f.Line].End, New: eol + row})
		}
		return edits
	case FieldSection:
		if f.Start != f.End && f.Line == f.Section && note != "" {
			// "## Status: Proposed": the value is in the heading; the note
			// goes below it (below a setext heading's underline).
			h := f.Section
			if t.Lines[h].Kind == LineText && h+1 < len(t.Lines) {
				h++
			}
			tail := eol
			if h+1 < len(t.Lines) && t.Lines[h+1].Kind != LineBlank {
				tail += eol
			}
			return []Edit{{Start: f.Start, End: f.End, New: text}, {Start: t.Lines[h].Next, End: t.Lines[h].Next, New: lineEOL(t, h) + eol + "Reason: " + note + tail}}
		}
		val := text
		if note != "" {
			val += eol + eol + "Reason: " + note
		}
		if f.Start != f.End {
			return []Edit{{Start: f.Start, End: f.End, New: val}}
		}
		// An empty section: the value goes after the heading and one blank
		// line, followed by a blank line before whatever comes next.
		h := f.Section
		if t.Lines[h].Kind == LineText && h+1 < len(t.Lines) {
			h++ // a setext heading: the value goes after its underline
		}
		if h+1 < len(t.Lines) && t.Lines[h+1].Kind == LineBlank {
			pos := t.Lines[h+1].Next
			tail := ""
			if h+2 < len(t.Lines) && t.Lines[h+2].Kind != LineBlank {
				tail = eol
			}
			return []Edit{{Start: pos, End: pos, New: val + eol + tail}}
		}
		pos := t.Lines[h].Next
		tail := ""
		if h+1 < len(t.Lines) {
			tail = eol
		}
		return []Edit{{Start: pos, End: pos, New: eol + val + eol + tail}}
	}
	return []Edit{r.insertStatusEdit(text, note)}
}

// yamlScalar quotes a value when plain YAML would misread it.
func yamlScalar(s string) string {
	if s == "" || strings.ContainsAny(s, "[]{}:#&*!|>'\"%@`,") || strings.TrimSpace(s) != s {
		return fmt.Sprintf("%q", s)
	}
	return s
}

// cellEdit replaces the status cell of a metadata table, keeping the
// column's width when the new value fits.
func (r *Record) cellEdit(text string) Edit {
	t := r.Text()
	f := r.StatusField
	lineEnd := t.Lines[f.Line].End
	pipe := f.End
	for pipe < lineEnd && t.Src[pipe] != '|' {
		pipe++
	}
	if pipe >= lineEnd {
		return Edit{Start: f.Start, End: f.End, New: text}
	}
	width := pipe - f.Start // value plus padding up to the pipe
	n := len([]rune(text))
	if n+1 <= width {
		return Edit{Start: f.Start, End: pipe, New: text + strings.Repeat(" ", width-n)}
	}
	return Edit{Start: f.Start, End: pipe, New: text + " "}
}

// insertStatusEdit adds a status (and note, when not empty) to a record
// that has none, where its style keeps the status.
func (r *Record) insertStatusEdit(text, note string) Edit {
	t := r.Text()
	eol := t.EOL
	// Front matter: a "status:" key before the closing delimiter.
	if len(t.Lines) > 0 && t.Lines[0].Kind == LineFrontMatter {
		for i := 1; i < len(t.Lines) && t.Lines[i].Kind == LineFrontMatter; i++ {
			s := strings.TrimSpace(t.LineText(i))
			if s == "---" || s == "..." {
				v := "status: " + yamlScalar(text) + eol
				if note != "" {
					v += "status-reason: " + yamlScalar(note) + eol
				}
				return Edit{Start: t.Lines[i].Start, End: t.Lines[i].Start, New: v}
			}
		}
	}
	// A metadata bullet list under the title ("* Deciders: Ann"): the status
	// joins it as its first item, written like its neighbours.
	if i, prefix, sep, ok := r.metaBullet(); ok {
		v := prefix + "Status" + sep + text + eol
		if note != "" {
			v += prefix + "Reason" + sep + note + eol
		}
		return Edit{Start: t.Lines[i].Start, End: t.Lines[i].Start, New: v}
	}
	if r.Style == StyleMADR2 {
		at := r.titleEnd()
		v := eol + "- Status: " + text + eol
		if note != "" {
			v += "- Reason: " + note + eol
		}
		return Edit{Start: at, End: at, New: v}
	}
	// Otherwise a "## Status" section before the first section after the
	// title, or at the end.
	// A record without sections has one "body" unit, which starts after
	// the title rather than at a heading: the status then goes at the end.
	pos := len(t.Src)
	if us := r.Units(); len(us) > 0 && t.Lines[us[0].Start-1].Kind == LineHeading {
		pos = t.Lines[us[0].Start-1].Start
	}
	block := "## Status" + eol + eol + text + eol + eol
	if note != "" {
		block += "Reason: " + note + eol + eol
	}
	if pos == len(t.Src) && t.Unclosed >= 0 {
		// The file ends inside a code fence or comment it never closes:
		// the status goes before it, where it is still Markdown.
		at := t.Lines[t.Unclosed]
		lead := ""
		if t.Unclosed > 0 && t.Lines[t.Unclosed-1].Kind != LineBlank {
			lead = eol
		}
		return Edit{Start: at.Start, End: at.Start, New: lead + block}
	}
	if pos == len(t.Src) {
		// At the end: one blank line before, and the file keeps ending the
		// way it did (with or without a final line ending).
		lead, tail := eol, strings.TrimSuffix(block, eol)
		if !t.FinalNewline && len(t.Src) > 0 {
			lead, tail = eol+eol, strings.TrimSuffix(tail, eol)
		}
		return Edit{Start: pos, End: pos, New: lead + tail}
	}
	return Edit{Start: pos, End: pos, New: block}
}

// metaBullet finds the first "- Key: value" bullet of known metadata
// between the title and the first section, and returns its line with the
// text before its key (marker, indentation, emphasis) and between its key
// and value.
func (r *Record) metaBullet() (line int, prefix, sep string, ok bool) {
	t := r.Text()
	i := 0
	for i < len(t.Lines) && t.Lines[i].Kind != LineHeading {
		i++
	}
	for i++; i < len(t.Lines) && t.Lines[i].Kind != LineHeading; i++ {
		s := t.LineText(i)
		trim := strings.TrimLeft(s, " ")
		if t.Lines[i].Kind != LineText || len(trim) < 2 || !strings.ContainsRune("-*+", rune(trim[0])) || trim[1] != ' ' {
			continue
		}
		key, vstart, _, found := splitMetaLine(s)
		if !found {
			continue
		}
		if _, _, known := metaKeyOf(key); !known {
			continue
		}
		k := strings.Index(s, key)
		return i, s[:k], s[k+len(key) : vstart], true
	}
	return 0, "", "", false
}

// titleEnd is the byte offset after the title line (after front matter when
// there is no title).
func (r *Record) titleEnd() int {
	t := r.Text()
	for i := range t.Lines {
		if t.Lines[i].Kind == LineHeading {
			return t.Lines[i].Next
		}
	}
	for i := range t.Lines {
		if t.Lines[i].Kind != LineFrontMatter {
			return t.Lines[i].Start
		}
	}
	return len(t.Src)
}

// LinkText is how a link to target reads in this record's log: adr-tools
// writes the title line as is ("2. Use MySQL"), log4brains the slug.
func (r *Record) linkTextFor(target *Record) string {
	if !target.Numbered {
		return nameOf(target.Path).Stem
	}
	if target.RawTitle != "" {
		return target.RawTitle
	}
	return target.ID
}

// WithRelation returns the record's bytes with a relation line added in its
// style: a link line at the end of the "## Status" section (exactly where
// adr-tools puts it), a "- Label [x](x.md)" bullet under MADR 2 metadata, a
// "| Label | ID |" row in a metadata table, a "Label: ID" line in a
// container's metadata, or a bullet under "## More Information" for MADR 3/4.
func (r *Record) WithRelation(label string, target *Record) []byte {
	return r.Text().Apply(r.relationEdit(label, target))
}

func (r *Record) relationEdit(label string, target *Record) Edit {
	t := r.Text()
	eol := t.EOL
	link := fmt.Sprintf("%s [%s](%s)", label, r.linkTextFor(target), r.Link(target))
	if sec, ok := r.statusSectionRange(); ok {
		// adr-tools prints the link before the next "##" heading, after
		// the blank line that precedes it.
		if sec[1] < len(t.Lines) {
			pos := t.Lines[sec[1]].Start
			prefix := ""
			if sec[1] > 0 && t.Lines[sec[1]-1].Kind != LineBlank {
				prefix = eol
			}
			return Edit{Start: pos, End: pos, New: prefix + link + eol + eol}
		}
		return appendEdit(t, link)
	}
	f := r.StatusField
	switch {
	case f.Kind == FieldLine && r.Style == StyleMADR2:
		at := r.lastMetaLine(f.Line)
		return Edit{Start: t.Lines[at].Next, End: t.Lines[at].Next, New: lineEOL(t, at) + r.bulletMarker(f.Line, at+1) + link + eol}
	case f.Kind == FieldLine:
		at := r.lastMetaLine(f.Line)
		return Edit{Start: t.Lines[at].Next, End: t.Lines[at].Next, New: lineEOL(t, at) + label + ": " + target.ID + eol}
	case f.Kind == FieldTable:
		at := f.Line
		for at+1 < len(t.Lines) && strings.HasPrefix(strings.TrimSpace(t.LineText(at+1)), "|") {
			at++
		}
		row := tableRowLike(t.LineText(f.Line), label, target.ID)
		return Edit{Start: t.Lines[at].Next, End: t.Lines[at].Next, New: lineEOL(t, at) + row + eol}
	}
	// MADR 3/4 and plain records: a bullet under "## More Information".
	for _, u := range r.Units() {
		if k := headingKey(u.Heading); k == "more information" || k == "links" || k == "related decisions" {
			end := u.End
			for end > u.Start && t.Lines[end-1].Kind == LineBlank {
				end--
			}
			return Edit{Start: t.Lines[end-1].Next, End: t.Lines[end-1].Next, New: lineEOL(t, end-1) + r.bulletMarker(u.Start, end) + link + eol}
		}
	}
	return appendEdit(t, "## More Information"+eol+eol+r.bulletMarker(0, len(t.Lines))+link)
}

// bulletMarker is the marker a new bullet among lines [from, to) takes:
// that of the list's last bullet there ("* "), else the record's most used
// one, else "- ".
func (r *Record) bulletMarker(from, to int) string {
	t := r.Text()
	marker := func(i int) string {
		s := t.LineText(i)
		if t.Lines[i].Kind != LineText || len(s) < 2 || s[1] != ' ' || !strings.ContainsRune("-*+", rune(s[0])) {
			return ""
		}
		return s[:2]
	}
	for i := min(to, len(t.Lines)) - 1; i >= from && i >= 0; i-- {
		if m := marker(i); m != "" {
			return m
		}
	}
	counts := map[string]int{}
	for i := range t.Lines {
		if m := marker(i); m != "" {
			counts[m]++
		}
	}
	return mostCommon(counts, "- ")
}

// lineEOL returns the line ending needed to terminate line i when text is
// inserted after it: "" when it already ends with one.
func lineEOL(t *Text, i int) string {
	if t.Lines[i].Next > t.Lines[i].End {
		return ""
	}
	return t.EOL
}

// appendEdit adds a paragraph at the end of the text, separated by a blank
// line, keeping the file's final-newline state.
func appendEdit(t *Text, block string) Edit {
	eol := t.EOL
	end := len(t.Src)
	lead := eol
	if !t.FinalNewline && len(t.Src) > 0 {
		lead = eol + eol
	}
	if len(t.Lines) > 0 && t.Lines[len(t.Lines)-1].Kind == LineBlank {
		lead = ""
	}
	tail := eol
	if !t.FinalNewline && len(t.Src) > 0 {
		tail = ""
	}
	return Edit{Start: end, End: end, New: lead + block + tail}
}

// lastMetaLine returns the last consecutive metadata line of the block that
// contains line from.
func (r *Record) lastMetaLine(from int) int {
	t := r.Text()
	at := from
	for at+1 < len(t.Lines) && t.Lines[at+1].Kind == LineText {
		s := t.LineText(at + 1)
		if _, _, _, ok := splitMetaLine(s); !ok {
			if _, _, ok := parseRelationLine(s, noCustom); !ok {
				break
			}
		}
		at++
	}
	return at
}

// tableRowLike formats a row with the cell widths of an existing row.
func tableRowLike(sample, key, value string) string {
	cells := splitRow(sample)
	if len(cells) < 2 {
		return "| " + key + " | " + value + " |"
	}
	w0 := cellWidth(sample, cells, 0)
	w1 := cellWidth(sample, cells, 1)
	pad := func(s string, w int) string {
		if n := len([]rune(s)); n < w {
			return s + strings.Repeat(" ", w-n)
		}
		return s
	}
	return "| " + pad(key, w0) + " | " + pad(value, w1) + " |"
}

func cellWidth(line string, cells [][2]int, i int) int {
	// The cell spans from after its pipe to before the next pipe; one space
	// of padding each side.
	start := strings.LastIndexByte(line[:cells[i][0]], '|') + 1
	end := strings.IndexByte(line[cells[i][1]:], '|')
	if end < 0 {
		return cells[i][1] - cells[i][0]
	}
	return cells[i][1] + end - start - 2
}

// statusSectionRange returns the 0-based line range [heading, next heading)
// of the "## Status" section.
func (r *Record) statusSectionRange() ([2]int, bool) {
	if r.StatusField.Kind != FieldSection {
		return [2]int{}, false
	}
	h := r.StatusField.Section
	t := r.Text()
	level := atxLevel(strings.TrimLeft(t.LineText(h), " "))
	if level == 0 {
		level = 2
	}
	end := len(t.Lines)
	for i := h + 1; i < len(t.Lines); i++ {
		if t.Lines[i].Kind == LineHeading && atxLevel(strings.TrimLeft(t.LineText(i), " ")) <= level {
			end = i
			break
		}
	}
	return [2]int{h, end}, true
}

// HasRelation reports whether the record already links target with type.
func (r *Record) HasRelation(typ RelationType, target *Record) bool {
	for _, rel := range r.Relations {
		if rel.Type == typ && rel.TargetID == target.ID {
			return true
		}
	}
	return false
}
