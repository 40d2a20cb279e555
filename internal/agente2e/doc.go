// Package agente2e holds the read guard's end-to-end tests: the real
// agent CLIs (Claude Code, OpenCode, Codex CLI) driven through
// ../shared/tools/agent-harness with the guard installed. It is a package
// of its own so that `go test ./...` runs it beside the slower scenario
// suite of cmd/git-adr. See docs/guard.md.
package agente2e
