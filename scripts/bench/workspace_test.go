package main

import (
	"errors"
	"testing"
	"time"
)

func TestMedianRow(t *testing.T) {
	s := time.Second
	runs := []wsRow{{time: 3 * s, cpu: 1}, {time: 1 * s, cpu: 2}, {time: 2 * s, cpu: 3}}
	if r := medianRow(runs); r.time != 2*s || r.cpu != 3 || r.err != nil {
		t.Fatalf("median of 3: %+v, want the 2 s run with its own CPU", r)
	}
	if r := medianRow(runs[:2]); r.time != 3*s {
		t.Fatalf("median of 2: %v, want the upper run, 3s", r.time)
	}
	runs[0].err = errors.New("exit 1")
	if r := medianRow(runs); r.err == nil {
		t.Fatal("a failed run must fail the row")
	}
}

func TestParseWorkspace(t *testing.T) {
	if n, m, err := parseWorkspace("100x10"); err != nil || n != 100 || m != 10 {
		t.Fatalf("100x10: %d %d %v", n, m, err)
	}
	for _, bad := range []string{"100", "0x10", "x", "10x-1"} {
		if _, _, err := parseWorkspace(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
