package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/git-adr/git-adr/navigate/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// clientRepo makes a git repository with a small decision log and files
// that JSON escaping multiplies, for the real-client tests.
func clientRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"doc/adr/0001-use-mysql.md":      "# 1. Use MySQL\n\nDate: 2026-01-01\n\n## Status\n\nSuperseded by [2. Use PostgreSQL](0002-use-postgresql.md)\n\n## Decision\n\nOrders are stored in MySQL.\n",
		"doc/adr/0002-use-postgresql.md": "# 2. Use PostgreSQL\n\nDate: 2026-02-01\n\n## Status\n\nAccepted\n\nSupersedes [1. Use MySQL](0001-use-mysql.md)\n\n## Decision\n\nOrders are stored in PostgreSQL.\n",
		"quotes.txt":                     strings.Repeat(strings.Repeat(`"<&>`+"\t", 30)+" needle\n", 300),
	}
	for p, c := range files {
		p = filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("git", "init", "-q")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	return dir
}

// TestGoSDKClient2026 drives `git adr mcp` (the real binary, over its
// stdio) with the official Go SDK's client on protocol 2026-07-28: the
// sessionless discovery, every tool, then Close, which closes stdin and
// must find the server gone at once (well before the client would stop it).
func TestGoSDKClient2026(t *testing.T) {
	dir := clientRepo(t)
	cmd := exec.Command("git-adr", "mcp")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "go-sdk-test", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 10 * time.Second}, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if strings.Join(names, " ") != "adr_context adr_list adr_read adr_search adr_show" {
		t.Errorf("tools %v", names)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"adr_context", map[string]any{"task": "which database stores orders"}, `"status":"accepted","text":"Orders are stored in PostgreSQL`},
		{"adr_show", map[string]any{"id": "1"}, `"in_force":false`},
		{"adr_read", map[string]any{"path": "quotes.txt"}, `"next_start_line":`},
		{"adr_search", map[string]any{"pattern": "needle"}, `"truncated":true`},
		{"adr_list", map[string]any{}, `"name":"quotes.txt"`},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s: %v", c.tool, err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError || !strings.Contains(text, c.want) {
			t.Errorf("%s: isError %v, %.300s", c.tool, res.IsError, text)
		}
	}
	start := time.Now()
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	// A server that waited for its open stream would be stopped by the
	// client after TerminateDuration (10 s); one that exits at end of
	// input takes milliseconds. The bound lies far from both, so that a
	// busy machine does not fail it.
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the server took %v to exit after its input closed", d)
	}
}

