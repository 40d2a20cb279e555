package evidence

import (
	"errors"
	"strings"
	"testing"
)

// TestMCPWording: over MCP an answer with more gives its cursor, which
// alone continues it (no next step repeats it), and hints name the
// tool's arguments, never flags or commands.
func TestMCPWording(t *testing.T) {
	l := load(t, supersessionLog())
	svc := &Service{Log: l, CursorKey: testKey("mcp"), MCP: true}
	resp := answer(t, svc, Request{Task: "orders database", MaxUnits: 1, Format: CompactJSON})
	if resp.Cursor == nil || len(resp.Next) != 0 {
		t.Errorf("cursor %v, next %v", resp.Cursor, resp.Next)
	}
	text := &Service{Log: l, CursorKey: testKey("mcp")}
	resp = answer(t, text, Request{Task: "orders database", MaxUnits: 1, Format: Text})
	if resp.Cursor == nil || len(resp.Next) != 1 || resp.Next[0] != "git adr context --cursor "+*resp.Cursor {
		t.Errorf("text: next %v", resp.Next)
	}
	ov := answer(t, svc, Request{})
	for _, n := range ov.Overview.NextSteps {
		if strings.Contains(n, "git adr") {
			t.Errorf("overview step %q", n)
		}
	}
	for _, req := range []Request{{Task: "x", MaxChars: 10}, {ID: "ADR-0099"}, {Task: "x", Intent: "why"}, {File: "a.go"}, {Task: "x", Domain: "y"}, {Task: "!!!"}} {
		_, _, err := svc.Answer(req)
		var re *RequestError
		if !errors.As(err, &re) {
			t.Fatalf("%+v: %v", req, err)
		}
		if strings.Contains(re.Msg+re.Hint, "--") || strings.Contains(re.Hint, "git adr") {
			t.Errorf("%+v: %q / %q", req, re.Msg, re.Hint)
		}
	}
	// The command line keeps its flags.
	cli := &Service{Log: l}
	if _, _, err := cli.Answer(Request{Task: "x", MaxChars: 10}); err == nil || !strings.Contains(err.Error(), "--max-chars") {
		t.Errorf("cli: %v", err)
	}
}
