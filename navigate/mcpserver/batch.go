package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// JSON-RPC batches (a line holding an array of messages) are part of one
// MCP version, 2025-03-26: 2024-11-05 did not have them and 2025-06-18
// removed them. A session serves them when its initialize answer gave
// that version. Before then there is none: initialize must be sent alone
// ("The initialize request MUST NOT be part of a JSON-RPC batch"), and
// the sessionless protocol (2026-07-28) has no batches either.
//
// As JSON-RPC 2.0 says: the answer to a batch is one array of the
// answers to its requests, in the order of the requests, sent when the
// last one is ready; notifications (and responses to the server) get no
// answer, and a batch of them alone gets nothing; an invalid message of a
// batch gets its error in the array; an empty array is one Invalid
// Request (-32600), not an array.
//
// The wire budget (MessageBudget) bounds every line the server writes,
// so a batch's answer counts as one message: the whole array line. Each
// answer of a tool call fits the budget alone, so answers that together
// pass it cannot all be sent: the largest are replaced, until the array
// fits, by an error (CodeBatchOverBudget) asking to send that request
// again alone (every tool is read-only, so sending it again is safe). A
// batch holds at most MaxBatch messages, so that its answers always fit
// once replaced.
const batchProtocol = "2025-03-26"

// MaxBatch bounds the messages of one batch: MaxBatch answers replaced
// by the over-budget error, with the longest ID, fit in one message.
const MaxBatch = 40

// CodeBatchOverBudget is the JSON-RPC error code (one of the codes
// JSON-RPC leaves to implementations) of an answer left out of a batch's
// answer because the answers together pass the wire budget.
const CodeBatchOverBudget = -32003

// overBudgetMessage is the error message of CodeBatchOverBudget.
var overBudgetMessage = fmt.Sprintf("the answers to this batch together pass the %d-code-point message budget, so this one was left out; send this request again alone", MessageBudget)

// batch is a batch being answered: one entry per answer, in order.
type batch struct {
	entries []batchEntry
	waiting map[string]int // the entries of requests not answered yet, by ID
}

type batchEntry struct {
	id      json.RawMessage // the message's ID; nil for an invalid message without one
	request bool            // a request handed on, not an invalid message
	answer  []byte          // the JSON-RPC response, once there is one
	left    bool            // the request was cancelled: no answer
}

// has reports an entry for a request with the ID id (as JSON).
func (b *batch) has(id string) bool {
	return slices.ContainsFunc(b.entries, func(e batchEntry) bool { return e.request && string(e.id) == id })
}

// wait adds the entry of a request, answered later (settle).
func (b *batch) wait(id json.RawMessage) {
	if b.waiting == nil {
		b.waiting = map[string]int{}
	}
	b.waiting[string(id)] = len(b.entries)
	b.entries = append(b.entries, batchEntry{id: id, request: true})
}

// settle records the answer to the request id (nil: none, the request was
// cancelled) and returns the batch's answer line when it was the last.
func (b *batch) settle(id string, answer []byte) []byte {
	i, ok := b.waiting[id]
	if !ok {
		return nil
	}
	delete(b.waiting, id)
	b.entries[i].answer, b.entries[i].left = answer, answer == nil
	if len(b.waiting) > 0 {
		return nil
	}
	return b.line()
}

// line renders the answer to the batch: the array of its answers, the
// largest replaced by the over-budget error until it fits MessageBudget;
// nil when there is no answer to send.
func (b *batch) line() []byte {
	var answers [][]byte
	var ids []json.RawMessage
	for _, e := range b.entries {
		if !e.left {
			answers, ids = append(answers, e.answer), append(ids, e.id)
		}
	}
	if len(answers) == 0 {
		return nil
	}
	join := func() []byte { return append(append([]byte("["), bytes.Join(answers, []byte(","))...), ']') }
	line := join()
	replaced := make([]bool, len(answers))
	for utf8.RuneCount(line) > MessageBudget {
		big := -1
		for i, a := range answers {
			if !replaced[i] && (big < 0 || len(a) > len(answers[big])) {
				big = i
			}
		}
		if big < 0 {
			break // cannot happen: MaxBatch replaced answers fit
		}
		answers[big] = (&rejection{id: ids[big], code: CodeBatchOverBudget, message: overBudgetMessage}).encode()
		replaced[big] = true
		line = join()
	}
	return line
}

// checkBatch validates a line holding a JSON array: a batch is served
// only on protocol 2025-03-26, is not empty and holds at most MaxBatch
// messages; each message is then checked as a single one would be, and
// the invalid ones answered in the batch's answer.
func (c *stdioConn) checkBatch(line []byte) []jsonrpc.Message {
	c.mu.Lock()
	for c.initID != "" && !c.done {
		c.cond.Wait() // the protocol is being settled
	}
	protocol := c.protocol
	c.mu.Unlock()
	invalid := func(message string) []jsonrpc.Message {
		c.reject(&rejection{code: jsonrpc.CodeInvalidRequest, message: "invalid request: " + message})
		return nil
	}
	switch protocol {
	case batchProtocol:
	case "":
		return invalid("JSON-RPC batches need a session that negotiated protocol " + batchProtocol + " in initialize, which is sent alone; send one message per line")
	default:
		return invalid(fmt.Sprintf("JSON-RPC batches are not supported on protocol %s (only %s has them); send one message per line", protocol, batchProtocol))
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(line, &raws); err != nil {
		return invalid("a batch is an array of messages")
	}
	if len(raws) == 0 {
		return invalid("an empty batch")
	}
	if len(raws) > MaxBatch {
		return invalid(fmt.Sprintf("a batch of %d messages; at most %d are accepted", len(raws), MaxBatch))
	}
	b := &batch{}
	var msgs []jsonrpc.Message
	for _, raw := range raws {
		v, rej := decodeLine(raw)
		var msg jsonrpc.Message
		if rej == nil {
			msg, rej = c.checkOne(raw, v, b)
		}
		if rej != nil {
			b.entries = append(b.entries, batchEntry{id: rej.id, answer: rej.encode()})
			continue
		}
		msgs = append(msgs, msg)
	}
	// The batch is known before any of its requests is handed on, so
	// every answer finds it.
	c.mu.Lock()
	for id := range b.waiting {
		c.batches[id] = b
	}
	var out []byte
	if len(b.waiting) == 0 {
		out = b.line()
	}
	c.mu.Unlock()
	if out != nil {
		c.sendBatch(b, out)
	}
	return msgs
}

// sendBatch writes the answer to b, then lets end of input stop waiting
// for its requests.
func (c *stdioConn) sendBatch(b *batch, line []byte) error {
	err := c.send(line)
	c.mu.Lock()
	for _, e := range b.entries {
		if e.request {
			delete(c.pending, string(e.id))
		}
	}
	c.cond.Broadcast()
	c.mu.Unlock()
	return err
}
