package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
)

func TestLogCommitsParsesOddNames(t *testing.T) {
	out := "\x01aaa\x00\nplain.go\x00with space.go\x00\nstarts-with-newline\x00\x00\x01bbb\x00\x01ccc\x00\nx/y.md\x00"
	got := logCommits([]byte(out))
	want := []logCommit{{hash: "aaa", files: []string{"plain.go", "with space.go", "\nstarts-with-newline"}}, {hash: "bbb"}, {hash: "ccc", files: []string{"x/y.md"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}

// churnCounts agrees with git's own count of the same commits (non-merge
// commits in since..HEAD touching the pattern) on a history with branches
// merged before and after records were added.
func TestChurnCountsAgreeWithRevList(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	write := func(p, s string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(p, msg string) {
		t.Helper()
		f, _ := os.ReadFile(filepath.Join(dir, p))
		write(p, string(f)+msg+"\n")
		git("add", "-A")
		git("commit", "-qm", msg)
	}
	git("init", "-q", "-b", "main")
	commit("pay/a.go", "start")
	commit("doc/adr/0001-a.md", "record 1")
	git("checkout", "-qb", "early")
	commit("pay/b.go", "early branch")
	git("checkout", "-q", "main")
	commit("pay/a.go", "main 1")
	git("merge", "-q", "--no-ff", "-m", "merge early", "early")
	commit("doc/adr/0002-b.md", "record 2")
	git("checkout", "-qb", "late", "HEAD~2") // from before record 2 and the merge
	commit("pay/c.go", "late branch")
	commit("web/x.ts", "late web")
	git("checkout", "-q", "main")
	commit("pay/a.go", "main 2")
	git("merge", "-q", "--no-ff", "-m", "merge late", "late")
	commit("web/x.ts", "web")

	recs := []*adr.Record{{ID: "ADR-0001", Path: "doc/adr/0001-a.md"}, {ID: "ADR-0002", Path: "doc/adr/0002-b.md"}}
	globs := map[*adr.Record][]string{recs[0]: {"pay/**"}, recs[1]: {"pay/**", "web/*.ts"}}
	added := map[string]string{}
	for _, c := range logCommits([]byte(git("log", "-z", "--no-renames", "--diff-filter=A", "--format=%x01%H", "--name-only", "--", "doc/adr"))) {
		for _, f := range c.files {
			if _, ok := added[f]; !ok {
				added[f] = c.hash
			}
		}
	}
	changes := logCommits([]byte(git("log", "-z", "--no-merges", "--no-renames", "--full-history", "--format=%x01%H", "--name-only", "HEAD")))
	g := parseCommitGraph([]byte(git("rev-list", "--parents", "HEAD")))
	got := churnCounts(recs, globs, added, changes, g)
	for _, rec := range recs {
		args := []string{"rev-list", "--count", "--no-merges", "--full-history", strings.TrimSpace(added[rec.Path]) + "..HEAD", "--"}
		for _, p := range globs[rec] {
			args = append(args, ":(glob)"+p)
		}
		want, _ := strconv.Atoi(strings.TrimSpace(git(args...)))
		if got[rec] != want {
			t.Errorf("%s: %d commits, git rev-list counts %d", rec.ID, got[rec], want)
		}
		if want == 0 {
			t.Errorf("%s: the history gives it no commit to count", rec.ID)
		}
	}
}
