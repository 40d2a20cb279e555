package mcpserver

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/git-adr/git-adr/navigate"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MessageBudget is the most code points the JSON-RPC message carrying one
// tool result may take as it is sent: the budget of `git adr context`,
// applied to the whole message, envelope, ID and escaping included.
const MessageBudget = navigate.DefaultBudget

// WireCost counts the code points of the JSON-RPC response that carries
// res, as this server's transport writes it (no HTML escaping), with the
// longest ID the transport accepts (MaxIDChars).
func WireCost(res *mcp.CallToolResult) int {
	raw, err := json.Marshal(res)
	if err != nil {
		return 0
	}
	id, _ := jsonrpc.MakeID(strings.Repeat("x", MaxIDChars-2))
	data, err := encodeMessage(&jsonrpc.Response{ID: id, Result: raw})
	if err != nil {
		return 0
	}
	return utf8.RuneCount(data)
}

// TextCost is the WireCost of a successful result holding text.
func TextCost(text string) int {
	return WireCost(&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}})
}

// textOverhead is what a text result costs beyond its escaped text.
var textOverhead = TextCost("")

// InTextCost counts what a string value of a JSON result costs in the
// message: escaped once in the result's JSON, once more as the text of
// the message.
func InTextCost(s string) int { return navigate.JSONCost(s, 2) }

// ValueCost counts what v, encoded as compact JSON inside a result's text,
// costs in the message.
func ValueCost(v any) int { return navigate.JSONValueCost(v, 2) }

// TextBudget is how many code points a result's text may take, escaped,
// within budget (the message minus its envelope).
func TextBudget(budget int) int { return budget - textOverhead }
