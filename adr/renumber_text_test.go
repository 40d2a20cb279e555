package adr

import "testing"

func TestRenumberTitleLine(t *testing.T) {
	for _, c := range []struct {
		line   string
		old, n int
		want   string
	}{
		{"# 7. Use MySQL", 7, 2, "# 2. Use MySQL"},
		{"# ADR 002: Use 2 databases", 2, 3, "# ADR 003: Use 2 databases"},
		{"# 12. Use HTTP/2", 12, 21, "# 21. Use HTTP/2"},
	} {
		if got := renumberTitleLine(c.line, c.old, c.n); got != c.want {
			t.Errorf("renumberTitleLine(%q, %d, %d) = %q, want %q", c.line, c.old, c.n, got, c.want)
		}
	}
}
