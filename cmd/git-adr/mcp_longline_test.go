package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/git-adr/git-adr/navigate/mcpserver"
)

// TestMCPLineOverLimit drives `git adr mcp` (the real binary, through a
// real pipe) with one input line over mcpserver.MaxLineBytes between two
// requests, then ends its input: the long line gets -32600, the request
// after it is answered, and the server exits at end of input. It used to
// stop reading after the long line, answer nothing more and never exit.
func TestMCPLineOverLimit(t *testing.T) {
	dir := clientRepo(t)
	long := `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"` + strings.Repeat("x", mcpserver.MaxLineBytes) + `"}}`
	ping1 := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"
	ping3 := `{"jsonrpc":"2.0","id":3,"method":"ping"}` + "\n"
	answer1 := `{"jsonrpc":"2.0","id":1,"result":{}}`
	tooLong := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"the message is over 4194304 bytes"}}`
	answer3 := `{"jsonrpc":"2.0","id":3,"result":{}}`
	t.Run("between requests", func(t *testing.T) {
		mcpSession(t, dir, ping1+long+"\n"+ping3, answer1, tooLong, answer3)
	})
	t.Run("last, without a newline", func(t *testing.T) {
		mcpSession(t, dir, ping1+long, answer1, tooLong)
	})
}

// mcpSession writes input to a `git adr mcp` started in dir, closes its
// input and checks that it answers the lines of want, in any order, and
// exits.
func mcpSession(t *testing.T, dir, input string, want ...string) {
	t.Helper()
	cmd := exec.Command("git-adr", "mcp")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		exited <- cmd.Wait()
	}()
	go func() {
		io.WriteString(in, input)
		in.Close()
	}()
	var got []string
	// A server that hangs fails here; the bound only detects the hang.
	deadline := time.After(2 * mcpserver.DrainTimeout)
	for done := false; !done; {
		select {
		case l, ok := <-lines:
			if !ok {
				done = true
				break
			}
			got = append(got, l)
		case <-deadline:
			cmd.Process.Kill()
			t.Fatalf("git adr mcp neither answered nor exited; it wrote:\n%s\nstderr: %s", strings.Join(got, "\n"), stderr.String())
		}
	}
	if err := <-exited; err != nil {
		t.Errorf("git adr mcp: %v\n%s", err, stderr.String())
	}
	// JSON-RPC answers need not come in the order of the requests: the
	// server answers requests as they finish, and the reader rejects a
	// line over the limit as soon as it has read past it (under load the
	// rejection of a long last line came before the answer to the ping
	// read before it).
	slices.Sort(got)
	want = slices.Sorted(slices.Values(want))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("answers (sorted):\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
