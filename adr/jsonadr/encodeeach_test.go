package jsonadr

import (
	"bytes"
	"testing"
)

// TestEncodeEachAsEncode: a document written one ADR at a time is the
// bytes Encode writes of it whole, with no ADR, one or several, an
// envelope with and without its optional parts, and strings that JSON
// could escape (HTML, quotes, new lines, other scripts).
func TestEncodeEachAsEncode(t *testing.T) {
	adrs := []ADR{
		{Number: 1, Title: `Use <b>"Kafka"</b> & friends`, Status: "accepted", Date: "2026-01-02", Tags: []string{"a", "b"},
			Context: "line one\nline two\t→ ünïcode 中文", Links: []Link{{Type: "supersedes", Target: 2, Description: "x"}},
			Consequences: &Consequences{List: []string{"c1", "c2"}}, CustomSections: map[string]string{KeyID: "ADR-0001", KeyBody: "# 1. Use Kafka\n\n<!-- c -->\n"},
			ConsideredOptions: []Option{{Name: "a", Pros: []string{"p"}}}, Path: "doc/adr/0001-use-kafka.md"},
		{Number: 2, Title: "Second", Status: "proposed", Date: "2026-01-03"},
		{Number: 3, Title: "", Status: "", Date: ""},
	}
	for _, d := range []*Document{
		{Schema: SchemaURL, Version: Version, Tool: &Tool{Name: "git-adr", Version: "v1"}, Repository: &Repository{ADRDirectory: "doc/adr"}},
		{Version: Version},
	} {
		for n := 0; n <= len(adrs); n++ {
			whole := *d
			whole.ADRs = adrs[:n]
			if n == 0 {
				whole.ADRs = nil // Encode writes [] for none
			}
			var want, got bytes.Buffer
			if err := Encode(&want, &whole); err != nil {
				t.Fatal(err)
			}
			if err := EncodeEach(&got, d, n, func(i int) ADR { return adrs[i] }); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Fatalf("%d ADRs one at a time:\n%s\nwhole:\n%s", n, got.String(), want.String())
			}
		}
	}
}
