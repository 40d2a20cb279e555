package evidence

import (
	"sort"
	"strconv"
	"strings"

	"github.com/git-adr/git-adr/retrieve"
)

// Confidence thresholds on the best record's coverage of the request's
// words (IDF-weighted, thesaurus expansions counting for the word they
// expand).
var (
	highCoverage = 0.45
	lowCoverage  = 0.15
	// highPassage: a confident answer has a passage (a paragraph, a list
	// item) of one of its best records that holds this share of the
	// request's words, and its best record holds the request's rarest
	// word. Words spread over a record, or over several, say the log
	// talks about the task's subject, not that it decides the task: such
	// an answer is "medium".
	highPassage = 0.6
	// absentLimit: a request whose words the log never uses (in any of
	// their expansions) carry this share of its weight or more is not
	// answered with confidence, however well its other words match: "how
	// are passwords stored" over a log that never says "password".
	absentLimit = 0.4
)

// confidence is how well the best matches answer a task, and the
// request's words no record contains when they weigh too much.
type confidence struct {
	level  string // "high", "medium", "low" or "none"
	absent []string
}

// confidenceOf rates how well the best matches answer a task: "high"
// when one passage of the best records holds most of the task and the
// best record its rarest word, "medium" when the best records hold most
// of its words but not in one place, "low" when they hold some, "none"
// when nothing matches.
func confidenceOf(rk *ranked, lang retrieve.Language) confidence {
	q, ix, hits := rk.q, rk.ix, rk.hits
	best := 0.0
	for _, h := range hits[:min(3, len(hits))] {
		best = max(best, h.Coverage)
	}
	switch {
	case best >= highCoverage:
		if share, words := absentWords(q, ix, hits); share >= absentLimit {
			return confidence{level: "low", absent: words}
		}
		if passageCoverage(rk, lang) >= highPassage && rarestMatched(q, ix, hits[0]) {
			return confidence{level: "high"}
		}
		return confidence{level: "medium"}
	case best >= lowCoverage:
		return confidence{level: "low"}
	}
	return confidence{level: "none"}
}

// groupWeights are the weights of the request's words (coverage
// groups): the IDF of the group's own word.
func groupWeights(q []retrieve.QueryTerm, ix *retrieve.Index) map[int]float64 {
	w := map[int]float64{}
	for _, t := range q {
		if t.Group >= 0 && t.Weight >= 1 {
			w[t.Group] = max(w[t.Group], ix.IDF(t.Text))
		}
	}
	return w
}

// passageCoverage is the largest share of the request's words (IDF
// weighted, a word counting when any term of its group is there) that
// one block of the three best records holds.
func passageCoverage(rk *ranked, lang retrieve.Language) float64 {
	weights := groupWeights(rk.q, rk.ix)
	order := make([]int, 0, len(weights))
	for g := range weights {
		order = append(order, g)
	}
	sort.Ints(order) // sums in one order: map order differs by rounding from run to run
	total := 0.0
	for _, g := range order {
		total += weights[g]
	}
	if total == 0 {
		return 0
	}
	groupOf := map[string][]int{}
	for _, t := range rk.q {
		if t.Group >= 0 {
			groupOf[t.Text] = append(groupOf[t.Text], t.Group)
		}
	}
	best := 0.0
	for _, h := range rk.hits[:min(3, len(rk.hits))] {
		r := rk.recs[h.Doc]
		src := r.Text().Src
		for _, b := range blocksOf(r, answerUnits(r, Current)) {
			got := map[int]bool{}
			for _, t := range (retrieve.Analyzer{Lang: lang}).TermTexts(string(src[b.from:b.to])) {
				for _, g := range groupOf[t] {
					got[g] = true
				}
			}
			sum := 0.0
			for _, g := range order {
				if got[g] {
					sum += weights[g]
				}
			}
			best = max(best, sum/total)
		}
	}
	return best
}

// rarestMatched reports whether the record of h holds the request's
// rarest word (the group of highest IDF), in any of its terms.
func rarestMatched(q []retrieve.QueryTerm, ix *retrieve.Index, h retrieve.Hit) bool {
	weights := groupWeights(q, ix)
	rare, rw := -1, -1.0
	for _, t := range q { // in query order: the first of equal weights
		if w, ok := weights[t.Group]; ok && t.Weight >= 1 && w > rw {
			rare, rw = t.Group, w
		}
	}
	matched := map[string]bool{}
	for _, m := range h.Matched {
		matched[m] = true
	}
	for _, t := range q {
		if t.Group == rare && matched[t.Text] {
			return true
		}
	}
	return false
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
