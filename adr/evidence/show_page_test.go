package evidence

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"
)

// pageInCodePoints measures a page as the code points of its JSON, and a
// string as those of its JSON value: a transport that sends the page as
// it is.
func pageInCodePoints(budget int) PageMeasure {
	return PageMeasure{
		Budget: budget,
		Message: func(pg *ShowPage) int {
			b, err := json.Marshal(pg)
			if err != nil {
				panic(err)
			}
			return utf8.RuneCount(b)
		},
		Text: func(s string) int {
			b, err := json.Marshal(s)
			if err != nil {
				panic(err)
			}
			return utf8.RuneCount(b) - 2 // the quotes are the page's
		},
	}
}

// Pages followed by next_start_line and next_start_char give the text
// exactly once, each within the budget, a line too long for a page cut
// at a character.
func TestShowPagesCoverTheText(t *testing.T) {
	long := strings.Repeat("é", 1500)
	decision := strings.Repeat("We decide a line of text.\n", 60) + long
	l := load(t, fstest.MapFS{name(1, "one"): {Data: []byte(nygard(1, "One", "Accepted", decision))}})
	r := l.Records[0]
	svc := &Service{Log: l}
	m := pageInCodePoints(1200)
	var got strings.Builder
	start, char, pages := 1, 1, 0
	for {
		pg, err := svc.ShowPage(ShowRequest{Record: r, StartLine: start, StartChar: char}, m)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if c := m.Message(pg); c > m.Budget {
			t.Fatalf("page %d costs %d, budget %d", pages, c, m.Budget)
		}
		if !pg.InForce || pg.Record.ID != r.ID || pg.TotalLines == 0 {
			t.Fatalf("page %d: %+v", pages, pg)
		}
		got.WriteString(pg.Content)
		if pg.NextStartLine == nil {
			break
		}
		start, char = *pg.NextStartLine, 1
		if pg.NextStartChar != nil {
			char = *pg.NextStartChar
		}
	}
	if got.String() != string(r.Content()) {
		t.Errorf("the pages joined differ from the record's text")
	}
	if pages < 4 {
		t.Errorf("%d pages: the budget should need more", pages)
	}
}

func TestShowPageUnitAndErrors(t *testing.T) {
	l := load(t, fstest.MapFS{name(1, "one"): {Data: []byte(nygard(1, "One", "Proposed", "We use Go."))}})
	r := l.Records[0]
	svc := &Service{Log: l}
	m := pageInCodePoints(12000)
	pg, err := svc.ShowPage(ShowRequest{Record: r, Anchor: "decision", StartLine: 1, StartChar: 1}, m)
	if err != nil {
		t.Fatal(err)
	}
	if pg.Unit == nil || pg.Unit.ID != r.ID+"#decision" || !strings.Contains(pg.Content, "We use Go.") || pg.InForce || pg.Note == "" {
		t.Errorf("unit page = %+v", pg)
	}
	for _, req := range []ShowRequest{
		{Record: r, Anchor: "nosuch", StartLine: 1, StartChar: 1},
		{Record: r, StartLine: 999, StartChar: 1},
		{Record: r, StartLine: 1, StartChar: 999},
	} {
		_, err := svc.ShowPage(req, m)
		var re *RequestError
		if !errors.As(err, &re) || re.Hint == "" {
			t.Errorf("%+v: err = %v, want a *RequestError with a hint", req, err)
		}
	}
}
