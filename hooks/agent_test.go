package hooks

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/guard"
	"github.com/git-adr/git-adr/internal/confine"
)

// demo is the layout the hook inputs in testdata were captured in (the
// agent harness's demo repository with ADR-0002 archived).
var demo = map[string]string{
	".adr.toml": "[[roots]]\npath = \"doc/adr\"\nstyle = \"nygard\"\n",
	"doc/adr/0001-record-architecture-decisions.md":      "# 1. Record architecture decisions\n\n## Status\n\nAccepted\n",
	"doc/adr/archive/0002-use-postgresql-for-storage.md": "# 2. Use PostgreSQL for storage\n\n## Status\n\nAccepted\n\nARCHIVED-MARKER\n",
	"doc/adr/0003-expose-a-read-only-mcp-server.md":      "# 3. Expose a read-only MCP server\n\n## Status\n\nAccepted\n",
	"README.md": "# demo repo\n",
}

func demoPolicy(t testing.TB) (string, *guard.Policy) {
	t.Helper()
	top := t.TempDir()
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	for p, c := range demo {
		full := filepath.Join(top, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fsys, err := confine.OpenFS(top)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsys.Close() })
	log, err := adr.Load(fsys, adr.LoadOptions{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	return top, &guard.Policy{Setting: guard.Setting{Mode: guard.Guard}, Scope: guard.NewScope(log, fsys), Log: log, Top: top}
}

// TestCapturedInputs decodes hook inputs captured from the real CLIs
// (Claude Code 2.1.332 and Codex CLI 0.171.0 PreToolUse inputs as their
// hooks received them; OpenCode 1.18.33's tool.execute.before input and
// output.args, in the envelope git-adr's plugin sends) and judges them in
// guard mode against the layout they were captured in.
func TestCapturedInputs(t *testing.T) {
	top, p := demoPolicy(t)
	const A, D = guard.Allow, guard.Deny
	for _, c := range []struct {
		file  string
		agent Agent
		want  []guard.Verdict
	}{
		{"claude-2.1.332.jsonl", Claude, []guard.Verdict{A, D, D, A, A, D, D, A, A, A, A, A, A, A, A, A, A, A, A}},
		{"codex-0.171.0.jsonl", Codex, []guard.Verdict{D, A, D, A}},
		{"opencode-1.18.33.jsonl", OpenCode, []guard.Verdict{D, D, D, A, A, A, A, D, A, A, D, D, D, A, A, A, A, D, A, A}},
	} {
		f, err := os.Open(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		i := 0
		for sc.Scan() {
			line := strings.ReplaceAll(sc.Text(), "/tmp/demo", top)
			in, err := Decode(c.agent, []byte(line))
			if err != nil {
				t.Fatalf("%s:%d: %v", c.file, i+1, err)
			}
			if in.Request.Session == "" || in.Request.Tool == "" || !filepath.IsAbs(in.Request.Cwd) {
				t.Errorf("%s:%d: decoded %+v", c.file, i+1, in.Request)
			}
			if i >= len(c.want) {
				t.Fatalf("%s: more inputs than expectations", c.file)
			}
			d := p.Judge(in.Request)
			if d.Verdict != c.want[i] {
				t.Errorf("%s:%d %s: got %s, want %s: %s", c.file, i+1, in.Request.Tool, d.Verdict, c.want[i], d.Reason)
			}
			a := Encode(c.agent, d)
			checkAnswer(t, c.agent, d, a)
			i++
		}
		f.Close()
		if i != len(c.want) {
			t.Errorf("%s: %d inputs, %d expectations", c.file, i, len(c.want))
		}
	}
}

// checkAnswer checks an answer against the agent's protocol.
func checkAnswer(t *testing.T, agent Agent, d guard.Decision, a Answer) {
	t.Helper()
	if a.Code != 0 {
		t.Errorf("exit %d", a.Code)
	}
	switch agent {
	case Claude, Codex:
		if d.Verdict == guard.Allow && d.Message() == "" {
			if len(a.Stdout) != 0 {
				t.Errorf("an allowed call printed %s", a.Stdout)
			}
			return
		}
		var o claudeOutput
		if err := json.Unmarshal(a.Stdout, &o); err != nil {
			t.Fatalf("answer %q: %v", a.Stdout, err)
		}
		h := o.HookSpecificOutput
		if h.HookEventName != "PreToolUse" {
			t.Errorf("hookEventName %q", h.HookEventName)
		}
		if d.Verdict == guard.Deny && (h.PermissionDecision != "deny" || !strings.HasPrefix(h.PermissionDecisionReason, "git-adr guard")) {
			t.Errorf("deny answered as %+v", h)
		}
		if d.Verdict != guard.Deny && (h.PermissionDecision != "" || h.AdditionalContext == "") {
			t.Errorf("%s answered as %+v", d.Verdict, h)
		}
	case OpenCode:
		var o openCodeAnswer
		if err := json.Unmarshal(a.Stdout, &o); err != nil || o.Decision != d.Verdict || d.Verdict == guard.Deny && o.Message == "" {
			t.Errorf("answer %s for %s: %v", a.Stdout, d.Verdict, err)
		}
	}
}

func TestDecodeShapes(t *testing.T) {
	for _, c := range []struct {
		agent Agent
		in    string
		want  guard.Request
	}{
		{Claude, `{"session_id":"s","cwd":"/r","tool_name":"Grep","tool_input":{"pattern":"x","path":"doc","glob":"*.go","type":"go"}}`,
			guard.Request{Op: guard.OpSearch, Path: "doc", Glob: "*.go", Type: "go"}},
		{Claude, `{"session_id":"s","cwd":"/r","tool_name":"Glob","tool_input":{"pattern":"**/*.md","path":"doc"}}`, guard.Request{Op: guard.OpList, Path: "doc"}},
		{Claude, `{"session_id":"s","cwd":"/r","tool_name":"MultiEdit","tool_input":{"file_path":"/r/.adr.toml","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d"}]}}`,
			guard.Request{Op: guard.OpWrite, Path: "/r/.adr.toml", Old: "a\nc", New: "b\nd"}},
		{Claude, `{"session_id":"s","cwd":"/r","tool_name":"NotebookRead","tool_input":{"notebook_path":"/r/n.ipynb"}}`, guard.Request{Op: guard.OpRead, Path: "/r/n.ipynb"}},
		{Codex, `{"session_id":"s","cwd":"/r","tool_name":"Bash","tool_input":{"command":["bash","-lc","cat x"]}}`, guard.Request{Op: guard.OpShell, Command: "cat x"}},
		{Codex, `{"session_id":"s","cwd":"/r","tool_name":"apply_patch","tool_input":{"input":"*** Begin Patch\n*** Update File: .adr.toml\n@@\n-mode = \"guard\"\n+mode = \"off\"\n*** End Patch"}}`,
			guard.Request{Op: guard.OpWrite, Path: ".adr.toml"}},
		{Claude, `{"session_id":"s","cwd":"/r","tool_name":"mcp__fs__read_text_file","tool_input":{"path":"/r/doc/adr/archive/1.md"}}`, guard.Request{Op: guard.OpRead, Path: "/r/doc/adr/archive/1.md"}},
		{Claude, `{"session_id":"s","cwd":"/r","tool_name":"mcp__fs__search_files","tool_input":{"path":"/r/doc","pattern":"x"}}`, guard.Request{Op: guard.OpSearch, Path: "/r/doc"}},
		{Claude, `{"session_id":"s","cwd":"/r","tool_name":"mcp__fs__read_multiple_files","tool_input":{"paths":["/r/a","/r/b"]}}`, guard.Request{Op: guard.OpRead, Path: "/r/a", Paths: []string{"/r/b"}}},
		{Claude, `{"session_id":"s","cwd":"/r","tool_name":"mcp__web__fetch","tool_input":{"url":"https://x"}}`, guard.Request{Op: guard.OpOther}},
		{OpenCode, `{"tool":"fs_read_file","sessionID":"s","args":{"path":"a.md"},"directory":"/r"}`, guard.Request{Op: guard.OpRead, Path: "a.md"}},
		{OpenCode, `{"tool":"git-adr_adr_search","sessionID":"s","args":{"pattern":"x","path":"doc","glob":"*.md"},"directory":"/r"}`, guard.Request{Op: guard.OpSearch, Path: "doc", Glob: "*.md"}},
		{Generic, `{"tool":"shell","command":"grep -r x doc","cwd":"/r","session":"s"}`, guard.Request{Op: guard.OpShell, Command: "grep -r x doc"}},
		{Generic, `{"tool":"write","path":".adr.toml","content":"x","cwd":"/r"}`, guard.Request{Op: guard.OpWrite, Path: ".adr.toml", Content: "x", WholeFile: true}},
		{Generic, `{"tool":"mcp__fs__read_file","input":{"path":"a"},"cwd":"/r"}`, guard.Request{Op: guard.OpRead, Path: "a"}},
	} {
		in, err := Decode(c.agent, []byte(c.in))
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		r := in.Request
		r.Agent, r.Session, r.Cwd, r.Tool = "", "", "", ""
		if c.want.Op == guard.OpWrite && c.agent == Codex {
			r.Old = "" // the patch itself
		}
		if r.Op != c.want.Op || r.Path != c.want.Path || r.Glob != c.want.Glob || r.Type != c.want.Type || r.Command != c.want.Command ||
			r.Old != c.want.Old || r.New != c.want.New || r.Content != c.want.Content || r.WholeFile != c.want.WholeFile || strings.Join(r.Paths, ",") != strings.Join(c.want.Paths, ",") {
			t.Errorf("%s\n got %+v\nwant %+v", c.in, r, c.want)
		}
	}
	for _, bad := range []string{"", "   ", "[]", "null", "{", `{"a":1} {"b":2}`, `"x"`} {
		if _, err := Decode(Claude, []byte(bad)); err == nil {
			t.Errorf("Decode(%q) accepted", bad)
		}
	}
	if _, err := Decode(Generic, []byte(`{"path":"x"}`)); err == nil {
		t.Error("generic input without a tool accepted")
	}
}

// A failure to judge is never a silent allow.
func TestFailure(t *testing.T) {
	err := os.ErrPermission
	for _, agent := range Agents {
		d := Failure(agent, guard.Guard, err)
		switch agent {
		case Claude, Codex:
			if !strings.Contains(string(d.Stdout), `"permissionDecision":"deny"`) || !strings.Contains(string(d.Stdout), "could not judge") {
				t.Errorf("%s guard failure: %s", agent, d.Stdout)
			}
		default:
			if !strings.Contains(string(d.Stdout), `"decision":"deny"`) {
				t.Errorf("%s guard failure: %s", agent, d.Stdout)
			}
		}
		if w := Failure(agent, guard.Warn, err); strings.Contains(string(w.Stdout), "deny") || !strings.Contains(string(w.Stdout), "could not judge") {
			t.Errorf("%s warn failure: %s", agent, w.Stdout)
		}
		if o := Failure(agent, guard.Off, err); strings.Contains(string(o.Stdout), "deny") {
			t.Errorf("%s off failure: %s", agent, o.Stdout)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, name := range []string{"claude-2.1.332.jsonl", "codex-0.171.0.jsonl", "opencode-1.18.33.jsonl"} {
		data, _ := os.ReadFile(filepath.Join("testdata", name))
		for _, l := range strings.Split(string(data), "\n") {
			if l != "" {
				f.Add(l)
			}
		}
	}
	f.Add(`{"tool":"shell","command":["sh","-c"]}`)
	f.Add(`{"tool_name":"mcp____","tool_input":{"paths":[1,null,"x"]}}`)
	top, p := demoPolicy(f)
	f.Fuzz(func(t *testing.T, in string) {
		for _, a := range Agents {
			dec, err := Decode(a, []byte(in))
			if err != nil {
				if Failure(a, guard.Guard, err).Stdout == nil {
					t.Fatal("a failure with no answer")
				}
				continue
			}
			dec.Request.Cwd = top
			d := p.Judge(dec.Request)
			if out := Encode(a, d); d.Verdict == guard.Deny && len(out.Stdout) == 0 {
				t.Fatalf("%s: a refusal with no answer", a)
			}
		}
	})
}
