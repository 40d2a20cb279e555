package agente2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wsMarker is in a file of a member repository that is no record: the
// workspace's MCP server serves records only, so no request holds it.
const wsMarker = "WORKSPACE-NOT-A-RECORD-3b9e41"

// TestWorkspaceEndToEnd: an agent that works across repositories asks
// git-adr's workspace MCP server, registered as `git adr mcp --workspace
// FILE` (issue 33), through its real client: adr_records lists a mirrored
// repository's records by qualified ID, adr_context ranks the records of
// every repository for a task, adr_show reads a mirrored record by its
// qualified ID; no writing tool is offered, and nothing but records
// reaches the model. Each agent CLI runs through
// ../shared/tools/agent-harness against the stand-in model.
func TestWorkspaceEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end agent runs skipped in -short mode")
	}
	harness := agentHarness(t)
	bin := gitADRBinary(t)
	ws := workspaceDir(t, bin)
	for _, c := range []struct {
		agent, records, context, show string
		extra                         []string
	}{
		{"claude", "mcp__git-adr__adr_records", "mcp__git-adr__adr_context", "mcp__git-adr__adr_show", []string{"--", "--allowedTools", "mcp__git-adr"}},
		{"codex", "adr_records", "adr_context", "adr_show", nil},
		{"opencode", "adr_records", "adr_context", "adr_show", nil},
	} {
		t.Run(c.agent, func(t *testing.T) {
			t.Parallel()
			repo := workspaceAgentRepo(t, bin, ws)
			steps := []step{
				{c.records, map[string]any{"repository": "plat"}, `plat:ADR-0001`},
				{c.context, map[string]any{"task": "retry failed payments"}, `pay:ADR-0001`},
				{c.show, map[string]any{"id": "plat:ADR-0001"}, `Use Kafka for events`},
			}
			out := runAgent(t, harness, bin, c.agent, repo, steps, c.extra...)
			checkLog(t, harness, out, steps, wsMarker, "adr_propose", "adr_link")
		})
	}
}

// workspaceDir makes a workspace of two repositories: pay, read from its
// work tree, and plat, a bare remote mirrored over file:// by a sync into
// the folder's own cache (the agents run with a home of their own).
func workspaceDir(t *testing.T, bin string) string {
	t.Helper()
	dir := t.TempDir()
	run := runner(t, bin, "XDG_CACHE_HOME="+filepath.Join(dir, "cache"), "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com")
	record := func(n int, title, decision string) string {
		return fmt.Sprintf("# %d. %s\n\nDate: 2026-01-0%d\n\n## Status\n\nAccepted\n\n## Context\n\nWhy %s.\n\n## Decision\n\n%s\n", n, title, n, strings.ToLower(title), decision)
	}
	for name, files := range map[string]map[string]string{
		"pay": {
			"doc/adr/0001-retry-failed-payments-from-a-queue.md": record(1, "Retry failed payments from a queue", "Failed payments are retried from a RabbitMQ queue, three times."),
			"notes.txt": wsMarker + "\n",
		},
		"plat": {"doc/adr/0001-use-kafka-for-events.md": record(1, "Use Kafka for events", "Services publish their events to Kafka.")},
	} {
		for p, text := range files {
			f := filepath.Join(dir, name, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		run(filepath.Join(dir, name), "git", "init", "-q", "-b", "main")
		run(filepath.Join(dir, name), "git", "add", "-A")
		run(filepath.Join(dir, name), "git", "commit", "-qm", "records")
	}
	run(dir, "git", "clone", "-q", "--bare", "plat", "plat.git")
	text := fmt.Sprintf("[[repo]]\nname = \"pay\"\npath = \"pay\"\n\n[[repo]]\nname = \"plat\"\nurl = \"file://%s\"\nref = \"main\"\n", filepath.Join(dir, "plat.git"))
	if err := os.WriteFile(filepath.Join(dir, "ws.toml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	run(dir, "git", "adr", "workspace", "sync", "ws.toml")
	return dir
}

// workspaceAgentRepo makes the repository an agent runs in, which
// registers the workspace's MCP server for every agent: `git adr mcp
// --workspace FILE`, the cache the sync filled named by env(1), as the
// agents pass their servers different environments.
func workspaceAgentRepo(t *testing.T, bin, ws string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	argv := []string{"env", "XDG_CACHE_HOME=" + filepath.Join(ws, "cache"), "git", "adr", "mcp", "--workspace", filepath.Join(ws, "ws.toml")}
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	list := strings.Join(quoted[1:], ", ")
	files := map[string]string{
		".mcp.json":          fmt.Sprintf(`{"mcpServers": {"git-adr": {"type": "stdio", "command": %q, "args": [%s], "env": {}}}}`, argv[0], list),
		".codex/config.toml": fmt.Sprintf("[mcp_servers.git-adr]\ncommand = %q\nargs = [%s]\n", argv[0], list),
		"opencode.jsonc":     fmt.Sprintf(`{"$schema": "https://opencode.ai/config.json", "mcp": {"servers": {"git-adr": {"type": "local", "command": [%s], "cwd": "."}}}}`, strings.Join(quoted, ", ")),
		"README.md":          "# an agent's working folder\n",
	}
	for p, text := range files {
		f := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := runner(t, bin, "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com")
	run(dir, "git", "init", "-q", "-b", "main")
	run(dir, "git", "add", "-A")
	run(dir, "git", "commit", "-qm", "agent folder")
	return dir
}
