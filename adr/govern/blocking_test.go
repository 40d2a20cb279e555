package govern

import "testing"

func TestBlocking(t *testing.T) {
	ps := []Problem{{Rule: "a", Block: true}, {Rule: "b"}, {Rule: "c", Block: true}}
	if n := Blocking(ps); n != 2 {
		t.Errorf("Blocking = %d, want 2", n)
	}
	if n := Blocking(ps[1:2]); n != 0 {
		t.Errorf("Blocking of a warning = %d, want 0", n)
	}
	if !(&Report{Problems: ps}).Blocked() || (&Report{Problems: ps[1:2]}).Blocked() {
		t.Error("Blocked disagrees with Blocking")
	}
}
