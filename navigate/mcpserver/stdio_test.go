package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/git-adr/git-adr/internal/failpoint"
	"github.com/git-adr/git-adr/navigate"
)

const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// session runs srv over the stdio transport on the given input lines (the
// input then ends) and returns every output line and how long the session
// took to end after the input ended.
func session(t *testing.T, srv *Server, lines ...string) ([]string, time.Duration) {
	t.Helper()
	return sessionUntil(t, srv, "", lines...)
}

// endOfInput is the current session's gate: slowServer's tool answers
// only once the server has read the end of the input (the failpoint
// stdio-end-of-input, after every line before it was checked), so a slow
// request is still being answered when every later line, a cancellation
// included, is read, however busy the machine is.
var endOfInput atomic.Pointer[gate]

type gate struct {
	once sync.Once
	ch   chan struct{}
}

func (g *gate) open() { g.once.Do(func() { close(g.ch) }) }

func init() {
	failpoint.Set(func(name string) {
		if g := endOfInput.Load(); g != nil && name == "stdio-end-of-input" {
			g.open()
		}
	})
}

// sessionUntil is session that ends the input only once an output line
// contains until ("" ends it as soon as the lines are written).
func sessionUntil(t *testing.T, srv *Server, until string, lines ...string) ([]string, time.Duration) {
	t.Helper()
	g := &gate{ch: make(chan struct{})}
	endOfInput.Store(g)
	defer g.open()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(context.Background(), StdioTransport(inR, outW))
		outW.Close()
	}()
	var out []string
	read := make(chan struct{})
	seen := make(chan struct{})
	go func() {
		want := until
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			out = append(out, sc.Text())
			if want != "" && strings.Contains(sc.Text(), want) {
				close(seen)
				want = ""
			}
		}
		close(read)
	}()
	for _, l := range lines {
		if _, err := io.WriteString(inW, l+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	if until != "" {
		select {
		case <-seen:
		case <-read:
		case <-time.After(40 * time.Second):
			t.Fatalf("no answer with %s", until)
		}
	}
	start := time.Now()
	inW.Close()
	select {
	case <-done:
	case <-time.After(40 * time.Second):
		t.Fatal("the session did not end")
	}
	took := time.Since(start)
	<-read
	return out, took
}

// slowServer has one tool, slow, which answers once the session's input
// has ended (see endOfInput), or when its request is cancelled.
func slowServer() *Server {
	srv := New(Options{Version: "test"})
	Add(srv, Tool[contextArgs]{
		Name: "slow", Description: "answers after a while",
		Handle: func(ctx context.Context, a contextArgs) (any, error) {
			var ended <-chan struct{}
			if g := endOfInput.Load(); g != nil {
				ended = g.ch
			}
			select {
			case <-ended:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return Text(a.Request), nil
		},
	})
	return srv
}

// TestStdioAnswersBeforeEnding sends requests and closes the input at
// once: every request is still answered before the session ends.
func TestStdioAnswersBeforeEnding(t *testing.T) {
	out, _ := session(t, slowServer(),
		initLine,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"request":"a"}}}`,
		`{"jsonrpc":"2.0","id":"three","method":"tools/call","params":{"name":"slow","arguments":{"request":"b"}}}`,
	)
	got := strings.Join(out, "\n")
	for _, want := range []string{`"id":1,"result"`, `"id":2,"result":{"content":[{"type":"text","text":"a"}]}`, `"id":"three","result":{"content":[{"type":"text","text":"b"}]}`} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in\n%s", want, got)
		}
	}
}

// TestStdioEndsDespiteAStream: a 2026-07-28 client opens
// subscriptions/listen, which stays open for the session; end of input,
// once the stream is open (the answer to the request after it has come),
// ends the session at once anyway, not after DrainTimeout (the bound is
// far from both, so that a busy machine does not fail it).
func TestStdioEndsDespiteAStream(t *testing.T) {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	out, took := sessionUntil(t, slowServer(), `"id":3,"result"`,
		`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+meta+`}}`,
		`{"jsonrpc":"2.0","id":2,"method":"subscriptions/listen","params":{`+meta+`,"notifications":{"toolsListChanged":true}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{`+meta+`}}`,
	)
	if took > DrainTimeout/6 {
		t.Errorf("the session took %v to end after the input ended", took)
	}
	if got := strings.Join(out, "\n"); !strings.Contains(got, `"id":3,"result"`) {
		t.Errorf("tools/list not answered:\n%s", got)
	}
}