// TestTypeScriptSDKClient drives `git adr mcp` with the official MCP
// TypeScript SDK's client (node): it lists the tools, reads every page of
// a file of quotes, tabs and <>&, calls the other tools and a bad
// argument, and closes. Every message the server wrote is checked here:
// at most 12,000 code points, no HTML escaping, the pages rebuild the
// file. It needs node and the SDK: GIT_ADR_MCP_SDK names a folder where
// `npm install --prefix DIR @modelcontextprotocol/sdk@1.32.2` was run
// (.ci/run does it when npm can reach the registry).
func TestTypeScriptSDKClient(t *testing.T) {
	dir := clientRepo(t)
	wire := filepath.Join(t.TempDir(), "wire.jsonl")
	out := runTSClient(t, dir, tsClient, "WIRE="+wire)
	var got struct {
		Tools   []string `json:"tools"`
		Pages   int      `json:"pages"`
		Content string   `json:"content"`
		Results []string `json:"results"`
		BadArg  string   `json:"bad_arg"`
		CloseMS float64  `json:"close_ms"`
	}
	if err := json.Unmarshal(lastLine(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if strings.Join(got.Tools, " ") != "adr_context adr_list adr_read adr_search adr_show" {
		t.Errorf("tools %v", got.Tools)
	}
	want, _ := os.ReadFile(filepath.Join(dir, "quotes.txt"))
	if got.Content != string(want) || got.Pages < 2 {
		t.Errorf("%d pages did not rebuild the file", got.Pages)
	}
	if !strings.Contains(got.BadArg, `error: unknown argument "lines"`) {
		t.Errorf("bad argument: %q", got.BadArg)
	}
	f, err := os.Open(wire)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	n, protocol := 0, ""
	for sc.Scan() {
		n++
		line := sc.Text()
		if i := strings.Index(line, `"protocolVersion":"`); i >= 0 && protocol == "" {
			protocol, _, _ = strings.Cut(line[i+len(`"protocolVersion":"`):], `"`)
		}
		if c := utf8.RuneCountInString(line); c > 12000 {
			t.Errorf("a message of %d code points: %.200s", c, line)
		}
		if strings.Contains(line, `\u003c`) || strings.Contains(line, `\u0026`) {
			t.Errorf("HTML escaping on the wire: %.200s", line)
		}
	}
	if n < got.Pages+5 {
		t.Errorf("only %d messages on the wire", n)
	}
	t.Logf("TypeScript SDK client: protocol %s, %d messages, %d pages, exit %.0f ms after close", protocol, n, got.Pages, got.CloseMS)
	if got.CloseMS > 1000 {
		t.Errorf("the server took %.0f ms to exit after close", got.CloseMS)
	}
}

// runTSClient runs source, a client of the official MCP TypeScript SDK,
// with node in dir and returns its output: SDK names the SDK's ESM folder,
// GITADR the git-adr binary. It skips without node and the SDK:
// GIT_ADR_MCP_SDK names a folder where `npm install --prefix DIR
// @modelcontextprotocol/sdk@1.32.2` was run (.ci/run does it when npm can
// reach the registry).
func runTSClient(t *testing.T, dir, source string, env ...string) []byte {
	t.Helper()
	sdk := os.Getenv("GIT_ADR_MCP_SDK")
	if _, err := exec.LookPath("node"); err != nil || sdk == "" {
		t.Skip("needs node and GIT_ADR_MCP_SDK=DIR with @modelcontextprotocol/sdk installed (npm install --prefix DIR @modelcontextprotocol/sdk@1.32.2; .ci/run does this)")
	}
	esm := filepath.Join(sdk, "node_modules", "@modelcontextprotocol", "sdk", "dist", "esm")
	if _, err := os.Stat(filepath.Join(esm, "client", "index.js")); err != nil {
		t.Skipf("GIT_ADR_MCP_SDK=%s has no @modelcontextprotocol/sdk: %v", sdk, err)
	}
	script := filepath.Join(t.TempDir(), "client.mjs")
	if err := os.WriteFile(script, []byte(source), 0o644); err != nil {
		t.Fatal(err)
	}
	gitadr, err := exec.LookPath("git-adr")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", script)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "SDK="+esm, "GITADR="+gitadr, "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir)), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node client: %v\n%s", err, out)
	}
	return out
}

func lastLine(b []byte) []byte {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return []byte(lines[len(lines)-1])
}

// tsClient is the TypeScript SDK client: the server runs as
// `sh -c 'git-adr mcp | tee WIRE'`, so every message it writes is kept.
const tsClient = `
const { Client } = await import(process.env.SDK + "/client/index.js");
const { StdioClientTransport } = await import(process.env.SDK + "/client/stdio.js");
const transport = new StdioClientTransport({
  command: "sh",
  args: ["-c", 'exec "$GITADR" mcp | tee "$WIRE"'],
  env: process.env,
  stderr: "inherit",
});
const client = new Client({ name: "ts-sdk-test", version: "1" });
await client.connect(transport);
const text = (r) => r.content[0].text;
const tools = (await client.listTools()).tools.map((t) => t.name).sort();
let start = 1, pages = 0, content = "";
for (;;) {
  const r = await client.callTool({ name: "adr_read", arguments: { path: "quotes.txt", start_line: start } });
  if (r.isError) throw new Error(text(r));
  const pg = JSON.parse(text(r));
  content += pg.content;
  pages++;
  if (pg.next_start_line === null) break;
  start = pg.next_start_line;
}
const results = [];
for (const [name, args] of [["adr_context", { task: "which database stores orders" }], ["adr_show", { id: "2" }],
  ["adr_search", { pattern: "needle" }], ["adr_list", {}]]) {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(name + ": " + text(r));
  results.push(text(r).slice(0, 80));
}
const bad = await client.callTool({ name: "adr_read", arguments: { path: "quotes.txt", lines: 3 } });
const t0 = performance.now();
const exited = new Promise((resolve) => transport._process.once("exit", resolve));
await client.close();
await exited;
const close_ms = performance.now() - t0;
console.log(JSON.stringify({ tools, pages, content, results, bad_arg: text(bad), close_ms }));
`

// TestMCPBudgetOverCorpora serves every shared corpus with the real binary
// and walks it with the Go SDK client (walkCorpus): every page of every
// tool's answers. Every message the server writes (kept by tee) must be
// within 12,000 code points, and no tool may fail unexpectedly.
func TestMCPBudgetOverCorpora(t *testing.T) {
	root := corporaDir()
	if root == "" {
		t.Skip("shared corpora not found (set GIT_ADR_CORPORA)")
	}
	if testing.Short() {
		t.Skip("walks every corpus")
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) { walkCorpus(t, filepath.Join(root, e.Name())) })
	}
}

