package hooks

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/gittest"
)

// An install says the mode in effect and what the agent needs; an
// uninstall says only what keeps the hook from judging; a settings path
// that is not a regular file is a *SetupReadError.
func TestChangeGuard(t *testing.T) {
	r := gittest.Repo(t)
	cs := func() *adr.Changeset {
		return &adr.Changeset{Top: r.Top, JournalDir: filepath.Join(r.GitDir, "adr", "journal")}
	}
	c, err := ChangeGuard(r, Codex, false, cs())
	if err != nil || c.State != StateInstalled || c.Setup.Agent != Codex {
		t.Fatalf("ChangeGuard install = %+v, %v", c, err)
	}
	if c.Mode != "off" || len(c.Notes) != 3 || !strings.HasPrefix(c.Notes[0], "the guard mode is off") || !strings.HasPrefix(c.Notes[1], "Codex CLI runs") {
		t.Errorf("install: mode %q, notes %q", c.Mode, c.Notes)
	}
	c, err = ChangeGuard(r, Codex, true, cs())
	if err != nil || c.State != StateRestored || len(c.Notes) != 0 {
		t.Errorf("ChangeGuard uninstall = %+v, %v", c, err)
	}
	setup, _ := SetupFor(Claude)
	if err := os.MkdirAll(r.Abs(setup.Path), 0o755); err != nil {
		t.Fatal(err)
	}
	var re *SetupReadError
	if _, err := ChangeGuard(r, Claude, false, cs()); !errors.As(err, &re) || re.Path != setup.Path {
		t.Errorf("a directory in the way: %v, want a *SetupReadError", err)
	}
}
