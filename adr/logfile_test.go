package adr

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

func TestSplitLog(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []LogSection // Heading, End, Level, Number, Digits
	}{
		{
			name: "colon, bullets, a thematic break between",
			src:  "# Decisions\n\nIntro.\n\n## ADR-001: A\n\n- **Status:** Accepted\n\n---\n\n## ADR-002: B\n\nText.\n\n",
			want: []LogSection{{4, 7, 2, 1, "001"}, {10, 13, 2, 2, "002"}},
		},
		{
			name: "em dash, French",
			src:  "# Décisions\n\n## ADR-0001 — Un\n\n* **Contexte** : x\n\n## ADR-0016 — Deux (remplace ADR-0001)\n",
			want: []LogSection{{2, 5, 2, 1, "0001"}, {6, 7, 2, 16, "0016"}},
		},
		{
			name: "ADR N. under group headings; a non-decision heading ends a section",
			src:  "# Log\n\n## Accepted\n\n### ADR 3. A\n\n#### Status\n\nAccepted\n\n## Proposed\n\n### ADR 4. B\n\n## Appendix\n\nNot a decision.\n",
			want: []LogSection{{4, 9, 3, 3, "3"}, {12, 13, 3, 4, "4"}},
		},
		{
			name: "Decision N: and a decision heading inside a decision is part of it",
			src:  "## Decision 4: A\n\n### Decision 5: nested\n\n## Decision 6: B\n",
			want: []LogSection{{0, 3, 2, 4, "4"}, {4, 5, 2, 6, "6"}},
		},
		{
			name: "bare numbers under a title that says decisions",
			src:  "# Decision log\n\n## 1. A\n\n### 1. Context\n\n## 2. B\n",
			want: []LogSection{{2, 5, 2, 1, "1"}, {6, 7, 2, 2, "2"}},
		},
		{
			name: "bare numbers under another title are not decisions",
			src:  "# Release notes\n\n## 1. A\n\n## 2. B\n",
		},
		{
			name: "one decision is not a log",
			src:  "# Decisions\n\n## ADR-1: A\n",
		},
		{
			name: "headings in code are not decisions; Decision without a separator is a title",
			src:  "# Decisions\n\n```\n## ADR-1: A\n## ADR-2: B\n```\n\n## Decision 3 ways to cache\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SplitLog(NewText([]byte(tt.src)))
			if len(got) != len(tt.want) {
				t.Fatalf("SplitLog = %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("section %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestParseSection(t *testing.T) {
	src := "---\nstatus: rejected\n---\n# Decisions\n\n## ADR-001: Plugins talk JSON\n\n- **Date:** 2026-03-02\n- **Status:** Superseded by ADR-002\n- **Context:** many languages.\n- **Decision:** JSON on stdin.\n  Answers on stdout.\n- **Consequences:** a JSON library.\n\n## ADR-002: Plugins talk gRPC (partially replaces ADR-001)\n\n### Status\n\nAccepted\n\n### Decision\n\ngRPC.\n"
	base := NewText([]byte(src))
	secs := SplitLog(base)
	if len(secs) != 2 {
		t.Fatalf("sections: %+v", secs)
	}
	a := ParseSection(base, secs[0])
	if a.Title != "Plugins talk JSON" || a.Status != Superseded || a.Date != "2026-03-02" || a.Number != 1 {
		t.Errorf("first: title %q status %s date %q number %d", a.Title, a.Status, a.Date, a.Number)
	}
	if len(a.Relations) != 1 || a.Relations[0].Type != SupersededBy || a.Relations[0].Target != "ADR-002" || a.Relations[0].Line != 9 {
		t.Errorf("first relations: %+v", a.Relations)
	}
	var anchors []string
	for _, u := range a.Units() {
		anchors = append(anchors, fmt.Sprintf("%s:%d-%d", u.Anchor, u.Start, u.End))
	}
	if got := strings.Join(anchors, " "); got != "context:10-10 decision:11-12 consequences:13-13" {
		t.Errorf("first units: %s", got)
	}
	if got := string(a.Content()); !strings.HasPrefix(got, "## ADR-001: Plugins talk JSON\n") || strings.Contains(got, "ADR-002:") || strings.Contains(got, "status: rejected") {
		t.Errorf("first content: %q", got)
	}
	if from, to := a.LineRange(); from != 6 || to != 13 {
		t.Errorf("first lines %d-%d", from, to)
	}
	// The whole file stays the record's text, so an edit is a splice of it.
	if !bytes.Equal(a.Text().Src, []byte(src)) {
		t.Error("the section's text is not the file")
	}
	b := ParseSection(base, secs[1])
	if b.Status != Accepted || b.StatusField.Line != 18 {
		t.Errorf("second: status %s at %d", b.Status, b.StatusField.Line)
	}
	if len(b.Relations) != 1 || b.Relations[0].Type != Amends || b.Relations[0].Target != "ADR-001" {
		t.Errorf("second relations: %+v", b.Relations)
	}
	if u, ok := b.Unit("decision"); !ok || u.Start != 21 || u.End != 23 {
		t.Errorf("second decision unit: %+v", u)
	}
}

func TestLoadLogFile(t *testing.T) {
	fsys := fstest.MapFS{
		"docs/DECISIONS.md": {Data: []byte("# Decisions\n\n## ADR-001: A\n\nStatus: Accepted\n\n## ADR-002: B\n\nStatus: Superseded by [A](DECISIONS.md#adr-001-a)\n")},
		"docs/notes.md":     {Data: []byte("# Notes\n")},
	}
	l, err := Load(fsys, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Roots) != 1 || !l.Roots[0].File || l.Roots[0].Path != "docs/DECISIONS.md" || l.Roots[0].Digits != 3 {
		t.Fatalf("roots: %+v", l.Roots)
	}
	if len(l.Records) != 2 || l.Records[1].ID != "ADR-002" {
		t.Fatalf("records: %d", len(l.Records))
	}
	if got := l.Records[1].Relations[0].TargetID; got != "ADR-001" {
		t.Errorf("a link to a heading anchor resolves to %q", got)
	}
	if l.ByPath("docs/DECISIONS.md") != nil {
		t.Error("the log's path names one section")
	}
	if r, err := l.Resolve("docs/DECISIONS.md:7"); err != nil || r.ID != "ADR-002" {
		t.Errorf("Resolve(path:line) = %v, %v", r, err)
	}
	if err := Writable(l.Records[0], "decide"); err == nil {
		t.Error("a section is writable")
	}
	if _, _, err := l.Decide(l.Records[0], Deprecated, "old"); err == nil {
		t.Error("Decide edited a section")
	}
}

func TestIsLogFileName(t *testing.T) {
	for name, want := range map[string]bool{
		"DECISIONS.md": true, "decisions.markdown": true, "Decision-Log.md": true, "ADR.md": true,
		"adrs.MD": true, "ARCHITECTURE_DECISIONS.md": true, "decision_log.md": true,
		"decisions.log.md": true, "decisions-log.md": true, "adr.log.md": true, "changes.log.md": false,
		"README.md": false, "decisions.txt": false, "0001-decisions.md": false, "decisions": false,
	} {
		if got := IsLogFileName(name); got != want {
			t.Errorf("IsLogFileName(%q) = %v", name, got)
		}
	}
}

func FuzzSplitLog(f *testing.F) {
	for _, s := range []string{
		"# Decisions\n\n## ADR-001: A\n\n- **Status:** Accepted\n\n## ADR-002: B\n",
		"# Décisions\n\n## ADR-0001 — Un\n\n* **Contexte** : x\n\n## ADR-0016 — Deux (remplace en partie ADR-0001)\n",
		"# Decision log\n\n## 1. A\n\n### Status\n\nAccepted\n\n## 2. B\r\n\r\nStatus: Superseded by ADR-1\r\n",
		"## Decision 4: A\n```\n## Decision 5: B\n## Decision 6: C\n",
		"### ADR 3. A\n---\n### ADR 4. B\n<!--\n### ADR 5. C\n-->",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		base := NewText(data)
		secs := SplitLog(base)
		last := -1
		for _, s := range secs {
			if s.Heading <= last || s.End <= s.Heading || s.End > len(base.Lines) {
				t.Fatalf("section %+v after line %d of %d", s, last, len(base.Lines))
			}
			last = s.End - 1
			r := ParseSection(base, s)
			if !bytes.Equal(r.Text().Src, data) {
				t.Fatal("the section's text is not the file")
			}
			if c := r.Content(); !bytes.Contains(data, c) {
				t.Fatal("content is not part of the file")
			}
			for _, u := range r.Units() {
				if u.Start < s.Heading+1 || u.End > s.End || u.Start > u.End+1 {
					t.Fatalf("unit %+v outside section %+v", u, s)
				}
			}
			if f := r.StatusField; f.Kind != FieldNone && (f.Line < s.Heading || f.Line >= s.End) {
				t.Fatalf("status field %+v outside section %+v", f, s)
			}
		}
	})
}
