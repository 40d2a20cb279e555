package navigate

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

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

// EscapeJSON is s as encoding/json writes it inside a string with
// SetEscapeHTML(false), without the quotes.
func EscapeJSON(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	out := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	return string(out[1 : len(out)-1])
}

// JSONCost counts the code points of s escaped depth times as a JSON
// string value (depth 1: a JSON answer; depth 2: JSON text carried inside
// another JSON string, as in an MCP tool result).
func JSONCost(s string, depth int) int {
	for i := 0; i < depth; i++ {
		s = EscapeJSON(s)
	}
	return utf8.RuneCountInString(s)
}

// JSONValueCost counts the code points of v encoded as compact JSON
// without HTML escaping, then escaped depth-1 more times as a string.
func JSONValueCost(v any, depth int) int {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return 0
	}
	return JSONCost(string(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), depth-1)
}
