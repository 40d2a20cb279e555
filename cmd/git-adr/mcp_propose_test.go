package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/git-adr/git-adr/internal/offheap"
	"github.com/git-adr/git-adr/navigate"
	"github.com/git-adr/git-adr/navigate/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPProposeInProcess serves the tools of `git adr mcp
// --allow-propose` in process to the official Go SDK's client: the
// writing tools are listed with annotations that say they write, a
// proposal is written in the log's style and shows in adr_context as
// proposed and not in force, the record it would supersede stays in
// force, and proposals sent at once through one session get distinct
// numbers.
func TestMCPProposeInProcess(t *testing.T) {
	dir := clientRepo(t)
	env := &Env{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard, Dir: dir}
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	t.Setenv("ADR_DATE", "2026-03-01")
	tree, err := navigate.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	srv := mcpserver.New(mcpserver.Options{Version: "test", Instructions: mcpserver.NavigationInstructions + proposeInstructions})
	registerTools(srv, env, tree, &mcpWriter{env: env})
	// The server reads every file into the heap, where what a call no
	// longer needs is given back: nothing stays outside it.
	outside := offheap.Held()
	defer func() {
		if n := offheap.Held() - outside; n != 0 {
			t.Errorf("the server's calls left %d bytes outside the heap", n)
		}
	}()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "in-process", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	writes := map[string]bool{}
	for _, tl := range tools.Tools {
		a := tl.Annotations
		writes[tl.Name] = !a.ReadOnlyHint
		if !a.ReadOnlyHint && (a.IdempotentHint || a.DestructiveHint == nil || *a.DestructiveHint) {
			t.Errorf("%s: annotations %+v", tl.Name, a)
		}
	}
	if len(writes) != 7 || !writes["adr_propose"] || !writes["adr_link"] || writes["adr_read"] {
		t.Errorf("tools and whether they write: %v", writes)
	}

	call := func(tool string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		return res.Content[0].(*mcp.TextContent).Text, res.IsError
	}
	text, isErr := call("adr_propose", map[string]any{"title": "Shard orders by customer", "context": "One PostgreSQL server is full.",
		"decision": "We shard the orders table by customer ID.", "consequences": "Cross-customer reports need a fan-out.",
		"supersedes": []string{"2"}, "amends": []string{"ADR-0001"}})
	if isErr {
		t.Fatal(text)
	}
	var res proposeResult
	if err := json.Unmarshal([]byte(text), &res); err != nil {
		t.Fatal(err)
	}
	if res.ID != "ADR-0003" || res.Path != "doc/adr/0003-shard-orders-by-customer.md" || strings.Join(res.WouldSupersede, ",") != "ADR-0002" {
		t.Errorf("answer %+v", res)
	}
	data, err := os.ReadFile(filepath.Join(dir, res.Path))
	if err != nil {
		t.Fatal(err)
	}
	if want := "# 3. Shard orders by customer\n\nDate: 2026-03-01\n\n## Status\n\nProposed\n\nSupersedes [2. Use PostgreSQL](0002-use-postgresql.md)\n\nAmends [1. Use MySQL](0001-use-mysql.md)\n\n## Context\n\nOne PostgreSQL server is full.\n\n## Decision\n\nWe shard the orders table by customer ID.\n\n## Consequences\n\nCross-customer reports need a fan-out.\n"; string(data) != want {
		t.Errorf("record:\n%s", data)
	}
	// The proposal binds nothing: ADR-0002 stays the decision in force.
	if text, _ := call("adr_context", map[string]any{"id": "2"}); !strings.Contains(text, `"id":"ADR-0002#decision"`) || strings.Contains(text, `"in_force":false`) {
		t.Errorf("adr_context of ADR-0002: %.400s", text)
	}
	if text, _ := call("adr_show", map[string]any{"id": "3"}); !strings.Contains(text, `"status":"proposed"`) || !strings.Contains(text, `"in_force":false`) {
		t.Errorf("adr_show of ADR-0003: %.400s", text)
	}
	if text, isErr := call("adr_link", map[string]any{"id": "3", "relation": "refines", "target": "2"}); isErr || !strings.Contains(text, `"changed":true`) {
		t.Errorf("adr_link: %s", text)
	}

	// Proposals at once through one session: one at a time, each its own number.
	var wg sync.WaitGroup
	ids := make([]string, 4)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "adr_propose", Arguments: map[string]any{
				"title": fmt.Sprintf("Parallel %d", i), "context": "c", "decision": "d"}})
			if err != nil || res.IsError {
				t.Errorf("parallel %d: %v %v", i, err, res)
				return
			}
			var r proposeResult
			json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &r)
			ids[i] = r.ID
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, id := range ids {
		if id == "" || seen[id] {
			t.Errorf("ids %v", ids)
		}
		seen[id] = true
	}
}