// walkCorpus serves the decision log in src with the real binary and
// drives every tool over every page of it with the Go SDK client: every
// directory page, every page of every file, searches, adr_context for the
// overview, every record (current and history) and tasks (8 units and 1),
// each followed through its cursors to the end, and adr_show of every
// record and of every unit it lists, every page (the pages of a record
// file must rebuild it). A tool error fails the test unless it is one no
// page can avoid (expectedToolError). Every message the server writes
// (kept by tee, the whole JSON-RPC line) must be within 12,000 code
// points.
func walkCorpus(t *testing.T, src string) {
	dir := filepath.Join(t.TempDir(), "repo")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	wire := filepath.Join(t.TempDir(), "wire.jsonl")
	cmd := exec.Command("sh", "-c", `exec git-adr mcp | tee "$WIRE"`)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "WIRE="+wire, "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "walk", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	calls, expected := 0, 0
	tooLong := 0 // the line the last call said was too long, or 0
	call := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		calls++
		tooLong = 0
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s %v: %v", tool, args, err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError {
			if tooLong = expectedToolError(t, dir, tool, text); tooLong == 0 {
				t.Errorf("%s %v: %.600s", tool, args, text)
			} else {
				expected++
			}
			return nil
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			t.Errorf("%s %v: not JSON: %v: %.200s", tool, args, err, text)
		}
		return v
	}
	// context calls adr_context and then follows its cursor to the end.
	context := func(args map[string]any) map[string]any {
		t.Helper()
		first := call("adr_context", args)
		v := first
		for pages := 1; v != nil; pages++ {
			c, _ := v["cursor"].(string)
			if c == "" {
				break
			}
			if pages == 500 {
				t.Fatalf("adr_context %v: still a cursor after %d pages", args, pages)
			}
			v = call("adr_context", map[string]any{"cursor": c})
		}
		return first
	}
	// show calls adr_show for id, every page (a line too long for one
	// page continues at next_start_char); it returns the first page and
	// the text of all pages.
	show := func(id string) (map[string]any, string) {
		t.Helper()
		var first map[string]any
		var text strings.Builder
		args := map[string]any{"id": id}
		for pages := 1; ; pages++ {
			v := call("adr_show", args)
			if first == nil {
				first = v
			}
			if v == nil {
				break
			}
			text.WriteString(v["content"].(string))
			if v["next_start_line"] == nil {
				break
			}
			args = map[string]any{"id": id, "start_line": v["next_start_line"]}
			if c, ok := v["next_start_char"]; ok {
				args["start_char"] = c
			}
			if pages == 2000 {
				t.Fatalf("adr_show %s: still a next page after %d pages", id, pages)
			}
		}
		return first, text.String()
	}
	// Every directory, every page; every file, every page.
	dirs := []string{"."}
	var files []string
	for len(dirs) > 0 {
		d := dirs[0]
		dirs = dirs[1:]
		after := ""
		for {
			v := call("adr_list", map[string]any{"path": d, "after": after})
			if v == nil {
				break
			}
			for _, x := range v["entries"].([]any) {
				en := x.(map[string]any)
				p := filepath.ToSlash(filepath.Join(d, en["name"].(string)))
				switch en["type"] {
				case "dir":
					dirs = append(dirs, p)
				case "file":
					files = append(files, p)
				}
			}
			next, _ := v["next_after"].(string)
			if next == "" {
				break
			}
			after = next
		}
	}
	for _, f := range files {
		for start := 1.0; ; {
			v := call("adr_read", map[string]any{"path": f, "start_line": start})
			if v == nil && tooLong > 0 {
				// The error was checked: read on after the line.
				data, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
				if tooLong >= len(strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")) {
					break
				}
				start = float64(tooLong + 1)
				continue
			}
			if v == nil || v["next_start_line"] == nil {
				break
			}
			start = v["next_start_line"].(float64)
		}
	}
	for _, p := range []string{"the", "ADR", `"`, "Decision", "<"} {
		call("adr_search", map[string]any{"pattern": p})
	}
	// The decision log: overview, every record by ID (context and show,
	// every page, every unit), and tasks.
	if ov := context(map[string]any{}); ov == nil {
		t.Fatal("no overview")
	}
	out, err := exec.Command("git-adr", "-C", dir, "list", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var recs []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(out, &recs); err != nil {
		t.Fatal(err)
	}
	units := 0
	for _, r := range recs {
		context(map[string]any{"id": r.ID})
		context(map[string]any{"id": r.ID, "intent": "history"})
		pg, text := show(r.ID)
		if pg == nil {
			continue
		}
		rec := pg["record"].(map[string]any)
		if _, section := rec["lines"]; !section {
			// The pages of a record file rebuild the file.
			if want, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rec["path"].(string)))); err != nil || text != string(want) {
				t.Errorf("adr_show %s: the pages do not rebuild %s (%d of %d bytes, %v)", r.ID, rec["path"], len(text), len(want), err)
			}
		}
		for _, u := range pg["units"].([]any) {
			units++
			show(u.(string))
		}
	}
	for _, task := range []string{"which database do we use", "how are records numbered and named", "security of the deployment pipeline"} {
		context(map[string]any{"task": task})
		context(map[string]any{"task": task, "max_units": 1})
	}
	cs.Close()
	data, err := os.ReadFile(wire)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	biggest := 0
	for _, l := range lines {
		n := utf8.RuneCountInString(l)
		biggest = max(biggest, n)
		if n > 12000 {
			t.Errorf("a message of %d code points: %.200s", n, l)
		}
	}
	if len(lines) < calls {
		t.Errorf("%d calls, only %d messages on the wire", calls, len(lines))
	}
	t.Logf("%d calls (%d files, %d records, %d units; %d lines too long for adr_read), %d messages, the largest %d code points",
		calls, len(files), len(recs), units, expected, len(lines), biggest)
}

