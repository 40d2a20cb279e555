package adr

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

func TestNewRecordRoot(t *testing.T) {
	fsys := fstest.MapFS{
		"docs/DECISIONS.md": {Data: []byte("# Decisions\n\n## ADR-001: A\n\nStatus: Accepted\n")},
		"doc/adr/0001-a.md": {Data: []byte("# 1. A\n\n## Status\n\nAccepted\n")},
	}
	l, err := Load(fsys, LoadOptions{Roots: []string{"docs/DECISIONS.md", "doc/adr"}})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := l.NewRecordRoot("", "new"); err != nil || r.Path != "doc/adr" {
		t.Errorf("default root = %v, %v; want the folder, not the log file", r, err)
	}
	var ue *UnknownRootError
	if _, err := l.NewRecordRoot("elsewhere", "new"); !errors.As(err, &ue) || strings.Join(ue.Roots, ",") != "docs/DECISIONS.md,doc/adr" {
		t.Errorf("unknown root = %v (%+v)", err, ue)
	}
	var se *SectionError
	if _, err := l.NewRecordRoot("docs/DECISIONS.md", "propose"); !errors.As(err, &se) || se.Op != "propose" {
		t.Errorf("a single-file log = %v, want a SectionError", err)
	}
}
