package main

import (
	"testing"
	"time"
)

func TestReplaceRegion(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"", "<!-- bench:start -->\nT\n<!-- bench:end -->\n"},
		{"# B\n\ntext", "# B\n\ntext\n\n<!-- bench:start -->\nT\n<!-- bench:end -->\n"},
		{"a\n<!-- bench:start -->\nold\nold\n<!-- bench:end -->\nz\n", "a\n<!-- bench:start -->\nT\n<!-- bench:end -->\nz\n"},
		{"see `<!-- bench:start -->`\n<!-- bench:start -->\nold\n<!-- bench:end -->", "see `<!-- bench:start -->`\n<!-- bench:start -->\nT\n<!-- bench:end -->"},
	} {
		got, err := replaceRegion(tc.doc, "T\n")
		if err != nil || got != tc.want {
			t.Errorf("replaceRegion(%q) = %q, %v; want %q", tc.doc, got, err, tc.want)
		}
	}
	if _, err := replaceRegion("<!-- bench:end -->\n<!-- bench:start -->\n", "T"); err == nil {
		t.Error("markers in the wrong order: no error")
	}
}

func TestMedianAndRatio(t *testing.T) {
	ms := time.Millisecond
	a := &result{times: []time.Duration{5 * ms, 1 * ms, 3 * ms}}
	b := &result{times: []time.Duration{400 * ms, 200 * ms, 300 * ms, 100 * ms}}
	if a.median() != 3*ms || b.median() != 250*ms {
		t.Fatalf("medians %v %v, want 3ms 250ms", a.median(), b.median())
	}
	if got := ratio(a, b); got != "83.3×" {
		t.Errorf("ratio = %q, want 83.3×", got)
	}
	if got := ratio(a, &result{skipped: "x"}); got != "–" {
		t.Errorf("ratio with a skipped cell = %q, want –", got)
	}
}
