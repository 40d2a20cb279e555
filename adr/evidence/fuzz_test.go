package evidence

import (
	"bytes"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/navigate/retrieve"
)

// A cursor is untrusted input: decoding never panics and only a cursor the
// service issued for this log decodes.
func FuzzDecodeCursor(f *testing.F) {
	fsys := fstest.MapFS{name(1, "a"): {Data: []byte(nygard(1, "A", "Accepted", "a"))}}
	l, err := loadFS(fsys)
	if err != nil {
		f.Fatal(err)
	}
	svc := &Service{Log: l, RepoID: "r"}
	good := encodeCursor(cursorState{V: cursorVersion, Fingerprint: svc.Fingerprint()[:16], Repo: repoTag("r"), Req: Request{ID: "1"}})
	for _, s := range []string{good, "", ".", "abc.def", good + "x", "eyJ2IjoxfQ.000000000000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := svc.decodeCursor(s)
		if err == nil && c.Fingerprint != svc.Fingerprint()[:16] {
			t.Fatalf("decoded a cursor for another log: %+v", c)
		}
		// Answering from any cursor either works within budget or fails
		// as a bad request.
		resp, out, err := svc.Answer(Request{Cursor: s})
		if err != nil {
			if !isRequestError(err) {
				t.Fatalf("cursor %q: %v", s, err)
			}
			return
		}
		checkBudget(t, c.Req, resp, out)
	})
}

// The term cache is read from disk: corrupt files are rejected, never
// trusted, never a panic; what was encoded decodes the same.
func FuzzDecodeCache(f *testing.F) {
	var buf bytes.Buffer
	encodeCache(&buf, map[cacheKey]cachedDoc{{1}: {body: retrieve.Analyze(retrieve.Doc{Fields: []retrieve.Field{{Text: "cache orders"}}})}})
	f.Add(buf.Bytes())
	f.Add([]byte(cacheFormat))
	f.Add([]byte("junk"))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := decodeCache(data)
		if err != nil {
			return
		}
		var again bytes.Buffer
		if err := encodeCache(&again, entries); err != nil {
			t.Fatal(err)
		}
		back, err := decodeCache(again.Bytes())
		if err != nil || len(back) != len(entries) {
			t.Fatalf("re-encoded cache does not decode: %v", err)
		}
	})
}