// TestStdioMalformedInput: every malformed line gets a JSON-RPC error
// and the session goes on.
func TestStdioMalformedInput(t *testing.T) {
	out, _ := session(t, slowServer(),
		`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`, // before initialize
		`not json`,
		`{"jsonrpc":"1.0","id":6,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":7,"method":"ping"} trailing`,
		`[{"jsonrpc":"2.0","id":8,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":"`+strings.Repeat("x", 80)+`","method":"ping"}`,
		`{"jsonrpc":"2.0","id":9}`,
		`{"jsonrpc":"2.0","id":10,"method":7}`,
		`42`,
		initLine,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":11,"method":"tools/list"}`,
	)
	want := []string{
		`{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"invalid request: \"tools/list\" before initialize; send initialize first"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: not JSON"}}`,
		`{"jsonrpc":"2.0","id":6,"error":{"code":-32600,"message":"invalid request: \"jsonrpc\" must be \"2.0\""}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: an id is a string or a number"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: data after the JSON message"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: JSON-RPC batches need a session that negotiated protocol 2025-03-26 in initialize, which is sent alone; send one message per line"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: an id is at most 64 characters"}}`,
		`{"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"invalid request: no \"method\""}}`,
		`{"jsonrpc":"2.0","id":10,"error":{"code":-32600,"message":"invalid request: \"method\" must be a string"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: a message is a JSON object"}}`,
	}
	if len(out) < len(want)+2 {
		t.Fatalf("%d lines:\n%s", len(out), strings.Join(out, "\n"))
	}
	for i, w := range want {
		if out[i] != w {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, out[i], w)
		}
	}
	if !strings.Contains(out[len(want)], `"id":1,"result"`) || !strings.Contains(out[len(want)+1], `"id":11,"result"`) {
		t.Errorf("the session did not go on:\n%s", strings.Join(out[len(want):], "\n"))
	}
}

// TestStdioCancelled: a request the client cancels is not answered.
func TestStdioCancelled(t *testing.T) {
	out, _ := session(t, slowServer(),
		initLine,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"request":"a"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"no longer needed"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","arguments":{"request":"b"}}}`,
	)
	got := strings.Join(out, "\n")
	if strings.Contains(got, `"id":2`) {
		t.Errorf("a cancelled request was answered:\n%s", got)
	}
	if !strings.Contains(got, `"id":3,"result"`) {
		t.Errorf("the next request was not answered:\n%s", got)
	}
}

// TestNoListChanged: the tool list never changes, so the server does not
// say it might.
func TestNoListChanged(t *testing.T) {
	out, _ := session(t, slowServer(), initLine)
	if len(out) != 1 || !strings.Contains(out[0], `"capabilities":{"tools":{}}`) {
		t.Errorf("initialize: %v", out)
	}
}

// worstCaseFiles are files within the byte limits made of what JSON
// escaping multiplies: quotes, backslashes, tabs, control characters,
// <>&, CJK and emoji, long lines; seeded, so failures reproduce.
func worstCaseFiles(seed uint64) map[string]string {
	rng := rand.New(rand.NewPCG(seed, 7))
	alphabet := []string{`"`, `\`, "\t", "<", ">", "&", "\x01", "\x1b", "\u2028", "日", "本", "🦀", "a", " ", "\r"}
	files := map[string]string{}
	for i := 0; i < 6; i++ {
		var b strings.Builder
		lines := 50 + rng.IntN(400)
		for l := 0; l < lines; l++ {
			n := rng.IntN(160)
			if rng.IntN(20) == 0 {
				n = 2000 + rng.IntN(6000)
			}
			for k := 0; k < n; k++ {
				b.WriteString(alphabet[rng.IntN(len(alphabet))])
			}
			b.WriteString(" needle\n")
		}
		name := fmt.Sprintf("d/%s%d.txt", strings.Repeat(`q"<&`, rng.IntN(8)), i)
		files[name] = b.String()
	}
	files[`d/all-quotes.txt`] = strings.Repeat(strings.Repeat(`"`, 150)+" needle\n", 200)
	files[`d/all-tabs.txt`] = strings.Repeat(strings.Repeat("\t", 150)+" needle\n", 200)
	files[`d/all-html.txt`] = strings.Repeat(strings.Repeat("<>&", 50)+" needle\n", 200)
	return files
}

