package guard

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/confine"
)

// record is a Nygard record.
func record(n, title, status, extra string) string {
	return "# " + n + ". " + title + "\n\nDate: 2026-01-15\n\n## Status\n\n" + status + "\n" + extra +
		"\n## Context\n\nCONTENT-OF-" + n + "\n\n## Decision\n\nWe decide " + title + ".\n\n## Consequences\n\nNone.\n"
}

// fixture files: a log in doc/adr with five live records, an archived one
// and an index; source code with a folder named archive; a top-level
// archive folder; a link to the archive inside the repository and one
// leading outside.
var fixtureFiles = map[string]string{
	".adr.toml": "[[roots]]\npath = \"doc/adr\"\nstyle = \"nygard\"\n\n[guard]\nmode = \"guard\"\n",
	"doc/adr/0001-record-architecture-decisions.md": record("1", "Record architecture decisions", "Accepted", ""),
	"doc/adr/archive/0002-use-postgresql.md":        record("2", "Use PostgreSQL", "Superseded", "\nSuperseded by [4. Use SQLite](../0004-use-sqlite.md)\n"),
	"doc/adr/0003-serve-mcp.md":                     record("3", "Serve MCP", "Accepted", ""),
	"doc/adr/0004-use-sqlite.md":                    record("4", "Use SQLite", "Accepted", "\nSupersedes [2. Use PostgreSQL](archive/0002-use-postgresql.md)\n"),
	"doc/adr/0005-log-as-json.md":                   record("5", "Log as JSON", "Accepted", ""),
	"doc/adr/0006-ship-one-binary.md":               record("6", "Ship one binary", "Proposed", ""),
	"doc/adr/INDEX.md":                              "# Index\n",
	"src/main.go":                                   "package main\n",
	"src/archive/old.go":                            "package archive\n",
	"archive/notes.md":                              "# notes\n",
	"docs/guide.md":                                 "# guide\n",
	"README.md":                                     "# readme\n",
}

type fixture struct {
	top    string
	policy *Policy
}

// newFixture writes the fixture repository and builds its policy in mode.
// It is a git repository with history: the tag v1 is the log before
// ADR-0002 was archived (doc/adr/0002-use-postgresql.md) and before the
// team set [guard] mode in .adr.toml; the commit after it is the fixture.
func newFixture(t testing.TB, mode Mode) *fixture {
	t.Helper()
	top := t.TempDir()
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	write := func(files map[string]string) {
		for p, c := range files {
			full := filepath.Join(top, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	before := map[string]string{}
	for p, c := range fixtureFiles {
		before[p] = c
	}
	before[".adr.toml"] = "[[roots]]\npath = \"doc/adr\"\nstyle = \"nygard\"\n"
	delete(before, arch)
	before["doc/adr/0002-use-postgresql.md"] = fixtureFiles[arch]
	write(before)
	git(t, top, "init", "-q")
	git(t, top, "add", "-A")
	git(t, top, "commit", "-qm", "the log")
	git(t, top, "tag", "v1")
	git(t, top, "rm", "-q", "doc/adr/0002-use-postgresql.md")
	write(fixtureFiles)
	git(t, top, "add", "-A")
	git(t, top, "commit", "-qm", "archive ADR-0002; guard mode")
	if err := os.Symlink("doc/adr/archive", filepath.Join(top, "old-decisions")); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "x.md"), []byte("outside\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(top, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	return &fixture{top: top, policy: buildPolicy(t, top, mode, "")}
}

func buildPolicy(t testing.TB, top string, mode Mode, sessionDir string) *Policy {
	t.Helper()
	fsys, err := confine.OpenFS(top)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsys.Close() })
	log, err := adr.Load(fsys, adr.LoadOptions{Lazy: true})
	if err != nil {
		t.Fatal(err)
	}
	p := &Policy{Setting: Setting{Mode: mode, Source: FromFile}, Scope: NewScope(log, fsys), Log: log, Top: top,
		GitConfig: filepath.Join(top, ".git", "config")}
	if _, err := os.Stat(filepath.Join(top, ".git")); err == nil {
		p.Restored = GitRestorer(func(args ...string) ([]byte, error) { return gitOut(top, args...) })
	}
	if sessionDir != "" {
		s, err := OpenSession(sessionDir, "test", "session-1")
		if err != nil {
			t.Fatal(err)
		}
		p.Session = s
	}
	return p
}

func (f *fixture) shell(cmd string) Decision {
	return f.policy.Judge(Request{Agent: "test", Cwd: f.top, Tool: "Bash", Op: OpShell, Command: cmd})
}

func (f *fixture) shellIn(dir, cmd string) Decision {
	return f.policy.Judge(Request{Agent: "test", Cwd: filepath.Join(f.top, dir), Tool: "Bash", Op: OpShell, Command: cmd})
}

// git runs git in dir with a fixed identity, or fails the test.
func git(t testing.TB, dir string, args ...string) {
	t.Helper()
	if out, err := gitOut(dir, args...); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func gitOut(dir string, args ...string) ([]byte, error) {
	c := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	c.Dir = dir
	c.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
	return c.Output()
}
