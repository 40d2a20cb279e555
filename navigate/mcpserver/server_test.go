package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/navigate"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect serves srv in process and returns a connected client session.
func connect(t *testing.T, srv *Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st) // the server first: the client initializes on connect
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// navServer serves the navigation tools over a temporary tree.
func navServer(t *testing.T, files map[string]string) (*mcp.ClientSession, string) {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		p = filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tree, err := navigate.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tree.Close() })
	srv := New(Options{Version: "test", Instructions: NavigationInstructions})
	AddNavigation(srv, tree)
	return connect(t, srv), dir
}

// call calls a tool and returns its one text block and whether it is an
// error; it fails the test unless exactly one text block and no
// structured copy came back.
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: protocol error %v", name, args, err)
	}
	if len(res.Content) != 1 || res.StructuredContent != nil {
		t.Fatalf("%s: %d content blocks, structured %v: the result must be sent once", name, len(res.Content), res.StructuredContent)
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s: content %T", name, res.Content[0])
	}
	return tc.Text, res.IsError
}

func TestListTools(t *testing.T) {
	cs, _ := navServer(t, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint || tool.Annotations.OpenWorldHint == nil || *tool.Annotations.OpenWorldHint {
			t.Errorf("%s: annotations %+v, want read-only and closed-world", tool.Name, tool.Annotations)
		}
		if tool.Description == "" || tool.OutputSchema != nil {
			t.Errorf("%s: description %q, output schema %v", tool.Name, tool.Description, tool.OutputSchema)
		}
	}
	if want := []string{"adr_list", "adr_read", "adr_search"}; !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
	b, _ := json.Marshal(res.Tools[1].InputSchema)
	for _, want := range []string{`"required":["path"]`, `"minimum":1,"type":"integer"}`, `"maximum":200`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("adr_read schema %s lacks %s", b, want)
		}
	}
	if ir := cs.InitializeResult(); ir.ServerInfo.Name != "git-adr" || !strings.Contains(ir.Instructions, "adr_read") {
		t.Errorf("initialize: %+v", ir)
	}
}

func TestReadPagesRebuildTheFile(t *testing.T) {
	content := "\ufeffÉcole\r\n" + strings.Repeat("line with \"quotes\" and \\ and \t\r\n", 450) + "日本語 🦀 no final newline"
	cs, _ := navServer(t, map[string]string{"docs/x.md": content})
	var b strings.Builder
	start, pages := 1, 0
	for {
		text, isErr := call(t, cs, "adr_read", map[string]any{"path": "docs/x.md", "start_line": start})
		if isErr {
			t.Fatal(text)
		}
		if n := New(Options{Version: "test"}).TextCost(text); n > MessageBudget {
			t.Fatalf("page of %d code points as sent", n)
		}
		var pg navigate.Page
		if err := json.Unmarshal([]byte(text), &pg); err != nil {
			t.Fatal(err)
		}
		b.WriteString(pg.Content)
		pages++
		if pg.NextStartLine == nil {
			if pg.EOL != "crlf" || pg.FinalNewline || pg.TotalLines != 452 {
				t.Errorf("metadata %+v", pg)
			}
			break
		}
		start = *pg.NextStartLine
	}
	if b.String() != content || pages < 3 {
		t.Errorf("%d pages did not rebuild the file", pages)
	}
}

func TestListPagesThroughAFolder(t *testing.T) {
	files := map[string]string{}
	for i := range 450 {
		files[fmt.Sprintf("d/f%03d", i)] = ""
	}
	cs, _ := navServer(t, files)
	var names []string
	args := map[string]any{"path": "d"}
	for {
		text, isErr := call(t, cs, "adr_list", args)
		if isErr {
			t.Fatal(text)
		}
		var l struct {
			Entries   []navigate.Entry `json:"entries"`
			NextAfter *string          `json:"next_after"`
		}
		if err := json.Unmarshal([]byte(text), &l); err != nil {
			t.Fatal(err)
		}
		for _, e := range l.Entries {
			names = append(names, e.Name)
		}
		if l.NextAfter == nil {
			break
		}
		args["after"] = *l.NextAfter
	}
	if len(names) != 450 || !slices.IsSorted(names) || slices.Compact(slices.Clone(names)) == nil {
		t.Errorf("%d names", len(names))
	}
	text, _ := call(t, cs, "adr_list", map[string]any{})
	if text != `{"entries":[{"name":"d","type":"dir","size":null}],"next_after":null}` {
		t.Errorf("root listing %s", text)
	}
}

func TestSearch(t *testing.T) {
	var many strings.Builder
	for i := range 120 {
		fmt.Fprintf(&many, "needle %d\n", i)
	}
	cs, _ := navServer(t, map[string]string{"a.go": "func (x *T) Match() {}\n", "b.txt": many.String()})
	text, isErr := call(t, cs, "adr_search", map[string]any{"pattern": "(x *T)"})
	if isErr || text != `{"matches":[{"path":"a.go","line":1,"text":"func (x *T) Match() {}"}],"truncated":false,"limits_hit":[],"hint":null}` {
		t.Errorf("literal search: %s", text)
	}
	text, _ = call(t, cs, "adr_search", map[string]any{"pattern": "needle"})
	var res navigate.SearchResult
	if err := json.Unmarshal([]byte(text), &res); err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || len(res.Matches) != 100 || res.Hint == nil || !strings.Contains(*res.Hint, "narrow the search with path") {
		t.Errorf("truncated search: %d matches, hint %v", len(res.Matches), res.Hint)
	}
	// A number where a string is wanted is read as its digits (clients
	// coerce key=value arguments): pattern 7 searches for "7".
	text, isErr = call(t, cs, "adr_search", map[string]any{"pattern": 7, "glob": "b.txt"})
	if isErr || !strings.Contains(text, `needle 7`) {
		t.Errorf("numeric pattern: %s", text)
	}
	text, _ = call(t, cs, "adr_search", map[string]any{"pattern": "NEEDLE 7", "case_sensitive": true, "glob": "*.txt"})
	if !strings.HasPrefix(text, `{"matches":[],`) {
		t.Errorf("case-sensitive: %s", text)
	}
}

