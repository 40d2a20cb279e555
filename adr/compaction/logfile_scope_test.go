package compaction

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/adr"
)

func TestLogFileScope(t *testing.T) {
	fsys := fstest.MapFS{
		"docs/DECISIONS.md": {Data: []byte("# Decisions\n\n## ADR-001: A\n\nStatus: Accepted\n\n## ADR-002: B\n\nStatus: Accepted\n")},
		"doc/adr/0001-a.md": {Data: []byte("# 1. A\n\n## Status\n\nAccepted\n")},
	}
	l, err := adr.Load(fsys, adr.LoadOptions{Roots: []string{"doc/adr", "docs/DECISIONS.md"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.LogFiles()) != 1 {
		t.Fatalf("log files: %+v", l.Roots)
	}
	files := &Analysis{Roots: []RootCount{{Path: "doc/adr", Count: 1}}}
	if se := LogFileScope(l, files, Consolidate); se != nil {
		t.Errorf("a scope of files only is refused: %v", se)
	}
	empty := &Analysis{Roots: []RootCount{{Path: "doc/adr", Count: 1}, {Path: "docs/DECISIONS.md", Count: 0}}}
	if se := LogFileScope(l, empty, Consolidate); se != nil {
		t.Errorf("a log file with no record in scope is refused: %v", se)
	}
	mixed := &Analysis{Roots: []RootCount{{Path: "doc/adr", Count: 1}, {Path: "docs/DECISIONS.md", Count: 2}}}
	se := LogFileScope(l, mixed, Summary)
	if se == nil {
		t.Fatal("a scope holding sections of a single-file log is not refused")
	}
	if msg := se.Error(); !strings.Contains(msg, "docs/DECISIONS.md") || !strings.Contains(msg, "compaction --mode summary") {
		t.Errorf("refusal = %q, want the log file and the mode named", msg)
	}
}
