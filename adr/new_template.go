package adr

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/git-adr/git-adr/internal/lazyre"
)

// Filling a template: adr-tools' placeholders, the mustache forms log
// templates use ("{{ SHORT TITLE }}"), and what a template without
// placeholders leaves open (MADR's "{short title ...}", a "Title"
// heading, a date format, a list of statuses to choose from).

// mustache is a "{{ ... }}" placeholder.
var mustache = lazyre.New(`\{\{\s*([^{}]*?)\s*\}\}`)

// adrToolsPlaceholders are replaced as adr-tools replaces them: the first
// occurrence of each on a line.
var adrToolsPlaceholders = []string{"IDNUMBER", "NUMBER", "TITLE", "DATE", "STATUS"}

// Fill replaces the placeholders of a template: on each line, the first
// NUMBER, TITLE, DATE and STATUS (as adr-tools does, so adr-tools project
// templates work unchanged), and everywhere the "{{ ... }}" forms that
// name one of them: {{number}}, {{id}}, {{title}}, {{date}}, {{status}},
// and log4brains' "{{ SHORT TITLE }}", each replaced whole (a date field's
// "{{ LAST MODIFIED YYYY-MM-DD }}" is completeTemplateAs's). Text put in is never read for placeholders
// again: a title "Use DATE types" stays as it is.
func Fill(tmpl string, number, id, title, date, status string) string {
	values := map[string]string{"IDNUMBER": id, "NUMBER": number, "TITLE": title, "DATE": date, "STATUS": status}
	lines := strings.SplitAfter(tmpl, "\n")
	for i, l := range lines {
		var edits []Edit
		taken := func(s, e int) bool {
			for _, x := range edits {
				if s < x.End && e > x.Start {
					return true
				}
			}
			return false
		}
		for _, m := range mustache.FindAllStringSubmatchIndex(l, -1) {
			if v, ok := mustacheValue(l[m[2]:m[3]], number, id, title, date, status); ok {
				edits = append(edits, Edit{Start: m[0], End: m[1], New: v})
			}
		}
		for _, p := range adrToolsPlaceholders {
			for from := 0; from < len(l); {
				j := strings.Index(l[from:], p)
				if j < 0 {
					break
				}
				s, e := from+j, from+j+len(p)
				if !taken(s, e) {
					edits = append(edits, Edit{Start: s, End: e, New: values[p]})
					break
				}
				from = e
			}
		}
		if len(edits) > 0 {
			lines[i] = string(NewText([]byte(l)).Apply(edits...))
		}
	}
	return strings.Join(lines, "")
}

// mustacheValue is what a "{{ ... }}" placeholder holding inner is filled
// with, and whether it is one git-adr fills ("{{ DECIDERS }}" is not).
func mustacheValue(inner, number, id, title, date, status string) (string, bool) {
	switch strings.ToLower(inner) {
	case "number":
		return number, true
	case "id":
		return id, true
	case "date":
		return date, true
	case "status":
		return status, true
	}
	if isPlaceholderTitle(inner) {
		return title, true // "{{ SHORT TITLE }}"
	}
	// "{{ LAST MODIFIED YYYY-MM-DD }}" is a date field's value, which
	// completeTemplateAs fills.
	return "", false
}

// numberPlaceholder is a number still to fill in after an ID prefix:
// "ADRXXX", "ADR-XXXX", "RFC NNN".
var numberPlaceholder = lazyre.New(`(?i:adr|rfc)[-_ ]?(X{3,}|N{3,})\b`)

// updatedKeys are the keys of a record's last-update date: in a new
// record, its date.
var updatedKeys = map[string]bool{
	"last updated": true, "last update": true, "updated": true, "date updated": true,
	"last modified": true, "modified": true, "updated on": true, "last updated on": true,
}

