package compaction

import (
	"testing"
)

// FuzzDecodePlan: any bytes read from a plan ref (which anyone who can
// push refs/adr/* may write) decode to a plan whose ID is one safe path
// element and whose mode and state are known, or to an error; never a
// panic. A decoded plan encodes and decodes to the same identity.
func FuzzDecodePlan(f *testing.F) {
	p := &Plan{Schema: SchemaVersion, ID: "s-0123456789", Mode: Summary, State: Validated, Revision: 2,
		Sources: []Source{{ID: "ADR-0001", Path: "doc/adr/0001-a.md", Blob: "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"}}}
	f.Add(p.Encode())
	f.Add([]byte(`{"schema":1,"id":"../../etc","mode":"summary","state":"planned"}`))
	f.Add([]byte(`{"schema":1,"id":"s-1","mode":"evil","state":"published"}`))
	f.Add([]byte(`{"schema":1,"id":"s-1","mode":"summary","state":"validated","revision":-3}`))
	f.Add([]byte(`{"schema":1,"id":"c-1","mode":"consolidate","state":"accepted","revision":4,"candidate_tree":"4b825dc642cb6eb9a060e54bf8d69288fbee4904"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodePlan(data)
		if err != nil {
			return
		}
		if !planIDPattern.MatchString(p.ID) {
			t.Fatalf("accepted id %q", p.ID)
		}
		again, err := DecodePlan(p.Encode())
		if err != nil || again.ID != p.ID || again.Mode != p.Mode || again.State != p.State || again.Revision != p.Revision {
			t.Fatalf("round trip: %+v, %v", again, err)
		}
	})
}
