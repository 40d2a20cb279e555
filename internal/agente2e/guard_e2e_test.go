package agente2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The read guard end to end, through the real agent CLIs: each agent is
// run by ../shared/tools/agent-harness/run-agent (or $GIT_ADR_AGENT_HARNESS)
// against a loopback stand-in for its model API that answers with a
// script of tool calls; the agent runs every call with its own tools,
// hooks and MCP client, and the stand-in logs every request, so the log
// shows what a model would have received. The guard is installed with
// `git adr guard install --agent AGENT` in a repository whose record
// ADR-0002 is archived and carries a marker: the model must receive the
// guard's reasons, and the marker must be in no request body.
//
// The CLIs are installed from the npm registry by .ci/run; without them
// (or without the harness, python3 or node) each run is skipped with the
// reason.

// agentPackages are the versions the harness was verified with.
var agentPackages = map[string]string{
	"claude":   "@anthropic-ai/claude-code@2.1.332",
	"codex":    "@openai/codex@0.171.0",
	"opencode": "opencode-ai@1.18.33",
}

const archivedMarker = "ARCHIVED-BODY-5e1d77"

// skipOrFail skips, unless .ci/run installed the agents
// (GIT_ADR_E2E_REQUIRED=1): then a missing piece is a failure, so that CI
// cannot pass with the end-to-end runs quietly skipped.
func skipOrFail(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("GIT_ADR_E2E_REQUIRED") == "1" {
		t.Fatalf(format+" (GIT_ADR_E2E_REQUIRED=1)", args...)
	}
	t.Skipf(format, args...)
}

func agentHarness(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("GIT_ADR_AGENT_HARNESS")
	if dir == "" {
		d, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "tools", "agent-harness"))
		if err != nil {
			skipOrFail(t, "%v", err)
		}
		dir = d
	}
	if _, err := os.Stat(filepath.Join(dir, "run-agent")); err != nil {
		skipOrFail(t, "the agent harness is not at %s (set GIT_ADR_AGENT_HARNESS): end-to-end guard runs skipped", dir)
	}
	for _, tool := range []string{"python3", "bash", "timeout", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			skipOrFail(t, "%s is not on PATH: end-to-end guard runs skipped", tool)
		}
	}
	return dir
}

// gitADRBinary builds git-adr for the agents (their hooks and MCP servers
// run `git adr`) into a folder removed when t ends.
func gitADRBinary(t *testing.T) string {
	t.Helper()
	// go test caches a package's result by the files its test reads: the
	// binary is built by another process, so the sources it is built from
	// are read here too, or a change to git-adr would leave a cached
	// pass of this package standing.
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".go") || d.Name() == "go.mod" || d.Name() == "go.sum") && !strings.HasSuffix(p, "_test.go") {
			_, err = os.ReadFile(p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "git-adr"), "github.com/git-adr/git-adr/cmd/git-adr").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