// completeTemplateAs fills in what a template without adr-tools
// placeholders leaves open, as MADR's adr-template.md does: its title
// heading ("# {short title, representative of ...}", "# Title", a setext
// "Title" underlined, "# RFC-NNNN Title") and a front matter "title:" get
// the title (the "title:" alone when the template has no title heading); a date left as a format ("{YYYY-MM-DD ...}", "dd/mm/aa",
// "[YYYY-MM-DD]"), under a date or last-update key, the date; an unfilled
// status ("{proposed | rejected | accepted | ...}") the status word. A
// template that states a status keeps it, unless another was asked for
// (statusGiven). A template without a status gets one only when it
// was asked for: MADR makes the status optional, and the log's own
// template says whether it keeps one. A date or status filled in
// replaces the field's whole value, the template's guidance comment
// included (it described the blank now filled). The new record's status
// is st, which word writes.
func completeTemplateAs(content string, number int, title, date, word string, st Status, statusGiven bool) string {
	rec := Parse([]byte(content))
	t := rec.Text()
	var edits []Edit
	heading := titleHeading(rec)
	if l := heading; l >= 0 {
		line, start := t.LineText(l), t.Lines[l].Start
		if s, e, ok := placeholderAfterNumber(line); ok {
			// "# RFC-NNNN Title": the title after the number to fill in.
			edits = append(edits, Edit{Start: start + s, End: start + e, New: title})
		} else if i := strings.Index(line, rec.RawTitle); i >= 0 && !strings.Contains(rec.Title, title) {
			// Replace the title the template wrote, keeping an "ADRXXX: "
			// before it.
			j := i + len(rec.RawTitle) - len(rec.Title)
			if !strings.HasSuffix(rec.RawTitle, rec.Title) || rec.Title == "" {
				j = i
			}
			edits = append(edits, Edit{Start: start + j, End: start + i + len(rec.RawTitle), New: title})
		}
		// "# ADRXXX: TITLE": the number still to fill in.
		if m := numberPlaceholder.FindStringSubmatchIndex(line); m != nil && (len(edits) == 0 || start+m[3] <= edits[0].Start) {
			edits = append(edits, Edit{Start: start + m[2], End: start + m[3], New: padNumber(number, m[3]-m[2])})
		}
	}
	for i := range t.Lines {
		if k := t.Lines[i].Kind; k != LineFrontMatter && k != LineText {
			continue
		}
		line := t.LineText(i)
		key, vs, ve, ok := splitMetaLine(line)
		if !ok || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		val := line[vs:ve]
		m, _, _ := metaKeyOf(key)
		switch {
		case (m == keyDate || updatedKeys[strings.Join(strings.Fields(strings.ToLower(key)), " ")]) && dateLeftOpen(val):
			edits = append(edits, Edit{Start: t.Lines[i].Start + vs, End: t.Lines[i].Start + ve, New: date})
		case m == keyTitle && t.Lines[i].Kind == LineFrontMatter && unquote(val) != title && (heading < 0 || len(edits) > 0 && edits[0].New == title):
			// The front matter title of a template ("title: ADR Template"),
			// or of one with no title heading, whose "title:" is the
			// record's only title ("title: \"{title}\"").
			edits = append(edits, Edit{Start: t.Lines[i].Start + vs, End: t.Lines[i].Start + ve, New: yamlScalar(title)})
		}
	}
	if len(edits) > 0 {
		rec = Parse(t.Apply(edits...))
	}
	if rec.StatusField.Kind != FieldNone && (rec.Status == Unknown || statusGiven && rec.Status != st) ||
		rec.StatusField.Kind == FieldNone && statusGiven {
		return string(rec.WithStatus(word))
	}
	return string(rec.Text().Src)
}

// dateLeftOpen reports a date value a template left to fill in: a format
// or placeholder ("{YYYY-MM-DD when ...}", "dd/mm/aa", "[YYYY-MM-DD]"),
// an HTML comment beside it ignored.
func dateLeftOpen(val string) bool {
	v := strings.TrimSpace(htmlComment.ReplaceAllString(val, ""))
	return v != "" && (strings.Contains(v, "{") || isDatePlaceholder(v))
}

