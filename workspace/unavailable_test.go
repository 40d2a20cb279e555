package workspace

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A member whose path names nothing loads (the workspace file may be
// shared by people who cloned different repositories) and cannot be
// opened; a path that leaves the folder is still refused, existing or not.
func TestMissingPathIsUnavailable(t *testing.T) {
	hermetic(t)
	dir := t.TempDir()
	ws := loadWS(t, dir, "[[repo]]\nname = \"x\"\npath = \"nope\"\n")
	if _, err := ws.Members[0].Open(true); !errors.Is(err, ErrNoPath) {
		t.Fatalf("open: %v, want ErrNoPath", err)
	}
	// A link made there after the load, to a repository outside the
	// folder: still not read (the path was never confined).
	outside := t.TempDir()
	repo(t, outside, map[string]string{"0001-a.md": record(1, "A", "Accepted")})
	if err := os.Symlink(outside, filepath.Join(dir, "nope")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if _, err := ws.Members[0].Open(true); !errors.Is(err, ErrNoPath) {
		t.Fatalf("open after a link to %s appeared: %v, want ErrNoPath", outside, err)
	}
	// Loaded again, the same link is refused as leading out.
	if _, err := Load(writeWS(t, dir, "[[repo]]\nname = \"x\"\npath = \"nope\"\n"), t.TempDir()); err == nil {
		t.Fatal("a link out of the folder loaded")
	}
	if _, err := Load(writeWS(t, dir, "[[repo]]\nname = \"x\"\npath = \"../nope\"\n"), t.TempDir()); err == nil {
		t.Fatal("a missing path outside the folder loaded")
	}
}

// Each view collects its own skips: the MCP server asks through one view
// per call, and a call must not report what an earlier one left out.
func TestReadingViewsAreSeparate(t *testing.T) {
	hermetic(t)
	dir := t.TempDir()
	ws := loadWS(t, dir, "[[repo]]\nname = \"x\"\npath = \"nope\"\n\n[[repo]]\nname = \"y\"\nurl = \"file:///nowhere\"\n")
	// Not a view: the first member that cannot be opened fails the read.
	if err := ws.Each(true, func(*Loaded) error { return nil }); !errors.Is(err, ErrNoPath) {
		t.Fatalf("Each outside a view: %v, want ErrNoPath", err)
	}
	a, skipsA := ws.Reading()
	b, skipsB := ws.Reading()
	// In a view, none readable: the first member's error, both noted.
	if err := a.Each(true, func(*Loaded) error { return nil }); !errors.Is(err, ErrNoPath) {
		t.Fatalf("Each in a view with none readable: %v, want ErrNoPath", err)
	}
	got := skipsA.List(a)
	if len(got) != 2 || got[0].Reason() != "no such path" || got[1].Reason() != "not synced yet" {
		t.Fatalf("skips of view a: %+v", got)
	}
	if n := len(skipsB.List(b)); n != 0 {
		t.Fatalf("view b noted %d skips from view a's read", n)
	}
	if _, err := b.Find("ADR-0001"); !errors.Is(err, ErrNoPath) {
		t.Fatalf("Find in a view with none readable: %v, want ErrNoPath", err)
	}
}

// UnavailableBudget holds the most that ten unavailable rows add to a
// page's JSON: names of 64 bytes, the longest reason.
func TestUnavailableBudget(t *testing.T) {
	page := &RecordsPage{Records: []RecordRow{}}
	without, _ := json.Marshal(page)
	for range maxUnavailableRows {
		page.Unavailable = append(page.Unavailable, UnavailableRow{strings.Repeat("n", maxName), unavailableReason(ErrNotRepository)})
	}
	for _, e := range unavailableErrs {
		if r := unavailableReason(e); len(r) > len(ErrNotRepository.Error()) {
			t.Fatalf("reason %q is longer than the one UnavailableBudget counts", r)
		}
	}
	page.UnavailableTotal = 999_999
	with, _ := json.Marshal(page)
	if added := len(with) - len(without); added > UnavailableBudget {
		t.Fatalf("ten rows add %d bytes, UnavailableBudget is %d", added, UnavailableBudget)
	}
}
