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

// Reading a record's title: the heading or front matter that holds it,
// its number, the forms templates leave unfilled, and what the file name
// adds once it is known.

var (
	titleADR = lazyre.New(`^\[?(?i:architecture\s+decision\s+record|adr|rfc|decision)\s*[-#]?\s*(\d+)?\s*(?:[:.)\]–—-]+\s*)?`)
	titleNum = lazyre.New(`^\[?(\d+)[a-z]?\]?\s*[.:)–—-]+\s*`)
	// titleDR: "DR000: Title", "DDR-12 Title" (decision records, design
	// decision records); a number is required, so "Dr. Who" stays whole.
	titleDR = lazyre.New(`^\[?(?i:d?dr)\s*[-#_]?\s*(\d+)\s*(?:[:.)\]–—-]+\s*)?`)
)

func (p *parser) findTitle() {
	p.title = -1
	// A front matter "title:" was read first; the headings decide whether
	// one of them is the title line.
	fmTitle := strings.TrimSpace(p.rec.RawTitle)
	p.rec.RawTitle = fmTitle
	for i, h := range p.headings {
		if p.titleAt > 0 {
			if h.Line == p.titleAt-1 {
				p.title = i
				break
			}
			continue
		}
		if h.Level == 1 {
			p.title = i
			break
		}
	}
	if p.title < 0 && p.rec.RawTitle == "" && len(p.headings) > 0 && p.headings[0].Level <= 2 && p.leadsRecord(p.headings[0]) {
		// Some records start at H2; take the first heading if it precedes
		// every other text.
		p.title = 0
	}
	placeholder := false
	headText, headNum := "", -1 // the title heading as read, when there is one
	if p.title >= 0 {
		h := p.headings[p.title]
		text, num := readTitle(h.Text)
		headText, headNum = text, num
		switch {
		case p.titleAt > 0:
			p.rec.RawTitle = h.Text
		case isPlaceholderTitle(text):
			// "# Title", "# {short title ...}": the template's title line,
			// never filled in. It is still the title line (git adr new
			// fills it), but it names nothing.
			p.rec.RawTitle, placeholder = h.Text, true
		case fmTitle != "" && (p.title > 0 || !sameTitle(text, fmTitle) && (num < 0 || sectionTitles[p.keys[p.title]])):
			// "title: Decentraland Protocol" then "# Abstract": the front
			// matter names the record, and the heading is a section. The
			// title line is the first heading, and says the same title
			// or gives the record's number ("# ADR-7: ...").
			p.title = -1
		case h.Level == 1 && num < 0 && sectionTitles[p.keys[p.title]]:
			// "# Context and Problem Statement" first: a record whose
			// title heading is missing (MADR's template starts with the
			// section). The heading is a section, and the title comes
			// from the front matter or the file name ("no title heading",
			// below).
			p.title = -1
		default:
			p.rec.RawTitle = h.Text
		}
	}
	if p.title < 0 && p.rec.RawTitle == "" {
		// "#25. Automatic code merging": a title heading missing the
		// space after its "#" is no heading in Markdown, but it is the
		// record's title, when it is the first text of the file.
		if n, text, ok := p.unspacedTitle(); ok {
			p.rec.RawTitle = text
			p.rec.Problems = append(p.rec.Problems, fmt.Sprintf(ProblemUnspacedTitle, n))
		}
	}
	raw := p.rec.RawTitle
	if placeholder {
		raw = ""
		if t, _ := readTitle(fmTitle); fmTitle != "" && !isPlaceholderTitle(t) {
			raw = fmTitle
		}
	}
	// The heading read and judged above is not read again.
	fromHeading := p.title >= 0 && raw == p.headings[p.title].Text
	title, num := headText, headNum
	if !fromHeading {
		title, num = readTitle(raw)
	}
	if placeholder {
		num = headNum // the heading's number: "# 7. Title"
	} else if !(fromHeading && p.titleAt == 0) && isPlaceholderTitle(title) {
		// "title: {short title ...}" in the front matter.
		placeholder, title = true, ""
	}
	if placeholder {
		p.rec.Problems = append(p.rec.Problems, fmt.Sprintf(ProblemPlaceholderTitle, p.titleLine(), p.rec.RawTitle))
	}
	if num < 0 {
		// "# 29 Use Kafka": a number without a separator. Whether it is
		// the record's number or part of the title ("# 3 ways to cache")
		// depends on the file name; see Record.settleTitle.
		if n, rest, ok := bareTitleNumber(title); ok {
			p.rec.bareTitle = title
			title, num = rest, n
		}
	}
	p.rec.Title, p.rec.TitleNumber = title, num
	if p.rec.RawTitle == "" {
		p.rec.Problems = append(p.rec.Problems, "no title heading")
	}
}

