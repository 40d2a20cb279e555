package adr

import (
	"slices"
	"strconv"
	"strings"
)

// What a new record learns from the records of its log beyond its style:
// how they write their number in their title line ("# 0033 - Title",
// "# ADR-007: Title", "# 7. Title", or not at all) and the front matter
// keys they set to their number (adr: "0033"). A convention counts only
// when every record read that shows one agrees, and at least
// minConventionRecords do.

// minConventionRecords is how many records must show a convention.
const minConventionRecords = 2

// titleForm is how records write their number before their title:
// Lead, the number padded to Digits (0: unpadded), Sep. None is a log
// whose titles hold no number (only Lead, often nothing).
type titleForm struct {
	None      bool
	Lead, Sep string
	Digits    int
}

func (f titleForm) prefix(n int) string {
	if f.None {
		return f.Lead
	}
	return f.Lead + padNumber(n, f.Digits) + f.Sep
}

// numberKey is a front matter key records set to their own number, as
// they write it: adr: "0033" is Key "adr", Quote `"`, Digits 4.
type numberKey struct {
	Key, Quote string
	Digits     int
	// First reports a key every record sets first.
	First bool
	// width is the fewest digits a record writes (past the padding,
	// "1234" is as wide as "0033").
	width int
}

// conventionRecords are the records a convention is learnt from: live,
// read (a lazy load parses a sample spread over the log), numbered, not
// inserted ones ("0004a").
func (root *Root) conventionRecords() []*Record {
	var out []*Record
	for _, r := range root.Records {
		if !r.lazy && !r.Archived && r.Numbered && r.Suffix == "" && !r.InLogFile() {
			out = append(out, r)
		}
	}
	return out
}

// followConventions writes a new record's number as the root's records
// write theirs: in the title line and in the front matter.
func (root *Root) followConventions(content string, number int, title string) string {
	recs := root.conventionRecords()
	if form, ok := titleConvention(recs); ok {
		content = withTitleForm(content, number, title, form)
	}
	if keys := numberKeys(recs); len(keys) > 0 {
		content = withNumberKeys(content, number, keys)
	}
	return content
}

// titleConvention is the title form every record that has a title
// heading writes.
func titleConvention(recs []*Record) (titleForm, bool) {
	var form titleForm
	n, minDigits := 0, 0
	for _, r := range recs {
		f, digits, ok := recordTitleForm(r)
		switch {
		case !ok:
			return titleForm{}, false
		case digits == 0:
			continue // no title heading: no say
		}
		if n == 0 {
			form, minDigits = f, digits
		} else if f.None != form.None || f.Lead != form.Lead || f.Sep != form.Sep ||
			f.Digits > 0 && form.Digits > 0 && f.Digits != form.Digits {
			return titleForm{}, false
		}
		form.Digits = max(form.Digits, f.Digits)
		minDigits = min(minDigits, digits)
		n++
	}
	// A padded number is as wide in every record ("0033", and "1234"
	// past the padding).
	if n < minConventionRecords || !form.None && minDigits < form.Digits {
		return titleForm{}, false
	}
	return form, true
}

// recordTitleForm reads how r writes its number in its title heading,
// with the number of digits it writes (1 for a title without a number; 0
// when r has no title heading, or one whose words git-adr reads
// differently, which says nothing). ok is false for a title that states
// another number or a lead git-adr cannot take apart.
func recordTitleForm(r *Record) (titleForm, int, bool) {
	raw := r.RawTitle
	if raw == "" || r.Title == "" || !strings.HasSuffix(raw, r.Title) || titleHeading(r) < 0 {
		return titleForm{}, 0, true
	}
	pre := raw[:len(raw)-len(r.Title)]
	if r.TitleNumber < 0 {
		// "Architecture Decision Record: Use ADRs", or no lead at all.
		if !titleLead(pre) {
			return titleForm{}, 0, false
		}
		return titleForm{None: true, Lead: pre}, 1, true
	}
	i := strings.IndexAny(pre, "0123456789")
	if r.TitleNumber != r.Number || i < 0 {
		return titleForm{}, 0, false
	}
	j := i
	for j < len(pre) && pre[j] >= '0' && pre[j] <= '9' {
		j++
	}
	f := titleForm{Lead: pre[:i], Sep: pre[j:]}
	if n, err := strconv.Atoi(pre[i:j]); err != nil || n != r.Number || !titleLead(f.Lead) ||
		f.Sep == "" || strings.Trim(f.Sep, " .:)-–—") != "" {
		return titleForm{}, 0, false // "[Accepted] 7. ", "**7**"
	}
	if pre[i] == '0' && j-i > 1 {
		f.Digits = j - i
	}
	return f, j - i, true
}

// titleLead reports words a title may start with before its number or
// its words: "ADR-", "RFC ", "Architecture Decision Record: ".
func titleLead(s string) bool {
	return len(s) <= 40 && strings.TrimFunc(s, func(c rune) bool {
		return c < 0x80 && (isLetter(byte(c)) || strings.ContainsRune(" -_#:", c))
	}) == ""
}

