package navigate

import (
	"fmt"
	"strings"
)

// A Measure counts the code points of a whole answer as the caller sends
// it (its JSON, or its text), envelope included.
type Measure[T any] func(*T) int

// ReadWithin is Read for an answer that must stay within budget code
// points as measure counts it: the page holds the lines that fit, the
// rest follow from NextStartLine. o.Budget.Cost must count one line the
// way measure counts it in the content; o.Budget.Max is set here.
func (t *Tree) ReadWithin(p string, o ReadOptions, budget int, measure Measure[Page]) (*Page, error) {
	big := 1 << 30
	base := measure(&Page{Path: p, StartLine: o.StartLine, LineCount: o.LineCount, NextStartLine: &big, TotalLines: big, EOL: EOLMixed})
	o.Budget.Max = budget - base
	if o.Budget.Max <= 0 {
		return nil, fmt.Errorf("%q: the path leaves no room for content within %d code points: %w", p, budget, ErrLineTooLong)
	}
	for {
		pg, err := t.Read(p, o)
		if err != nil {
			return nil, err
		}
		n := measure(pg)
		if n <= budget {
			return pg, nil
		}
		if pg.LineCount <= 1 {
			return nil, fmt.Errorf("line %d of %q takes %d code points as sent, over the %d that one read may hold: %w", pg.StartLine, p, n, budget, ErrLineTooLong)
		}
		o.LineCount = pg.LineCount - 1
	}
}

// SearchWithin is Search for an answer that must stay within budget code
// points as measure counts it; opts.Budget.Cost counts one match,
// opts.Budget.Max is set here. Matches that do not fit are left out with
// limit "output", as when MaxSearchPageBytes is reached.
func (t *Tree) SearchWithin(opts SearchOptions, budget int, measure Measure[SearchResult]) (*SearchResult, error) {
	hint := strings.Repeat("x", 600) // longer than any hint of a truncated search
	all := []string{LimitEntries, LimitFiles, LimitBytes, LimitDepth, LimitMatches, LimitOutput}
	opts.Budget.Max = budget - measure(&SearchResult{Matches: []Match{}, Truncated: true, LimitsHit: all, Hint: &hint})
	res, err := t.Search(opts)
	if err != nil {
		return nil, err
	}
	for len(res.Matches) > 0 && measure(res) > budget {
		res.cut(len(res.Matches) - 1)
	}
	return res, nil
}

// ListWithin is List for an answer that must stay within budget code
// points as measure counts it; o.Budget.Cost counts one entry,
// o.Budget.Max is set here. A page holds one entry at least.
func (t *Tree) ListWithin(dir string, o ListOptions, budget int, measure Measure[Listing]) (*Listing, error) {
	empty := ""
	o.Budget.Max = budget - measure(&Listing{Entries: []Entry{}, NextAfter: &empty})
	l, err := t.List(dir, o)
	if err != nil {
		return nil, err
	}
	for len(l.Entries) > 1 && measure(l) > budget {
		l.Entries = l.Entries[:len(l.Entries)-1]
		last := l.Entries[len(l.Entries)-1].Name
		l.NextAfter = &last
	}
	return l, nil
}
