package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestInspectorCLI drives `git adr mcp` with the official MCP Inspector's
// command-line client (node), once per protocol era it negotiates: legacy
// (initialize, 2025-era) and modern (2026-07-28, sessionless). Each run
// starts the real binary, asks one thing and ends it. Tool schemas pass
// the Inspector's --strict portability check; tool errors come back as
// results with isError. It needs node and GIT_ADR_MCP_INSPECTOR naming a folder
// where `npm install --prefix DIR @modelcontextprotocol/inspector@2.12.0`
// was run (.ci/run does it).
func TestInspectorCLI(t *testing.T) {
	dir := os.Getenv("GIT_ADR_MCP_INSPECTOR")
	if _, err := exec.LookPath("node"); err != nil || dir == "" {
		t.Skip("needs node and GIT_ADR_MCP_INSPECTOR=DIR with @modelcontextprotocol/inspector installed (npm install --prefix DIR @modelcontextprotocol/inspector@2.12.0; .ci/run does this)")
	}
	launcher := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	if _, err := os.Stat(launcher); err != nil {
		t.Skipf("GIT_ADR_MCP_INSPECTOR=%s has no Inspector: %v", dir, err)
	}
	gitadr, err := exec.LookPath("git-adr")
	if err != nil {
		t.Fatal(err)
	}
	repo := clientRepo(t)
	// inspect runs one Inspector CLI call and returns its exit code and
	// the JSON result it printed.
	server := []string{gitadr, "mcp"}
	inspect := func(t *testing.T, era string, args ...string) (int, map[string]any) {
		t.Helper()
		argv := append(append([]string{launcher, "--cli", "--protocol-era", era, "--format", "json", "-q",
			"--cwd", repo}, server...), args...)
		cmd := exec.Command("node", argv...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(repo), "HOME="+t.TempDir())
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("inspector %v: %v", args, err)
		}
		if c := utf8.RuneCount(out); c > 12000 {
			t.Errorf("%v: a result of %d code points", args, c)
		}
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("inspector %v: exit %d, %v\n%s%s", args, code, err, out, stderr.String())
		}
		return code, v
	}
	text := func(v map[string]any) string {
		res, _ := v["result"].(map[string]any)
		content, _ := res["content"].([]any)
		if len(content) == 0 {
			return ""
		}
		first, _ := content[0].(map[string]any)
		s, _ := first["text"].(string)
		return s
	}
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			// --strict exits 6 on any tool schema portability error.
			code, v := inspect(t, era, "--method", "tools/list", "--strict")
			if code != 0 {
				t.Errorf("tools/list --strict: exit %d: %v", code, v)
			}
			res, _ := v["result"].(map[string]any)
			tools, _ := res["tools"].([]any)
			var names []string
			for _, tl := range tools {
				m, _ := tl.(map[string]any)
				names = append(names, m["name"].(string))
			}
			if strings.Join(names, " ") != "adr_context adr_list adr_read adr_search adr_show" {
				t.Errorf("tools %v", names)
			}
			for _, c := range []struct {
				args []string
				code int
				want string
			}{
				{[]string{"--tool-name", "adr_context", "--tool-arg", "task=which database stores orders"}, 0, `"status":"accepted","text":"Orders are stored in PostgreSQL`},
				{[]string{"--tool-name", "adr_show", "--tool-arg", "id=1"}, 0, `"in_force":false`},
				{[]string{"--tool-name", "adr_read", "--tool-arg", "path=quotes.txt"}, 0, `"next_start_line":`},
				{[]string{"--tool-name", "adr_search", "--tool-arg", "pattern=needle"}, 0, `"truncated":true`},
				{[]string{"--tool-name", "adr_list"}, 0, `"name":"quotes.txt"`},
				// A tool error is a result with isError (the Inspector exits 5).
				{[]string{"--tool-name", "adr_context", "--tool-arg", "lines=3"}, 5, `error: unknown argument "lines"`},
				{[]string{"--tool-name", "adr_read", "--tool-arg", "path=../outside"}, 5, "error:"},
			} {
				code, v := inspect(t, era, append([]string{"--method", "tools/call"}, c.args...)...)
				if code != c.code || !strings.Contains(text(v), c.want) {
					t.Errorf("%v: exit %d (want %d), %.300s", c.args, code, c.code, text(v))
				}
			}
		})
	}
	// The writing tools (git adr mcp --allow-propose): their schemas pass
	// --strict too, a proposal is written, and a second one of the same
	// title is a tool error.
	server = []string{gitadr, "mcp", "--allow-propose"}
	for i, era := range []string{"legacy", "modern"} {
		t.Run("propose-"+era, func(t *testing.T) {
			code, v := inspect(t, era, "--method", "tools/list", "--strict")
			res, _ := v["result"].(map[string]any)
			if tools, _ := res["tools"].([]any); code != 0 || len(tools) != 7 {
				t.Errorf("tools/list --strict: exit %d, %d tools", code, len(tools))
			}
			title := fmt.Sprintf("Cache order reads %s", era)
			args := []string{"--method", "tools/call", "--tool-name", "adr_propose", "--tool-arg", "title=" + title,
				"--tool-arg", "context=Order reads are slow.", "--tool-arg", "decision=We cache them.", "--tool-arg", `amends=["2"]`}
			code, v = inspect(t, era, args...)
			want := fmt.Sprintf(`{"id":"ADR-%04d","path":"doc/adr/%04d-cache-order-reads-%s.md","title":%q,"status":"proposed","links":[{"relation":"Amends","target":"ADR-0002"`, 3+i, 3+i, era, title)
			if code != 0 || !strings.HasPrefix(text(v), want) {
				t.Errorf("adr_propose: exit %d, %.400s", code, text(v))
			}
			if code, v = inspect(t, era, args...); code != 5 || !strings.Contains(text(v), "already has a record titled") {
				t.Errorf("adr_propose again: exit %d, %.300s", code, text(v))
			}
		})
	}
}
