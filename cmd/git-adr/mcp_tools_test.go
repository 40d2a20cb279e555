package main

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/hooks"
	"github.com/git-adr/git-adr/navigate"
	"github.com/git-adr/git-adr/navigate/mcpserver"
)

// The read guard knows git-adr's own MCP tools by name (hooks.OwnTools):
// a tool the server registers that the guard does not know would be
// judged by the words of its name, and a name the guard knows that the
// server does not register is a stale rule. Both lists must be the same.
func TestGuardKnowsEveryMCPTool(t *testing.T) {
	dir := t.TempDir()
	tree, err := navigate.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	env := &Env{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard, Dir: dir}
	srv := mcpserver.New(mcpserver.Options{Version: "test"})
	registerTools(srv, env, tree, &mcpWriter{env: env}) // every tool: the writing ones too
	served := srv.Tools()
	slices.Sort(served)
	if guarded := hooks.OwnTools(); !slices.Equal(served, guarded) {
		t.Errorf("the MCP server registers %q, the guard knows %q: add the tool to gitADRTools in hooks/agent.go (or remove it there)", served, guarded)
	}
}
