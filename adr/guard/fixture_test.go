package guard

import (
	"os"
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
func newFixture(t testing.TB, mode Mode) *fixture {
	t.Helper()
	top := t.TempDir()
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	for p, c := range fixtureFiles {
		full := filepath.Join(top, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
