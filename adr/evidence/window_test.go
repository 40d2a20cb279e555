package evidence

import (
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/retrieve"
)

// TestGlossaryFindsAbbreviation: a task that says a long form finds the
// record that says only its abbreviation, which another record of the
// log defines; without the glossary it does not.
func TestGlossaryFindsAbbreviation(t *testing.T) {
	fsys := fstest.MapFS{
		name(1, "supply-chain"): {Data: []byte(record(1, "1. Supply chain checks", "Accepted",
			"## Context\n\nAuditors ask for a Software Bill of Materials (SBOM) of every release.",
			"## Decision\n\nReleases are signed with cosign."))},
		name(2, "syft"): {Data: []byte(record(2, "2. Use Syft", "Accepted",
			"## Decision\n\nSyft generates the SBOM of each package, images and plain files alike."))},
		name(3, "images"): {Data: []byte(record(3, "3. Images", "Accepted",
			"## Decision\n\nPackages ship container images and plain files."))},
	}
	task := "which tool produces the software bill of materials for a package"
	has := func(resp *Response, id string) bool {
		for _, u := range resp.Units {
			if strings.HasPrefix(u.ID, id+"#") {
				return true
			}
		}
		return false
	}
	if resp := answer(t, &Service{Log: load(t, fsys)}, Request{Task: task}); !has(resp, "ADR-0002") {
		t.Errorf("units %v: want ADR-0002, which says SBOM", unitIDs(resp))
	}
	if resp := answer(t, &Service{Log: load(t, fsys), Ablate: Ablation{NoGlossary: true}}, Request{Task: task}); has(resp, "ADR-0002") && resp.Units[0].ID == "ADR-0002#decision" {
		t.Errorf("without the glossary ADR-0002 still leads: the test does not test it (%v)", unitIDs(resp))
	}
}

// TestWindowCutsLongParagraphs: a record written one paragraph a line
// sends its best sentences, not the start of the line, within the
// window's size.
func TestWindowCutsLongParagraphs(t *testing.T) {
	filler := strings.Repeat("The team weighed many things at length during the review. ", 20)
	text := record(1, "1. Storage", "Accepted", "## Decision\n\n"+filler+"Orders are kept in PostgreSQL with nightly backups to S3. "+filler)
	l := load(t, fstest.MapFS{name(1, "storage"): {Data: []byte(text)}})
	r := l.Records[0]
	q := retrieve.Query("where are orders kept and backed up", retrieve.English)
	ix := retrieve.NewIndex([]retrieve.Doc{{ID: r.ID, Fields: []retrieve.Field{{Text: text}}}})
	w, ok := bestWindow(r, answerUnits(r, Current), matcher{q: q, ix: ix}, windowOpts{limit: 300, main: 0})
	if !ok || !strings.Contains(w.text, "Orders are kept in PostgreSQL with nightly backups to S3.") {
		t.Fatalf("window %q: want the sentence that answers", w.text)
	}
	if n := utf8.RuneCountInString(w.text); n > 300 {
		t.Errorf("window of %d code points, over 300", n)
	}
}

// TestWindowStartsWithText: a short decision after a paragraph too long
// to take in whole starts the window at its own text (or at sentences of
// that paragraph), never at the empty lines between them; a list item's
// number is no sentence end.
func TestWindowStartsWithText(t *testing.T) {
	context := "## Context\n\n" + strings.Repeat("One strategy principle is to use managed services in order to reduce the burden on teams to\nmanage the functionality ", 4) + "themselves.\n"
	text := record(1, "1. Use DocumentDB", "Accepted", context, "## Decision\n\nThe approaches taken are:\n\n1. evaluate new apps for DocumentDB.\n")
	l := load(t, fstest.MapFS{name(1, "documentdb"): {Data: []byte(text)}})
	r := l.Records[0]
	q := retrieve.Query("which apps move to documentdb", retrieve.English)
	ix := retrieve.NewIndex([]retrieve.Doc{{ID: r.ID, Fields: []retrieve.Field{{Text: text}}}})
	units := answerUnits(r, Current)
	main := -1
	for i, u := range units {
		if u.Anchor == "decision" {
			main = i
		}
	}
	w, ok := bestWindow(r, units, matcher{q: q, ix: ix}, windowOpts{limit: 300, main: main, fill: 300})
	if !ok || strings.HasPrefix(w.text, "\n") || !strings.Contains(w.text, "The approaches taken are:") {
		t.Fatalf("window %q", w.text)
	}
	if !strings.Contains(w.text, "1. evaluate new apps for DocumentDB.") {
		t.Errorf("window %q: the list item is cut at its number", w.text)
	}
}

