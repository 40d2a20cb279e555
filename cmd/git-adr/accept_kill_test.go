package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestKillAccept kills `git adr compaction --confirm` of a consolidation
// with SIGKILL at every step of its acceptance, in strict mode (a real
// ssh key signs, so no terminal is needed): the journal written; each tree
// built (materialise, supersede, publish, index); the commit object made;
// its signature verified; the branch moved; the work tree journal
// recorded; each file written; the plan recorded; the refs removed. The
// person goes on working meanwhile. Status reports each component; `git
// adr recover` finishes what reached the branch and clears what did not;
// the next confirmation finishes or redoes it: exactly one signed
// acceptance commit whose ledger matches its files, the unrelated edit
// intact, no candidate or reservation ref and no journal left, and a third
// confirmation does nothing.
//
// A plan made with --archive is killed at each step archive-on-accept
// adds: the approved archive plan stored; the acceptance commit on the
// branch (before the plan is recorded, before its refs are removed, before
// the archive part starts); between the two archive commits; after the
// second commit object; after the branch moved to it; during its work
// tree changeset; after the archive plan was recorded. Then exactly the
// acceptance commit and the archive plan's two commits (the rename alone,
// R100, then the links) are there, all three signed, `git log --follow`
// reaches each moved record's first commit, the README's link is
// repaired, and status reports every component committed.
func TestKillAccept(t *testing.T) {
	if testing.Short() {
		t.Skip("drafts and accepts")
	}
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("ssh-keygen is not installed")
	}
	env := procEnv(t)
	env = append(env, "GIT_COMMITTER_NAME=Ada Reviewer", "GIT_COMMITTER_EMAIL=adr@example.com")
	plain := writeLog(t, env, 3, 0)
	strictDraft(t, plain, env)
	archived := commitFiles(t, t.TempDir(), env, map[string]string{
		"doc/adr/0001-use-postgresql.md":   "# 1. Use PostgreSQL\n\n## Status\n\nAccepted\n\nAmended by [2](0002-pool-connections.md)\n\n## Decision\n\nPostgreSQL; [3](0003-shard-orders.md).\n",
		"doc/adr/0002-pool-connections.md": "# 2. Pool connections\n\n## Status\n\nAccepted\n\nAmends [1](0001-use-postgresql.md)\n\n## Decision\n\nPgBouncer; [3](0003-shard-orders.md).\n",
		"doc/adr/0003-shard-orders.md":     "# 3. Shard orders\n\nDate: 2026-01-03\n\n## Status\n\nProposed\n\n## Decision\n\nShard orders by customer.\n",
		"README.md":                        "# Shop\n\nOrders: [PostgreSQL](doc/adr/0001-use-postgresql.md).\n",
	})
	strictDraft(t, archived, env, "--archive")
	cases := []struct {
		name, base string
		points     []string
		// archive lists the records the archive part moves.
		archive []string
	}{
		{"accept", plain, []string{"accept-journal:1", "accept-materialise:1", "accept-supersede:1", "accept-publish:1", "accept-index:1",
			"publish-commit:1", "accept-verified:1", "publish-ref:1", "changeset-journal:1", "changeset-step:1", "changeset-step:4",
			"publish-saved:1", "accept-cleanup:1"}, nil},
		// The acceptance makes commit 1 and moves the branch
		// (publish-ref:1); the archive part makes commits 2 and 3 and
		// moves it again.
		{"archive", archived, []string{"accept-archive-plan:1", "publish-ref:1", "publish-saved:1", "accept-cleanup:1",
			"publish-commit:2", "publish-commit:3", "publish-ref:2", "changeset-journal:2", "changeset-step:7", "archive-saved:1"},
			[]string{"doc/adr/archive/0001-use-postgresql.md", "doc/adr/archive/0002-pool-connections.md"}},
	}
	for _, tc := range cases {
		plan := strings.TrimSpace(runGit(t, tc.base, env, "for-each-ref", "--format=%(refname:lstrip=3)", "refs/adr/plans"))
		confirm := []string{"compaction", "--confirm", plan + "@3"}
		for _, point := range tc.points {
			t.Run(tc.name+"/"+point, func(t *testing.T) {
				dir := copyDir(t, tc.base)
				before, _ := killThenFinish(t, dir, env, point, confirm, func(before string) {
					st := runAdr(t, dir, env, "compaction", "status", plan)
					if st.code != 0 {
						t.Fatalf("status: exit %d\n%s%s", st.code, st.stdout, st.stderr)
					}
					committed := strings.TrimSpace(runGit(t, dir, env, "rev-parse", "HEAD")) != before
					switch {
					case committed && !strings.Contains(st.stdout, "lifecycle: committed"):
						t.Errorf("status after a kill at %s does not report the committed lifecycle:\n%s", point, st.stdout)
					case committed && tc.archive != nil && !strings.Contains(st.stdout, "\narchive: "):
						t.Errorf("status after a kill at %s does not report the archive part:\n%s", point, st.stdout)
					case !committed && !strings.Contains(st.stdout, "nothing was accepted") && point != "accept-archive-plan:1":
						t.Errorf("status after a kill at %s does not say nothing was accepted:\n%s", point, st.stdout)
					}
				})
				want := "Accept ADR-0004 from plan " + plan + " revision 3\n"
				if tc.archive != nil {
					want = "Archive ADR-0001, ADR-0002: repair the links\nArchive ADR-0001, ADR-0002: move into doc/adr/archive/ (rename only)\n" + want
				}
				if log := runGit(t, dir, env, "log", "--format=%s", before+"..HEAD"); log != want {
					t.Fatalf("want exactly these commits after %s:\n%s\ngot:\n%s", before, want, log)
				}
				for i := 0; i < strings.Count(want, "\n"); i++ {
					runGit(t, dir, env, "-c", "gpg.ssh.allowedSignersFile=allowed_signers", "verify-commit", fmt.Sprintf("HEAD~%d", i))
				}
				if r := runAdr(t, dir, env, "check", "--compaction", "--since", before); r.code != 0 {
					t.Errorf("check --since after finishing: exit %d\n%s%s", r.code, r.stdout, r.stderr)
				}
				if tc.archive != nil {
					if got := runGit(t, dir, env, "show", "--format=", "--name-status", "HEAD~1"); !strings.HasPrefix(got, "R100\t") {
						t.Errorf("the first archive commit is not a pure rename:\n%s", got)
					}
					for _, p := range tc.archive {
						if follow := runGit(t, dir, env, "log", "--follow", "--format=%s", "--", p); !strings.HasSuffix(follow, "\nlog\n") {
							t.Errorf("git log --follow %s does not reach the first commit:\n%s", p, follow)
						}
					}
					if data, _ := os.ReadFile(filepath.Join(dir, "README.md")); !strings.Contains(string(data), "(doc/adr/archive/0001-use-postgresql.md)") {
						t.Errorf("the README's link was not repaired:\n%s", data)
					}
					st := runAdr(t, dir, env, "compaction", "status", plan)
					for _, c := range []string{"lifecycle", "view", "index", "archive"} {
						if !strings.Contains(st.stdout, "\n"+c+": committed: ") {
							t.Errorf("status does not report %s committed:\n%s", c, st.stdout)
						}
					}
				}
				if got := runGit(t, dir, env, "status", "--porcelain"); got != " M notes.txt\n" {
					t.Errorf("status after finishing:\n%s", got)
				}
				if refs := runGit(t, dir, env, "for-each-ref", "refs/adr/candidates", "refs/adr/reservations"); refs != "" {
					t.Errorf("refs left: %s", refs)
				}
				if entries, _ := os.ReadDir(filepath.Join(dir, ".git/adr/accept")); len(entries) > 0 {
					t.Errorf("acceptance journal left: %v", entries[0].Name())
				}
				again := runAdr(t, dir, env, confirm...)
				if again.code != 0 || !strings.Contains(again.stdout, "already accepted") {
					t.Errorf("a third confirmation: exit %d\n%s%s", again.code, again.stdout, again.stderr)
				}
				if log := runGit(t, dir, env, "log", "--format=%s", before+"..HEAD"); log != want {
					t.Errorf("the third confirmation made a commit:\n%s", log)
				}
				assertNoLeftovers(t, dir)
			})
		}
	}
}

