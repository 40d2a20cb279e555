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
	a, ok := GuardCall(Generic, []byte(`{"tool":"shell","command":"ls"}`), nil, dir)
	if !ok || a.Code != 0 {
		t.Errorf("GuardCall outside a repository = %+v, %v; want an answer that lets the call run", a, ok)
	}
	a, ok = GuardCall(Claude, []byte("not json"), nil, dir)
	if !ok || a.Code != 0 {
		t.Errorf("GuardCall of bad input outside a repository = %+v, %v; want an answer that lets it run", a, ok)
	}
	if _, ok := GuardCall(Claude, []byte(`{"hook_event_name":"PostToolUse","tool_name":"Read","tool_input":{},"cwd":"`+strings.ReplaceAll(dir, `\`, `\\`)+`"}`), nil, dir); ok {
		t.Error("GuardCall answered an event that is not a call about to run")
	}
}