// e2eRepo makes the harness's demo repository (three records, git adr mcp
// registered for every agent), archives ADR-0002 with the marker, sets the
// guard mode and installs the guard for agent ("" for none).
func e2eRepo(t *testing.T, harness, bin, agent string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1")
	run := func(name string, args ...string) {
		t.Helper()
		c := exec.Command(name, args...)
		c.Dir, c.Env = dir, env
		if name == filepath.Join(harness, "examples", "make-demo-repo.sh") {
			c.Dir = filepath.Dir(dir)
		}
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
	}
	run(filepath.Join(harness, "examples", "make-demo-repo.sh"), dir)
	rec := "doc/adr/0002-use-postgresql-for-storage.md"
	if err := os.MkdirAll(filepath.Join(dir, "doc/adr/archive"), 0o755); err != nil {
		t.Fatal(err)
	}
	run("git", "mv", rec, "doc/adr/archive/")
	f, err := os.OpenFile(filepath.Join(dir, "doc/adr/archive/0002-use-postgresql-for-storage.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "\n%s\n", archivedMarker)
	f.Close()
	run("git", "adr", "config", "guard", "guard")
	if agent != "" {
		run("git", "adr", "guard", "install", "--agent", agent)
	}
	run("git", "add", "-A")
	run("git", "commit", "-qm", "archive ADR-0002; guard")
	return dir
}

// runner runs a command in a folder with git-adr's build first on the
// PATH, no system git configuration and env added, failing t with its
// output if it fails.
func runner(t *testing.T, bin string, env ...string) func(wd, name string, args ...string) {
	env = append(append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1"), env...)
	return func(wd, name string, args ...string) {
		t.Helper()
		c := exec.Command(name, args...)
		c.Dir, c.Env = wd, env
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
	}
}

// step is one scripted tool call and what its result must hold.
type step struct {
	tool  string
	input map[string]any
	want  string // text the tool result holds
}

// runAgent runs agent on the script and checks the results it sent back.
func runAgent(t *testing.T, harness, bin, agent, repo string, steps []step, extra ...string) (out string) {
	t.Helper()
	if _, err := exec.LookPath(agent); err != nil {
		skipOrFail(t, "%s is not on PATH; install it with `npm install -g %s` (.ci/run does when the npm registry is reachable): end-to-end run skipped", agent, agentPackages[agent])
	}
	var script []map[string]any
	for _, s := range steps {
		script = append(script, map[string]any{"tool": s.tool, "input": s.input})
	}
	script = append(script, map[string]any{"text": "guard check finished"})
	sf := filepath.Join(t.TempDir(), "script.json")
	data, _ := json.Marshal(script)
	os.WriteFile(sf, data, 0o644)
	out = filepath.Join(t.TempDir(), "out")
	args := append([]string{agent, "--repo", repo, "--script", sf, "--out", out, "--timeout", "150"}, extra...)
	c := exec.Command(filepath.Join(harness, "run-agent"), args...)
	c.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var b bytes.Buffer
	c.Stdout, c.Stderr = &b, &b
	if err := c.Run(); err != nil {
		stderr, _ := os.ReadFile(filepath.Join(out, "agent.stderr"))
		t.Fatalf("run-agent %s: %v\n%s\nagent stderr:\n%s", agent, err, b.String(), tail(stderr, 4000))
	}
	t.Logf("%s", strings.TrimSpace(b.String()))
	return out
}

// checkLog runs the harness's check-log over the run's request log.
func checkLog(t *testing.T, harness, out string, steps []step, absent ...string) {
	t.Helper()
	args := []string{filepath.Join(out, "api-requests.jsonl")}
	for i, s := range steps {
		args = append(args, "--step-result", fmt.Sprint(i), s.want)
	}
	for _, a := range absent {
		args = append(args, "--absent", a)
	}
	res, err := exec.Command(filepath.Join(harness, "check-log"), args...).CombinedOutput()
	t.Logf("check-log:\n%s", res)
	if err != nil {
		t.Errorf("check-log failed: %v", err)
	}
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// requestsHold reports whether some request body holds text.
func requestsHold(t *testing.T, out, text string) bool {
	data, err := os.ReadFile(filepath.Join(out, "api-requests.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// Bodies are JSON: the text may be escaped once.
	esc, _ := json.Marshal(text)
	return bytes.Contains(data, []byte(text)) || bytes.Contains(data, bytes.Trim(esc, `"`))
}

const (
	archivedPath = "doc/adr/archive/0002-use-postgresql-for-storage.md"
	livePath     = "doc/adr/0001-record-architecture-decisions.md"
	liveTitle    = "Record architecture decisions"
	denyArchived = "an archived record (ADR-0002"
	denyUnscoped = "at once: reading or searching a whole decision log"
	denyPerson   = "only a person does that"
	repeatNote   = "was already read once in this session and has not changed since"
)

func TestGuardEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end agent runs skipped in -short mode")
	}
	harness := agentHarness(t)
	bin := gitADRBinary(t)

	t.Run("claude", func(t *testing.T) {
		t.Parallel()
		steps := []step{
			{"Read", map[string]any{"file_path": archivedPath}, denyArchived},
			{"Bash", map[string]any{"command": "grep -r Postgre doc/adr", "description": "search the log"}, denyUnscoped},
			{"Bash", map[string]any{"command": "find doc/adr -name '*.md' -exec cat {} \\;", "description": "read the log"}, denyUnscoped},
			{"Read", map[string]any{"file_path": livePath}, liveTitle},
			{"Bash", map[string]any{"command": "git adr decide 3 accept", "description": "accept"}, denyPerson},
			{"mcp__git-adr__adr_read", map[string]any{"path": archivedPath}, denyArchived},
			{"mcp__git-adr__adr_context", map[string]any{"task": "storage"}, `"selector":"task"`},
			{"Read", map[string]any{"file_path": livePath}, liveTitle},
		}
		repo := e2eRepo(t, harness, bin, "claude")
		out := runAgent(t, harness, bin, "claude", repo, steps, "--", "--allowedTools", "mcp__git-adr")
		checkLog(t, harness, out, steps, archivedMarker)
		// The repeat read's note reaches the model beside the result.
		if !requestsHold(t, out, repeatNote) {
			t.Errorf("the repeated read's note reached no request")
		}
		if out, err := exec.Command("git", "-C", repo, "adr", "--version").CombinedOutput(); err == nil {
			t.Logf("git-adr %s", strings.TrimSpace(string(out)))
		}
	})

	t.Run("claude-narrow", func(t *testing.T) {
		// A search of the whole repository, refused for reading the log,
		// runs narrowed: the hook's updatedInput leaves the ADR roots
		// out, Claude Code runs that command, and the model gets the
		// code's hits, the note saying what was left out, and nothing of
		// the log.
		t.Parallel()
		repo := e2eRepo(t, harness, bin, "claude")
		os.MkdirAll(filepath.Join(repo, "src"), 0o755)
		os.WriteFile(filepath.Join(repo, "src", "db.go"), []byte("// Postgre connection pool, NARROW-HIT-31c9\npackage db\n"), 0o644)
		for _, args := range [][]string{{"add", "-A"}, {"commit", "-qm", "code"}} {
			if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		steps := []step{
			{"Bash", map[string]any{"command": "git grep -n Postgre", "description": "search"}, "src/db.go:1:// Postgre connection pool, NARROW-HIT-31c9"},
			{"Bash", map[string]any{"command": "git grep -n Postgre | cat", "description": "search"}, denyUnscoped},
		}
		out := runAgent(t, harness, bin, "claude", repo, steps)
		checkLog(t, harness, out, steps, archivedMarker, "PostgreSQL for storage")
		if !requestsHold(t, out, "leaving out the decision log (ADR roots)") {
			t.Errorf("the narrowed search's note reached no request")
		}
	})

	t.Run("claude-control", func(t *testing.T) {
		// Without the guard the marker reaches the model: the absence
		// check above can fail.
		t.Parallel()
		repo := e2eRepo(t, harness, bin, "")
		steps := []step{{"Read", map[string]any{"file_path": archivedPath}, archivedMarker}}
		out := runAgent(t, harness, bin, "claude", repo, steps)
		checkLog(t, harness, out, steps)
		if !requestsHold(t, out, archivedMarker) {
			t.Errorf("without the guard the marker did not reach the model: the absence check proves nothing")
		}
	})

	t.Run("codex-control", func(t *testing.T) {
		t.Parallel()
		repo := e2eRepo(t, harness, bin, "")
		steps := []step{{"exec_command", map[string]any{"cmd": "cat " + archivedPath}, archivedMarker}}
		out := runAgent(t, harness, bin, "codex", repo, steps)
		checkLog(t, harness, out, steps)
	})

	t.Run("claude-broken-binary", func(t *testing.T) {
		// git-adr that fails to run: the installed hook refuses the call
		// (exit 2) instead of letting it through.
		t.Parallel()
		repo := e2eRepo(t, harness, bin, "claude")
		broken := t.TempDir()
		os.WriteFile(filepath.Join(broken, "git-adr"), []byte("#!/bin/sh\necho 'git-adr: simulated crash' >&2\nexit 1\n"), 0o755)
		steps := []step{{"Read", map[string]any{"file_path": livePath}, "git-adr guard could not run (exit 1), so the call is refused"}}
		out := runAgent(t, harness, broken, "claude", repo, steps)
		checkLog(t, harness, out, steps, "# 1. Record architecture decisions")
	})

	t.Run("codex-broken-binary", func(t *testing.T) {
		t.Parallel()
		repo := e2eRepo(t, harness, bin, "codex")
		broken := t.TempDir()
		os.WriteFile(filepath.Join(broken, "git-adr"), []byte("#!/bin/sh\necho 'git-adr: simulated crash' >&2\nexit 1\n"), 0o755)
		steps := []step{{"exec_command", map[string]any{"cmd": "cat " + livePath}, "Command blocked by PreToolUse hook: git-adr: simulated crash\ngit-adr guard could not run (exit 1), so the call is refused"}}
		out := runAgent(t, harness, broken, "codex", repo, steps)
		checkLog(t, harness, out, steps, "# 1. Record architecture decisions")
	})

	t.Run("opencode", func(t *testing.T) {
		t.Parallel()
		steps := []step{
			{"read", map[string]any{"filePath": archivedPath}, denyArchived},
			{"bash", map[string]any{"command": "grep -r Postgre doc/adr", "description": "search the log"}, denyUnscoped},
			{"bash", map[string]any{"command": "for f in doc/adr/*.md doc/adr/archive/*.md; do cat \"$f\"; done", "description": "read the log"}, denyUnscoped},
			{"read", map[string]any{"filePath": livePath}, liveTitle},
			{"bash", map[string]any{"command": "git adr config guard off", "description": "lower the guard"}, denyPerson},
			{"adr_read", map[string]any{"path": archivedPath}, denyArchived},
			{"adr_context", map[string]any{"task": "storage"}, `"selector":"task"`},
			{"read", map[string]any{"filePath": livePath}, repeatNote},
		}
		repo := e2eRepo(t, harness, bin, "opencode")
		out := runAgent(t, harness, bin, "opencode", repo, steps)
		checkLog(t, harness, out, steps, archivedMarker)
	})

	t.Run("codex", func(t *testing.T) {
		// Codex 0.171.0 has no file-read tool: reads are shell commands,
		// which its PreToolUse hook sees as Bash; MCP calls reach the hook
		// as mcp__git_adr__TOOL. Its hooks run only in a trusted project
		// after review; run-agent trusts the project and passes
		// --dangerously-bypass-hook-trust, as a person's review would.
		t.Parallel()
		steps := []step{
			{"exec_command", map[string]any{"cmd": "cat " + archivedPath}, denyArchived},
			{"exec_command", map[string]any{"cmd": "grep -r Postgre doc/adr"}, denyUnscoped},
			{"exec_command", map[string]any{"cmd": "cat " + livePath}, liveTitle},
			{"exec_command", map[string]any{"cmd": "git adr compaction --confirm plan-1@1"}, denyPerson},
			{"adr_read", map[string]any{"path": archivedPath}, denyArchived},
			{"adr_context", map[string]any{"task": "storage"}, `"selector":"task"`},
			{"exec_command", map[string]any{"cmd": "head -3 " + livePath}, liveTitle},
		}
		repo := e2eRepo(t, harness, bin, "codex")
		out := runAgent(t, harness, bin, "codex", repo, steps)
		checkLog(t, harness, out, steps, archivedMarker)
		if !requestsHold(t, out, repeatNote) {
			t.Errorf("the repeated read's note reached no request")
		}
	})
}
