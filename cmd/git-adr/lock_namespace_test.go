package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLockHolderInAnotherPIDNamespace: a git-adr holding the project lock
// from another PID namespace (a container sharing the repository and the
// kernel; here `unshare --pid`, where it is PID 1) is never taken for dead,
// although its PID names another process here: a write waits for it and
// gives up with exit 4, and `git adr recover --break-lock` refuses. Killed
// with SIGKILL, it is taken over by the next write without a person.
func TestLockHolderInAnotherPIDNamespace(t *testing.T) {
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("no unshare(1)")
	}
	if err := exec.Command("unshare", "--pid", "--fork", "--mount-proc", "true").Run(); err != nil {
		t.Skipf("cannot make a PID namespace here: %v", err)
	}
	dir := t.TempDir()
	env := procEnv(t)
	runGit(t, dir, env, "init", "-q")
	release := filepath.Join(dir, ".git", "release")
	// In its namespace the holder gets a PID that no process has here
	// (set through ns_last_pid), so "that PID is gone" would call it dead.
	want := freePID(t)
	holder := exec.Command("unshare", "--pid", "--fork", "--mount-proc", "sh", "-c",
		`echo $1 >/proc/sys/kernel/ns_last_pid && git-adr new --no-edit Held`, "sh", strconv.Itoa(want-1))
	holder.Dir = dir
	holder.Env = append(env, "GIT_ADR_PAUSE_AT=lock-taken:1:"+release)
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { holder.Process.Kill(); holder.Wait() })
	// The holder says where it stands by creating release.reached.
	var inside string
	for start := time.Now(); inside == ""; time.Sleep(10 * time.Millisecond) {
		data, _ := os.ReadFile(release + ".reached")
		inside = string(data)
		if time.Since(start) > time.Minute {
			t.Fatal("the holder never took the lock")
		}
	}
	if inside != strconv.Itoa(want) {
		t.Logf("the holder is PID %s in its namespace, not %d", inside, want)
	}
	if _, err := os.Stat("/proc/" + inside); err == nil {
		t.Logf("PID %s also exists here", inside)
	}
	wait := append(append([]string(nil), env...), "GIT_ADR_LOCK_TIMEOUT=0.2")
	w := runAdr(t, dir, wait, "new", "--no-edit", "Waiting")
	if w.code != ExitConflict || !strings.Contains(w.stderr, "another git-adr is writing to this repository (pid "+inside+" on ") {
		t.Errorf("a write while the holder runs: exit %d\n%s", w.code, w.stderr)
	}
	b := runAdr(t, dir, env, "recover", "--break-lock")
	if b.code != ExitConflict || !strings.Contains(b.stderr, "another git-adr is writing") {
		t.Errorf("recover --break-lock while the holder runs: exit %d\n%s%s", b.code, b.stdout, b.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "adr", "lock")); err != nil {
		t.Fatalf("the live holder's lock is gone: %v", err)
	}
	// Kill the holder's namespace (its init, unshare's child, takes every
	// process of it along) with SIGKILL: nothing of it runs, and unshare
	// ends once it is reaped.
	children, err := os.ReadFile("/proc/" + strconv.Itoa(holder.Process.Pid) + "/task/" + strconv.Itoa(holder.Process.Pid) + "/children")
	if err != nil || len(strings.Fields(string(children))) == 0 {
		t.Fatalf("cannot find the holder's namespace: %v", err)
	}
	pid, err := strconv.Atoi(strings.Fields(string(children))[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	holder.Wait()
	if _, err := os.Stat(filepath.Join(dir, ".git", "adr", "lock")); err != nil {
		t.Fatalf("the killed holder left no lock to take over: %v", err)
	}
	n := runAdr(t, dir, env, "new", "--no-edit", "After")
	if n.code != 0 || !strings.Contains(n.stderr, "git-adr: note: took over the lock left by pid "+inside+" on ") ||
		!strings.Contains(n.stderr, "`git adr new --no-edit Held`") || !strings.Contains(n.stderr, "which is no longer running") {
		t.Errorf("the write after the holder died: exit %d\n%s%s", n.code, n.stdout, n.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "adr", "lock")); err == nil {
		t.Error("the lock remains after the write")
	}
}

// freePID is a PID near the top of the range that no process has here.
func freePID(t *testing.T) int {
	t.Helper()
	max := 32768
	if data, err := os.ReadFile("/proc/sys/kernel/pid_max"); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
			max = n
		}
	}
	for p := max - 1000; p > max-5000; p-- {
		if _, err := os.Stat("/proc/" + strconv.Itoa(p)); os.IsNotExist(err) {
			return p
		}
	}
	t.Skip("no free PID")
	return 0
}
