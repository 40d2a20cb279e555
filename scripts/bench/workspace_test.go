package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestMedianRow(t *testing.T) {
	s := time.Second
	runs := []wsRow{{time: 3 * s, cpu: 1}, {time: 1 * s, cpu: 2}, {time: 2 * s, cpu: 3}}
	if r := medianRow(runs); r.time != 2*s || r.cpu != 3 || r.err != nil {
		t.Fatalf("median of 3: %+v, want the 2 s run with its own CPU", r)
	}
	if r := medianRow(runs[:2]); r.time != 3*s {
		t.Fatalf("median of 2: %v, want the upper run, 3s", r.time)
	}
	runs[0].err = errors.New("exit 1")
	if r := medianRow(runs); r.err == nil {
		t.Fatal("a failed run must fail the row")
	}
}

func TestParseWorkspace(t *testing.T) {
	if n, m, err := parseWorkspace("100x10"); err != nil || n != 100 || m != 10 {
		t.Fatalf("100x10: %d %d %v", n, m, err)
	}
	for _, bad := range []string{"100", "0x10", "x", "10x-1"} {
		if _, _, err := parseWorkspace(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestWsTargets(t *testing.T) {
	s := time.Second
	rows := []wsRow{
		{name: "git init --bare + git fetch, 2 repositories", time: 10 * s, cpu: 10 * s, rss: 11 << 10},
		{name: "workspace sync (first, median of 3)", time: 12 * s, cpu: 11 * s, rss: 30 << 10},
		{name: "context --task (warm, 1st)", time: s / 2, rss: 40 << 10},
		{name: "context --task (warm, 2nd)", time: 2 * s, rss: 300 << 10},
		{name: "git status (one repository)", time: s / 100, rss: 500 << 10},
	}
	got := wsTargets(rows, nil)
	for _, want := range []string{
		"| first sync bounded by git's own fetch (≤ 1.1× its time) | 1.20× its time, 1.10× its CPU | no |",
		"| warm `context --task` ≤ 1 s | 2.00 s (the slower of two) | no |",
		"| every workspace command's peak RSS ≤ 256 MiB | 300 MiB (context --task (warm, 2nd)) | no |",
		"not measured (add `-sizes 10000`)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no line %q in\n%s", want, got)
		}
	}
	rows[1].time, rows[3].time, rows[3].rss = 10*s, s, 200<<10
	got = wsTargets(rows, nil)
	for _, want := range []string{"| 1.00× its time, 1.10× its CPU | yes |", "| 1.00 s (the slower of two) | yes |", "| 200 MiB (context --task (warm, 2nd)) | yes |"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
}

// A repository given a history of code keeps the code in the log's commit.
func TestCodeHistory(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "gitconfig")
	if err := os.WriteFile(cfg, []byte("[user]\n\tname = T\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := &bench{env: append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+cfg)}
	repo := filepath.Join(dir, "r")
	if err := os.MkdirAll(filepath.Join(repo, "doc", "adr"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := b.git(repo, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	if err := b.codeHistory(repo, 7, 1); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "doc", "adr", "0001-a.md"), []byte("# 1. A\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"add", "--", "doc"}, {"commit", "-q", "-m", "records"}} {
		if err := b.git(repo, args...); err != nil {
			t.Fatal(err)
		}
	}
	out := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = repo, b.env
		o, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(o))
	}
	if n := out("rev-list", "--count", "main"); n != "8" {
		t.Fatalf("%s commits, want 7 of code and the log's", n)
	}
	files := strings.Split(out("ls-tree", "-r", "--name-only", "main"), "\n")
	code := slices.ContainsFunc(files, func(f string) bool { return strings.HasPrefix(f, "src/") })
	if !slices.Contains(files, "doc/adr/0001-a.md") || !code {
		t.Fatalf("the log's commit holds %q", files)
	}
}
