package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// archiveLog writes a committed log where record 2 is superseded by 3 and
// linked from 3, a README and itself (so the archival is two commits), and
// a tracked notes.txt for unrelated work.
func archiveLog(t *testing.T, env []string) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "doc/adr"), 0o755)
	files := map[string]string{
		"doc/adr/0001-record-decisions.md": "# 1. Record decisions\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\nWe record decisions.\n",
		"doc/adr/0002-use-mysql.md":        "# 2. Use MySQL\n\nDate: 2026-01-02\n\n## Status\n\nSuperseded by [3. Use PostgreSQL](0003-use-postgresql.md)\n\n## Decision\n\nMySQL, as [1](0001-record-decisions.md) says.\n",
		"doc/adr/0003-use-postgresql.md":   "# 3. Use PostgreSQL\n\nDate: 2026-01-03\n\n## Status\n\nAccepted\n\nSupersedes [2. Use MySQL](0002-use-mysql.md)\n\n## Decision\n\nPostgreSQL.\n",
		"README.md":                        "# Shop\n\nSee [MySQL](doc/adr/0002-use-mysql.md).\n",
		"notes.txt":                        "notes\n",
	}
	return commitFiles(t, dir, env, files)
}

// commitFiles writes files into dir, a new repository, and commits them
// ("log"); it returns dir.
func commitFiles(t *testing.T, dir string, env []string, files map[string]string) string {
	t.Helper()
	for p, data := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(data), 0o644)
	}
	runGit(t, dir, env, "init", "-q")
	runGit(t, dir, env, "add", "-A")
	runGit(t, dir, env, "commit", "-qm", "log")
	return dir
}

// TestKillArchive kills `git adr archive --confirm` (and restore's) with
// SIGKILL between the two commits, after the second, after the branch
// moved, after the work tree journal, after each file and after the plan
// was recorded, with unrelated work in the tree; then a person edits that
// work, runs `git adr recover` and confirms again. Every time: exactly
// the two commits (the rename alone, then the links), git log --follow
// reaches the record's first commit, the unrelated edit is intact, the
// work tree matches HEAD otherwise, and nothing is left behind.
func TestKillArchive(t *testing.T) {
	if testing.Short() {
		t.Skip("kills real processes")
	}
	env := procEnv(t)
	base := archiveLog(t, env)
	r := runAdr(t, base, env, "archive", "2")
	if r.code != ExitAwaiting {
		t.Fatalf("archive: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	plan := strings.TrimSpace(runGit(t, base, env, "for-each-ref", "--format=%(refname:lstrip=3)", "refs/adr/archives"))
	points := []string{"publish-commit:1", "publish-commit:2", "publish-ref:1", "changeset-journal:1", "changeset-step:1", "changeset-step:3", "archive-saved:1"}
	for _, kind := range []string{"archive", "restore"} {
		for _, point := range points {
			t.Run(kind+"/"+point, func(t *testing.T) {
				dir := copyDir(t, base)
				confirm := []string{"archive", "--confirm", plan + "@1"}
				moved := "doc/adr/archive/0002-use-mysql.md"
				subjects := "Archive ADR-0002: repair the links\nArchive ADR-0002: move into doc/adr/archive/ (rename only)\n"
				if kind == "restore" {
					if r := runAdr(t, dir, env, confirm...); r.code != 0 {
						t.Fatalf("archive: exit %d\n%s%s", r.code, r.stdout, r.stderr)
					}
					if r := runAdr(t, dir, env, "archive", "restore", plan); r.code != ExitAwaiting {
						t.Fatalf("restore: exit %d\n%s%s", r.code, r.stdout, r.stderr)
					}
					confirm = []string{"archive", "restore", "--confirm", plan + "@3"}
					moved = "doc/adr/0002-use-mysql.md"
					subjects = "Restore ADR-0002: repair the links\nRestore ADR-0002: move out of the archive (rename only)\n"
				}
				before, again := killThenFinish(t, dir, env, point, confirm, nil)
				// Killed after the branch moved and before the plan was
				// recorded done, the next confirmation finds the
				// publication by its trailer and says it finishes it.
				finished := strings.Contains(again.stderr, "by a run that was interrupted; finishing it")
				if want := strings.HasPrefix(point, "publish-ref:") || strings.HasPrefix(point, "changeset-"); finished != want {
					t.Errorf("killed at %s, the note on finishing an interrupted run shown: %v, want %v\n%s", point, finished, want, again.stderr)
				}
				if got := runGit(t, dir, env, "log", "--format=%s", before+"..HEAD"); got != subjects {
					t.Fatalf("want exactly the two commits after %s, got:\n%s", before, got)
				}
				if got := runGit(t, dir, env, "show", "--format=", "--name-status", "HEAD~1"); !strings.HasPrefix(got, "R100\t") {
					t.Errorf("the first commit is not a pure rename:\n%s", got)
				}
				follow := runGit(t, dir, env, "log", "--follow", "--format=%s", "--", moved)
				if !strings.HasSuffix(follow, "\nlog\n") {
					t.Errorf("git log --follow %s does not reach the first commit:\n%s", moved, follow)
				}
				if got := runGit(t, dir, env, "status", "--porcelain"); got != " M notes.txt\n" {
					t.Errorf("status after finishing:\n%s", got)
				}
				if again := runAdr(t, dir, env, confirm...); again.code != 0 || !strings.Contains(again.stdout, "nothing to do") {
					t.Errorf("a third confirmation: exit %d\n%s%s", again.code, again.stdout, again.stderr)
				}
				if kind == "restore" {
					if got := runGit(t, dir, env, "diff", "--stat", "HEAD~4", "HEAD"); got != "" {
						t.Errorf("the restore is not the exact inverse:\n%s", got)
					}
				}
				assertNoLeftovers(t, dir)
			})
		}
	}
}
