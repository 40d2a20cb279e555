package navigate

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestResolve(t *testing.T) {
	tr, dir := newTree(t, map[string]string{"sub/deep/f.txt": "x"})
	sub, err := tr.At("sub")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tree *Tree
		in   string
		want string
		err  error
	}{
		{tr, "", ".", nil},
		{tr, ".", ".", nil},
		{tr, "sub/deep/f.txt", "sub/deep/f.txt", nil},
		{tr, "./sub//deep/../deep/f.txt", "sub/deep/f.txt", nil},
		{tr, filepath.Join(dir, "sub"), "sub", nil},
		{tr, dir, ".", nil},
		{tr, "..", "", ErrOutside},
		{tr, "../x", "", ErrOutside},
		{tr, "sub/../../x", "", ErrOutside},
		{tr, filepath.Dir(dir), "", ErrOutside},
		{tr, "/etc/passwd", "", ErrOutside},
		{tr, ".git", "", ErrGitDir},
		{tr, ".git/config", "", ErrGitDir},
		{tr, "sub/.git/HEAD", "", ErrGitDir},
		{sub, "deep", "sub/deep", nil},
		{sub, "..", ".", nil},
		{sub, "../..", "", ErrOutside},
		{sub, "", "sub", nil},
	} {
		got, err := c.tree.Resolve(c.in)
		if !errors.Is(err, c.err) || got != c.want {
			t.Errorf("Resolve(%q) from %q = %q, %v; want %q, %v", c.in, c.tree.cwd, got, err, c.want, c.err)
		}
	}
	if _, err := tr.At("../elsewhere"); !errors.Is(err, ErrOutside) {
		t.Errorf("At outside: %v", err)
	}
}

func TestPathsShownFromCurrentDirectory(t *testing.T) {
	tr, _ := newTree(t, map[string]string{"a/f.txt": "needle\n", "b/g.txt": "needle\n"})
	a, err := tr.At("a")
	if err != nil {
		t.Fatal(err)
	}
	pg, err := a.Read("../b/g.txt", ReadOptions{StartLine: 1, LineCount: 1})
	if err != nil || pg.Path != "../b/g.txt" {
		t.Fatalf("read from a: %+v %v", pg, err)
	}
	res, err := a.Search(SearchOptions{Pattern: "needle", Path: ".."})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 2 || res.Matches[0].Path != "f.txt" || res.Matches[1].Path != "../b/g.txt" {
		t.Errorf("search from a: %+v", res.Matches)
	}
}

func TestSymlinksAreConfined(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.txt"), "secret\n")
	tr, dir := newTree(t, map[string]string{"in/real.txt": "real\n", "docs/a.md": "a\n"})
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, ".git", "config"), "[core]\n")
	symlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(dir, "abs-out"))
	symlink(t, "../"+filepath.Base(outside), filepath.Join(dir, "rel-out")) // may or may not resolve; never readable
	symlink(t, outside, filepath.Join(dir, "dir-out"))
	symlink(t, "in/real.txt", filepath.Join(dir, "rel-in"))
	symlink(t, filepath.Join(dir, "in", "real.txt"), filepath.Join(dir, "abs-in"))
	symlink(t, "docs", filepath.Join(dir, "docs-link"))
	symlink(t, ".git/config", filepath.Join(dir, "git-link"))
	symlink(t, "nowhere", filepath.Join(dir, "dangling"))

	one := ReadOptions{StartLine: 1, LineCount: 1}
	for _, p := range []string{"abs-out", "dir-out/secret.txt", filepath.Join(dir, "dir-out", "secret.txt")} {
		_, err := tr.Read(p, one)
		wantErr(t, err, ErrOutside)
	}
	if _, err := tr.Read("rel-out/secret.txt", one); err == nil {
		t.Error("read through rel-out")
	}
	// Missing files behind a link that leads out are outside too: the
	// answer must not tell what exists elsewhere.
	for _, p := range []string{"dir-out/missing.txt", "dir-out/a/b/c", "abs-out/x"} {
		_, err := tr.Read(p, one)
		wantErr(t, err, ErrOutside)
	}
	_, err := tr.Read("in/missing/x", one)
	wantErr(t, err, ErrNotFound)
	_, err = tr.List("dir-out", ListOptions{})
	wantErr(t, err, ErrOutside)
	_, err = tr.Search(SearchOptions{Pattern: "secret", Path: "dir-out"})
	wantErr(t, err, ErrOutside)
	_, err = tr.Read("git-link", one)
	wantErr(t, err, ErrGitDir)
	_, err = tr.Read("dangling", one)
	wantErr(t, err, ErrNotFound)

	for _, p := range []string{"rel-in", "abs-in"} {
		pg, err := tr.Read(p, one)
		if err != nil || pg.Content != "real\n" || pg.Path != p {
			t.Errorf("read %s: %+v %v", p, pg, err)
		}
	}
	if l, err := tr.List("docs-link", ListOptions{}); err != nil || len(l.Entries) != 1 {
		t.Errorf("list docs-link: %+v %v", l, err)
	}
	// Search does not follow links at all: "secret" and the linked copies
	// of "real" are not found; the real file is, once.
	res, err := tr.Search(SearchOptions{Pattern: "secret"})
	if err != nil || len(res.Matches) != 0 {
		t.Errorf("search followed a link out: %+v %v", res, err)
	}
	res, err = tr.Search(SearchOptions{Pattern: "real"})
	if err != nil || len(res.Matches) != 1 || res.Matches[0].Path != "in/real.txt" {
		t.Errorf("search real: %+v %v", res, err)
	}
	if res.Stats.Links != 8 {
		t.Errorf("links counted: %d", res.Stats.Links)
	}
	// The search path itself may be a link inside the tree.
	res, err = tr.Search(SearchOptions{Pattern: "a", Path: "docs-link"})
	if err != nil || len(res.Matches) != 1 || res.Matches[0].Path != "docs-link/a.md" {
		t.Errorf("search through docs-link: %+v %v", res, err)
	}
}

func TestOpenFollowsTopLink(t *testing.T) {
	_, dir := newTree(t, map[string]string{"f.txt": "x\n"})
	link := filepath.Join(t.TempDir(), "repo")
	symlink(t, dir, link)
	tr, err := Open(link)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	for _, p := range []string{filepath.Join(link, "f.txt"), filepath.Join(dir, "f.txt")} {
		if _, err := tr.Read(p, ReadOptions{StartLine: 1, LineCount: 1}); err != nil {
			t.Errorf("absolute %s: %v", p, err)
		}
	}
}