// titleLine is the 1-based line of the title: its heading, or the front
// matter "title:" key.
func (p *parser) titleLine() int {
	if p.title >= 0 {
		return p.headings[p.title].Line + 1
	}
	for _, e := range p.fm {
		if e.Key == "title" {
			return e.Line + 1
		}
	}
	return 0
}

// noBreakHeadings notes every heading written with a no-break space after
// its marks ("##\u00a0Status"): git-adr reads it as a heading, as its
// author meant, but Markdown renders it as text.
func (p *parser) noBreakHeadings() {
	for _, h := range p.headings {
		if h.Setext {
			continue
		}
		if _, ok := noBreakHeading(p.t.LineText(h.Line)); ok {
			p.rec.Problems = append(p.rec.Problems, fmt.Sprintf(ProblemNoBreakHeading, h.Line+1))
		}
	}
}

// ProblemNoBreakHeading is the problem of a heading whose "#" marks are
// followed by a no-break space, on the line it names.
const ProblemNoBreakHeading = "the heading on line %d has a no-break space after its \"#\" marks: Markdown shows it as text"

// ProblemPlaceholderTitle is the problem of a record whose title is the
// template's placeholder, on the line it names.
const ProblemPlaceholderTitle = "the title on line %d is the template's placeholder %q"

// sameTitle reports whether a heading says the title the front matter
// gives, perhaps formatted or worded a little differently ("Use
// `BibEntry.getId` for BibEntries" for "Use BibEntry.getId for
// BibEntry"): more than half of the front matter title's words are in it.
func sameTitle(heading, fmTitle string) bool {
	if strings.EqualFold(heading, fmTitle) {
		return true
	}
	if sectionTitles[headingKey(heading)] || statusHeadings[headingKey(heading)] {
		return false
	}
	in := map[string]bool{}
	for _, w := range titleWords(heading) {
		in[w] = true
	}
	words := titleWords(fmTitle)
	shared := 0
	for _, w := range words {
		if in[w] {
			shared++
		}
	}
	return len(words) > 0 && 2*shared > len(words)
}