// placeholderAfterNumber finds, in a heading line such as "# RFC-NNNN
// Title" or "# ADR-XXX: {title}", the placeholder title that follows a
// number still to fill in: its byte range in line.
func placeholderAfterNumber(line string) (int, int, bool) {
	m := numberPlaceholder.FindStringIndex(line)
	if m == nil {
		return 0, 0, false
	}
	rest := line[m[1]:]
	s := m[1] + len(rest) - len(strings.TrimLeft(rest, " :.)-–—"))
	body := strings.TrimRight(line[s:], " \t#")
	if body == "" || !isPlaceholderTitle(body) {
		return 0, 0, false
	}
	return s, s + len(body), true
}

// templateStatusWord is how a new record made from a project template
// words status st: the word the template offers for it ("proposed" of
// "{proposed | rejected | accepted}", "draft" of "draft | final"; the
// canonical word first), else the word the log's records use for it
// ("aceptado"), "" when neither has one. A word found in the template
// takes the case the log's records write statuses in.
func (root *Root) templateStatusWord(tmplStatus string, st Status) string {
	w := statusOption(tmplStatus, st)
	if w == "" {
		return root.logStatusWord(st)
	}
	r, n := utf8.DecodeRuneInString(w)
	switch root.statusCase() {
	case 1:
		w = string(unicode.ToUpper(r)) + w[n:]
	case -1:
		w = string(unicode.ToLower(r)) + w[n:]
	}
	return w
}

// statusOption is the word, in a template's status text, that names
// status st: one word or two ("in review"), as written. The canonical
// word comes first ("proposed" over "draft" in "draft | proposed").
func statusOption(text string, st Status) string {
	words := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' })
	found := ""
	for i, w := range words {
		if strings.EqualFold(w, string(st)) {
			return w
		}
		if found != "" {
			continue
		}
		if statusWords[strings.ToLower(w)] == st {
			found = w
		} else if i+1 < len(words) && statusWords[strings.ToLower(w+" "+words[i+1])] == st {
			found = w + " " + words[i+1]
		}
	}
	return found
}

// logStatusWord is the word most of the root's records read so far write
// status st with, when it is one word ("aceptado", "Accepted"), "" when
// none states it.
func (root *Root) logStatusWord(st Status) string {
	counts := map[string]int{}
	for _, r := range root.Records {
		if r.lazy || r.Status != st {
			continue
		}
		w := strings.TrimSpace(r.statusWords())
		w = strings.TrimRight(strings.Trim(w[decorationLen(w):], "*_` "), ".")
		if w != "" && !strings.ContainsAny(w, " \t") && statusWords[strings.ToLower(w)] == st {
			counts[w]++
		}
	}
	return mostCommon(counts, "")
}

// agreedStatusWord is the word the root's records read so far agree on
// for status st: every one of them with that status writes it so
// ("Draft" in a log whose proposals all say "status: Draft"), in the
// case most of them write; "" when they use several words (tendermint's
// "Accepted" and "Implemented") or none states it.
func (root *Root) agreedStatusWord(st Status) string {
	words := map[string]bool{}
	for _, r := range root.Records {
		if r.lazy || r.Status != st || r.StatusField.Kind == FieldNone {
			continue
		}
		w := strings.TrimSpace(r.statusWords())
		w = strings.TrimRight(strings.Trim(w[decorationLen(w):], "*_` "), ".")
		words[strings.ToLower(w)] = true
	}
	if len(words) != 1 {
		return ""
	}
	return root.logStatusWord(st)
}

// statusCase is how the root's records read so far write their statuses:
// 1 when most start with a capital ("Accepted"), -1 when most start in
// lower case ("accepted"), 0 when they are as many or there are none.
func (root *Root) statusCase() int {
	upper, lower := 0, 0
	for _, r := range root.Records {
		if r.lazy || r.StatusField.Kind == FieldNone {
			continue
		}
		w := strings.TrimSpace(r.statusWords())
		w = strings.TrimLeft(w[decorationLen(w):], "*_` ")
		c, _ := utf8.DecodeRuneInString(w)
		switch {
		case unicode.IsUpper(c):
			upper++
		case unicode.IsLower(c):
			lower++
		}
	}
	switch {
	case upper > lower:
		return 1
	case lower > upper:
		return -1
	}
	return 0
}
