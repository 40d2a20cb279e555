package hooks

import (
	"strings"
	"testing"
)

// Outside a repository the guard is off: it answers a call, even one it
// cannot decode, by letting it run; an event that is not a call about to
// run gets no answer.
func TestGuardCall(t *testing.T) {
	dir := t.TempDir()
	a, ok := GuardCall(Generic, strings.NewReader(`{"tool":"shell","command":"ls"}`), dir)
	if !ok || a.Code != 0 {
		t.Errorf("GuardCall outside a repository = %+v, %v; want an answer that lets the call run", a, ok)
	}
	a, ok = GuardCall(Claude, strings.NewReader("not json"), dir)
	if !ok || a.Code != 0 {
		t.Errorf("GuardCall of bad input outside a repository = %+v, %v; want an answer that lets it run", a, ok)
	}
	if _, ok := GuardCall(Claude, strings.NewReader(`{"hook_event_name":"PostToolUse","tool_name":"Read","tool_input":{},"cwd":"`+strings.ReplaceAll(dir, `\`, `\\`)+`"}`), dir); ok {
		t.Error("GuardCall answered an event that is not a call about to run")
	}
}

// A panic while the input is read is refused like one while it is
// judged: the guard never fails open.
func TestGuardCallPanicReading(t *testing.T) {
	a, ok := GuardCall(Claude, panicReader{}, t.TempDir())
	if !ok || !strings.Contains(string(a.Stdout), `"permissionDecision":"deny"`) || !strings.Contains(string(a.Stdout), "internal error: boom") {
		t.Errorf("GuardCall with a reader that panics = %+v, %v; want a refusal naming the panic", a, ok)
	}
}

type panicReader struct{}

func (panicReader) Read([]byte) (int, error) { panic("boom") }
