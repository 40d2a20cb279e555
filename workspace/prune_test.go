package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A mirror records each workspace file that syncs into it once, and a
// file named through a link under both names: a prune after the link is
// gone still keeps the file's mirrors.
func TestNoteUserRecordsOnceAndThroughLinks(t *testing.T) {
	dir, mirror := t.TempDir(), t.TempDir()
	ws := filepath.Join(dir, "ws.toml")
	if err := os.WriteFile(ws, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.toml")
	if err := os.Symlink(ws, link); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		for _, p := range []string{ws, link} {
			if err := noteUser(filepath.Join(mirror, "adr"), p); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A record still being written (atomicfile's temporary file) is not one.
	if err := os.WriteFile(filepath.Join(mirror, "adr", usersDir, ".x.123.tmp"), []byte(filepath.Join(dir, "half")), 0o644); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(ws)
	users, known := mirrorUsers(mirror)
	var paths []string
	for _, u := range users {
		paths = append(paths, u.path)
	}
	slices.Sort(paths)
	want := []string{link, real}
	if real != ws {
		want = append(want, ws)
	}
	slices.Sort(want)
	want = slices.Compact(want)
	if !known || !slices.Equal(paths, want) {
		t.Fatalf("users = %q (known %v), want %q", paths, known, want)
	}
	if _, known := mirrorUsers(t.TempDir()); known {
		t.Fatal("a mirror with no record of users is known")
	}
}

// A prune judges each folder named as mirrors are named by the workspace
// files it recorded: one a file still names stays, one whose files are
// gone or name other mirrors goes (a dry run first, removing nothing), one
// that recorded no file at all (an earlier git-adr's) stays as unknown,
// one recorded by a file that does not load stays; anything else in the
// cache folder is left alone.
func TestPruneJudgesByRecordedFiles(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	w := loadWSIn(t, dir, "ws.toml", "[[repo]]\nname = \"p\"\nurl = \"https://example.com/p.git\"\n", cache)
	broken := filepath.Join(dir, "broken.toml")
	if err := os.WriteFile(broken, []byte("[[repo]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mirror := func(url string, users ...string) string {
		name := mirrorName(url)
		for _, sub := range []string{"objects", "refs"} {
			if err := os.MkdirAll(filepath.Join(cache, name, sub), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(cache, name, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, u := range users {
			if err := noteUser(filepath.Join(cache, name, "adr"), u); err != nil {
				t.Fatal(err)
			}
		}
		return name
	}
	kept := mirror("https://example.com/p.git", w.Path, filepath.Join(dir, "gone.toml"))
	unnamed := mirror("https://example.com/gone.git", w.Path, filepath.Join(dir, "gone.toml"))
	unknown := mirror("https://example.com/old.git")
	held := mirror("https://example.com/b.git", broken)
	if err := os.WriteFile(filepath.Join(cache, unnamed, "objects", "pack"), make([]byte, 3000), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"notes", "0123456789abcdef-x.gitx", ".new-123.git"} {
		if err := os.MkdirAll(filepath.Join(cache, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, dry := range []bool{true, false} {
		res, err := Prune(cache, "test", nil, dry)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Removed) != 1 || res.Removed[0].Name != unnamed || res.Removed[0].Bytes < 3000 || res.Kept != 2 ||
			!slices.Equal(res.Unknown, []string{unknown}) || len(res.Unreadable) != 1 || res.Unreadable[0].File != broken {
			t.Fatalf("dry=%v: %+v", dry, res)
		}
		_, err = os.Stat(filepath.Join(cache, unnamed))
		if gone := os.IsNotExist(err); gone == dry {
			t.Fatalf("dry=%v: the unnamed mirror gone=%v", dry, gone)
		}
	}
	// The gone file's record went with the judgement; the live one stays.
	users, _ := mirrorUsers(filepath.Join(cache, kept))
	if len(users) != 1 || users[0].path != w.Path {
		t.Fatalf("records left in the kept mirror: %+v", users)
	}
	ents, _ := os.ReadDir(cache)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	want := []string{".new-123.git", "0123456789abcdef-x.gitx", kept, unknown, held, "notes"}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Fatalf("left %q, want %q", names, want)
	}
}

func loadWSIn(t *testing.T, dir, name, text, cache string) *Workspace {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := Load(p, cache)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// A mirror's source file says which URL it mirrors, its password masked:
// a prune names it, and never shows a secret.
func TestMirrorSourceMasksPassword(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "adr"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeSource(filepath.Join(dir, "adr"), "https://me:s3cret@example.com/r.git"); err != nil {
		t.Fatal(err)
	}
	got := mirrorSource(dir)
	if strings.Contains(got, "s3cret") || !strings.HasPrefix(got, "https://") || !strings.HasSuffix(got, "@example.com/r.git") {
		t.Fatalf("source = %q", got)
	}
	if mirrorSource(t.TempDir()) != "" {
		t.Fatal("a mirror with no source file has one")
	}
}
