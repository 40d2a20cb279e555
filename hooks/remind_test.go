package hooks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/scope"
)

// The reminder keeps whole lines within the budget and counts the rest.
func TestReminder(t *testing.T) {
	res := &PreCommitResult{Paths: []string{"a.go", "b.go", "c.go", "d.go"}}
	for i := range 4 {
		res.Governing = append(res.Governing, scope.Match{Path: fmt.Sprintf("%c.go", 'a'+i), Record: &adr.Record{ID: fmt.Sprint(i)}})
	}
	line := func(m scope.Match) string { return m.Path + " " + strings.Repeat("x", 20) + "\n" }
	more := func(n int, paths []string) string { return fmt.Sprintf("%d more: %s\n", n, strings.Join(paths, " ")) }
	words := func(s string) int { return len(strings.Fields(s)) }
	got := res.Reminder(20, line, more, words)
	want := "a.go " + strings.Repeat("x", 20) + "\nb.go " + strings.Repeat("x", 20) + "\n2 more: a.go b.go c.go\n"
	if got != want {
		t.Errorf("Reminder = %q, want %q", got, want)
	}
	if got := (&PreCommitResult{}).Reminder(20, line, more, words); got != "" {
		t.Errorf("Reminder of nothing = %q", got)
	}
}
