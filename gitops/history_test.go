package gitops

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func commitOf(t *testing.T, dir, rev string) string {
	t.Helper()
	return strings.TrimSpace(runGit(t, dir, "rev-parse", rev))
}

// The merge base of two branches is their fork point, an option-like
// name is never run as an option, and unrelated histories are an error.
func TestMergeBase(t *testing.T) {
	dir := newRepo(t, map[string]string{"a": "a\n"})
	fork := commitOf(t, dir, "HEAD")
	runGit(t, dir, "checkout", "-qb", "topic")
	runGit(t, dir, "commit", "-q", "--allow-empty", "-m", "topic")
	runGit(t, dir, "checkout", "-q", "main")
	runGit(t, dir, "commit", "-q", "--allow-empty", "-m", "main")
	r := openRepo(t, dir)
	if got, err := r.MergeBase("HEAD", "refs/heads/topic"); err != nil || got != fork {
		t.Fatalf("MergeBase = %q, %v; want %s", got, err, fork)
	}
	if _, err := r.MergeBase("HEAD", "--all"); err == nil {
		t.Fatal("an option-like rev was accepted")
	}
	runGit(t, dir, "checkout", "-q", "--orphan", "other")
	runGit(t, dir, "commit", "-q", "--allow-empty", "-m", "unrelated")
	var ge *GitError
	if got, err := r.MergeBase("main", "other"); !errors.As(err, &ge) {
		t.Fatalf("unrelated histories: %q, %v; want a GitError", got, err)
	}
}