// titleHeading is the 0-based line of r's title heading (the text line
// of a setext one), -1 when its title comes from elsewhere (the front
// matter) or it has none: titleLine, which finds the heading first.
func titleHeading(r *Record) int {
	l := titleLine(r)
	if l == 0 || r.Text().Lines[l-1].Kind == LineFrontMatter {
		return -1
	}
	return l - 1
}

// withTitleForm rewrites what stands before title in the title heading
// of a new record's content in form f: "# 7. Title" becomes "# 0007 -
// Title", "# Title" gets the number, or loses it in a log that writes
// none. A title heading that says anything else before the title ("{{
// SHORT ") is left alone.
func withTitleForm(content string, number int, title string, f titleForm) string {
	rec := Parse([]byte(content))
	l := titleHeading(rec)
	if l < 0 {
		return content
	}
	t := rec.Text()
	line, start := t.LineText(l), t.Lines[l].Start
	ti := strings.Index(line, rec.RawTitle)
	if ti < 0 {
		return content
	}
	at := strings.Index(line[ti:], title)
	if at < 0 {
		return content
	}
	at += ti
	before := line[ti:at]
	if before != "" {
		if rest, num := readTitle(before + title); rest != title || strings.ContainsAny(before, "0123456789") && num != number {
			return content
		}
	}
	want := f.prefix(number)
	if before == want {
		return content
	}
	return string(t.Apply(Edit{Start: start + ti, End: start + at, New: want}))
}

// numberKeys are the front matter keys every record that was read sets
// to its own number, written alike.
func numberKeys(recs []*Record) []numberKey {
	if len(recs) < minConventionRecords {
		return nil
	}
	var keys []numberKey
	for i, r := range recs {
		mine := recordNumberKeys(r)
		if i == 0 {
			keys = mine
			continue
		}
		var both []numberKey
		for _, k := range keys {
			for _, m := range mine {
				if m.Key != k.Key || m.Quote != k.Quote || m.Digits > 0 && k.Digits > 0 && m.Digits != k.Digits {
					continue
				}
				k.First = k.First && m.First
				k.Digits, k.width = max(k.Digits, m.Digits), min(k.width, m.width)
				both = append(both, k)
			}
		}
		keys = both
	}
	var out []numberKey
	for _, k := range keys {
		if k.width >= k.Digits {
			out = append(out, k)
		}
	}
	return out
}

// recordNumberKeys are the top-level front matter keys r sets to its
// number.
func recordNumberKeys(r *Record) []numberKey {
	t := r.Text()
	if t == nil {
		return nil
	}
	var out []numberKey
	first := true
	for i := 1; i < len(t.Lines) && t.Lines[i].Kind == LineFrontMatter; i++ {
		line := t.LineText(i)
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || strings.TrimSpace(line) == "---" {
			continue
		}
		key, vs, ve, ok := splitMetaLine(line)
		if !ok {
			continue
		}
		val := line[vs:ve]
		digits := unquote(val)
		k := numberKey{Key: key, First: first, width: len(digits)}
		first = false
		if len(digits) != len(val) {
			k.Quote = val[:1]
		}
		if digits == "" || strings.Trim(digits, "0123456789") != "" {
			continue
		}
		if n, err := strconv.Atoi(digits); err != nil || n != r.Number {
			continue
		}
		if digits[0] == '0' && len(digits) > 1 {
			k.Digits = len(digits)
		}
		out = append(out, k)
	}
	return out
}

// withNumberKeys sets the keys to number in the front matter of a new
// record's content (making one when it has none).
func withNumberKeys(content string, number int, keys []numberKey) string {
	t := NewText([]byte(content))
	open := len(t.Lines) > 0 && t.Lines[0].Kind == LineFrontMatter
	var first, last []string
	for _, k := range keys {
		line := k.Key + ": " + k.Quote + padNumber(number, k.Digits) + k.Quote
		if open && frontMatterHas(t, k.Key) {
			continue
		}
		if k.First {
			first = append(first, line)
		} else {
			last = append(last, line)
		}
	}
	if len(first)+len(last) == 0 {
		return content
	}
	if !open {
		eol := t.EOL // a CRLF template keeps CRLF
		return "---" + eol + strings.Join(append(first, last...), eol) + eol + "---" + eol + content
	}
	edits := []Edit{}
	if len(first) > 0 {
		edits = append(edits, Edit{Start: t.Lines[0].Next, End: t.Lines[0].Next, New: strings.Join(first, t.EOL) + t.EOL})
	}
	if len(last) > 0 {
		end := 1
		for end < len(t.Lines) && t.Lines[end].Kind == LineFrontMatter && strings.TrimSpace(t.LineText(end)) != "---" {
			end++
		}
		edits = append(edits, Edit{Start: t.Lines[end].Start, End: t.Lines[end].Start, New: strings.Join(last, t.EOL) + t.EOL})
	}
	return string(t.Apply(edits...))
}

