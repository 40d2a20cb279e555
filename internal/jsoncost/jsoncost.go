// Package jsoncost counts what text costs once it is sent as JSON: in
// code points after encoding/json's escaping (without HTML escaping),
// escaped as many times as the text is nested in JSON strings. The
// context service, the nav command and the MCP server bound their answers
// by these counts; it is a leaf so that the decision log and navigation
// share one measure without importing each other.
package jsoncost

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// Escape is s as encoding/json writes it inside a string with
// SetEscapeHTML(false), without the quotes.
func Escape(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	out := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	return string(out[1 : len(out)-1])
}

// String counts the code points of s escaped depth times as a JSON
// string value (depth 1: a JSON answer; depth 2: JSON text carried inside
// another JSON string, as in an MCP tool result).
func String(s string, depth int) int {
	for i := 0; i < depth; i++ {
		s = Escape(s)
	}
	return utf8.RuneCountInString(s)
}

// Value counts the code points of v encoded as compact JSON without HTML
// escaping, then escaped depth-1 more times as a string.
func Value(v any, depth int) int {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return 0
	}
	return String(string(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), depth-1)
}
