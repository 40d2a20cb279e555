package evidence

import (
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// ShowPage is one page of a record shown by itself (adr_show's answer):
// what `git adr show --json` says about the record, with its text in
// pages that fit a transport's message budget.
type ShowPage struct {
	// Record is the record's metadata, its free texts (title, status
	// line, labels) shortened as context answers shorten titles.
	Record adr.RecordInfo `json:"record"`
	// Units are the record's unit IDs (at most MaxShowUnits).
	Units []string `json:"units"`
	// Unit is the unit the locator named, with its line range in the file.
	Unit *ShowUnit `json:"unit,omitempty"`
	// InForce and Note say what adr_context says of the record (or of the
	// unit, a container section with a status of its own): not in force
	// when superseded, deprecated, rejected, proposed or of an unknown
	// status; in force with the note "status not stated" when it states
	// none; "possibly superseded: ..." when its text says it is replaced.
	InForce   bool   `json:"in_force"`
	Note      string `json:"note,omitempty"`
	StartLine int    `json:"start_line"`
	// StartChar is the first character of StartLine shown, when the page
	// starts inside a line.
	StartChar int `json:"start_char,omitempty"`
	// LineCount counts the lines the page shows, whole or in part.
	LineCount  int    `json:"line_count"`
	TotalLines int    `json:"total_lines"`
	Content    string `json:"content"`
	// NextStartLine (and NextStartChar, when the page ends inside a line
	// too long for one page) is where the next page starts; null on the
	// last page.
	NextStartLine *int           `json:"next_start_line"`
	NextStartChar *int           `json:"next_start_char,omitempty"`
	Omitted       map[string]int `json:"omitted"`
}

// ShowUnit is the unit a page shows, with its line range in the file.
type ShowUnit struct {
	ID    string `json:"id"`
	Lines [2]int `json:"lines"`
}

// Bounds on the metadata a page repeats: at most this many units and
// relations (and at most half the budget, see [PageMeasure]).
const (
	MaxShowUnits     = 40
	MaxShowRelations = 40
)

// PageMeasure is how a transport counts a page.
type PageMeasure struct {
	// Budget bounds a page as sent. The metadata takes at most half of
	// it, so a page holds at least the other half of text.
	Budget int
	// Message counts a page as sent, whole.
	Message func(*ShowPage) int
	// Text counts what a string costs as a value of the page when sent.
	Text func(string) int
}

// ShowRequest asks for one page of a record.
type ShowRequest struct {
	Record *adr.Record
	// Anchor is the unit locator ("decision", "decision.2", "§3"), or ""
	// for the whole record.
	Anchor string
	// StartLine and StartChar are where the page starts, numbered from
	// 1: a line of the record (or unit), and a character (code point) of
	// that line.
	StartLine, StartChar int
}

// ShowPage is the page req asks for, measured by m. An anchor the record
// has no unit for, or a start past the end of the text, is a
// [*RequestError] whose Hint names what is valid.
func (s *Service) ShowPage(req ShowRequest, m PageMeasure) (*ShowPage, error) {
	r := req.Record
	pg := &ShowPage{Record: shortInfo(r.Info()), Units: []string{}, Omitted: map[string]int{}}
	if n := len(pg.Record.Relations); n > MaxShowRelations {
		pg.Record.Relations = pg.Record.Relations[:MaxShowRelations]
		pg.Omitted["relations"] = n - MaxShowRelations
	}
	for _, u := range r.Units() {
		if len(pg.Units) == MaxShowUnits {
			pg.Omitted["units"]++
			continue
		}
		pg.Units = append(pg.Units, u.ID)
	}
	content := string(r.Content())
	var unit *adr.Unit
	if req.Anchor != "" {
		u, text, ok := r.Excerpt(req.Anchor)
		if !ok {
			return nil, badRequest("its units are: "+strings.Join(pg.Units, ", "), "%s has no unit %q", r.ID, req.Anchor)
		}
		unit = &u
		pg.Unit, content = &ShowUnit{ID: u.ID, Lines: [2]int{u.Start, u.End}}, text
	}
	st := s.StandingOf(r, unit)
	pg.InForce, pg.Note = st.InForce, st.Note
	if err := fillPage(m, pg, content, req.StartLine, req.StartChar); err != nil {
		return nil, err
	}
	return pg, nil
}

// shortInfo is a record's metadata with its free texts shortened as
// context answers shorten titles ([ShortTitle]): a record may make any of
// them longer than a message. The ID and the path are kept whole: they
// name the record.
func shortInfo(in adr.RecordInfo) adr.RecordInfo {
	short := shortTitle
	in.Title, in.RawStatus, in.Date = short(in.Title), short(in.RawStatus), short(in.Date)
	in.Iteration, in.Scope, in.ReviewBy = short(in.Iteration), short(in.Scope), short(in.ReviewBy)
	shortAll := func(ss []string) []string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = short(s)
		}
		return out
	}
	in.Domains, in.AppliesTo, in.Problems = shortAll(in.Domains), shortAll(in.AppliesTo), shortAll(in.Problems)
	if len(in.AppliesTo) == 0 {
		in.AppliesTo = nil
	}
	if len(in.Problems) == 0 {
		in.Problems = nil
	}
	rels := make([]adr.RelationInfo, len(in.Relations))
	for i, rel := range in.Relations {
		rel.Label, rel.Target, rel.Section = short(rel.Label), short(rel.Target), short(rel.Section)
		rels[i] = rel
	}
	in.Relations = rels
	return in
}

