package evidence

import (
	"sort"
	"strconv"
	"strings"

	"github.com/git-adr/git-adr/navigate/retrieve"
)

// Confidence thresholds on the best record's coverage of the request's
// words (IDF-weighted, thesaurus expansions counting for the word they
// expand).
var (
	highCoverage = 0.45
	lowCoverage  = 0.15
	// absentLimit: a request whose words the log never uses (in any of
	// their expansions) carry this share of its weight or more is not
	// answered with confidence, however well its other words match: "how
	// are passwords stored" over a log that never says "password".
	absentLimit = 0.4
)

// confidence is how well the best matches answer a task, and the
// request's words no record contains when they weigh too much.
type confidence struct {
	level  string // "high", "low" or "none"
	absent []string
}

// confidenceOf rates how well the best matches answer a task.
func confidenceOf(q []retrieve.QueryTerm, ix *retrieve.Index, hits []retrieve.Hit) confidence {
	best := 0.0
	for _, h := range hits[:min(3, len(hits))] {
		best = max(best, h.Coverage)
	}
	switch {
	case best >= highCoverage:
		if share, words := absentWords(q, ix, hits); share >= absentLimit {
			return confidence{level: "low", absent: words}
		}
		return confidence{level: "high"}
	case best >= lowCoverage:
		return confidence{level: "low"}
	}
	return confidence{level: "none"}
}

// absentWords are the request's words that no record of the log
// contains, in any of their expansions, and their share of the request
// (IDF-weighted, as coverage weighs words). hits holds every record that
// matched any term.
func absentWords(q []retrieve.QueryTerm, ix *retrieve.Index, hits []retrieve.Hit) (float64, []string) {
	present := map[string]bool{}
	for _, h := range hits {
		for _, m := range h.Matched {
			present[m] = true
		}
	}
	weight := map[int]float64{}
	word := map[int]string{}
	found := map[int]bool{}
	for _, t := range q {
		if t.Group < 0 {
			continue
		}
		if t.Weight >= 1 {
			if w := ix.IDF(t.Text) * t.Weight; w > weight[t.Group] {
				weight[t.Group], word[t.Group] = w, t.Text
			}
		}
		if present[t.Text] {
			found[t.Group] = true
		}
	}
	var groups []int
	for g := range weight {
		groups = append(groups, g)
	}
	sort.Ints(groups) // a sum in map order differs by rounding from run to run
	total, absent := 0.0, 0.0
	var words []string
	for _, g := range groups {
		total += weight[g]
		if !found[g] {
			absent += weight[g]
			words = append(words, word[g])
		}
	}
	if total == 0 {
		return 0, nil
	}
	sort.Strings(words)
	return absent / total, words
}

// requestWords are the words of task, as written, that the analysed
// terms stems stand for (in the order of stems; a stem the task does not
// show is left out).
func requestWords(task string, stems []string) []string {
	terms := retrieve.Analyzer{Lang: retrieve.DetectLanguage(task), Query: true}.Terms(task)
	var out []string
	for _, st := range stems {
		for _, t := range terms {
			if t.Text == st {
				out = append(out, task[t.Start:t.End])
				break
			}
		}
	}
	return out
}

// quoteList is words quoted and joined: "a", "b" and "c".
func quoteList(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = strconv.Quote(w)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
