// Package agente2e holds the read guard's and the proposals' end-to-end
// tests: the real agent CLIs (Claude Code, OpenCode, Codex CLI) driven
// through ../shared/tools/agent-harness with the guard installed, and
// with git adr mcp's writing tools on (TestProposeEndToEnd), and the
// workspace's server across repositories (TestWorkspaceEndToEnd). It is a package
// of its own so that `go test ./...` runs it beside the slower scenario
// suite of cmd/git-adr. See docs/guard.md.
package agente2e
