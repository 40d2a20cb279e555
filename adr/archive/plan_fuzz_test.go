package archive

import "testing"

// FuzzDecodePlan: any bytes read from an archive plan ref (which anyone
// who can push refs/adr/* may write) decode to a plan of this schema or to
// an error, never a panic; a decoded plan encodes and decodes to the same
// content.
func FuzzDecodePlan(f *testing.F) {
	p := &Plan{Schema: Schema, ID: "a-0123456789", Revision: 1, Kind: KindArchive, State: Planned, Layout: "archive/",
		Records: []Move{{From: "ADR-0001"}}, Commits: 2}
	f.Add(p.Encode())
	f.Add([]byte(`{"schema":"git-adr/archive-plan/v0","id":"a-1"}`))
	f.Add([]byte(`{"schema":"git-adr/archive-plan/v1","records":[{"from":1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodePlan(data)
		if err != nil {
			return
		}
		again, err := DecodePlan(p.Encode())
		if err != nil || again.Content() != p.Content() || again.ID != p.ID || again.Revision != p.Revision {
			t.Fatalf("round trip: %+v, %v", again, err)
		}
	})
}