// FuzzWindow: whatever the record and task, a window is text of the
// record (its lines, in order), within its limit, on lines the record
// has.
func FuzzWindow(f *testing.F) {
	f.Add("## Decision\n\nWe use Redis. It is fast.\n\n- one\n- two\n", "redis cache", 250)
	f.Add("## Context\n\n```\ncode ( SBOM\n```\n\n## Decision\n\nA. B. C.\r\n\r\nD e.g. f.", "sbom code", 40)
	f.Add("plain text without sections\nand a second line\n\n\n", "second", 10)
	f.Fuzz(func(t *testing.T, body, task string, limit int) {
		if limit < 1 || limit > 5000 || len(body) > 20000 {
			return
		}
		src := "# 1. Title\n\n## Status\n\nAccepted\n\n" + body
		l, err := adr.Load(fstest.MapFS{"doc/adr/0001-title.md": {Data: []byte(src)}}, adr.LoadOptions{})
		if err != nil || len(l.Records) != 1 {
			return
		}
		r := l.Records[0]
		q := retrieve.Query(task, retrieve.English)
		ix := retrieve.NewIndex([]retrieve.Doc{{ID: r.ID, Fields: []retrieve.Field{{Text: src}}}})
		w, ok := bestWindow(r, answerUnits(r, Current), matcher{q: q, ix: ix}, windowOpts{limit: limit, main: 0, fill: limit})
		if !ok {
			return
		}
		if n := utf8.RuneCountInString(strings.TrimSuffix(w.text, "\n")); n > limit && n > 0 {
			// A window is whole blocks or sentences; a block longer than
			// the limit is cut, so nothing may exceed it.
			t.Fatalf("window of %d code points, limit %d: %q", n, limit, w.text)
		}
		lines := r.Text().Lines
		if w.start < 1 || w.end < w.start || w.end > len(lines) {
			t.Fatalf("lines %d-%d of %d", w.start, w.end, len(lines))
		}
		if strings.HasPrefix(w.text, "\n") {
			t.Fatalf("window %q starts with an empty line", w.text)
		}
		norm := strings.ReplaceAll(string(r.Text().Src), "\r\n", "\n")
		if !strings.Contains(norm, strings.TrimSuffix(w.text, "\n")) {
			t.Fatalf("window %q is not text of the record", w.text)
		}
	})
}

// TestShortRecordSentWhole: a record whose decision is one short
// sentence sends its sections about it too (its links), so the answer
// holds the record, not a fragment of it.
func TestShortRecordSentWhole(t *testing.T) {
	text := "# Avoid default exports\n\n- Status: accepted\n- Date: 2020-09-27\n\n## Decision\n\nWe will avoid default exports, and use named exports instead.\n\n## Links\n\n- <https://example.com/blog/2019/01/stop-using-default-exports-javascript-module/>\n- <https://example.com/typescript/main-1/defaultisbad>\n"
	fsys := fstest.MapFS{"doc/adr/20200927-avoid-default-exports.md": {Data: []byte(text)}}
	resp := answer(t, &Service{Log: load(t, fsys)}, Request{Task: "should modules export a default"})
	if len(resp.Units) == 0 || !strings.Contains(resp.Units[0].Text, "named exports") || !strings.Contains(resp.Units[0].Text, "defaultisbad") {
		t.Fatalf("units %v: want the decision and its links", unitIDs(resp))
	}
}

