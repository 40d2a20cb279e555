package ledger

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/gittest"
)

func TestHistory(t *testing.T) {
	r := gittest.Repo(t)
	commit := func(date, msg string) {
		t.Helper()
		t.Setenv("GIT_AUTHOR_DATE", date)
		t.Setenv("GIT_COMMITTER_DATE", date)
		gittest.Git(t, r.Top, "add", "-A")
		gittest.Git(t, r.Top, "commit", "-q", "--allow-empty", "-m", msg)
	}
	if err := os.MkdirAll(filepath.Join(r.Top, "doc/adr"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, title := range map[string]string{"0001-use-go.md": "1. Use Go", "0011-use-make.md": "11. Use make"} {
		if err := os.WriteFile(filepath.Join(r.Top, "doc/adr", name), []byte("# "+title+"\n\n## Status\n\nAccepted\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit("2026-01-01T10:00:00Z", "records")
	commit("2026-01-02T10:00:00Z", "impl\n\nImplements: ADR-0001")
	commit("2026-01-03T10:00:00Z", "ref\n\nRefs: 1; ADR-0011")
	commit("2026-01-04T10:00:00Z", "other record only\n\nRefs: 11")
	commit("2026-01-05T10:00:00Z", "prose only: see ADR-0001")
	// A commit that changes the file and names it in a trailer is listed
	// once, by its trailer.
	if err := os.WriteFile(filepath.Join(r.Top, "doc/adr/0001-use-go.md"), []byte("# 1. Use Go\n\n## Status\n\nAccepted\n\nMore.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	commit("2026-01-06T10:00:00Z", "edit\n\nRefs: ADR-0001")

	l, err := adr.Load(r.WorktreeFS(), adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := l.Resolve("1")
	if err != nil {
		t.Fatal(err)
	}
	cs, err := History(r, l, rec, 100)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, c.Subject+" "+c.Kind)
	}
	want := []string{"edit refs", "ref refs", "impl implements", "records record"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("History = %q, want %q", got, want)
	}
	if cs, _ := History(r, l, rec, 2); len(cs) != 2 || cs[0].Subject != "edit" {
		t.Errorf("History max 2 = %+v, want the 2 newest", cs)
	}
	if c := LatestImplementation(r, l, rec); c == nil || c.Subject != "impl" {
		t.Errorf("LatestImplementation = %+v, want impl", c)
	}
}