// titleWords are the distinct words of a title, in lower case.
func titleWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !isLetterOrDigit(r) }) {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// sectionTitles are the heading keys of the usual sections of a record
// (canonicalAnchors, in every language they are known in), which never
// title one.
var sectionTitles = func() map[string]bool {
	m := map[string]bool{"decision drivers": true, "pros and cons of the options": true, "more information": true}
	for k := range canonicalAnchors {
		m[k] = true
	}
	// The sections a record may open with when its title is left out
	// ("## Motivation", "# Abstract").
	for _, k := range []string{"abstract", "summary", "executive summary", "tl;dr", "tldr", "motivation", "background",
		"introduction", "overview", "problem", "problem statement", "purpose"} {
		m[k] = true
	}
	return m
}()

// placeholderTitles are the titles templates leave to fill in (MADR,
// Nygard, and their variants), lower case, without brackets or an
// explanation in parentheses.
var placeholderTitles = map[string]bool{
	"title": true, "adr title": true, "decision title": true, "record title": true,
	"decision record title": true, "title of the decision record": true, "title of the decision": true,
	"title of the adr": true, "title of adr": true, "title of decision": true, "short title": true,
	"your title": true, "your title here": true, "title here": true, "insert title": true, "insert title here": true,
	"short title of solved problem and solution":                       true,
	"short title, representative of solved problem and found solution": true,
}

// numberPlaceholderLead is a number still to fill in before a title
// ("ADR-XXX: ", "NUMBER. ", "NNNN - ", "{number}. ").
var numberPlaceholderLead = lazyre.New(`^(?i:(?:adr|rfc|dr|decision)?\s*[-_#]?\s*(?:x{2,}|n{2,}|number|\{[^{}]*\}|<[^<>]*>)\s*[:.)–—-]+\s*)`)

// isPlaceholderTitle reports a title that is the template's placeholder:
// "Title", "Title of the Decision Record", "[short title of solved problem
// and solution]", "{short title, representative of ...}", "ADR-XXX:
// Title", "NUMBER. TITLE", "Decision Record Title (a description of the
// decision, not the problem)". A bracketed title that says something
// else ("[Design Guideline]") is a title.
func isPlaceholderTitle(s string) bool {
	if indexFold(s, "title") < 0 {
		return false // every placeholder says "title"
	}
	s = strings.TrimSpace(s)
	if m := numberPlaceholderLead.FindStringIndex(s); m != nil && m[1] < len(s) {
		s = s[m[1]:]
	}
	wrapped := false
	if len(s) >= 2 {
		switch s[0] {
		case '{', '[', '<':
			if s[len(s)-1] == map[byte]byte{'{': '}', '[': ']', '<': '>'}[s[0]] {
				s, wrapped = strings.TrimSpace(s[1:len(s)-1]), true
			}
		}
	}
	// "Decision Record Title (a description of the decision, not the
	// problem)": the guidance in parentheses says it is a placeholder.
	if i := strings.IndexByte(s, '('); i > 0 && strings.HasSuffix(s, ")") {
		s = strings.TrimSpace(s[:i])
	}
	s = strings.Join(strings.Fields(strings.ToLower(strings.TrimRight(s, ".:"))), " ")
	if placeholderTitles[s] || strings.HasPrefix(s, "short title of ") || strings.HasPrefix(s, "short title, ") {
		return true
	}
	// "{title}", "<Title of the ADR>", "[short title]": template syntax
	// around words about the title.
	return wrapped && slices.Contains(titleWords(s), "title")
}

// ProblemUnspacedTitle is the problem of a record whose title is written
// "#Title", on the line it names.
const ProblemUnspacedTitle = "the title on line %d is not a heading: it has no space after \"#\""

// unspacedTitle is the first text line of the record when it is written
// as a heading without the space after its "#" ("#25. Title", "##Title"),
// its line number and its text.
func (p *parser) unspacedTitle() (int, string, bool) {
	for i := range p.t.Lines {
		switch p.t.Lines[i].Kind {
		case LineBlank, LineFrontMatter:
			continue
		case LineText:
			if _, text, ok := unspacedHeading(p.t.LineText(i)); ok {
				return i + 1, text, true
			}
			return 0, "", false
		}
		return 0, "", false
	}
	return 0, "", false
}

// unspacedHeading splits a line written as an H1 or H2 heading without
// the space after its "#" ("#25. Title") into its marks and its text.
func unspacedHeading(line string) (marks, text string, ok bool) {
	line = strings.TrimRight(line, " \t")
	n := len(line) - len(strings.TrimLeft(line, "#"))
	if n == 0 || n > 2 || n == len(line) || line[n] == '!' {
		return "", "", false
	}
	return line[:n], strings.TrimSpace(line[n:]), true
}

// leadsRecord reports whether h can be an H2 title: no text comes before
// it and it is not a usual section ("## Status", "## Context").
func (p *parser) leadsRecord(h Heading) bool {
	for i := 0; i < h.Line; i++ {
		if p.t.Lines[i].Kind == LineText {
			return false
		}
	}
	key := headingKey(h.Text)
	return !statusHeadings[key] && !sectionTitles[key] && !linkSections[key]
}

// cleanTitle strips "5. ", "ADR 035: ", "ADR-7 - " or "Architecture Decision
// Record: " from a heading and returns the number it named (-1 when none).
func cleanTitle(raw string) (string, int) {
	s := unwrapEmphasis(strings.TrimSpace(raw))
	if n := statusMarker(s); n > 0 && strings.TrimSpace(s[n:]) != "" {
		s = strings.TrimSpace(s[n:])
	}
	num := -1
	if m := titleNum.FindStringSubmatchIndex(s); m != nil && m[1] < len(s) {
		num, _ = strconv.Atoi(s[m[2]:m[3]])
		return strings.TrimSpace(s[m[1]:]), num
	}
	if m := titleADR.FindStringSubmatchIndex(s); m != nil && m[1] < len(s) && m[1] > 0 {
		rest := s[m[1]:]
		// "ADR Review Process" is a title, not a prefix: require a number
		// or a separator. A dash that joins a word ("ADR-tools",
		// "Decision-making") is no separator.
		pre := s[:m[1]]
		sep := strings.ContainsAny(pre, ":-–—.") && (strings.ContainsRune(pre, ':') || strings.TrimRight(pre, " \t") != pre)
		if m[2] >= 0 || sep {
			if m[2] >= 0 {
				num, _ = strconv.Atoi(s[m[2]:m[3]])
			}
			return strings.TrimSpace(rest), num
		}
	}
	if m := titleDR.FindStringSubmatchIndex(s); m != nil && m[1] < len(s) && (!isAlnumByte(s[m[1]-1]) || !isAlnumByte(s[m[1]])) {
		num, _ = strconv.Atoi(s[m[2]:m[3]])
		return strings.TrimSpace(s[m[1]:]), num
	}
	return s, num
}

// readTitle is the title a heading shows and the number it names: the
// heading without its number ([cleanTitle]), without a trailing attribute
// block, with Markdown escapes read ("Exception Handling and \@throws
// {#rest_adr_0011}" shows "Exception Handling and @throws").
func readTitle(raw string) (string, int) {
	if strings.Contains(raw, "<!--") {
		// "Use X <!-- short title of solved problem -->": a comment
		// renderers do not show.
		raw = strings.Join(strings.Fields(htmlComment.ReplaceAllString(raw, " ")), " ")
	}
	title, num := cleanTitle(raw)
	if t := dropAttributes(title); t != title || strings.Contains(t, "\\") {
		title = unwrapEmphasis(strings.TrimSpace(unescapeMarkdown(t)))
	}
	return title, num
}

// headingAttributes is a trailing attribute block of a heading, as
// Pandoc, kramdown, MkDocs and Doxygen write it: "{#adr_0000}", "{#id
// .class}", "{: #id}", "{-}". Renderers show no part of it.
var headingAttributes = lazyre.New(`\s+\{:?\s*(?:-|[#.][^\s{}]+|[A-Za-z_][\w-]*=[^\s{}]+)(?:\s+(?:[#.][^\s{}]+|[A-Za-z_][\w-]*=[^\s{}]+))*\s*\}$`)

// dropAttributes strips a heading's trailing attribute block.
func dropAttributes(s string) string {
	if !strings.HasSuffix(s, "}") {
		return s
	}
	if m := headingAttributes.FindStringIndex(s); m != nil && m[0] > 0 && s[m[0]-1] != '\\' {
		return s[:m[0]]
	}
	return s
}

// unescapeMarkdown removes the backslash of Markdown escapes ("\@throws",
// "Span\<T\>", "snake\_case") outside code spans, as a renderer shows
// the text: a backslash escapes ASCII punctuation only.
func unescapeMarkdown(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	from := 0 // the start of the text not yet written
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			i++ // an escaped character opens no code span
		case c == '`':
			n := run(s, i, '`')
			end := closingRun(s, i+n, n)
			if end < 0 {
				i += n - 1
				continue
			}
			b.WriteString(unescapeLinkDest(s[from:i]))
			b.WriteString(s[i : end+n])
			i = end + n - 1
			from = i + 1
		}
	}
	b.WriteString(unescapeLinkDest(s[from:]))
	return b.String()
}

