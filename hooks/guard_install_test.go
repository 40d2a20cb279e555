package hooks

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/gittest"
)

// Installing the guard and removing it again puts the settings file back
// byte for byte, and the folders install made go with it.
func TestInstallGuardRoundTrip(t *testing.T) {
	r := gittest.Repo(t)
	setup, _ := SetupFor(Claude)
	cs := func() *adr.Changeset {
		return &adr.Changeset{Top: r.Top, JournalDir: filepath.Join(r.GitDir, "adr", "journal")}
	}
	st, err := InstallGuard(r, setup, nil, cs())
	if err != nil || st != StateInstalled || !st.Changed() {
		t.Fatalf("InstallGuard = %q, %v", st, err)
	}
	cur, err := os.ReadFile(r.Abs(setup.Path))
	if err != nil {
		t.Fatal(err)
	}
	if st, err := InstallGuard(r, setup, cur, cs()); err != nil || st != StateAlreadyInstalled || st.Changed() {
		t.Errorf("InstallGuard again = %q, %v", st, err)
	}
	if st, err := UninstallGuard(r, setup, cur, cs()); err != nil || st != StateRestored {
		t.Fatalf("UninstallGuard = %q, %v; want restored", st, err)
	}
	if _, err := os.Lstat(r.Abs(".claude")); !os.IsNotExist(err) {
		t.Errorf(".claude is still there after uninstall: %v", err)
	}
	if st, err := UninstallGuard(r, setup, nil, cs()); err != nil || st != StateNotInstalled {
		t.Errorf("UninstallGuard of nothing = %q, %v", st, err)
	}
}

// Without a hook manager every hook named is installed directly.
func TestPlanInstallWithoutManager(t *testing.T) {
	r := gittest.Repo(t)
	dir, err := r.HooksDir()
	if err != nil {
		t.Fatal(err)
	}
	p, err := PlanInstall(r, dir, DefaultHooks(false))
	if err != nil {
		t.Fatal(err)
	}
	if p.Manager != nil || len(p.Direct) != 2 || len(p.Missing) != 0 {
		t.Fatalf("PlanInstall = %+v", p)
	}
	changes, err := Install(dir, p.Direct)
	if err != nil || len(changes) != 2 || !changes[0].Changed {
		t.Fatalf("Install = %+v, %v", changes, err)
	}
	st, err := Status(r, dir)
	if err != nil || !st.Hooks[0].Installed || st.Hooks[2].Installed {
		t.Errorf("Status = %+v, %v; want pre-commit installed, commit-msg not", st, err)
	}
	if removed, err := Uninstall(dir, GitHooks); err != nil || !removed[0].Changed || removed[2].Changed {
		t.Errorf("Uninstall = %+v, %v", removed, err)
	}
}