// frontMatterHas reports whether the front matter of t sets key.
func frontMatterHas(t *Text, key string) bool {
	for i := 1; i < len(t.Lines) && t.Lines[i].Kind == LineFrontMatter; i++ {
		if k, _, _, ok := splitMetaLine(t.LineText(i)); ok && k == key {
			return true
		}
	}
	return false
}

// frontMatterForm is what every record read writes in its front matter
// beyond its own values: its title there and no title heading (TitleKey,
// the key as written), and lines every record writes alike ("type:
// decision", "parent: Decisions"). Keys are in the order the first
// record writes them.
type frontMatterForm struct {
	TitleKey string
	Agreed   []string
	order    map[string]int
}

// frontMatterConvention is the front matter form at least
// minConventionRecords records show and none contradicts: all of them
// have front matter, and the title (for TitleKey) or a line (for
// Agreed) is in every one.
func frontMatterConvention(recs []*Record) (frontMatterForm, bool) {
	var f frontMatterForm
	if len(recs) < minConventionRecords {
		return f, false
	}
	titleKeys := map[string]int{}
	lines := map[string]int{}
	for i, r := range recs {
		t := r.Text()
		if t == nil || len(t.Lines) == 0 || t.Lines[0].Kind != LineFrontMatter {
			return frontMatterForm{}, false
		}
		headed := titleHeading(r) >= 0
		seen := map[string]bool{}
		for j := 1; j < len(t.Lines) && t.Lines[j].Kind == LineFrontMatter; j++ {
			line := strings.TrimRight(t.LineText(j), " \t")
			if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line == "---" {
				continue
			}
			key, vs, ve, ok := splitMetaLine(line)
			if !ok || seen[key] {
				continue
			}
			seen[key] = true
			if i == 0 {
				if f.order == nil {
					f.order = map[string]int{}
				}
				f.order[key] = len(f.order)
			}
			m, rel, _ := metaKeyOf(key)
			switch {
			case m == keyTitle && !headed:
				titleKeys[key]++
			case m != "" && m != keyIgnored || rel != "" || updatedKeys[strings.ToLower(key)]:
				// The record's own values (its title, status, dates,
				// tags, scope, links), even when every record agrees.
			case vs < ve:
				lines[key+": "+strings.TrimSpace(line[vs:ve])]++
			}
		}
	}
	for k, n := range titleKeys {
		if n == len(recs) {
			f.TitleKey = k
		}
	}
	for l, n := range lines {
		if n == len(recs) {
			f.Agreed = append(f.Agreed, l)
		}
	}
	slices.Sort(f.Agreed)
	return f, f.TitleKey != "" || len(f.Agreed) > 0
}

// followFrontMatter writes a new record made from a built-in template
// the way the log's records write their front matter (see
// [frontMatterForm]): a title heading becomes the title key, and agreed
// lines are added. Content without front matter is left as it is.
func (root *Root) followFrontMatter(content, title string) string {
	f, ok := frontMatterConvention(root.conventionRecords())
	if !ok {
		return content
	}
	rec := Parse([]byte(content))
	t := rec.Text()
	if len(t.Lines) == 0 || t.Lines[0].Kind != LineFrontMatter {
		return content
	}
	type entry struct {
		key, line string
	}
	var fm []entry
	end := 1
	for ; end < len(t.Lines) && t.Lines[end].Kind == LineFrontMatter; end++ {
		line := strings.TrimRight(t.LineText(end), " \t")
		if line == "---" {
			break
		}
		key, _, _, _ := splitMetaLine(line)
		fm = append(fm, entry{key, line})
	}
	if end >= len(t.Lines) {
		return content // front matter that never closes: nothing to follow
	}
	has := func(key string) bool {
		for _, e := range fm {
			if e.key == key {
				return true
			}
		}
		return false
	}
	var edits []Edit
	if f.TitleKey != "" && !has(f.TitleKey) {
		if l := titleHeading(rec); l >= 0 {
			// The blank line after it stays, between front matter and
			// body, as the records write it.
			edits = append(edits, Edit{Start: t.Lines[l].Start, End: t.Lines[l].Next})
			fm = append(fm, entry{f.TitleKey, f.TitleKey + ": " + yamlScalar(title)})
		}
	}
	for _, l := range f.Agreed {
		key, _, _, _ := splitMetaLine(l)
		if !has(key) {
			fm = append(fm, entry{key, l})
		}
	}
	rank := func(e entry) int {
		if i, ok := f.order[e.key]; ok {
			return i
		}
		return len(f.order)
	}
	slices.SortStableFunc(fm, func(a, b entry) int { return rank(a) - rank(b) })
	var b strings.Builder
	for _, e := range fm {
		b.WriteString(e.line + t.EOL)
	}
	edits = append(edits, Edit{Start: t.Lines[1].Start, End: t.Lines[end].Start, New: b.String()})
	return string(t.Apply(edits...))
}
