package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr/memory"
)

// TestMemoryConcurrentAdds starts many real git-adr processes adding
// memory items to one repository at once: the lock serialises them and
// the ref moves compare-and-swap, so every item reported saved is in the
// memory, each change is its own commit and no ID is given twice.
func TestMemoryConcurrentAdds(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	env := procEnv(t)
	dir := t.TempDir()
	runGit(t, dir, env, "init", "-q")
	runGit(t, dir, env, "commit", "-q", "--allow-empty", "-m", "base")
	const n = 8
	var argv [][]string
	for i := range n {
		argv = append(argv, []string{"memory", "add", "--topic", "t", "--source", "s", "--json", fmt.Sprintf("fact number %d", i)})
	}
	ok := checkOutcome(t, parallel(t, dir, env, argv))
	ids := map[string]bool{}
	for _, r := range ok {
		var res memoryResult
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
			t.Fatalf("%q: %v", r.stdout, err)
		}
		ids[res.Item.ID] = true
	}
	var list memory.Page
	out := runAdr(t, dir, env, "memory", "list", "--json")
	if err := json.Unmarshal([]byte(out.stdout), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != len(ok) || len(ids) != len(ok) {
		t.Fatalf("%d processes succeeded with %d IDs; the memory holds %d items", len(ok), len(ids), len(list.Items))
	}
	for _, it := range list.Items {
		if !ids[it.ID] {
			t.Errorf("item %s is in the memory but no process reported it", it.ID)
		}
	}
	if c := strings.TrimSpace(runGit(t, dir, env, "rev-list", "--count", "refs/adr/memory")); c != fmt.Sprint(len(ok)) {
		t.Errorf("refs/adr/memory has %s commits, want %d", c, len(ok))
	}
}

// TestMemoryChangeMakesCursorStale: an answer can hold memory units, so a
// cursor issued before a memory change is refused after it, as after a
// record change.
func TestMemoryChangeMakesCursorStale(t *testing.T) {
	env := procEnv(t)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "doc/adr"), 0o755)
	for i, d := range []string{"Orders are stored in PostgreSQL.", "Order schema changes are migrations.", "Order tests use a real database."} {
		os.WriteFile(filepath.Join(dir, "doc/adr", recordName(i+1)), []byte(fmt.Sprintf("# %d. Orders %d\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\n%s\n", i+1, i+1, d)), 0o644)
	}
	runGit(t, dir, env, "init", "-q")
	runGit(t, dir, env, "add", "-A")
	runGit(t, dir, env, "commit", "-qm", "log")
	runAdr(t, dir, env, "memory", "add", "--topic", "orders", "--source", "chat", "Orders tests run against PostgreSQL 16.")
	first := runAdr(t, dir, env, "context", "--task", "orders", "--max-units", "1", "--json")
	var resp struct{ Cursor *string }
	if err := json.Unmarshal([]byte(first.stdout), &resp); err != nil || resp.Cursor == nil {
		t.Fatalf("no cursor: %v %s %s", err, first.stdout, first.stderr)
	}
	if r := runAdr(t, dir, env, "context", "--cursor", *resp.Cursor, "--json"); r.code != 0 {
		t.Fatalf("the cursor is refused before any change: %s", r.stderr)
	}
	runAdr(t, dir, env, "memory", "add", "--topic", "orders", "--source", "chat", "Order IDs are UUIDv7.")
	r := runAdr(t, dir, env, "context", "--cursor", *resp.Cursor, "--json")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "stale cursor") {
		t.Errorf("cursor after a memory change: exit %d %s, want exit 2 and a stale cursor", r.code, r.stderr)
	}
}

// TestMemoryForeignRefIsLeftOut: a memory ref git-adr did not write is
// refused by the memory commands and left out of context answers with a
// warning, never a failed answer.
func TestMemoryForeignRefIsLeftOut(t *testing.T) {
	env := procEnv(t)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "doc/adr"), 0o755)
	os.WriteFile(filepath.Join(dir, "doc/adr", recordName(1)), []byte("# 1. Orders\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\nOrders are stored in PostgreSQL.\n"), 0o644)
	runGit(t, dir, env, "init", "-q")
	runGit(t, dir, env, "add", "-A")
	runGit(t, dir, env, "commit", "-qm", "log")
	blob := strings.TrimSpace(runGitIn(t, dir, env, "not a memory item\n", "hash-object", "-w", "--stdin"))
	tree := strings.TrimSpace(runGitIn(t, dir, env, "100644 blob "+blob+"\tREADME\n", "mktree"))
	commit := strings.TrimSpace(runGit(t, dir, env, "commit-tree", tree, "-m", "forged"))
	runGit(t, dir, env, "update-ref", "refs/adr/memory", commit)
	if r := runAdr(t, dir, env, "memory", "list"); r.code != ExitFailure || !strings.Contains(r.stderr, "not a memory item file") {
		t.Errorf("list over a foreign ref: exit %d %s", r.code, r.stderr)
	}
	r := runAdr(t, dir, env, "context", "--task", "where are orders stored", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, `"memory not used: refs/adr/memory:README is not a memory item file`) || !strings.Contains(r.stdout, `"ADR-0001#decision"`) {
		t.Errorf("context over a foreign memory ref: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

func runGitIn(t *testing.T, dir string, env []string, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %q: %v\n%s", args, err, out)
	}
	return string(out)
}