// RemoteHead follows refs/remotes/origin/HEAD, and is empty without it.
func TestRemoteHead(t *testing.T) {
	dir := newRepo(t, map[string]string{"a": "a\n"})
	r := openRepo(t, dir)
	if got := r.RemoteHead("origin"); got != "" {
		t.Fatalf("without a remote: %q", got)
	}
	runGit(t, dir, "update-ref", "refs/remotes/origin/trunk", "HEAD")
	runGit(t, dir, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
	if got := r.RemoteHead("origin"); got != "refs/remotes/origin/trunk" {
		t.Fatalf("RemoteHead = %q", got)
	}
	if got := r.RemoteHead("upstream"); got != "" {
		t.Fatalf("another remote: %q", got)
	}
}

// A full clone is not shallow; a clone of depth 1 is.
func TestIsShallow(t *testing.T) {
	dir := newRepo(t, map[string]string{"a": "a\n"})
	runGit(t, dir, "commit", "-q", "--allow-empty", "-m", "two")
	if openRepo(t, dir).IsShallow() {
		t.Fatal("a full repository is shallow")
	}
	clone := filepath.Join(t.TempDir(), "clone")
	runGit(t, dir, "clone", "-q", "--depth", "1", "file://"+dir, clone)
	if !openRepo(t, clone).IsShallow() {
		t.Fatal("a clone of depth 1 is not shallow")
	}
}

// CommitsBetween lists a range oldest first, and nothing for an empty one.
func TestCommitsBetween(t *testing.T) {
	dir := newRepo(t, map[string]string{"a": "a\n"})
	base := commitOf(t, dir, "HEAD")
	runGit(t, dir, "commit", "-q", "--allow-empty", "-m", "one")
	one := commitOf(t, dir, "HEAD")
	runGit(t, dir, "commit", "-q", "--allow-empty", "-m", "two")
	two := commitOf(t, dir, "HEAD")
	r := openRepo(t, dir)
	if got, err := r.CommitsBetween(base, "HEAD"); err != nil || !reflect.DeepEqual(got, []string{one, two}) {
		t.Fatalf("CommitsBetween = %v, %v; want [%s %s]", got, err, one, two)
	}
	if got, err := r.CommitsBetween("HEAD", "HEAD"); err != nil || len(got) != 0 {
		t.Fatalf("an empty range: %v, %v", got, err)
	}
	if _, err := r.CommitsBetween("nosuch", "HEAD"); err == nil {
		t.Fatal("a range from no commit was accepted")
	}
}

// TrackedFiles lists the index (a staged file included, an untracked one
// not) or a commit's files, names with spaces and newlines kept whole;
// in a bare repository, "" is HEAD's files.
func TestTrackedFiles(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.go": "a\n", "dir/with space.md": "b\n", "odd\nname": "c\n"})
	first := commitOf(t, dir, "HEAD")
	writeFile(t, dir, "staged.go", "s\n")
	writeFile(t, dir, "untracked.go", "u\n")
	runGit(t, dir, "add", "staged.go")
	r := openRepo(t, dir)
	got, err := r.TrackedFiles("")
	if want := []string{"a.go", "dir/with space.md", "odd\nname", "staged.go"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("TrackedFiles(\"\") = %q, %v; want %q", got, err, want)
	}
	got, err = r.TrackedFiles(first)
	if want := []string{"a.go", "dir/with space.md", "odd\nname"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("TrackedFiles(first) = %q, %v; want %q", got, err, want)
	}
	bare := filepath.Join(t.TempDir(), "bare.git")
	runGit(t, dir, "clone", "-q", "--bare", dir, bare)
	br, err := Open(bare)
	if !errors.Is(err, ErrBare) {
		t.Fatalf("Open(bare) = %v, want ErrBare", err)
	}
	got, err = br.TrackedFiles("")
	if want := []string{"a.go", "dir/with space.md", "odd\nname"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("bare TrackedFiles(\"\") = %q, %v; want %q", got, err, want)
	}
}

// AddedFiles names the commits that added files under the folders, newest
// first, each with what it added there (a rename adds the new name);
// ChangedFiles names the non-merge commits that changed files, on every
// side of a merge, limited to folders when asked.
func TestAddedAndChangedFiles(t *testing.T) {
	dir := newRepo(t, map[string]string{"pay/a.go": "a\n"})
	c0 := commitOf(t, dir, "HEAD")
	writeFile(t, dir, "doc/adr/0001-a.md", "# 1. A\n")
	writeFile(t, dir, "doc/adr/0002 b.md", "# 2. B\n")
	writeFile(t, dir, "web/x.ts", "x\n")
	runGit(t, dir, "add", "-A")
	runGit(t, dir, "commit", "-qm", "records")
	c1 := commitOf(t, dir, "HEAD")
	runGit(t, dir, "checkout", "-qb", "side")
	writeFile(t, dir, "pay/a.go", "a2\n")
	runGit(t, dir, "commit", "-qam", "side")
	c2 := commitOf(t, dir, "HEAD")
	runGit(t, dir, "checkout", "-q", "main")
	runGit(t, dir, "mv", "doc/adr/0001-a.md", "doc/adr/0001-renamed.md")
	runGit(t, dir, "commit", "-qm", "rename")
	c3 := commitOf(t, dir, "HEAD")
	runGit(t, dir, "merge", "-q", "--no-ff", "-m", "merge", "side")
	r := openRepo(t, dir)

	added, err := r.AddedFiles("HEAD", []string{"doc/adr"})
	want := []LogCommit{{Hash: c3, Files: []string{"doc/adr/0001-renamed.md"}}, {Hash: c1, Files: []string{"doc/adr/0001-a.md", "doc/adr/0002 b.md"}}}
	if err != nil || !reflect.DeepEqual(added, want) {
		t.Fatalf("AddedFiles = %+v, %v\nwant %+v", added, err, want)
	}
	if added, err = r.AddedFiles(c1, nil); err != nil || len(added) != 2 || added[1].Hash != c0 || added[0].Hash != c1 {
		t.Fatalf("AddedFiles(c1, whole tree) = %+v, %v", added, err)
	}

	changed, err := r.ChangedFiles("HEAD", []string{"pay"})
	want = []LogCommit{{Hash: c2, Files: []string{"pay/a.go"}}, {Hash: c0, Files: []string{"pay/a.go"}}}
	if err != nil || !reflect.DeepEqual(changed, want) {
		t.Fatalf("ChangedFiles(pay) = %+v, %v\nwant %+v", changed, err, want)
	}
	changed, err = r.ChangedFiles("HEAD", nil)
	var hashes []string
	for _, c := range changed {
		hashes = append(hashes, c.Hash)
	}
	if err != nil || len(hashes) != 4 || !strings.Contains(strings.Join(hashes, " "), c3) || strings.Contains(strings.Join(hashes, " "), commitOf(t, dir, "HEAD")) {
		t.Fatalf("ChangedFiles(all) = %v, %v; want the four non-merge commits", hashes, err)
	}
}

// parseLogCommits keeps names with spaces and leading newlines whole, and
// a commit without files.
func TestParseLogCommitsOddNames(t *testing.T) {
	out := "\x01aaa\x00\nplain.go\x00with space.go\x00\nstarts-with-newline\x00\x00\x01bbb\x00\x01ccc\x00\nx/y.md\x00"
	got := parseLogCommits([]byte(out))
	want := []LogCommit{{Hash: "aaa", Files: []string{"plain.go", "with space.go", "\nstarts-with-newline"}}, {Hash: "bbb"}, {Hash: "ccc", Files: []string{"x/y.md"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}

// History gives every commit its parents: two for a merge, none for the
// root.
func TestHistory(t *testing.T) {
	dir := newRepo(t, map[string]string{"a": "a\n"})
	root := commitOf(t, dir, "HEAD")
	runGit(t, dir, "checkout", "-qb", "side")
	runGit(t, dir, "commit", "-q", "--allow-empty", "-m", "side")
	side := commitOf(t, dir, "HEAD")
	runGit(t, dir, "checkout", "-q", "main")
	runGit(t, dir, "commit", "-q", "--allow-empty", "-m", "main")
	main := commitOf(t, dir, "HEAD")
	runGit(t, dir, "merge", "-q", "--no-ff", "-m", "merge", "side")
	merge := commitOf(t, dir, "HEAD")
	got, err := openRepo(t, dir).History("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	parents := map[string][]string{}
	for _, c := range got {
		parents[c.Hash] = c.Parents
	}
	want := map[string][]string{merge: {main, side}, main: {root}, side: {root}, root: {}}
	if len(got) != 4 || got[0].Hash != merge || !reflect.DeepEqual(parents, want) {
		t.Fatalf("History = %+v\nwant %v", got, want)
	}
}
