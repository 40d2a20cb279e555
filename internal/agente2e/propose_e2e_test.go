package agente2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestProposeEndToEnd: an agent records why through git-adr's MCP server
// with proposals on (git config adr.mcp.propose true) and the read guard
// installed: adr_propose writes a proposed record in the log's style and
// answers the person's next steps, adr_link links it, and the agent's
// attempt to accept it itself is refused by the guard as person-only.
// Each agent CLI runs through ../shared/tools/agent-harness against the
// stand-in model, which logs what the model received.
func TestProposeEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end agent runs skipped in -short mode")
	}
	harness := agentHarness(t)
	bin := gitADRBinary(t)
	for _, c := range []struct {
		agent, propose, link, show, shell string
		shellArgs                         func(cmd string) map[string]any
		extra                             []string
	}{
		{"claude", "mcp__git-adr__adr_propose", "mcp__git-adr__adr_link", "mcp__git-adr__adr_show", "Bash",
			func(cmd string) map[string]any { return map[string]any{"command": cmd, "description": "accept"} },
			[]string{"--", "--allowedTools", "mcp__git-adr"}},
		{"codex", "adr_propose", "adr_link", "adr_show", "exec_command",
			func(cmd string) map[string]any { return map[string]any{"cmd": cmd} }, nil},
		{"opencode", "adr_propose", "adr_link", "adr_show", "bash",
			func(cmd string) map[string]any { return map[string]any{"command": cmd, "description": "accept"} }, nil},
	} {
		t.Run(c.agent, func(t *testing.T) {
			t.Parallel()
			repo := proposeRepo(t, harness, bin, c.agent)
			steps := []step{
				{c.propose, map[string]any{"title": "Cache storage reads", "context": "Storage reads take 800 ms at p99.",
					"decision": "We cache storage reads in memory for 60 s.", "consequences": "Reads may be 60 s stale.", "amends": []string{"2"}},
					`"command":"git adr decide ADR-0004 accept"`},
				{c.link, map[string]any{"id": "ADR-0004", "relation": "relates-to", "target": "3"}, `"changed":true`},
				{c.shell, c.shellArgs("git adr decide 4 accept"), denyPerson},
				{c.show, map[string]any{"id": "4"}, `"status":"proposed"`},
			}
			out := runAgent(t, harness, bin, c.agent, repo, steps, c.extra...)
			checkLog(t, harness, out, steps)
			rec, err := os.ReadFile(filepath.Join(repo, "doc/adr/0004-cache-storage-reads.md"))
			if err != nil || !strings.Contains(string(rec), "## Status\n\nProposed\n\nAmends [2. Use PostgreSQL for storage](0002-use-postgresql-for-storage.md)") ||
				!strings.Contains(string(rec), "## Decision\n\nWe cache storage reads in memory for 60 s.\n") {
				t.Errorf("the proposal: %v\n%s", err, rec)
			}
			list, err := exec.Command(filepath.Join(bin, "git-adr"), "-C", repo, "list").CombinedOutput()
			if err != nil || !strings.Contains(string(list), "ADR-0004  proposed") || !strings.Contains(string(list), "ADR-0002  accepted") {
				t.Errorf("git adr list after the run: %v\n%s", err, list)
			}
		})
	}
}

// proposeRepo makes the harness's demo repository (three records, git adr
// mcp registered for every agent) with proposals on and the read guard
// installed for agent.
func proposeRepo(t *testing.T, harness, bin, agent string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	run := runner(t, bin)
	run(filepath.Dir(dir), filepath.Join(harness, "examples", "make-demo-repo.sh"), dir)
	run(dir, "git", "config", "adr.mcp.propose", "true")
	run(dir, "git", "adr", "config", "guard", "guard")
	run(dir, "git", "adr", "guard", "install", "--agent", agent)
	run(dir, "git", "add", "-A")
	run(dir, "git", "commit", "-qm", "guard")
	return dir
}
