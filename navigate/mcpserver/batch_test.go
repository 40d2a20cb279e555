package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// initAt is an initialize request for protocol version v.
func initAt(v string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + v + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
}

const initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

// slowCall is a tools/call of the slow tool, answered with text.
func slowCall(id, text string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"slow","arguments":{"request":"` + text + `"}}}`
}

// TestBatch2025_03_26: on protocol 2025-03-26 a batch is answered with
// one array of the answers to its requests, in their order: invalid
// messages get their errors in it, notifications nothing. The batch is
// sent right after initialize, as a script would: it waits for the
// protocol to be settled.
func TestBatch2025_03_26(t *testing.T) {
	out, _ := session(t, slowServer(),
		initAt("2025-03-26"),
		initializedLine,
		`[`+slowCall("2", "a")+`,{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}},{"jsonrpc":"2.0","id":3,"method":"ping"},`+
			`{"jsonrpc":"1.0","id":4,"method":"ping"},42,[],{"jsonrpc":"2.0","id":"five","method":"tools/list"},`+slowCall(`"six"`, "b")+`]`,
		`{"jsonrpc":"2.0","id":7,"method":"ping"}`,
	)
	if len(out) != 3 || !strings.Contains(out[0], `"protocolVersion":"2025-03-26"`) {
		t.Fatalf("want the initialize answer, the batch's and the ping's:\n%s", strings.Join(out, "\n"))
	}
	batchLine, ping := out[1], out[2]
	if !strings.HasPrefix(batchLine, "[") {
		batchLine, ping = ping, batchLine
	}
	if ping != `{"jsonrpc":"2.0","id":7,"result":{}}` {
		t.Errorf("ping: %s", ping)
	}
	var answers []struct {
		ID     any             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(batchLine), &answers); err != nil {
		t.Fatalf("%v: %s", err, batchLine)
	}
	var got []string
	for _, a := range answers {
		s := fmt.Sprint(a.ID)
		if a.Error != nil {
			s += fmt.Sprintf(" error %d %s", a.Error.Code, a.Error.Message)
		} else if strings.Contains(string(a.Result), `"text"`) {
			s += " " + string(a.Result)
		} else if strings.Contains(string(a.Result), `"tools"`) {
			s += " tools"
		} else {
			s += " " + string(a.Result)
		}
		got = append(got, s)
	}
	want := []string{
		`2 {"content":[{"type":"text","text":"a"}]}`,
		`3 {}`,
		`4 error -32600 invalid request: "jsonrpc" must be "2.0"`,
		`<nil> error -32600 invalid request: a message is a JSON object`,
		`<nil> error -32600 invalid request: a message is a JSON object`,
		`five tools`,
		`six {"content":[{"type":"text","text":"b"}]}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("batch answers:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestBatchEdges: an empty batch is one Invalid Request; a batch of
// notifications gets no answer; initialize may not be in a batch; an ID
// used twice is refused; a batch over MaxBatch messages is refused whole.
func TestBatchEdges(t *testing.T) {
	pings := make([]string, MaxBatch+1)
	for i := range pings {
		pings[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, 100+i)
	}
	out, _ := session(t, slowServer(),
		initAt("2025-03-26"),
		`[]`,
		`[`+initializedLine+`,{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}]`,
		`[`+strings.Join(pings, ",")+`]`,
		`[`+initAt("2025-03-26")+`,{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`,
	)
	want := []string{
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: an empty batch"}}`,
		fmt.Sprintf(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: a batch of %d messages; at most %d are accepted"}}`, MaxBatch+1, MaxBatch),
		`[{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"invalid request: initialize must not be part of a JSON-RPC batch; send it alone"}},` +
			`{"jsonrpc":"2.0","id":2,"result":{}},{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"invalid request: id 2 is used twice in this batch"}}]`,
	}
	if len(out) != 1+len(want) {
		t.Fatalf("%d lines:\n%s", len(out), strings.Join(out, "\n"))
	}
	for i, w := range want {
		if out[i+1] != w {
			t.Errorf("line %d:\n got %s\nwant %s", i+2, out[i+1], w)
		}
	}
}

// TestBatchRefused: batches are refused before initialize (and on the
// sessionless protocol, which has none) and on every protocol but
// 2025-03-26; the session goes on.
func TestBatchRefused(t *testing.T) {
	batchLine := `[{"jsonrpc":"2.0","id":2,"method":"ping"}]`
	for _, c := range []struct{ protocol, want string }{
		{"", "JSON-RPC batches need a session that negotiated protocol 2025-03-26 in initialize, which is sent alone; send one message per line"},
		{"2024-11-05", "JSON-RPC batches are not supported on protocol 2024-11-05 (only 2025-03-26 has them); send one message per line"},
		{"2025-06-18", "JSON-RPC batches are not supported on protocol 2025-06-18 (only 2025-03-26 has them); send one message per line"},
		{"2025-11-25", "JSON-RPC batches are not supported on protocol 2025-11-25 (only 2025-03-26 has them); send one message per line"},
	} {
		lines := []string{batchLine, `{"jsonrpc":"2.0","id":3,"method":"ping"}`}
		if c.protocol != "" {
			lines = append([]string{initAt(c.protocol), initializedLine}, lines...)
		}
		out, _ := session(t, slowServer(), lines...)
		if c.protocol != "" {
			out = out[1:]
		}
		want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: ` + c.want + `"}}`
		if len(out) != 2 || out[0] != want || out[1] != `{"jsonrpc":"2.0","id":3,"result":{}}` {
			t.Errorf("protocol %q:\n%s\nwant\n%s", c.protocol, strings.Join(out, "\n"), want)
		}
	}
}

// TestBatchCancelled: a request of a batch that the client cancels is
// left out of the batch's answer, which the other requests still get.
func TestBatchCancelled(t *testing.T) {
	out, _ := session(t, slowServer(),
		initAt("2025-03-26"), initializedLine,
		`[`+slowCall("2", "a")+`,`+slowCall("3", "b")+`]`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`,
	)
	want := `[{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"b"}]}}]`
	if len(out) != 2 || out[1] != want {
		t.Errorf("got\n%s\nwant %s", strings.Join(out, "\n"), want)
	}
	// The cancel inside the batch itself, after the request it cancels:
	// the other answers still come, in one line.
	out, _ = session(t, slowServer(),
		initAt("2025-03-26"), initializedLine,
		`[`+slowCall("2", "a")+`,{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}},`+slowCall("3", "b")+`]`,
	)
	if len(out) != 2 || out[1] != want {
		t.Errorf("cancel in the batch: got\n%s\nwant %s", strings.Join(out, "\n"), want)
	}
	// A batch may not reuse the ID of a request still being answered.
	out, _ = session(t, slowServer(),
		initAt("2025-03-26"), initializedLine,
		slowCall("2", "a"),
		`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping"}]`,
	)
	reuse := `[{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"invalid request: id 2 is the id of a request not answered yet"}},{"jsonrpc":"2.0","id":3,"result":{}}]`
	if !slices.Contains(out, reuse) {
		t.Errorf("reused ID: got\n%s\nwant a line %s", strings.Join(out, "\n"), reuse)
	}
}

