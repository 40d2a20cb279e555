package main

import (
	"errors"
	"strings"
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

func TestWsTargets(t *testing.T) {
	s := time.Second
	rows := []wsRow{
		{name: "git init --bare + git fetch, 2 repositories", time: 10 * s, cpu: 10 * s, rss: 11 << 10},
		{name: "workspace sync (first, median of 3)", time: 12 * s, cpu: 11 * s, rss: 30 << 10},
		{name: "context --task (warm, 1st)", time: s / 2, rss: 40 << 10},
		{name: "context --task (warm, 2nd)", time: 2 * s, rss: 300 << 10},
		{name: "git status (one repository)", time: s / 100, rss: 500 << 10},
	}
	got := wsTargets(rows, nil)
	for _, want := range []string{
		"| first sync bounded by git's own fetch (≤ 1.1× its time) | 1.20× its time, 1.10× its CPU | no |",
		"| warm `context --task` ≤ 1 s | 2.00 s (the slower of two) | no |",
		"| every workspace command's peak RSS ≤ 256 MiB | 300 MiB (context --task (warm, 2nd)) | no |",
		"not measured (add `-sizes 10000`)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no line %q in\n%s", want, got)
		}
	}
	rows[1].time, rows[3].time, rows[3].rss = 10*s, s, 200<<10
	got = wsTargets(rows, nil)
	for _, want := range []string{"| 1.00× its time, 1.10× its CPU | yes |", "| 1.00 s (the slower of two) | yes |", "| 200 MiB (context --task (warm, 2nd)) | yes |"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
}
