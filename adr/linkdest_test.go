package adr

import (
	"testing"
	"testing/fstest"
)

func TestUnescapeLinkDest(t *testing.T) {
	for in, want := range map[string]string{
		"0003-x.md":                   "0003-x.md",
		`0003-\[Superseded\]use-x.md`: "0003-[Superseded]use-x.md",
		`..\0003-x.md`:                `..\0003-x.md`,
		`a\\b.md`:                     `a\b.md`,
		`0004-\_private\_x.md`:        "0004-_private_x.md",
		`trailing\`:                   `trailing\`,
		`dir\sub\0005-\(draft\)-x.md`: `dir\sub\0005-(draft)-x.md`,
	} {
		if got := unescapeLinkDest(in); got != want {
			t.Errorf("unescapeLinkDest(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestEscapedLinkTarget: a link whose destination escapes brackets, as
// some editors write a file name holding them, names that file.
func TestEscapedLinkTarget(t *testing.T) {
	l, err := Load(fstest.MapFS{
		"doc/adr/0003-[Superseded]use-webflux.md": {Data: []byte("# 3. Use WebFlux\n\nDate: 2021-01-01\n\n## Status\n\nSuperseded by [16. Use MVC](0016-use-mvc.md)\n")},
		"doc/adr/0016-use-mvc.md":                 {Data: []byte("# 16. Use MVC\n\nDate: 2022-01-01\n\n## Status\n\nAccepted\n\nSupersedes [3. Use WebFlux](0003-\\[Superseded\\]use-webflux.md)\n")},
	}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := l.Resolve("16")
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range r.Relations {
		if rel.Type == Supersedes && rel.TargetID != "ADR-0003" {
			t.Errorf("Supersedes %q resolves to %q, want ADR-0003", rel.Target, rel.TargetID)
		}
	}
}
