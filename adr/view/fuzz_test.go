package view

import (
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/adr"
)

// A manifest is untrusted input read on every context request: decoding
// never panics, and whatever decodes is checked as a pair without
// panicking either.
func FuzzDecodeManifest(f *testing.F) {
	fsys := baseFS()
	m := publish(f, fsys, NewSelection("storage", nil), "doc/adr/0002-log-json.md")
	good := m.Encode()
	for _, s := range [][]byte{good, good[:len(good)/2], []byte(`{"schema": "git-adr/current-sources/v9"}`), []byte(`{}`), []byte(`[]`), []byte(`null`),
		[]byte(`{"schema": "git-adr/current-sources/v1", "selection": {"mode": "sources", "rule": "unarchived", "sources": ["x"]}, "summary": {"path": "doc/adr/CURRENT.md", "sha256": "0000000000000000000000000000000000000000000000000000000000000000"}}`)} {
		f.Add(s)
	}
	cur := fsys["doc/adr/CURRENT.md"].Data
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeManifest(data)
		if err != nil {
			return
		}
		if m.Schema != Schema || m.Selection.Rule != RuleUnarchived {
			t.Fatalf("decoded %+v", m)
		}
		fs := baseFS()
		fs["doc/adr/CURRENT.md"] = &fstest.MapFile{Data: cur}
		fs["doc/adr/CURRENT.sources.json"] = &fstest.MapFile{Data: data}
		l := load(t, fs)
		f := Check(l, l.Roots[0])
		if f.State != Fresh && len(f.Reasons) == 0 && f.State != Missing {
			t.Fatalf("%s without a reason", f.State)
		}
	})
}

// Sections accepts any text: line ranges stay inside the document and in
// order.
func FuzzSections(f *testing.F) {
	fsys := baseFS()
	publish(f, fsys, NewSelection("", nil))
	f.Add(fsys["doc/adr/CURRENT.md"].Data)
	f.Add([]byte("## Effective constraints\n\n### A\n\n```\n## B\n```\n### C\r\n- x ([a](../b.md#c))\n"))
	f.Add([]byte("## Coverage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		last, lines := 0, len(adr.NewText(data).Lines)
		for _, s := range Sections("doc/adr/CURRENT.md", data) {
			if s.Start < 1 || s.End < s.Start || s.End > lines || s.Start <= last {
				t.Fatalf("section %+v after line %d", s, last)
			}
			last = s.Start
		}
	})
}
