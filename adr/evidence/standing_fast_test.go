package evidence

import (
	"math/rand"
	"strings"
	"testing"
)

// TestMayBeReplacedIsAFilter: no line the expression matches is filtered
// out, over lines made of its own words, their case variants and noise.
func TestMayBeReplacedIsAFilter(t *testing.T) {
	parts := []string{"superseded", "SUPERSCEEDED", "Replaced", "obsoleted", "deprecate", "Deprecated", "retired", "Withdrawn", "abandoned", "RETRACTED", " by ", " with ",
		" in favour of ", " in favor of ", "moving on from", "no longer in force", "No Longer valid", "no longer applies",
		"ADR-0009", "[x](0009-x.md)", " ", ".", "the", "ſuperseded", "K", "décision", "retir", "replace", "favo", "longer"}
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for j := 0; j < 1+rng.Intn(6); j++ {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		line := b.String()
		if replacedWords.MatchString(line) && !mayBeReplaced(line) {
			t.Fatalf("%q matches but was filtered out", line)
		}
	}
}
