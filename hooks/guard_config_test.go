package hooks

import (
	"errors"
	"os"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/guard"
	"github.com/git-adr/git-adr/internal/gittest"
)

// Setting the mode creates .adr.toml, changes nothing when it says so
// already, and refuses a file that does not parse.
func TestGuardFileChanges(t *testing.T) {
	r := gittest.Repo(t)
	cs, err := GuardFileChanges(r, guard.Warn)
	if err != nil || len(cs) != 1 || cs[0].Path != adr.ConfigFile || cs[0].Old != nil {
		t.Fatalf("no file: %+v, %v", cs, err)
	}
	if m, err := guard.FileMode(cs[0].New); err != nil || m != guard.Warn {
		t.Errorf("the new file says %q (%v)", m, err)
	}
	written := cs[0].New
	if err := os.WriteFile(r.Abs(adr.ConfigFile), written, 0o644); err != nil {
		t.Fatal(err)
	}
	if cs, err := GuardFileChanges(r, guard.Warn); err != nil || len(cs) != 0 {
		t.Errorf("same mode: %+v, %v", cs, err)
	}
	if cs, err := GuardFileChanges(r, guard.Off); err != nil || len(cs) != 1 || string(cs[0].Old) != string(written) {
		t.Errorf("another mode: %+v, %v", cs, err)
	}
	os.WriteFile(r.Abs(adr.ConfigFile), []byte("[guard\n"), 0o644)
	var be *guard.BadConfigError
	if _, err := GuardFileChanges(r, guard.Warn); !errors.As(err, &be) {
		t.Errorf("a bad file: %v, want a *guard.BadConfigError", err)
	}
}
