package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/navigate/mcpserver"
	"github.com/google/jsonschema-go/jsonschema"
)

type showArgs struct {
	ID        string `json:"id" jsonschema:"a record ID in any form (ADR-0012, 12, 0012, a slug or a path), with an optional unit locator (ADR-0012#decision, ADR-0012#decision.2, ADR-0042§3)"`
	StartLine *int   `json:"start_line,omitempty" jsonschema:"the first line of the record (or unit) to return, numbered from 1; default 1; pass next_start_line to continue"`
	StartChar *int   `json:"start_char,omitempty" jsonschema:"the first character (code point) of start_line to return, numbered from 1; default 1; pass next_start_char, which a page gives when it ends inside a line too long for one page"`
}

// showPage is adr_show's answer: what `git adr show --json` says about a
// record, with the text in pages that fit the message budget.
type showPage struct {
	// Record is the record's metadata, its free texts (title, status
	// line, labels) shortened as context answers shorten titles.
	Record adr.RecordInfo `json:"record"`
	// Units are the record's unit IDs (at most maxShowUnits).
	Units []string `json:"units"`
	// Unit is the unit the locator named, with its line range in the file.
	Unit *showUnit `json:"unit,omitempty"`
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

type showUnit struct {
	ID    string `json:"id"`
	Lines [2]int `json:"lines"`
}

// Bounds on the metadata adr_show repeats on every page: at most this
// many units and relations, and at most half the message (maxShowMeta),
// so that the other half is left for the text.
const (
	maxShowUnits     = 40
	maxShowRelations = 40
	maxShowMeta      = mcpserver.MessageBudget / 2
)

// addShowTool serves `git adr show` as adr_show, so that an agent can
// follow an ID it was given (in a unit, a reference or a hint).
func addShowTool(srv *mcpserver.Server, env *Env) {
	mcpserver.Add(srv, mcpserver.Tool[showArgs]{
		Name:  evidence.ShowTool,
		Title: "Show a decision record",
		Description: "One decision record, or one unit of it, by ID: its metadata (status, date, domains, relations with their targets' IDs) " +
			"and its exact text in pages that fit in 12,000 characters. Returns JSON {record: {id, title, status, raw_status, date, path, " +
			"domains, relations}, units, unit, in_force, note, start_line, line_count, total_lines, content, next_start_line, next_start_char}; " +
			"call again with start_line = next_start_line (and start_char = next_start_char when given: a line too long for one page " +
			"is cut across pages) for the rest. in_force and note say what adr_context says: in_force is false " +
			"for superseded, deprecated, rejected, proposed and unknown records (check relations for the record in force); note says why, " +
			"or that the text says the record is being replaced.",
		BudgetHint: "follow a unit locator (id with #decision) for a smaller answer",
		Adjust: func(s *jsonschema.Schema) {
			one := 1.0
			s.Properties["start_line"].Minimum = &one
			s.Properties["start_char"].Minimum = &one
		},
		Handle: func(_ context.Context, a showArgs) (any, error) {
			repo, err := env.Repo()
			if err != nil {
				return nil, err
			}
			l, err := adr.Load(repo.WorktreeFS(), adr.LoadOptions{Roots: env.rootsRel()})
			if err != nil {
				return nil, err
			}
			r, err := l.Resolve(a.ID)
			if err != nil {
				var amb *adr.AmbiguousError
				if errors.As(err, &amb) {
					var c []string
					for _, x := range amb.Candidates {
						c = append(c, x.Path)
					}
					return nil, mcpserver.WithHints(fmt.Errorf("%q names %d records", a.ID, len(amb.Candidates)), "name one by its path: "+strings.Join(c, ", "))
				}
				if adr.IsNotFound(err) {
					return nil, mcpserver.WithHints(fmt.Errorf("no record %q", a.ID),
						fmt.Sprintf("call %s with no arguments for an overview of the log, or with task to find records", evidence.ToolName))
				}
				return nil, err
			}
			pg := &showPage{Record: shortInfo(r.Info()), Units: []string{}, Omitted: map[string]int{}}
			if n := len(pg.Record.Relations); n > maxShowRelations {
				pg.Record.Relations = pg.Record.Relations[:maxShowRelations]
				pg.Omitted["relations"] = n - maxShowRelations
			}
			for _, u := range r.Units() {
				if len(pg.Units) == maxShowUnits {
					pg.Omitted["units"]++
					continue
				}
				pg.Units = append(pg.Units, u.ID)
			}
			content := string(r.Content())
			var unit *adr.Unit
			if _, anchor := adr.SplitLocator(a.ID); anchor != "" {
				u, text, ok := r.Excerpt(anchor)
				if !ok {
					return nil, mcpserver.WithHints(fmt.Errorf("%s has no unit %q", r.ID, anchor), "its units are: "+strings.Join(pg.Units, ", "))
				}
				unit = &u
				pg.Unit, content = &showUnit{ID: u.ID, Lines: [2]int{u.Start, u.End}}, text
			}
			st := (&evidence.Service{Log: l}).StandingOf(r, unit)
			pg.InForce, pg.Note = st.InForce, st.Note
			start, char := 1, 1
			if a.StartLine != nil {
				start = *a.StartLine
			}
			if a.StartChar != nil {
				char = *a.StartChar
			}
			if err := fillShowPage(srv, pg, content, start, char); err != nil {
				return nil, err
			}
			return pg, nil
		},
	})
}

// shortInfo is a record's metadata with its free texts shortened as
// context answers shorten titles ([evidence.ShortTitle]): a record may
// make any of them longer than a message. The ID and the path are kept
// whole: they name the record.
func shortInfo(in adr.RecordInfo) adr.RecordInfo {
	short := evidence.ShortTitle
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

// fitShowMeta drops the last relations, then the last unit IDs, problems,
// applies_to and domains (counted in omitted) until the metadata of pg
// costs at most limit as sent.
func fitShowMeta(srv *mcpserver.Server, pg *showPage, limit int) {
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
		for d.n() > 0 && metaCost(srv, pg, true) > limit {
			d.cut()
			pg.Omitted[d.name]++
		}
	}
}

// metaCost is what pg costs as sent without its text, with room for the
// largest next_start_line, and next_start_char when withChar.
func metaCost(srv *mcpserver.Server, pg *showPage, withChar bool) int {
	content, next, nextChar := pg.Content, pg.NextStartLine, pg.NextStartChar
	big := 1 << 30
	pg.Content, pg.NextStartLine, pg.NextStartChar = "", &big, nil
	if withChar {
		pg.NextStartChar = &big
	}
	n := srv.TextCost(mustEncode(pg))
	pg.Content, pg.NextStartLine, pg.NextStartChar = content, next, nextChar
	return n
}

// fillShowPage puts the text of content from line start, character char,
// into pg: as many lines as fit in the message budget, and at least a
// piece of the first one, cut at a character when the whole line does not
// fit. The metadata takes at most maxShowMeta, so a page holds at least
// the other half of the budget of text.
func fillShowPage(srv *mcpserver.Server, pg *showPage, content string, start, char int) error {
	lines := strings.SplitAfter(content, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	pg.TotalLines, pg.StartLine = len(lines), start
	if start < 1 || start > max(len(lines), 1) {
		return mcpserver.WithHints(fmt.Errorf("start_line %d is past the end of %s (%d lines)", start, pg.Record.ID, len(lines)),
			fmt.Sprintf("start_line is 1 to %d", max(len(lines), 1)))
	}
	var first []rune // what is left of line start from char
	if start <= len(lines) {
		first = []rune(lines[start-1])
	}
	if char < 1 || char > max(len(first), 1) {
		return mcpserver.WithHints(fmt.Errorf("start_char %d is past the end of line %d of %s (%d characters)", char, start, pg.Record.ID, len(first)),
			fmt.Sprintf("start_char is 1 to %d; pass the next_start_char a page gives", max(len(first), 1)))
	}
	first = first[char-1:]
	if char > 1 {
		pg.StartChar = char
	}
	fitShowMeta(srv, pg, maxShowMeta)
	room := mcpserver.MessageBudget - metaCost(srv, pg, false)
	var b strings.Builder
	used, i := 0, start-1
	for ; i < len(lines); i++ {
		line := lines[i]
		if i == start-1 {
			line = string(first)
		}
		c := mcpserver.InTextCost(line)
		if used+c <= room {
			used += c
			b.WriteString(line)
			continue
		}
		if i == start-1 {
			// A line too long for any page: as much of it as fits.
			n := fitPrefix(line, mcpserver.MessageBudget-metaCost(srv, pg, true))
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
func fitPrefix(line string, room int) int {
	rs := []rune(line)
	lo, hi := 0, len(rs) // rs[:lo] fits; rs[:hi+1] does not
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if mcpserver.InTextCost(string(rs[:mid])) <= room {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

func mustEncode(v any) string {
	s, err := mcpserver.Encode(v)
	if err != nil {
		panic(err) // a showPage always encodes
	}
	return s
}
