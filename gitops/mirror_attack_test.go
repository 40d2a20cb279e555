package gitops

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A mirror's config holding anything git init does not write, or a
// commondir file, is named; what git init writes on any system is not.
func TestForeignMirrorConfig(t *testing.T) {
	plain := "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n\tignorecase = true\n\tprecomposeunicode = true\n[extensions]\n\tobjectformat = sha256\n"
	for cfg, want := range map[string]string{
		plain: "",
		plain + "[core]\n\thooksPath = /tmp/evil\n":            "its config holds core.hookspath, which git-adr never writes there",
		plain + "[core]\n\tsshCommand = evil\n":                "its config holds core.sshcommand, which git-adr never writes there",
		plain + "[url \"ext::sh -c x\"]\n\tinsteadOf = file\n": `its config holds "[url \"ext::sh -c x\"]", which git-adr never writes there`,
		plain + "[include]\n\tpath = /tmp/x\n":                 "its config holds include.path, which git-adr never writes there",
		plain + "[credential]\n\thelper = !evil\n":             "its config holds credential.helper, which git-adr never writes there",
		"[core]\n\tbare = true \\\n":                           "its config holds core.bare, which git-adr never writes there",
		"[core] bare = true\n":                                 `its config holds "[core] bare = true", which git-adr never writes there`,
		"[core]\n\tbare = false\n\tlogallrefupdates = true\n":  "its config does not say bare = true (it is not a mirror git-adr made)",
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "config"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := foreignMirrorConfig(dir); got != want {
			t.Errorf("%q: got %q, want %q", cfg, got, want)
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "config"), []byte(plain), 0o644)
	os.WriteFile(filepath.Join(dir, "commondir"), []byte("/elsewhere\n"), 0o644)
	if got := foreignMirrorConfig(dir); got != "it holds a commondir file, which git-adr never writes there" {
		t.Errorf("commondir: got %q", got)
	}
}

// A config.worktree file, which extensions.worktreeConfig has git read, is
// named too.
func TestForeignMirrorConfigWorktree(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "config"), []byte("[core]\n\tbare = true\n[extensions]\n\tworktreeConfig = true\n"), 0o644)
	if got := foreignMirrorConfig(dir); got != "" {
		t.Errorf("worktreeConfig alone: got %q", got)
	}
	os.WriteFile(filepath.Join(dir, "config.worktree"), []byte("[core]\n\thooksPath = /tmp/evil\n"), 0o644)
	if got := foreignMirrorConfig(dir); got != "it holds a config.worktree file, which git-adr never writes there" {
		t.Errorf("config.worktree: got %q", got)
	}
}

// A mirror owned by another user, which git refuses, is a MirrorError
// saying so (a reader was told "not synced yet", which a sync did not
// mend); admitted by safe.directory, it opens.
func TestMirrorOwnedByAnother(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a folder away")
	}
	newRepo(t, map[string]string{"a": "a"}) // a hermetic git configuration
	dir := filepath.Join(t.TempDir(), "m.git")
	m, err := OpenMirror(dir)
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	if err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 65534, 65534)
	}); err != nil {
		t.Fatal(err)
	}
	var me *MirrorError
	if _, err := OpenBare(dir); !errors.As(err, &me) || !strings.Contains(err.Error(), "owned by another user") {
		t.Fatalf("OpenBare: %v, want a MirrorError", err)
	}
	t.Setenv("GIT_CONFIG_COUNT", "1")
	t.Setenv("GIT_CONFIG_KEY_0", "safe.directory")
	t.Setenv("GIT_CONFIG_VALUE_0", dir)
	if m, err = OpenBare(dir); err != nil {
		t.Fatalf("OpenBare admitted by safe.directory: %v", err)
	}
	m.Close()
}
