package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// mcpClientMain is a minimal MCP client for scenarios, run as the program
// mcp-client:
//
//	mcp-client FILE [COMMAND [ARGS...]]
//
// It starts COMMAND (default: git adr mcp) as a subprocess, sends each
// line of FILE to its stdin as one JSON-RPC message (blank lines and lines
// starting with # are skipped), and after each request (a message with an
// id) waits for the response with that id. A tool result is printed as
// "id N" (plus " isError") and then its text content; any other response
// as one JSON line with sorted keys. A line starting with "?" is sent
// without printing its response. At the end it closes stdin and waits for
// the server to exit. Exit 1 on a timeout, malformed output or a failed
// server.
func mcpClientMain() int {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: mcp-client FILE [COMMAND [ARGS...]]")
		return 2
	}
	script, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	argv := []string{"git", "adr", "mcp"}
	if len(os.Args) > 2 {
		argv = os.Args[2:]
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	lines := make(chan []byte)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			lines <- bytes.Clone(sc.Bytes())
		}
		close(lines)
	}()
	fail := func(format string, args ...any) int {
		fmt.Fprintf(os.Stderr, "mcp-client: "+format+"\n", args...)
		cmd.Process.Kill()
		cmd.Wait()
		return 1
	}
	for _, line := range strings.Split(string(script), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		quiet := strings.HasPrefix(line, "?")
		line = strings.TrimPrefix(line, "?")
		var msg struct {
			ID json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			return fail("bad message in %s: %v", os.Args[1], err)
		}
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			return fail("write: %v", err)
		}
		if len(msg.ID) == 0 {
			continue // a notification: no answer
		}
		for answered := false; !answered; {
			select {
			case out, ok := <-lines:
				if !ok {
					return fail("the server closed stdout before answering %s", msg.ID)
				}
				var resp map[string]any
				if err := json.Unmarshal(out, &resp); err != nil {
					return fail("not JSON on stdout: %q", out)
				}
				id, _ := json.Marshal(resp["id"])
				answered = bytes.Equal(id, normID(msg.ID))
				if !answered || !quiet {
					printResponse(resp, id)
				}
			case <-time.After(20 * time.Second):
				return fail("no answer to %s after 20s", msg.ID)
			}
		}
	}
	stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			fmt.Fprintf(os.Stderr, "mcp-client: server: %v\n", err)
			return 1
		}
	case <-time.After(10 * time.Second):
		return fail("the server did not exit after stdin closed")
	}
	for extra := range lines {
		fmt.Printf("unexpected: %s\n", extra)
	}
	return 0
}

func normID(raw json.RawMessage) []byte {
	var v any
	json.Unmarshal(raw, &v)
	b, _ := json.Marshal(v)
	return b
}

// printResponse prints a tool result as "id N" and its text, anything
// else as one JSON line with sorted keys.
func printResponse(resp map[string]any, id []byte) {
	res, _ := resp["result"].(map[string]any)
	if content, ok := res["content"].([]any); ok {
		status := ""
		if res["isError"] == true {
			status = " isError"
		}
		fmt.Printf("id %s%s\n", id, status)
		for _, c := range content {
			m, _ := c.(map[string]any)
			if m["type"] == "text" {
				fmt.Printf("%s\n", m["text"])
			} else {
				fmt.Printf("(%v content)\n", m["type"])
			}
		}
		return
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(resp)
	os.Stdout.Write(b.Bytes())
}
