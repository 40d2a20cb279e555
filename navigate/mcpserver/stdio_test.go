package mcpserver

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// TestStdioAnswersBeforeEnding sends requests and closes the input at
// once: every request is still answered before the session ends.
func TestStdioAnswersBeforeEnding(t *testing.T) {
	srv := New(Options{Version: "test"})
	Add(srv, Tool[contextArgs]{
		Name: "slow", Description: "answers after a while",
		Handle: func(_ context.Context, a contextArgs) (any, error) {
			time.Sleep(50 * time.Millisecond)
			return Text(a.Request), nil
		},
	})
	in := io.NopCloser(strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"request":"a"}}}`,
		`{"jsonrpc":"2.0","id":"three","method":"tools/call","params":{"name":"slow","arguments":{"request":"b"}}}`,
	}, "\n") + "\n"))
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- srv.Run(context.Background(), StdioTransport(in, pw))
		pw.Close()
	}()
	var lines []string
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	<-done
	got := strings.Join(lines, "\n")
	for _, want := range []string{`"id":1,"result"`, `"id":2,"result":{"content":[{"type":"text","text":"a"}]}`, `"id":"three","result":{"content":[{"type":"text","text":"b"}]}`} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in\n%s", want, got)
		}
	}
}
