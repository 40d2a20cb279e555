package adr

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

func TestInParallelCoversEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, parallelMin - 1, parallelMin, parallelMin + 1, 3*parallelMin + 7} {
		seen := make([]atomic.Int32, n)
		inParallel(n, func(lo, hi int) {
			if lo < 0 || hi > n || lo > hi {
				t.Errorf("n=%d: range [%d, %d)", n, lo, hi)
				return
			}
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
		})
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("n=%d: index %d visited %d times", n, i, c)
			}
		}
	}
}

func TestFormatIDMatchesPadding(t *testing.T) {
	for _, prefix := range []string{"", "ADR-", "ODH-ADR-MS-"} {
		for _, digits := range []int{0, 1, 3, 4, 9} {
			root := &Root{Prefix: prefix, Digits: digits}
			for _, n := range []int{0, 7, 42, 1234, 99999, 123456789} {
				for _, suffix := range []string{"", "a"} {
					num := strconv.Itoa(n)
					want := prefix + strings.Repeat("0", max(0, digits-len(num))) + num + suffix
					if got := root.formatID(n, suffix); got != want || padNumber(n, digits) != want[len(prefix):len(want)-len(suffix)] {
						t.Errorf("formatID(%d, %q) with %q/%d = %q, want %q", n, suffix, prefix, digits, got, want)
					}
				}
			}
		}
	}
}

// A log long enough for the load's parallel loops (unit IDs, relation
// targets, the path index) names and links every record as a short one
// does; run with -race, it checks that those loops share nothing.
func TestLoadLongLogInParallel(t *testing.T) {
	dir := t.TempDir()
	n := parallelMin + 500
	for i := 1; i <= n; i++ {
		body := fmt.Sprintf("# %d. Decision %d\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n", i, i)
		if i > 1 {
			body += fmt.Sprintf("\nAmends [%d. Decision %d](%04d-decision-%d.md)\n", i-1, i-1, i-1, i-1)
		}
		body += "\n## Context\n\nWhy.\n\n## Decision\n\nWhat.\n\n## Consequences\n\nThen.\n"
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%04d-decision-%d.md", i, i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := Load(os.DirFS(dir), LoadOptions{Roots: []string{"."}})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Records) != n {
		t.Fatalf("%d records, want %d", len(l.Records), n)
	}
	for i, r := range l.Records {
		want := fmt.Sprintf("ADR-%04d", i+1)
		if r.ID != want {
			t.Fatalf("record %d: ID %q, want %q", i, r.ID, want)
		}
		for _, u := range r.Units() {
			if u.ID != want+"#"+u.Anchor {
				t.Fatalf("%s: unit ID %q", want, u.ID)
			}
		}
		if i > 0 && (len(r.Relations) != 1 || r.Relations[0].TargetID != fmt.Sprintf("ADR-%04d", i)) {
			t.Fatalf("%s: relations %+v", want, r.Relations)
		}
		if l.recordAt(r.Path) != r {
			t.Fatalf("%s: not found by its path", want)
		}
	}
}