// fitMeta drops the last relations, then the last unit IDs, problems,
// applies_to and domains (counted in omitted) until the metadata of pg
// costs at most limit as sent.
func fitMeta(m PageMeasure, pg *ShowPage, limit int) {
	drop := []struct {
		name string
		n    func() int
		cut  func()
	}{
		{"relations", func() int { return len(pg.Record.Relations) }, func() { pg.Record.Relations = pg.Record.Relations[:len(pg.Record.Relations)-1] }},
		{"units", func() int { return len(pg.Units) }, func() { pg.Units = pg.Units[:len(pg.Units)-1] }},
		{"problems", func() int { return len(pg.Record.Problems) }, func() { pg.Record.Problems = pg.Record.Problems[:len(pg.Record.Problems)-1] }},
		{"applies_to", func() int { return len(pg.Record.AppliesTo) }, func() { pg.Record.AppliesTo = pg.Record.AppliesTo[:len(pg.Record.AppliesTo)-1] }},
		{"domains", func() int { return len(pg.Record.Domains) }, func() { pg.Record.Domains = pg.Record.Domains[:len(pg.Record.Domains)-1] }},
	}
	for _, d := range drop {
		for d.n() > 0 && metaCost(m, pg, true) > limit {
			d.cut()
			pg.Omitted[d.name]++
		}
	}
}

// metaCost is what pg costs as sent without its text, with room for the
// largest next_start_line, and next_start_char when withChar.
func metaCost(m PageMeasure, pg *ShowPage, withChar bool) int {
	content, next, nextChar := pg.Content, pg.NextStartLine, pg.NextStartChar
	big := 1 << 30
	pg.Content, pg.NextStartLine, pg.NextStartChar = "", &big, nil
	if withChar {
		pg.NextStartChar = &big
	}
	n := m.Message(pg)
	pg.Content, pg.NextStartLine, pg.NextStartChar = content, next, nextChar
	return n
}

// fillPage puts the text of content from line start, character char, into
// pg: as many lines as fit in the budget, and at least a piece of the
// first one, cut at a character when the whole line does not fit. The
// metadata takes at most half the budget, so a page holds at least the
// other half of text.
func fillPage(m PageMeasure, pg *ShowPage, content string, start, char int) error {
	lines := strings.SplitAfter(content, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	pg.TotalLines, pg.StartLine = len(lines), start
	if start < 1 || start > max(len(lines), 1) {
		return badRequest(fmt.Sprintf("start_line is 1 to %d", max(len(lines), 1)),
			"start_line %d is past the end of %s (%d lines)", start, pg.Record.ID, len(lines))
	}
	var first []rune // what is left of line start from char
	if start <= len(lines) {
		first = []rune(lines[start-1])
	}
	if char < 1 || char > max(len(first), 1) {
		return badRequest(fmt.Sprintf("start_char is 1 to %d; pass the next_start_char a page gives", max(len(first), 1)),
			"start_char %d is past the end of line %d of %s (%d characters)", char, start, pg.Record.ID, len(first))
	}
	first = first[char-1:]
	if char > 1 {
		pg.StartChar = char
	}
	fitMeta(m, pg, m.Budget/2)
	room := m.Budget - metaCost(m, pg, false)
	var b strings.Builder
	used, i := 0, start-1
	for ; i < len(lines); i++ {
		line := lines[i]
		if i == start-1 {
			line = string(first)
		}
		c := m.Text(line)
		if used+c <= room {
			used += c
			b.WriteString(line)
			continue
		}
		if i == start-1 {
			// A line too long for any page: as much of it as fits.
			n := fitPrefix(m, line, m.Budget-metaCost(m, pg, true))
			if n == 0 {
				return fmt.Errorf("the metadata of %s leaves no room for its text", pg.Record.ID)
			}
			b.WriteString(string([]rune(line)[:n]))
			next, nextChar := i+1, char+n
			pg.Content, pg.LineCount, pg.NextStartLine, pg.NextStartChar = b.String(), 1, &next, &nextChar
			return nil
		}
		break
	}
	pg.Content, pg.LineCount = b.String(), i-(start-1)
	pg.NextStartLine = nil
	if i < len(lines) {
		next := i + 1
		pg.NextStartLine = &next
	}
	return nil
}

// fitPrefix is the most characters of line, from its start, that cost at
// most room as sent.
func fitPrefix(m PageMeasure, line string, room int) int {
	rs := []rune(line)
	lo, hi := 0, len(rs) // rs[:lo] fits; rs[:hi+1] does not
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if m.Text(string(rs[:mid])) <= room {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