// TestMCPBudgetWorstCase walks a generated log whose records are made of
// what escaping multiplies (quotes, backslashes, tabs, control characters,
// <>&, CJK, emoji, long lines) the same way: every tool, every page, every
// message within 12,000 code points.
func TestMCPBudgetWorstCase(t *testing.T) {
	src := t.TempDir()
	alphabet := []string{`"`, `\`, "\t", "<", ">", "&", "\x01", "日本", "🦀", "word ", "\u2028"}
	for n := 1; n <= 6; n++ {
		var b strings.Builder
		for l := 0; l < 40*n; l++ {
			width := 20 + (l*37)%180
			if l%17 == 0 {
				width = 2500
			}
			for k := 0; k < width; k++ {
				b.WriteString(alphabet[(k*7+l*3+n)%len(alphabet)])
			}
			b.WriteString(" database\n")
		}
		body := b.String()
		rec := "# " + strings.Repeat(`"<&>`, n) + " use a database\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n\n## Context\n\n" + body +
			"\n## Decision\n\n" + body + "\n## Consequences\n\n" + body
		p := filepath.Join(src, "doc", "adr", strings.Repeat("0", 3)+string(rune('0'+n))+"-worst.md")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(rec), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Records whose every character escaping multiplies: a title of
	// 4,000 quotes, a status and a relation label of 3,000, a decision of
	// dense quoted lines (parts, not whole units, fit), and lines longer
	// than any message (control characters, U+2028, tabs, backslashes):
	// adr_context splits them, adr_show cuts such a line across pages
	// (next_start_char) and adr_read says it is too long.
	q := func(n int) string { return strings.Repeat(`"`, n) }
	extra := map[string]string{
		"0007-title.md": "# " + q(4000) + "\n\n## Status\n\nAccepted\n\n## Decision\n\nWe use a database.\n",
		"0008-dense.md": "# 8. Dense\n\n## Status\n\n" + q(3000) + " superseded by [" + q(3000) + "](0007-title.md)\n\n## Decision\n\n" +
			strings.Repeat(q(150)+" database\n", 300),
		"0009-long-lines.md": "# 9. Long lines\n\n## Status\n\nAccepted\n\n## Decision\n\n" + strings.Repeat("\x01", 5000) + "\n" +
			strings.Repeat("\u2028", 4000) + " database\n" + strings.Repeat("\t", 8000) + "\n" + strings.Repeat(`\`, 9000) + "\nend\n",
	}
	for name, rec := range extra {
		if err := os.WriteFile(filepath.Join(src, "doc", "adr", name), []byte(rec), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	walkCorpus(t, src)
}

// expectedToolError says which line a tool error no page can avoid names
// (0: the error is not one of those): a single line
// of a file that takes more than one adr_read page may hold as sent
// (adr_read, unlike adr_show and adr_context, does not cut lines). The
// error must name the line, and the line must really cost what it says,
// more than a page holds: anything else fails the walk.
func expectedToolError(t *testing.T, dir, tool, text string) int {
	t.Helper()
	m := lineTooLong.FindStringSubmatch(text)
	if m == nil || tool != "adr_read" {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	if n < 1 {
		t.Errorf("%s: %s", tool, text)
		return 1
	}
	claimed, _ := strconv.Atoi(m[3])
	room, _ := strconv.Atoi(m[4])
	path, err := strconv.Unquote(m[2])
	if err != nil {
		t.Errorf("%s: %v", text, err)
		return n
	}
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path)))
	if err != nil {
		t.Errorf("%s names %q: %v", tool, path, err)
		return n
	}
	lines := strings.SplitAfter(string(data), "\n")
	if n > len(lines) {
		t.Errorf("%s names line %d of %s, which has %d lines", tool, n, path, len(lines))
		return n
	}
	// A page's envelope takes far less than a fifth of the budget.
	if c := mcpserver.InTextCost(strings.TrimSuffix(lines[n-1], "\n")); c < claimed-4 || c <= room || room < mcpserver.MessageBudget*4/5 {
		t.Errorf("%s: line %d of %s takes %d code points as sent: %s", tool, n, path, c, text)
	}
	return n
}

// lineTooLong is adr_read's error for a line no page can hold.
var lineTooLong = regexp.MustCompile(`^error: line (\d+) of ("(?:[^"\\]|\\.)*") takes (\d+) code points as sent, over the (\d+) `)

// TestTypeScriptSDKClientPropose drives `git adr mcp --allow-propose` with
// the official MCP TypeScript SDK's client: the writing tools are listed
// with readOnlyHint false, adr_propose writes a proposed record (its
// answer names the next steps, accepting among them), adr_link links it,
// and a bad text is a tool error that writes nothing.
func TestTypeScriptSDKClientPropose(t *testing.T) {
	dir := clientRepo(t)
	out := runTSClient(t, dir, tsProposeClient)
	var got struct {
		Writing []string `json:"writing"`
		Propose struct {
			ID   string `json:"id"`
			Path string `json:"path"`
			Next []struct {
				Command string `json:"command"`
			} `json:"next"`
		} `json:"propose"`
		Link string `json:"link"`
		Bad  string `json:"bad"`
	}
	if err := json.Unmarshal(lastLine(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if strings.Join(got.Writing, " ") != "adr_link adr_propose" {
		t.Errorf("tools that write: %v", got.Writing)
	}
	accept := false
	for _, s := range got.Propose.Next {
		accept = accept || s.Command == "git adr decide ADR-0003 accept"
	}
	if got.Propose.ID != "ADR-0003" || !accept {
		t.Errorf("adr_propose: %+v", got.Propose)
	}
	data, err := os.ReadFile(filepath.Join(dir, got.Propose.Path))
	if err != nil || !strings.Contains(string(data), "## Status\n\nProposed\n") || !strings.Contains(string(data), "Relates to [2. Use PostgreSQL](0002-use-postgresql.md)") {
		t.Errorf("%s: %v\n%s", got.Propose.Path, err, data)
	}
	if !strings.Contains(got.Link, `"changed":true`) || !strings.HasPrefix(got.Bad, `error: argument "decision": it leaves a code fence open`) {
		t.Errorf("link %q, bad text %q", got.Link, got.Bad)
	}
	if _, err := os.Stat(filepath.Join(dir, "doc/adr/0004-bad.md")); err == nil {
		t.Error("the refused proposal was written")
	}
}

const tsProposeClient = `
const { Client } = await import(process.env.SDK + "/client/index.js");
const { StdioClientTransport } = await import(process.env.SDK + "/client/stdio.js");
const transport = new StdioClientTransport({ command: process.env.GITADR, args: ["mcp", "--allow-propose"], env: process.env, stderr: "inherit" });
const client = new Client({ name: "ts-sdk-propose", version: "1" });
await client.connect(transport);
const text = (r) => r.content[0].text;
const writing = (await client.listTools()).tools.filter((t) => t.annotations && t.annotations.readOnlyHint === false).map((t) => t.name).sort();
const p = await client.callTool({ name: "adr_propose", arguments: { title: "Archive old orders", context: "The orders table grows.",
  decision: "We move orders older than two years to cold storage.", consequences: "Old orders load slower.", relates_to: ["2"] } });
if (p.isError) throw new Error(text(p));
const propose = JSON.parse(text(p));
const l = await client.callTool({ name: "adr_link", arguments: { id: propose.id, relation: "amends", target: "1" } });
const bad = await client.callTool({ name: "adr_propose", arguments: { title: "Bad", context: "c", decision: "~~~\nunclosed" } });
await client.close();
console.log(JSON.stringify({ writing, propose, link: text(l), bad: text(bad) }));
`