// TestWindowFillsWithTheNextSentence: a paragraph cut to its best
// sentence, short beside a long next sentence, sends that sentence and
// the next one's first words up to the window's size, cut at a word; at
// the paragraph's end, the previous sentence's last words. With whole
// sentences only (NoSentenceFill) it sends the one sentence.
func TestWindowFillsWithTheNextSentence(t *testing.T) {
	long := "The review weighed the cost of every other option at length and found each of them heavier to run for a team of our size over the many years to come, whatever the load and whoever runs it on call at night"
	for _, tc := range []struct {
		name, para, want string
	}{
		{"next", "Orders are kept in PostgreSQL. " + long + ". " + long + ".", "Orders are kept in PostgreSQL. The review weighed"},
		{"previous", long + ". " + long + ". Orders are kept in PostgreSQL.", "whoever runs it on call at night. Orders are kept in PostgreSQL."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := record(1, "1. Storage", "Accepted", "## Decision\n\n"+tc.para)
			r := load(t, fstest.MapFS{name(1, "storage"): {Data: []byte(text)}}).Records[0]
			q := retrieve.Query("where are orders kept", retrieve.English)
			ix := retrieve.NewIndex([]retrieve.Doc{{ID: r.ID, Fields: []retrieve.Field{{Text: text}}}})
			o := windowOpts{limit: 180, main: 0}
			w, ok := bestWindow(r, answerUnits(r, Current), matcher{q: q, ix: ix}, o)
			if !ok || !strings.Contains(w.text, tc.want) {
				t.Fatalf("window %q: want it to hold %q", w.text, tc.want)
			}
			if n := utf8.RuneCountInString(w.text); n > 180 || n < 120 {
				t.Errorf("window of %d code points: want 120 to 180", n)
			}
			o.wholeSentences = true
			if w, _ := bestWindow(r, answerUnits(r, Current), matcher{q: q, ix: ix}, o); strings.TrimSpace(w.text) != "Orders are kept in PostgreSQL." {
				t.Errorf("whole sentences only: window %q, want the one sentence", w.text)
			}
		})
	}
}

// TestDecisionWindowNotTwice: the best record's decision is not sent
// again when its window already holds it, whatever blank lines stand
// between the heading and its first words; a window elsewhere still
// gets it.
func TestDecisionWindowNotTwice(t *testing.T) {
	text := record(1, "1. Python version", "Accepted",
		"## Context\n\nWe set the minimum Python version to the penultimate release.",
		"## Decision\n\n\nWe support a single minor Python version at a time.\n\nNew minor versions are supported as soon as possible.",
		"## Consequences\n\nOur containers follow the latest Python release.")
	l := load(t, fstest.MapFS{name(1, "python"): {Data: []byte(text)}})
	r := l.Records[0]
	q := retrieve.Query("which python version do we support", retrieve.English)
	ix := retrieve.NewIndex([]retrieve.Doc{{ID: r.ID, Fields: []retrieve.Field{{Text: text}}}})
	m := matcher{q: q, ix: ix}
	dec, _ := r.Unit("decision")
	con, _ := r.Unit("consequences")
	svc := &Service{Log: l}
	// A window from the decision's first words to the end of the record
	// (across two sections: the record's, not a section's).
	w := window{unit: adr.Unit{ID: r.ID}, start: dec.Start + 3, end: con.End}
	if d, ok := svc.decisionWindow(r, w, m, 300); ok {
		t.Errorf("decision window %d-%d sent beside window %d-%d, which holds it", d.start, d.end, w.start, w.end)
	}
	// A window of the context alone: the decision follows it.
	ctx, _ := r.Unit("context")
	w = window{unit: ctx, start: ctx.Start + 2, end: ctx.End}
	if d, ok := svc.decisionWindow(r, w, m, 300); !ok || !strings.Contains(d.text, "single minor Python version") {
		t.Errorf("decision window %+v, %v beside the context's: want the decision", d, ok)
	}
}
