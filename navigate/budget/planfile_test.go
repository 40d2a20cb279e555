package budget

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file plans as its bytes do; a missing file is a *FileError and a
// history a provider would refuse an *InputError.
func TestPlanFile(t *testing.T) {
	data := newTranscript(OpenAI).user("fix the bug").call("read_file", map[string]any{"path": "a.go"}, "package a").bytes()
	in := filepath.Join(t.TempDir(), "session.json")
	os.WriteFile(in, data, 0o644)
	o := Options{Budget: 10000}
	p, err := PlanFile(in, nil, Auto, o)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Decode(data, Auto)
	if err != nil {
		t.Fatal(err)
	}
	want, err := NewPlan(tr, data, o)
	if err != nil || p.Transcript != want.Transcript || p.After != want.After || !p.Fits {
		t.Errorf("PlanFile = %+v, want %+v (%v)", p, want, err)
	}
	if p, err := PlanFile("-", strings.NewReader(string(data)), OpenAI, o); err != nil || p.Transcript != want.Transcript {
		t.Errorf("PlanFile(-) = %+v, %v", p, err)
	}
	var fe *FileError
	if _, err := PlanFile(filepath.Join(t.TempDir(), "none.json"), nil, Auto, o); !errors.As(err, &fe) {
		t.Errorf("a missing file: %v, want a *FileError", err)
	}
	var ie *InputError
	if _, err := PlanFile("-", strings.NewReader(`[{"role":"tool","tool_call_id":"x","content":"?"}]`), OpenAI, o); !errors.As(err, &ie) {
		t.Errorf("an unanswered history: %v, want an *InputError", err)
	}
}
