package adr

import "testing"

func TestRetitledBy(t *testing.T) {
	rec := "# 1. Use X\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n"
	linked := rec + "\nRelates to [2. Use Y](0002-use-y.md)\n"
	for _, c := range []struct {
		name    string
		changes []FileChange
		want    string
	}{
		{"new file only", []FileChange{{Path: "0002-use-y.md", New: []byte(rec)}}, ""},
		{"a link added", []FileChange{{Path: "0001-use-x.md", Old: []byte(rec), New: []byte(linked)}}, ""},
		{"status changed", []FileChange{
			{Path: "0002-use-y.md", New: []byte(rec)},
			{Path: "0001-use-x.md", Old: []byte(rec), New: []byte("# 1. Use X\n\n## Status\n\nSuperseded\n")}}, "0001-use-x.md"},
		{"title changed", []FileChange{{Path: "0001-use-x.md", Old: []byte(rec), New: []byte("# 1. Use Z\n\n## Status\n\nAccepted\n")}}, "0001-use-x.md"},
	} {
		if got := RetitledBy(c.changes); got != c.want {
			t.Errorf("%s: RetitledBy = %q, want %q", c.name, got, c.want)
		}
	}
}