// killThenFinish runs confirm in dir with SIGKILL at point while the
// person edits notes.txt, edits it again after the crash, calls between
// (with HEAD as it was before the run), then runs `git adr recover` and
// confirm again, which must both succeed, and checks that the edit was
// kept. It returns HEAD as it was before the run.
func killThenFinish(t *testing.T, dir string, env []string, point string, confirm []string, between func(before string)) (string, result) {
	t.Helper()
	before := strings.TrimSpace(runGit(t, dir, env, "rev-parse", "HEAD"))
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("notes, being edited\n"), 0o644)
	r := runAdr(t, dir, append(env, "GIT_ADR_KILL_AT="+point), confirm...)
	if !r.killed {
		t.Fatalf("confirm was not killed at %s: exit %d\n%s%s", point, r.code, r.stdout, r.stderr)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("notes, edited after the crash\n"), 0o644)
	if between != nil {
		between(before)
	}
	if r := runAdr(t, dir, env, "recover"); r.code != 0 {
		t.Fatalf("recover: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	again := runAdr(t, dir, env, confirm...)
	if again.code != 0 {
		t.Fatalf("confirm again: exit %d\n%s%s", again.code, again.stdout, again.stderr)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(data) != "notes, edited after the crash\n" {
		t.Errorf("the unrelated edit was lost: %q", data)
	}
	return before, again
}

// strictDraft puts the log in dir under strict mode (a real ssh key the
// allowed-signers file lists, its principal the one approver), with a
// tracked notes.txt for unrelated work, commits that, and drafts a
// consolidation with the command drafter (extra are more flags): it
// waits for acceptance.
func strictDraft(t *testing.T, dir string, env []string, extra ...string) {
	t.Helper()
	keys := t.TempDir()
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "adr@example.com", "-f", filepath.Join(keys, "key")).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v %s", err, out)
	}
	pub, _ := os.ReadFile(filepath.Join(keys, "key.pub"))
	os.WriteFile(filepath.Join(dir, "allowed_signers"), []byte("adr@example.com "+string(pub)), 0o644)
	os.WriteFile(filepath.Join(dir, ".adr.toml"), []byte("[drafter]\ndefault = \"command\"\n\n[governance]\nstrict = true\nallowed_signers = \"allowed_signers\"\napprovers = [\"adr@example.com\"]\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("notes\n"), 0o644)
	runGit(t, dir, env, "config", "adr.drafter.command", "fake-drafter")
	runGit(t, dir, env, "config", "gpg.format", "ssh")
	runGit(t, dir, env, "config", "user.signingkey", filepath.Join(keys, "key"))
	if r := runAdr(t, dir, env, "index"); r.code != 0 {
		t.Fatalf("index: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	runGit(t, dir, env, "add", "-A")
	runGit(t, dir, env, "commit", "-qm", "config")
	if r := runAdr(t, dir, env, append([]string{"compaction", "--mode", "consolidate", "--yes"}, extra...)...); r.code != ExitAwaiting {
		t.Fatalf("drafting: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
