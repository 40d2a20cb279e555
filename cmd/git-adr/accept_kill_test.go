package main

import (
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
func TestKillAccept(t *testing.T) {
	if testing.Short() {
		t.Skip("drafts and accepts")
	}
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("ssh-keygen is not installed")
	}
	env := procEnv(t)
	env = append(env, "GIT_COMMITTER_NAME=Ada Reviewer", "GIT_COMMITTER_EMAIL=adr@example.com")
	base := writeLog(t, env, 3, 0)
	keys := t.TempDir()
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "adr@example.com", "-f", filepath.Join(keys, "key")).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v %s", err, out)
	}
	pub, _ := os.ReadFile(filepath.Join(keys, "key.pub"))
	os.WriteFile(filepath.Join(base, "allowed_signers"), []byte("adr@example.com "+string(pub)), 0o644)
	os.WriteFile(filepath.Join(base, ".adr.toml"), []byte("[drafter]\ndefault = \"command\"\n\n[governance]\nstrict = true\nallowed_signers = \"allowed_signers\"\napprovers = [\"adr@example.com\"]\n"), 0o644)
	os.WriteFile(filepath.Join(base, "notes.txt"), []byte("notes\n"), 0o644)
	runGit(t, base, env, "config", "adr.drafter.command", "fake-drafter")
	runGit(t, base, env, "config", "gpg.format", "ssh")
	runGit(t, base, env, "config", "user.signingkey", filepath.Join(keys, "key"))
	if r := runAdr(t, base, env, "index"); r.code != 0 {
		t.Fatalf("index: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	runGit(t, base, env, "add", "-A")
	runGit(t, base, env, "commit", "-qm", "config")
	if r := runAdr(t, base, env, "compaction", "--mode", "consolidate", "--yes"); r.code != ExitAwaiting {
		t.Fatalf("drafting: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	plan := strings.TrimSpace(runGit(t, base, env, "for-each-ref", "--format=%(refname:lstrip=3)", "refs/adr/plans"))
	confirm := []string{"compaction", "--confirm", plan + "@3"}
	points := []string{"accept-journal:1", "accept-materialise:1", "accept-supersede:1", "accept-publish:1", "accept-index:1",
		"publish-commit:1", "accept-verified:1", "publish-ref:1", "changeset-journal:1", "changeset-step:1", "changeset-step:4",
		"publish-saved:1", "accept-cleanup:1"}
	for _, point := range points {
		t.Run(point, func(t *testing.T) {
			dir := t.TempDir()
			if out, err := exec.Command("cp", "-a", base+"/.", dir).CombinedOutput(); err != nil {
				t.Fatalf("cp: %v %s", err, out)
			}
			before := strings.TrimSpace(runGit(t, dir, env, "rev-parse", "HEAD"))
			r := runAdr(t, dir, append(env, "GIT_ADR_KILL_AT="+point), confirm...)
			if !r.killed {
				t.Fatalf("confirm was not killed at %s: exit %d\n%s%s", point, r.code, r.stdout, r.stderr)
			}
			os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("notes, edited after the crash\n"), 0o644)
			st := runAdr(t, dir, env, "compaction", "status", plan)
			if st.code != 0 {
				t.Fatalf("status: exit %d\n%s%s", st.code, st.stdout, st.stderr)
			}
			committed := strings.TrimSpace(runGit(t, dir, env, "rev-parse", "HEAD")) != before
			switch {
			case committed && !strings.Contains(st.stdout, "lifecycle: committed"):
				t.Errorf("status after a kill at %s does not report the committed lifecycle:\n%s", point, st.stdout)
			case !committed && !strings.Contains(st.stdout, "nothing was accepted"):
				t.Errorf("status after a kill at %s does not say nothing was accepted:\n%s", point, st.stdout)
			}
			if r := runAdr(t, dir, env, "recover"); r.code != 0 {
				t.Fatalf("recover: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if r := runAdr(t, dir, env, confirm...); r.code != 0 {
				t.Fatalf("confirm again: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			log := runGit(t, dir, env, "log", "--format=%H %s", before+"..HEAD")
			if n := strings.Count(log, "\n"); n != 1 || !strings.Contains(log, "Accept ADR-0004 from plan "+plan) {
				t.Fatalf("want exactly one acceptance commit after %s, got:\n%s", before, log)
			}
			runGit(t, dir, env, "-c", "gpg.ssh.allowedSignersFile=allowed_signers", "verify-commit", "HEAD")
			if r := runAdr(t, dir, env, "check", "--compaction", "--since", before); r.code != 0 {
				t.Errorf("check --since after finishing: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if got := runGit(t, dir, env, "status", "--porcelain"); got != " M notes.txt\n" {
				t.Errorf("status after finishing:\n%s", got)
			}
			if data, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(data) != "notes, edited after the crash\n" {
				t.Errorf("the unrelated edit was lost: %q", data)
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
			assertNoLeftovers(t, dir)
		})
	}
}
