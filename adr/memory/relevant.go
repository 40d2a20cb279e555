package memory

import (
	"github.com/git-adr/git-adr/retrieve"
)

// MinCoverage is the share of a task's words (IDF-weighted, as decision
// retrieval weighs them) an item must match to be relevant: a quarter.
const MinCoverage = 0.25

// Match is an item relevant to a task.
type Match struct {
	Item *Item
	// Score is the BM25F score (topic words weigh twice the text's, the
	// source label half); Coverage the share of the task's words matched.
	Score, Coverage float64
}

// Relevant ranks the enabled items by the words of a task and returns at
// most n of them, best first; items that match less than MinCoverage of
// the task are left out. Equal scores keep the items' order, so the answer
// is deterministic.
func Relevant(items []*Item, task string, n int) []Match {
	var enabled []*Item
	var docs []retrieve.Doc
	for _, it := range items {
		if !it.Enabled {
			continue
		}
		enabled = append(enabled, it)
		docs = append(docs, retrieve.Doc{ID: it.ID, Lang: retrieve.DetectLanguage(it.Text), Fields: []retrieve.Field{
			{Text: it.Topic, Weight: 2}, {Text: it.Text, Weight: 1}, {Text: it.Source, Weight: 0.5},
		}})
	}
	if len(enabled) == 0 || n <= 0 {
		return nil
	}
	q := retrieve.Query(task, retrieve.DetectLanguage(task))
	if len(q) == 0 {
		return nil
	}
	ix := retrieve.NewIndex(docs)
	var out []Match
	for _, h := range ix.Search(ix.Expand(q, 0.5)) {
		if h.Coverage < MinCoverage {
			continue
		}
		out = append(out, Match{Item: enabled[h.Doc], Score: h.Score, Coverage: h.Coverage})
		if len(out) == n {
			break
		}
	}
	return out
}
