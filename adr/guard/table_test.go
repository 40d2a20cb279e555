package guard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The guard's table in docs/guard.md is made from the test tables
// (shellCases, toolCases), whose verdicts TestShellRecognition and
// TestToolRequests check, so that it cannot drift from what the guard
// does. UPDATE_GUARD_TABLE=1 rewrites it.
const (
	tableBegin = "<!-- BEGIN the guard's table: made by TestGuardTableIsPublished (adr/guard/table_test.go) from the test cases; UPDATE_GUARD_TABLE=1 go test ./adr/guard -run TestGuardTableIsPublished rewrites it -->"
	tableEnd   = "<!-- END the guard's table -->"
)

func TestGuardTableIsPublished(t *testing.T) {
	doc := filepath.Join("..", "..", "docs", "guard.md")
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	a, b := strings.Index(text, tableBegin), strings.Index(text, tableEnd)
	if a < 0 || b < a {
		t.Fatalf("%s has no table between %q and %q", doc, tableBegin, tableEnd)
	}
	want := tableBegin + "\n" + guardTable() + tableEnd
	if text[a:b+len(tableEnd)] == want {
		return
	}
	if os.Getenv("UPDATE_GUARD_TABLE") == "1" {
		if err := os.WriteFile(doc, []byte(text[:a]+want+text[b+len(tableEnd):]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the guard's table in %s is not the test cases': run UPDATE_GUARD_TABLE=1 go test ./adr/guard -run TestGuardTableIsPublished", doc)
}

// guardTable renders the cases in four groups.
func guardTable() string {
	type row struct{ call, what string }
	var refused, wrong, allowed, passes []row
	for _, c := range shellCases {
		r := row{call: cell(c.cmd)}
		switch {
		case c.want == Deny && strings.HasPrefix(c.known, "wrongly refused: "):
			r.what = strings.TrimPrefix(c.known, "wrongly refused: ")
			wrong = append(wrong, r)
		case c.want == Deny:
			r.what = string(c.rule)
			refused = append(refused, r)
		case strings.HasPrefix(c.known, "passes: "):
			r.what = strings.TrimPrefix(c.known, "passes: ")
			passes = append(passes, r)
		default:
			allowed = append(allowed, r)
		}
	}
	for _, c := range toolCases {
		r := row{call: c.name + " (" + toolCall(c.r) + ")"}
		if c.want == Deny {
			r.what = string(c.rule)
			refused = append(refused, r)
		} else {
			allowed = append(allowed, r)
		}
	}
	var b strings.Builder
	n := len(refused) + len(wrong) + len(allowed) + len(passes)
	fmt.Fprintf(&b, "%d calls tried in guard mode, in a repository whose log `doc/adr` has five live records and ADR-0002 archived "+
		"(`doc/adr/archive/0002-use-postgresql.md`; the tag `v1` is the log before it was archived and before `.adr.toml` set `[guard] mode`; "+
		"`TOP` is the repository's absolute path, `old-decisions` a link to the archive, `elsewhere` a link out of the repository): "+
		"%d refused, %d of them wrongly; %d allowed, %d of them although they read the log or weaken the guard.\n\n",
		n, len(refused)+len(wrong), len(wrong), len(allowed)+len(passes), len(passes))
	section := func(title, col string, rows []row) {
		fmt.Fprintf(&b, "#### %s (%d)\n\n", title, len(rows))
		if col == "" {
			b.WriteString("| call |\n|---|\n")
		} else {
			fmt.Fprintf(&b, "| call | %s |\n|---|---|\n", col)
		}
		for _, r := range rows {
			if col == "" {
				fmt.Fprintf(&b, "| %s |\n", r.call)
			} else {
				fmt.Fprintf(&b, "| %s | %s |\n", r.call, strings.ReplaceAll(r.what, "|", "\\|"))
			}
		}
		b.WriteString("\n")
	}
	section("Refused", "rule", refused)
	section("Wrongly refused", "why", wrong)
	section("Allowed", "", allowed)
	section("Allowed although they read the log or weaken the guard", "why", passes)
	return b.String()
}

// cell shows a command in a table cell: as code, line ends as ⏎, pipes
// escaped.
func cell(cmd string) string {
	s := strings.ReplaceAll(cmd, "\n", "⏎")
	s = strings.ReplaceAll(s, "|", "\\|")
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

// toolCall names a tool request briefly.
func toolCall(r Request) string {
	var parts []string
	for _, kv := range [][2]string{{"path", r.Path}, {"glob", r.Glob}, {"include", r.Include}, {"type", r.Type}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+" "+cell(kv[1]))
		}
	}
	if len(r.Paths) > 0 {
		parts = append(parts, fmt.Sprintf("%d paths", len(r.Paths)))
	}
	op := map[Op]string{OpRead: "read", OpSearch: "search", OpList: "list", OpWrite: "write", OpEvidence: "git-adr tool", OpOther: "other"}[r.Op]
	if len(parts) == 0 {
		return op
	}
	return op + ": " + strings.Join(parts, ", ")
}
