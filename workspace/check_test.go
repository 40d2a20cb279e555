package workspace

import (
	"math/rand"
	"strings"
	"testing"
)

// mayMention is a filter: no line the expression matches is skipped,
// over lines made of the expression's own pieces and noise.
func TestMayMentionIsAFilter(t *testing.T) {
	parts := []string{"payments", ":", "ADR-0012", "12", "RFC-7a", " ", "https://", "x", ".", "/", "-", "Date: ", "2026", "é", "a:b", "::", ":A", "Z", "\t"}
	rng := rand.New(rand.NewSource(5))
	matched := 0
	for range 50000 {
		var b strings.Builder
		for range 1 + rng.Intn(8) {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		line := []byte(b.String())
		if mentionRE.Re().Match(line) {
			matched++
			if !mayMention(line) {
				t.Fatalf("%q matches but was skipped", line)
			}
		}
	}
	if matched == 0 {
		t.Fatal("no line matched: the test tests nothing")
	}
	for _, line := range []string{"Date: 2026-01-05", "see https://example.com/a", "Status: Accepted", "", ":"} {
		if mayMention([]byte(line)) {
			t.Errorf("%q: kept, though it cannot match", line)
		}
	}
}

func FuzzMayMention(f *testing.F) {
	f.Add("payments:ADR-0012 and ops:7")
	f.Add("Date: 2026-01-05")
	f.Fuzz(func(t *testing.T, line string) {
		if mentionRE.MatchString(line) && !mayMention([]byte(line)) {
			t.Fatalf("%q matches but was skipped", line)
		}
	})
}
