package audit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/scope"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/cachefile"
	"github.com/git-adr/git-adr/internal/gittest"
)

// hermeticGit sets a hermetic git identity and configuration for the
// test and returns a runner of git in dir.
func hermeticGit(t *testing.T, dir string) func(args ...string) string {
	t.Helper()
	gittest.Hermetic(t)
	return func(args ...string) string { t.Helper(); return gittest.Git(t, dir, args...) }
}

// committedLog makes a repository in dir (branch main) whose first
// commit holds files (path → text), and returns it opened with its log.
func committedLog(t *testing.T, dir string, files map[string]string) (*gitops.Repo, *adr.Log) {
	t.Helper()
	git := hermeticGit(t, dir)
	for p, text := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(text), 0o644)
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-qm", "start")
	r, err := gitops.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	l, err := adr.Load(r.WorktreeFS(), adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return r, l
}

// churnCounts agrees with git's own count of the same commits (non-merge
// commits in since..HEAD touching the pattern) on a history with branches
// merged before and after records were added.
func TestChurnCountsAgreeWithRevList(t *testing.T) {
	dir := t.TempDir()
	git := hermeticGit(t, dir)
	commit := func(p, msg string) {
		t.Helper()
		gittest.AppendLine(t, filepath.Join(dir, p), msg)
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

	r, err := gitops.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs := []*adr.Record{{ID: "ADR-0001", Path: "doc/adr/0001-a.md"}, {ID: "ADR-0002", Path: "doc/adr/0002-b.md"}}
	globs := map[*adr.Record][]string{recs[0]: {"pay/**"}, recs[1]: {"pay/**", "web/*.ts"}}
	adds, err := r.AddedFiles("HEAD", []string{"doc/adr"})
	if err != nil {
		t.Fatal(err)
	}
	added := map[string]string{}
	for _, c := range adds {
		for _, f := range c.Files {
			if _, ok := added[f]; !ok {
				added[f] = c.Hash
			}
		}
	}
	changes, err := r.ChangedFiles("HEAD", nil)
	if err != nil {
		t.Fatal(err)
	}
	history, err := r.History("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	got := churnCounts(recs, globs, added, changes, newCommitGraph(history))
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

// The churn counts are kept for the HEAD they were counted at: a second
// count at the same HEAD reads them (a forged count with the right key is
// believed, which shows the file is read), a new commit counts again, and
// a damaged file is counted again and replaced.
func TestChurnCacheFollowsHEAD(t *testing.T) {
	dir := t.TempDir()
	git := hermeticGit(t, dir)
	os.MkdirAll(filepath.Join(dir, "doc", "adr"), 0o755)
	os.WriteFile(filepath.Join(dir, "doc/adr/0001-cache.md"), []byte("# 1. Cache\n\nDate: 2024-01-02\nApplies to: pay/**\n\n## Status\n\nAccepted\n\n## Decision\n\nCache.\n"), 0o644)
	git("init", "-q")
	change := func(msg string) {
		t.Helper()
		gittest.AppendLine(t, filepath.Join(dir, "pay/a.go"), "// "+msg)
		git("add", "-A")
		git("commit", "-qm", msg)
	}
	change("start")
	change("one")
	r, err := gitops.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	l, err := adr.Load(r.WorktreeFS(), adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	count := func() int {
		t.Helper()
		order, globs := ScopedInForce(scope.New(l, nil).Patterns())
		counts, _ := CachedChurn(r, l, order, globs)
		if len(order) != 1 {
			t.Fatalf("%d scoped records", len(order))
		}
		return counts[order[0]]
	}
	if n := count(); n != 1 {
		t.Fatalf("counted %d, want 1", n)
	}
	file := filepath.Join(r.AdrDir(), "cache", ChurnCacheFile)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := decodeChurnCache(data)
	if !ok {
		t.Fatal("the saved file does not decode")
	}
	c.Counts[0].Count = 99
	body, _ := json.Marshal(c)
	if err := os.WriteFile(file, cachefile.Seal(append([]byte(churnCacheMagic), body...)), 0o600); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 99 {
		t.Fatalf("at the same HEAD: %d, want the kept 99", n)
	}
	change("two")
	if n := count(); n != 2 {
		t.Fatalf("after a commit: %d, want 2", n)
	}
	if err := os.WriteFile(file, []byte(churnCacheMagic+"{damaged"), 0o600); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 2 {
		t.Fatalf("damaged file: %d, want 2", n)
	}
	if data, _ := os.ReadFile(file); !bytes.HasPrefix(data, []byte(churnCacheMagic+"{\"key\"")) {
		t.Fatalf("the damaged file was not replaced: %q", data)
	}
	if !ChurnCacheValid(data) || ChurnCacheValid([]byte(churnCacheMagic+"{damaged")) {
		t.Fatal("ChurnCacheValid disagrees with the decoder")
	}
}

func FuzzDecodeChurnCache(f *testing.F) {
	f.Add([]byte(churnCacheMagic + `{"key":"k","counts":[{"path":"a","count":1,"added":"h"}]}`))
	f.Add([]byte("nothing"))
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeChurnCache(body)
		decodeChurnCache(cachefile.Seal(append([]byte(churnCacheMagic), body...)))
	})
}
