package adr

import (
	"testing"
	"testing/fstest"
)

func TestOverlayLoadsTheFuture(t *testing.T) {
	base := fstest.MapFS{
		"doc/adr/0001-a.md": {Data: []byte("# 1. A\n\n## Status\n\nAccepted\n")},
		"doc/adr/0002-b.md": {Data: []byte("# 2. B\n\n## Status\n\nAccepted\n")},
	}
	l, err := Load(base, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ov := &Overlay{Base: base, Files: map[string][]byte{
		"doc/adr/0003-c.md":         []byte("# 3. C\n\n## Status\n\nAccepted\n"),
		"doc/adr/0002-b.md":         nil,
		"doc/adr/0001-a.md":         nil,
		"doc/adr/archive/0001-a.md": []byte("# 1. A\n\n## Status\n\nSuperseded\n"),
	}}
	f, err := l.Reload(ov)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range f.Records {
		s := r.ID
		if r.Archived {
			s += " (archived)"
		}
		got = append(got, s)
	}
	if len(got) != 2 || got[0] != "ADR-0001 (archived)" || got[1] != "ADR-0003" {
		t.Errorf("future log = %v, want [ADR-0001 (archived) ADR-0003]", got)
	}
	if f.ByPath("doc/adr/0002-b.md") != nil {
		t.Error("a hidden file is still a record")
	}
}
