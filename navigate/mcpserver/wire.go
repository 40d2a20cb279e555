package mcpserver

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/git-adr/git-adr/internal/jsoncost"
	"github.com/git-adr/git-adr/navigate"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MessageBudget is the most code points the JSON-RPC message carrying one
// tool result may take as it is sent: the budget of `git adr context`,
// applied to the whole message, envelope, ID and escaping included.
const MessageBudget = navigate.DefaultBudget

// serverInfoKey is the _meta key under which the SDK names the server in
// every result of the 2026-07-28 protocol (SEP-2575).
const serverInfoKey = "io.modelcontextprotocol/serverInfo"

// WireCost counts the code points of the JSON-RPC response that carries
// res, as this server's transport writes it (no HTML escaping), with the
// longest ID the transport accepts (MaxIDChars), and with what the SDK adds
// to results for 2026-07-28 clients (the server's identification in _meta,
// and resultType): counted whatever the protocol, so that the bound holds
// for every client.
func (s *Server) WireCost(res *mcp.CallToolResult) int {
	r := *res
	meta := map[string]any{}
	for k, v := range res.Meta {
		meta[k] = v
	}
	meta[serverInfoKey] = s.impl
	r.Meta = meta
	raw, err := json.Marshal(&r)
	if err != nil {
		return 1 << 30
	}
	id, _ := jsonrpc.MakeID(strings.Repeat("x", MaxIDChars-2))
	data, err := encodeMessage(&jsonrpc.Response{ID: id, Result: raw})
	if err != nil {
		return 1 << 30
	}
	return utf8.RuneCount(data) + len(resultTypeField)
}

// resultTypeField is what the SDK adds to every result of the 2026-07-28
// protocol besides _meta (through a type of its own, so it is counted here
// as text).
const resultTypeField = `,"resultType":"complete"`

// TextCost is the WireCost of a successful result holding text.
func (s *Server) TextCost(text string) int {
	return s.WireCost(&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}})
}

// InTextCost counts what a string value of a JSON result costs in the
// message: escaped once in the result's JSON, once more as the text of
// the message.
func InTextCost(s string) int { return jsoncost.String(s, 2) }

// ValueCost counts what v, encoded as compact JSON inside a result's text,
// costs in the message.
func ValueCost(v any) int { return jsoncost.Value(v, 2) }
