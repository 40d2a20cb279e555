package jsonadr

import (
	"bytes"
	"reflect"
	"testing"
)

// FuzzDecode: Decode never panics, and what it accepts encodes to a
// document it reads back the same.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"version":"1.0.0","adrs":[{"number":1,"title":"A","status":"Accepted","date":"2024-01-15","links":[{"type":"supersedes","target":2}]}]}`,
		`{"version":"1.0.0","adr":{"number":2,"title":"B","status":"proposed","date":"2024-01-15","consequences":{"positive":["p"]}}}`,
		`{"number":3,"title":"C","status":"accepted","date":"2024-01-15","consequences":"text","custom_sections":{"x-git-adr-body":"# 3. C\n"}}`,
		`{"version":"1.0.0","tool":{"name":"adrs","version":"0.10.1"},"repository":{"adr_directory":"doc/adr"},"adrs":[]}`,
		`{"number":1,"title":"A","status":"x","date":"d","considered_options":[{"name":"o","pros":["a"],"cons":[]}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Decode(data)
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := Encode(&b, d); err != nil {
			t.Fatalf("encode: %v", err)
		}
		d2, err := Decode(b.Bytes())
		if err != nil {
			t.Fatalf("our encoding of an accepted document is refused: %v\n%s", err, b.Bytes())
		}
		if !reflect.DeepEqual(normal(d), normal(d2)) {
			t.Fatalf("round trip changed the document:\n%#v\n%#v", d, d2)
		}
	})
}

// normal makes empty and missing lists and maps compare equal: the
// encoding leaves empty ones out.
func normal(d *Document) *Document {
	c := *d
	c.ADRs = nil
	for _, a := range d.ADRs {
		for _, l := range []*[]string{&a.Deciders, &a.Consulted, &a.Informed, &a.Tags, &a.DecisionDrivers} {
			if len(*l) == 0 {
				*l = nil
			}
		}
		if len(a.Links) == 0 {
			a.Links = nil
		}
		if len(a.CustomSections) == 0 {
			a.CustomSections = nil
		}
		var opts []Option
		for _, o := range a.ConsideredOptions {
			if len(o.Pros) == 0 {
				o.Pros = nil
			}
			if len(o.Cons) == 0 {
				o.Cons = nil
			}
			opts = append(opts, o)
		}
		a.ConsideredOptions = opts
		if a.Consequences != nil {
			cc := *a.Consequences
			for _, l := range []*[]string{&cc.Positive, &cc.Negative, &cc.Risks} {
				if len(*l) == 0 {
					*l = nil
				}
			}
			if cc.Structured && cc.Positive == nil && cc.Negative == nil && cc.Risks == nil {
				cc = Consequences{Structured: true}
			}
			a.Consequences = &cc
		}
		c.ADRs = append(c.ADRs, a)
	}
	return &c
}