// TestBatchWireBudget: a batch's answer is one message, within
// MessageBudget like any other: when the answers together pass it, the
// largest are replaced by CodeBatchOverBudget errors. MaxBatch such
// errors, with IDs of MaxIDChars, fit.
func TestBatchWireBudget(t *testing.T) {
	srv := New(Options{Version: "test"})
	Add(srv, Tool[contextArgs]{
		Name: "big", Description: "answers with as many quotes as asked",
		Handle: func(_ context.Context, a contextArgs) (any, error) {
			var n int
			fmt.Sscan(a.Request, &n)
			return Text(strings.Repeat(`"`, n)), nil
		},
	})
	call := func(id string, n int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"big","arguments":{"request":"%d"}}}`, id, n)
	}
	// Three answers of about 6,000, 8,400 and 3,000 code points (a quote
	// is sent as \"): all three pass the budget, the two smaller fit.
	out, _ := session(t, srv, initAt("2025-03-26"), initializedLine,
		`[`+call("1", 3000)+`,`+call("2", 4200)+`,`+call("3", 1500)+`]`)
	if len(out) != 2 {
		t.Fatalf("%d lines", len(out))
	}
	if n := utf8.RuneCountInString(out[1]); n > MessageBudget {
		t.Errorf("the batch's answer is %d code points", n)
	}
	var answers []struct {
		ID    int `json:"id"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(out[1]), &answers); err != nil {
		t.Fatal(err)
	}
	if len(answers) != 3 || answers[0].Error != nil || answers[1].Error == nil || answers[1].Error.Code != CodeBatchOverBudget || answers[2].Error != nil {
		t.Errorf("want the second answer replaced:\n%.500s", out[1])
	}
	if answers[1].Error != nil && answers[1].Error.Message != overBudgetMessage {
		t.Errorf("message %q", answers[1].Error.Message)
	}

	// The bound MaxBatch rests on.
	longID, _ := json.Marshal(strings.Repeat("x", MaxIDChars-2))
	one := (&rejection{id: longID, code: CodeBatchOverBudget, message: overBudgetMessage}).encode()
	if n := MaxBatch*(utf8.RuneCount(one)+1) + 1; n > MessageBudget {
		t.Errorf("%d over-budget errors take %d code points", MaxBatch, n)
	}
}
