package adr

import (
	"testing"
	"testing/fstest"
)

func TestRootInfos(t *testing.T) {
	fsys := fstest.MapFS{
		"doc/adr/0001-a.md":         {Data: []byte("# 1. A\n\n## Status\n\nAccepted\n")},
		"doc/adr/0002-b.md":         {Data: []byte("# 2. B\n\n## Status\n\nAccepted\n")},
		"doc/adr/archive/0003-c.md": {Data: []byte("# 3. C\n\n## Status\n\nSuperseded\n")},
		"doc/adr/README.md":         {Data: []byte("# Decisions\n")},
	}
	l, err := Load(fsys, LoadOptions{Roots: []string{"doc/adr"}})
	if err != nil {
		t.Fatal(err)
	}
	quiet := l.RootInfos(false)
	if len(quiet) != 1 || quiet[0].Path != "doc/adr" || quiet[0].Records != 2 || quiet[0].Archived != 1 || quiet[0].Digits != 4 || quiet[0].Skipped != nil {
		t.Fatalf("RootInfos(false) = %+v", quiet)
	}
	verbose := l.RootInfos(true)
	found := false
	for _, s := range verbose[0].Skipped {
		found = found || s.Path == "doc/adr/README.md"
	}
	if !found {
		t.Errorf("RootInfos(true) does not list README.md as skipped: %+v", verbose[0].Skipped)
	}
}