// markerWords start a bracketed status written before a title: "#
// [Superseded by [ADR-0019](0019-thanos.md)] Push metrics via InfluxDB".
var markerWords = []string{"superseded", "deprecated", "rejected", "obsolete", "replaced", "retired", "accepted", "proposed", "draft"}

// statusMarker is the length of a bracketed status at the start of s
// ("[Superseded by [ADR-0019](0019-thanos.md)] ", brackets balanced, with
// the spaces after it), or 0. The status itself is read from the
// record's status; the marker is no part of the title.
func statusMarker(s string) int {
	if !strings.HasPrefix(s, "[") {
		return 0
	}
	word := false
	for _, w := range markerWords {
		if len(s) > len(w) && strings.EqualFold(s[1:1+len(w)], w) && (len(s) == 1+len(w) || !isAlnumByte(s[1+len(w)])) {
			word = true
			break
		}
	}
	if !word {
		return 0
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				j := i + 1
				if j < len(s) && s[j] == '(' {
					return 0 // a link whose text is a status word: "[Deprecated](x.md) logging"
				}
				for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
					j++
				}
				return j
			}
		}
	}
	return 0
}

// unwrapEmphasis drops strong emphasis around the whole of s ("**ADR-1:
// Title**" in a heading): it is no part of the title.
func unwrapEmphasis(s string) string {
	for _, em := range []string{"**", "__"} {
		if len(s) > 2*len(em) && strings.HasPrefix(s, em) && strings.HasSuffix(s, em) && !strings.Contains(s[len(em):len(s)-len(em)], em) {
			s = strings.TrimSpace(s[len(em) : len(s)-len(em)])
		}
	}
	return s
}

