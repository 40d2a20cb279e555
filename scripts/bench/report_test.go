package main

import (
	"testing"
	"time"
)

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
