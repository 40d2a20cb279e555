package evidence

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
)

// cursorState is what a cursor carries: the request it continues, where
// the next page starts, and what it is bound to.
type cursorState struct {
	V           int     `json:"v"`
	Fingerprint string  `json:"fp"`
	Repo        string  `json:"repo"`
	Req         Request `json:"req"`
	Pos         int     `json:"pos"`
	Part        int     `json:"part"`
	Before      int     `json:"before"`
}

const cursorVersion = 1

func cursorSum(payload string) string {
	h := sha256.Sum256([]byte("git-adr cursor\x00" + payload))
	return hex.EncodeToString(h[:6])
}

func encodeCursor(c cursorState) string {
	data, _ := json.Marshal(c)
	p := base64.RawURLEncoding.EncodeToString(data)
	return p + "." + cursorSum(p)
}

// restartHint is what every cursor error tells the caller.
const restartHint = "repeat the request without the cursor to start again"

func (s *Service) decodeCursor(raw string) (cursorState, error) {
	var c cursorState
	p, sum, ok := strings.Cut(strings.TrimSpace(raw), ".")
	if !ok || cursorSum(p) != sum {
		return c, badRequest(restartHint, "malformed cursor %q", clip(raw, 40))
	}
	data, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil || json.Unmarshal(data, &c) != nil || c.V != cursorVersion {
		return c, badRequest(restartHint, "malformed cursor %q", clip(raw, 40))
	}
	if c.Repo != repoTag(s.RepoID) {
		return c, badRequest(restartHint, "the cursor belongs to another repository")
	}
	if c.Fingerprint != s.Fingerprint()[:16] {
		return c, badRequest(restartHint, "stale cursor: the decision log changed since the cursor was issued")
	}
	return c, nil
}

func repoTag(id string) string {
	h := sha256.Sum256([]byte(id))
	return hex.EncodeToString(h[:4])
}

func clip(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n]) + "…"
}
