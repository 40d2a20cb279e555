package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
)

// FuzzStdioLine feeds any line to the transport's validation: it never
// panics, and it either hands the SDK a message or writes exactly one
// JSON-RPC 2.0 error response.
func FuzzStdioLine(f *testing.F) {
	for _, s := range []string{
		initLine, `not json`, `{"jsonrpc":"1.0","id":1,"method":"x"}`, `{"jsonrpc":"2.0","id":{"a":1},"method":"x"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, `{"jsonrpc":"2.0","id":1,"method":"ping"} x`, `{"jsonrpc":"2.0","id":1}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`, `"\u0000"`, `{"jsonrpc":"2.0","id":"` + strings.Repeat("x", 70) + `","method":"ping"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var out bytes.Buffer
		c := &stdioConn{in: io.NopCloser(strings.NewReader("")), out: &out, closed: make(chan struct{}),
			pending: map[string]bool{}, cancelled: map[string]bool{}}
		c.cond = sync.NewCond(&c.mu)
		msg := c.check([]byte(line))
		if msg != nil {
			if out.Len() != 0 {
				t.Fatalf("a message passed on and an error written: %q", out.String())
			}
			return
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if len(lines) != 1 {
			t.Fatalf("%d replies to %q: %q", len(lines), line, out.String())
		}
		var reply struct {
			JSONRPC string           `json:"jsonrpc"`
			ID      json.RawMessage  `json:"id"`
			Error   *json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal([]byte(lines[0]), &reply); err != nil || reply.JSONRPC != "2.0" || reply.Error == nil || len(reply.ID) == 0 {
			t.Fatalf("reply to %q is not a JSON-RPC error: %q (%v)", line, lines[0], err)
		}
	})
}