func TestToolErrors(t *testing.T) {
	cs, dir := navServer(t, map[string]string{"a.txt": "1\n2\n", "bin": "\x00"})
	for _, c := range []struct {
		tool string
		args any
		want []string
	}{
		{"adr_read", map[string]any{}, []string{`error: missing required argument "path"`, "hint: arguments: line_count (integer), path (string, required), start_line (integer)"}},
		{"adr_read", map[string]any{"path": "a.txt", "lines": 3}, []string{`error: unknown argument "lines"`}},
		{"adr_read", map[string]any{"path": "a.txt", "start_line": "2"}, []string{`error: argument "start_line" must be an integer, not string`}},
		{"adr_read", map[string]any{"path": "a.txt", "start_line": 1.5}, []string{`must be an integer, not number 1.5`}},
		{"adr_read", map[string]any{"path": "a.txt", "start_line": 0}, []string{"error: start_line 0: must be 1 or more", "hint: start_line is 1 or more; line_count is 1 to 200"}},
		{"adr_read", map[string]any{"path": "a.txt", "line_count": 500}, []string{"error: line_count 500: must be between 1 and 200"}},
		{"adr_read", map[string]any{"path": "a.txt", "start_line": 9}, []string{`error: start_line 9 is past the end of "a.txt" (2 lines)`, "hint: the file has 2 lines: read from start_line 2 or less"}},
		{"adr_read", map[string]any{"path": "../etc/passwd"}, []string{`error: "../etc/passwd": outside the repository`, "hint: paths are relative to the repository root"}},
		{"adr_read", map[string]any{"path": filepath.Dir(dir)}, []string{"outside the repository"}},
		{"adr_read", map[string]any{"path": ".git/config"}, []string{"inside .git"}},
		{"adr_read", map[string]any{"path": "bin"}, []string{`error: "bin" holds a NUL byte at offset 0 (line 1): binary file`, "hint: only UTF-8 text files can be read"}},
		{"adr_read", map[string]any{"path": "."}, []string{`error: ".": is a directory`, "hint: list a directory with adr_list"}},
		{"adr_read", map[string]any{"path": "nope.md"}, []string{`no such file or directory`, "hint: list the parent directory with adr_list"}},
		{"adr_list", map[string]any{"path": "a.txt"}, []string{`error: "a.txt": not a directory`}},
		{"adr_search", map[string]any{"pattern": ""}, []string{`error: pattern "": is empty`}},
		{"adr_search", map[string]any{"pattern": "x", "glob": "["}, []string{`error: glob "[": is not a valid glob`, "hint: use a glob such as *.go"}},
		{"adr_search", map[string]any{"pattern": "x", "path": "/"}, []string{"outside the repository"}},
		{"adr_search", []int{1}, []string{"error: arguments must be a JSON object"}},
	} {
		text, isErr := call(t, cs, c.tool, c.args)
		if !isErr {
			t.Errorf("%s %v: not an error: %s", c.tool, c.args, text)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s %v:\n%s\nlacks %q", c.tool, c.args, text, w)
			}
		}
	}
}

type contextArgs struct {
	Request string `json:"request" jsonschema:"what the agent is about to do"`
	Cursor  string `json:"cursor,omitempty" jsonschema:"cursor from the previous answer"`
}

// TestAddTool registers tools the way adr_context will be added, and
// checks budgets, text results and panics.
func TestAddTool(t *testing.T) {
	srv := New(Options{Version: "test"})
	Add(srv, Tool[contextArgs]{
		Name: "adr_context", Description: "decisions in force for a request", Budget: 300,
		Handle: func(_ context.Context, a contextArgs) (any, error) {
			if a.Request == "boom" {
				panic("boom")
			}
			if a.Request == "fail" {
				return nil, WithHints(fmt.Errorf("no ADR directory"), "run `git adr init`")
			}
			return Text(strings.Repeat("x", len(a.Request))), nil
		},
	})
	if got := srv.Tools(); !slices.Equal(got, []string{"adr_context"}) {
		t.Fatalf("tools %v", got)
	}
	cs := connect(t, srv)
	if text, isErr := call(t, cs, "adr_context", map[string]any{"request": "abc"}); isErr || text != "xxx" {
		t.Errorf("text result %q %v", text, isErr)
	}
	text, isErr := call(t, cs, "adr_context", map[string]any{"request": strings.Repeat("y", 100)})
	if !isErr || !strings.Contains(text, "over the 300-code-point budget of adr_context") {
		t.Errorf("budget: %q", text)
	}
	text, isErr = call(t, cs, "adr_context", map[string]any{"request": "fail"})
	if !isErr || text != "error: no ADR directory\nhint: run `git adr init`" {
		t.Errorf("error: %q", text)
	}
	text, isErr = call(t, cs, "adr_context", map[string]any{"request": "boom"})
	if !isErr || !strings.Contains(text, "internal error in adr_context: boom") {
		t.Errorf("panic: %q", text)
	}
	// The server survives.
	if text, isErr := call(t, cs, "adr_context", map[string]any{"request": "ok"}); isErr || text != "xx" {
		t.Errorf("after a panic: %q", text)
	}
	// An unknown tool is a protocol error, not a crash.
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "adr_nope"}); err == nil {
		t.Error("unknown tool answered")
	}
}
