package navigate

// DefaultBudget is the most code points one answer of nav or of an MCP
// tool may take as it is sent, envelope included: the budget of `git adr
// context` (DESIGN, key flow 1).
const DefaultBudget = 12000

// A Budget bounds a page by what it costs as the caller sends it. Max is
// what the variable part of the page (a read's content, a search's
// matches, a listing's entries) may cost; the caller subtracts the cost of
// the page's envelope from its own bound. Cost measures one item of the
// page as the caller prints it, separator included: a line of a read's
// content (a string), a search's [Match], a listing's [Entry]; in code
// points after JSON escaping, after terminal escaping, or after JSON
// escaping twice (JSON inside an MCP message). A zero Budget bounds
// nothing beyond the fixed limits.
type Budget struct {
	Max  int
	Cost func(item any) int
}

func (b Budget) on() bool { return b.Max > 0 && b.Cost != nil }