// TestWireBudgetProperty reads every page of generated worst-case files,
// searches and lists them over the real stdio transport, and checks that
// every message written is within MessageBudget code points, and that
// WireCost predicts the message an ID of MaxIDChars gets.
func TestWireBudgetProperty(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		files := worstCaseFiles(seed)
		dir := t.TempDir()
		for p, c := range files {
			p = filepath.Join(dir, filepath.FromSlash(p))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		tree, err := navigate.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		srv := New(Options{Version: "test", Instructions: NavigationInstructions})
		AddNavigation(srv, tree)

		// Seed 3 speaks the sessionless 2026-07-28 protocol, whose results
		// carry the server's identification in _meta: WireCost counts it
		// always, so its prediction is exact there and an upper bound
		// otherwise.
		modern := seed == 3
		lines := []string{initLine, `{"jsonrpc":"2.0","method":"notifications/initialized"}`}
		meta := ""
		if modern {
			lines = nil
			meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}},`
		}
		call := func(name string, args map[string]any) {
			n := fmt.Sprint(len(lines))
			id := `"` + strings.Repeat("i", MaxIDChars-2-len(n)) + n + `"`
			a, _ := json.Marshal(args)
			lines = append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{%s"name":%q,"arguments":%s}}`, id, meta, name, a))
		}
		call("adr_list", map[string]any{"path": "d"})
		call("adr_search", map[string]any{"pattern": "needle"})
		call("adr_search", map[string]any{"pattern": `"`})
		// Every page of every file: pages are found by reading.
		for p, c := range files {
			total := strings.Count(c, "\n")
			for start := 1; start <= total; start += 7 {
				call("adr_read", map[string]any{"path": p, "start_line": start})
			}
		}
		out, _ := session(t, srv, lines...)
		tree.Close()
		results, ok := 0, 0
		for _, l := range out {
			n := utf8.RuneCountInString(l)
			if n > MessageBudget {
				t.Fatalf("seed %d: a message of %d code points: %.300s", seed, n, l)
			}
			var m struct {
				Result *struct {
					Content []struct{ Text string } `json:"content"`
					IsError bool                    `json:"isError"`
				} `json:"result"`
			}
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatal(err)
			}
			if m.Result == nil || len(m.Result.Content) != 1 {
				continue
			}
			results++
			if !m.Result.IsError {
				want := srv.TextCost(m.Result.Content[0].Text)
				if modern && want != n || !modern && (n > want || want-n > 160) {
					t.Errorf("seed %d: WireCost says %d, the message has %d", seed, want, n)
				}
				ok++
			} else if !strings.Contains(m.Result.Content[0].Text, "that one read may hold") {
				// Only a single line too long for any page may fail.
				t.Errorf("seed %d: unexpected error %s", seed, m.Result.Content[0].Text)
			}
			if strings.Contains(l, `\u003c`) || strings.Contains(l, `\u0026`) {
				t.Fatalf("HTML escaping on the wire: %.200s", l)
			}
		}
		if results < 10 || ok < results/2 {
			t.Fatalf("seed %d: %d results, %d of them not errors", seed, results, ok)
		}
	}
}

func TestUnescapeHTML(t *testing.T) {
	for in, want := range map[string]string{
		`"a\u003cb\u003e\u0026"`: `"a<b>&"`,
		`"\\u003c"`:              `"\\u003c"`, // a literal backslash before u003c
		`"\\\u003c"`:             `"\\<"`,
		`"\u2028\n"`:             `"\u2028\n"`,
	} {
		if got := string(unescapeHTML([]byte(in))); got != want {
			t.Errorf("%s: got %s, want %s", in, got, want)
		}
	}
}

// TestStdioIDForms: an ID written 2.0 is the ID 2: its answer ends the
// wait at end of input.
func TestStdioIDForms(t *testing.T) {
	out, took := session(t, slowServer(),
		initLine,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2.0,"method":"tools/call","params":{"name":"slow","arguments":{"request":"a"}}}`,
	)
	if took > 5*time.Second || !strings.Contains(strings.Join(out, "\n"), `"id":2,"result"`) {
		t.Errorf("took %v:\n%s", took, strings.Join(out, "\n"))
	}
}

// TestStdioLongMethod: the error for a call before initialize echoes its
// method shortened, so that the answer stays within MessageBudget.
func TestStdioLongMethod(t *testing.T) {
	out, _ := session(t, slowServer(), `{"jsonrpc":"2.0","id":1,"method":"`+strings.Repeat(`\"`, 20000)+`"}`)
	if len(out) != 1 || utf8.RuneCountInString(out[0]) > MessageBudget || !strings.Contains(out[0], `…\" before initialize`) {
		t.Errorf("%d lines, the first %d code points: %.200s", len(out), utf8.RuneCountInString(out[0]), out[0])
	}
}
