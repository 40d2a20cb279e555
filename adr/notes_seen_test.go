package adr

import "testing"

func TestNoteSeen(t *testing.T) {
	dir := t.TempDir()
	note := "no ADR directory configured; detected doc/adr"
	if NoteSeen(dir, note, true) || NoteSeen(dir, note, true) {
		t.Error("a read-only run remembered the note")
	}
	if NoteSeen(dir, note, false) || !NoteSeen(dir, note, false) {
		t.Error("the note is not shown once, then remembered")
	}
	if NoteSeen(dir, "other note", false) || NoteSeen(dir, "other note", false) {
		t.Error("another note is remembered")
	}
}
