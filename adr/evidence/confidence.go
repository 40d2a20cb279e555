package evidence

import "github.com/git-adr/git-adr/navigate/retrieve"

// Confidence thresholds on the best record's coverage of the request's
// words (IDF-weighted, thesaurus expansions counting for the word they
// expand).
var (
	highCoverage = 0.45
	lowCoverage  = 0.15
)

// confidenceOf rates how well the best matches answer a task: "high",
// "low" or "none".
func confidenceOf(hits []retrieve.Hit) string {
	best := 0.0
	for _, h := range hits[:min(3, len(hits))] {
		best = max(best, h.Coverage)
	}
	switch {
	case best >= highCoverage:
		return "high"
	case best >= lowCoverage:
		return "low"
	}
	return "none"
}