// bareTitleNumber splits "29 Use Kafka" into 29 and "Use Kafka": at most
// 9 digits, spaces, then a letter.
func bareTitleNumber(s string) (int, string, bool) {
	d := 0
	for d < len(s) && d < 10 && s[d] >= '0' && s[d] <= '9' {
		d++
	}
	if d == 0 || d > 9 || d == len(s) || s[d] != ' ' && s[d] != '\t' {
		return 0, "", false
	}
	rest := strings.TrimLeft(s[d:], " \t")
	if r, _ := utf8.DecodeRuneInString(rest); !unicode.IsLetter(r) {
		return 0, "", false
	}
	n, err := strconv.Atoi(s[:d])
	return n, rest, err == nil
}

// settleTitle completes what the file name says, now that it is known. A
// bare number in the title is the record's number, unless the record is
// not numbered or its slug starts with that number too
// ("0007-3-ways-to-cache.md" titled "# 3 ways to cache"). A record
// without a title is named after its slug, without the date a dated name
// starts with. A record that states no date has the date its name starts
// with ("2022-02-03-integration-testing/README.md",
// "2022-03-28_017-udp-networking.md").
func (r *Record) settleTitle(fn fileName) {
	if r.bareTitle != "" {
		digits := strconv.Itoa(r.TitleNumber)
		inSlug := strings.HasPrefix(fn.Slug, digits) && (len(fn.Slug) == len(digits) || fn.Slug[len(digits)] < '0' || fn.Slug[len(digits)] > '9')
		if !fn.Numbered || inSlug {
			r.Title, r.TitleNumber = r.bareTitle, -1
		}
		r.bareTitle = ""
	}
	if r.Title == "" {
		slug := fn.Slug
		if !fn.Numbered && isDateSlug(fn.Stem) {
			slug = dateSlugRest(fn.Stem) // "2022-11-09-api-refactoring": "Api refactoring"
		}
		r.Title = humanize(slug)
	}
	if r.Date == "" {
		r.Date = nameDate(fn.Stem)
	}
}
