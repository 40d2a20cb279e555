package evidence

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io/fs"
	"strings"
	"unicode/utf8"
)

// A cursor continues an answer: it carries the request, where the next page
// starts and the log it was issued for, signed with the repository's key so
// that only cursors this repository issued are honoured. The format is
// documented in docs/commands/context.md:
//
//	cursor  = base64url(payload) "." base64url(mac)
//	mac     = first 16 bytes of HMAC-SHA256(key, "git-adr cursor\x00" || payload)
//	payload = version (1 byte: 2)
//	          fingerprint (8 bytes: the start of the log's fingerprint)
//	          pos, part (signed varints: the item and part the page starts at)
//	          intent (1 byte: 0 current, 1 rationale, 2 history)
//	          max_units, max_chars (signed varints)
//	          id, domain, iteration, task, file (each a uvarint length, then UTF-8)
//
// Base64 is unpadded, URL-safe. The encoding is canonical: a payload that
// does not re-encode to the same bytes is refused.
type cursorState struct {
	fingerprint [cursorFPSize]byte
	req         Request
	pos, part   int
}

const (
	cursorVersion = 3
	cursorFPSize  = 8
	cursorMACSize = 16
	// maxCursorChars bounds what is decoded at all: two request strings of
	// maxRequestChars code points and the fields fit well within it.
	maxCursorChars = 16 << 10
	cursorDomain   = "git-adr cursor\x00"
)

var cursorIntents = []Intent{Current, Rationale, History}

// restartHint is what every cursor error tells the caller.
const restartHint = "repeat the request without the cursor to start again"

func cursorMAC(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(cursorDomain))
	m.Write(payload)
	return m.Sum(nil)[:cursorMACSize]
}

