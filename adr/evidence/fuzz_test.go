package evidence

import (
	"bytes"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/internal/cachefile"
	"github.com/git-adr/git-adr/internal/jsoncost"
)

// A cursor is untrusted input: decoding never panics and only a cursor the
// service issued for this log decodes.
func FuzzDecodeCursor(f *testing.F) {
	svc, good := fuzzCursorService(f)
	for _, s := range []string{good, "", ".", "abc.def", good + "x", good[:len(good)-1], "eyJ2IjoxfQ.000000000000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := svc.decodeCursor(s)
		if err == nil && c.fingerprint != svc.fingerprintPrefix() {
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
		checkBudget(t, c.req, resp, out)
	})
}

// FuzzCursorPayload fuzzes what the MAC protects: the harness signs each
// payload with the service's key, so the fuzzer reaches field validation.
// No payload panics; one that is accepted is within the limits of a
// request, re-encodes to itself, and is answered within its budget.
func FuzzCursorPayload(f *testing.F) {
	svc, _ := fuzzCursorService(f)
	key, _ := svc.key(false)
	fp := svc.fingerprintPrefix()
	for _, c := range []cursorState{
		{fingerprint: fp, req: Request{ID: "1", Intent: Current, MaxUnits: 8, MaxChars: 12000}},
		{fingerprint: fp, req: Request{Task: "cache the orders", File: "a.go", Intent: Rationale, MaxUnits: 1, MaxChars: 2000}, pos: 1},
		{fingerprint: fp, req: Request{Domain: "d", Intent: History, MaxUnits: 100, MaxChars: 1000000}, part: 2},
		{fingerprint: fp, req: Request{Intent: Current, MaxUnits: 39, MaxChars: 23660}, pos: -5},
	} {
		f.Add(encodePayload(c))
	}
	f.Add([]byte{cursorVersion})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, payload []byte) {
		cur := signCursor(key, payload)
		c, err := svc.decodeCursor(cur)
		if err != nil {
			if !isRequestError(err) {
				t.Fatalf("payload %x: %v", payload, err)
			}
		} else {
			r := c.req
			if c.pos < 0 || c.part < 0 || r.MaxUnits < 1 || r.MaxUnits > MaxUnitsLimit || r.MaxChars < MinCharsLimit || r.MaxChars > MaxCharsLimit {
				t.Fatalf("payload %x accepted out of range: %+v", payload, c)
			}
			if r.Intent != Current && r.Intent != Rationale && r.Intent != History {
				t.Fatalf("payload %x accepted intent %q", payload, r.Intent)
			}
			if !bytes.Equal(encodePayload(c), payload) {
				t.Fatalf("payload %x accepted but re-encodes as %x", payload, encodePayload(c))
			}
		}
		resp, out, err := svc.Answer(Request{Cursor: cur})
		if err != nil {
			if !isRequestError(err) {
				t.Fatalf("payload %x: %v", payload, err)
			}
			return
		}
		checkBudget(t, c.req, resp, out)
	})
}

// fuzzCursorService is a small log with a keyed service and one cursor it
// issued.
func fuzzCursorService(f *testing.F) (*Service, string) {
	fsys := fstest.MapFS{
		name(1, "a"): {Data: []byte(nygard(1, "A", "Accepted", "a"))},
		name(2, "b"): {Data: []byte(nygard(2, "B", "Accepted", "b"))},
	}
	l, err := loadFS(fsys)
	if err != nil {
		f.Fatal(err)
	}
	svc := &Service{Log: l, CursorKey: testKey("r")}
	good, err := svc.mintCursor(Request{ID: "1", Intent: Current, MaxUnits: 8, MaxChars: 12000}, 0, 0)
	if err != nil {
		f.Fatal(err)
	}
	return svc, good
}

// The term cache is read from disk: corrupt files are rejected, never
// trusted, never a panic; what was encoded decodes the same. The fuzzer
// writes the body; the harness seals it with its checksum, so that the
// decoder past the checksum is what gets explored (an unsealed input is
// tried too: it must be refused).
func FuzzDecodeCache(f *testing.F) {
	enc := encodeCache(cacheOf("cache orders"))
	f.Add(enc[:len(enc)-4])
	f.Add([]byte(cacheFormat))
	f.Add([]byte("junk"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, _, err := decodeCache(data); err == nil && len(data) >= 4 {
			if _, _, err := decodeCache(cachefile.Seal(data[:len(data)-4])); err != nil {
				t.Fatal("an input accepted as sealed does not carry its checksum")
			}
		}
		vocab, entries, err := decodeCache(cachefile.Seal(append([]byte(nil), data...)))
		if err != nil {
			return
		}
		backVocab, back, err := decodeCache(encodeCache(vocab, entries))
		if err != nil || !reflect.DeepEqual(cacheTerms(backVocab, back), cacheTerms(vocab, entries)) {
			t.Fatalf("re-encoded cache does not decode the same: %v", err)
		}
	})
}

// TestTermCacheDamaged: a term cache with any byte changed, or cut short,
// is refused as a whole.
func TestTermCacheDamaged(t *testing.T) {
	good := encodeCache(cacheOf("cache orders in front of the payments API"))
	if _, _, err := decodeCache(good); err != nil {
		t.Fatal(err)
	}
	for i := range good {
		bad := append([]byte(nil), good...)
		bad[i] ^= 0x04
		if _, _, err := decodeCache(bad); err == nil {
			t.Errorf("a flipped bit at byte %d of %d was trusted", i, len(good))
		}
	}
	for n := 0; n < len(good); n++ {
		if _, _, err := decodeCache(good[:n]); err == nil {
			t.Errorf("the first %d of %d bytes were trusted", n, len(good))
		}
	}
}

// FuzzSentCostAgrees: a unit part's cost as sent, counted rune by rune
// (sentCost, which splitUnit bounds), is what the message's encoding
// makes of it: the text escaped twice (jsoncost.String at depth 2).
func FuzzSentCostAgrees(f *testing.F) {
	for _, s := range []string{"", "plain prose", `"quoted" \back\slash`, "tab\tnew\nline\r", "\x01\x1f\x7f", "<>&", "\u2028\u2029", "é中😀", "\xff\xfe bad", "\uFFFD"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := sentCost(s), jsoncost.String(s, 2); got != want {
			t.Fatalf("sentCost(%q) = %d, jsoncost.String = %d", s, got, want)
		}
	})
}