// encodePayload writes the payload of c; its request must carry an intent
// from cursorIntents.
func encodePayload(c cursorState) []byte {
	b := []byte{cursorVersion}
	b = append(b, c.fingerprint[:]...)
	b = binary.AppendVarint(b, int64(c.pos))
	b = binary.AppendVarint(b, int64(c.part))
	intent := byte(len(cursorIntents))
	for i, in := range cursorIntents {
		if in == c.req.Intent {
			intent = byte(i)
		}
	}
	b = append(b, intent)
	b = binary.AppendVarint(b, int64(c.req.MaxUnits))
	b = binary.AppendVarint(b, int64(c.req.MaxChars))
	for _, s := range []string{c.req.ID, c.req.Domain, c.req.Iteration, c.req.Task, c.req.File, strings.Join(c.req.Paths, "\n")} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

func signCursor(key, payload []byte) string {
	enc := base64.RawURLEncoding
	return enc.EncodeToString(payload) + "." + enc.EncodeToString(cursorMAC(key, payload))
}

// errCursorForged means a cursor's MAC does not verify.
var errCursorForged = errors.New("cursor does not verify")

// verifyCursor checks a cursor's MAC in constant time and returns its
// payload. It fails with a *RequestError for anything that is not a cursor
// and with errCursorForged for a cursor this key did not sign.
func verifyCursor(key []byte, raw string) ([]byte, error) {
	malformed := badRequest(restartHint, "malformed cursor %q", clip(raw, 20))
	raw = strings.TrimSpace(raw)
	if len(raw) > maxCursorChars {
		return nil, malformed
	}
	p, m, ok := strings.Cut(raw, ".")
	if !ok {
		return nil, malformed
	}
	enc := base64.RawURLEncoding.Strict()
	payload, err1 := enc.DecodeString(p)
	mac, err2 := enc.DecodeString(m)
	if err1 != nil || err2 != nil || len(mac) != cursorMACSize || len(payload) == 0 {
		return nil, malformed
	}
	if !hmac.Equal(mac, cursorMAC(key, payload)) {
		return nil, errCursorForged
	}
	return payload, nil
}

// decodePayload reads a verified payload and checks every field against the
// limits a request has on the command line. A payload is trusted only as far
// as its MAC goes: a key that leaked, or a bug, must not take the service
// outside its bounds.
func decodePayload(payload []byte) (cursorState, error) {
	var c cursorState
	bad := func(format string, args ...any) (cursorState, error) {
		return cursorState{}, badRequest(restartHint, "invalid cursor: "+format, args...)
	}
	rest := payload
	if len(rest) < 1+cursorFPSize {
		return bad("%d bytes is too short", len(payload))
	}
	if rest[0] != cursorVersion {
		return bad("version %d is not %d (issued by another version of git-adr?)", rest[0], cursorVersion)
	}
	copy(c.fingerprint[:], rest[1:1+cursorFPSize])
	rest = rest[1+cursorFPSize:]
	varint := func() (int64, bool) {
		v, n := binary.Varint(rest)
		if n <= 0 {
			return 0, false
		}
		rest = rest[n:]
		return v, true
	}
	pos, ok1 := varint()
	part, ok2 := varint()
	if !ok1 || !ok2 {
		return bad("truncated position")
	}
	if len(rest) == 0 {
		return bad("truncated intent")
	}
	intent := int(rest[0])
	rest = rest[1:]
	units, ok1 := varint()
	chars, ok2 := varint()
	if !ok1 || !ok2 {
		return bad("truncated budget")
	}
	var strs [6]string
	for i := range strs {
		n, k := binary.Uvarint(rest)
		if k <= 0 || n > uint64(len(rest)-k) {
			return bad("truncated request")
		}
		strs[i] = string(rest[k : k+int(n)])
		rest = rest[k+int(n):]
		if !utf8.ValidString(strs[i]) {
			return bad("the request is not UTF-8")
		}
	}
	if len(rest) > 0 {
		return bad("%d bytes after the request", len(rest))
	}
	switch {
	case pos < 0 || pos > maxCursorPos:
		return bad("position %d is out of range", pos)
	case part < 0 || part > maxCursorPos:
		return bad("part %d is out of range", part)
	case intent >= len(cursorIntents):
		return bad("unknown intent %d", intent)
	case units < 1 || units > MaxUnitsLimit:
		return bad("max_units %d is out of range (1 to %d)", units, MaxUnitsLimit)
	case chars < MinCharsLimit || chars > MaxCharsLimit:
		return bad("max_chars %d is out of range (%d to %d)", chars, MinCharsLimit, MaxCharsLimit)
	}
	c.pos, c.part = int(pos), int(part)
	var paths []string
	if strs[5] != "" {
		paths = strings.Split(strs[5], "\n")
	}
	c.req = Request{ID: strs[0], Domain: strs[1], Iteration: strs[2], Task: strs[3], File: strs[4], Paths: paths,
		Intent: cursorIntents[intent], MaxUnits: int(units), MaxChars: int(chars)}
	if err := c.req.validate(words{}); err != nil {
		var re *RequestError
		if errors.As(err, &re) {
			return bad("%s", re.Msg)
		}
		return cursorState{}, err
	}
	if !bytes.Equal(encodePayload(c), payload) {
		return bad("not in canonical form")
	}
	return c, nil
}

// maxCursorPos bounds positions before the plan is known; the plan then
// bounds them exactly.
const maxCursorPos = 1 << 20

// key returns the cursor key, made on first use when create is set.
func (s *Service) key(create bool) ([]byte, error) {
	if s.cursorKey != nil {
		return s.cursorKey, nil
	}
	if s.CursorKey == nil {
		return nil, errors.New("cursors are not available here")
	}
	key, err := s.CursorKey(create)
	if err == nil {
		s.cursorKey = key
	}
	return key, err
}

// mintCursor signs a cursor that continues req at item pos, part part.
func (s *Service) mintCursor(req Request, pos, part int) (string, error) {
	key, err := s.key(true)
	if err != nil {
		return "", err
	}
	c := cursorState{req: req, pos: pos, part: part}
	c.fingerprint = s.fingerprintPrefix()
	return signCursor(key, encodePayload(c)), nil
}

func (s *Service) fingerprintPrefix() [cursorFPSize]byte {
	var fp [cursorFPSize]byte
	b, _ := hex.DecodeString(s.Fingerprint()[:2*cursorFPSize])
	copy(fp[:], b)
	return fp
}

// decodeCursor verifies a cursor, checks its fields and that it belongs to
// the log as it is now.
func (s *Service) decodeCursor(raw string) (cursorState, error) {
	key, err := s.key(false)
	noKey := errors.Is(err, fs.ErrNotExist)
	if err != nil && !noKey {
		return cursorState{}, err
	}
	payload, err := verifyCursor(key, raw)
	if noKey && err == nil {
		// This repository has no key, so it never issued a cursor.
		err = errCursorForged
	}
	if errors.Is(err, errCursorForged) {
		return cursorState{}, badRequest(restartHint, "cursor %q was not issued by this repository, or was changed", clip(raw, 20))
	}
	if err != nil {
		return cursorState{}, err
	}
	c, err := decodePayload(payload)
	if err != nil {
		return c, err
	}
	if c.fingerprint != s.fingerprintPrefix() {
		return c, badRequest(restartHint, "stale cursor: the decision log changed since the cursor was issued")
	}
	return c, nil
}

func clip(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n]) + "…"
}

// nextCommand is the command that continues an answer: the cursor
// carries the request, so the command is the cursor alone (with the
// answer's format), whatever the request was and wherever it is run in
// the repository.
func (s *Service) nextCommand(req Request, cursor string) string {
	if s.MCP {
		return s.words().call(ToolName, map[string]any{"cursor": cursor}, "")
	}
	cmd := "git adr context"
	switch req.Format {
	case JSON:
		cmd += " --json"
	case PrettyJSON:
		cmd += " --json --pretty"
	}
	return cmd + " --cursor " + cursor
}
