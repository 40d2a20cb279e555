package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A workspace file is listed once however often it syncs; a file naming
// no remote repository is not listed (a prune has nothing of it to keep).
func TestRegisterListsOnce(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	remote := loadWSIn(t, dir, "remote.toml", "[[repo]]\nname = \"p\"\nurl = \"https://example.com/p.git\"\n", cache)
	local := loadWSIn(t, dir, "local.toml", "[[repo]]\nname = \"l\"\npath = \"l\"\n", cache)
	for range 3 {
		for _, w := range []*Workspace{remote, local} {
			if err := w.Register(); err != nil {
				t.Fatal(err)
			}
		}
	}
	data, err := os.ReadFile(filepath.Join(cache, filesList))
	if err != nil {
		t.Fatal(err)
	}
	if want := strconv.Quote(remote.Path) + "\n"; string(data) != want {
		t.Fatalf("list = %q, want %q", data, want)
	}
}

// The list is read a line at a time: a line cut short by a crash, a
// relative path or a repeat is passed over, and a path holding a newline
// or quotes comes back whole.
func TestRegisteredReadsWholeLines(t *testing.T) {
	cache := t.TempDir()
	odd := "/tmp/a \"b\"\nc.toml"
	text := strconv.Quote("/w/one.toml") + "\n" + strconv.Quote(odd) + "\n" + strconv.Quote("rel.toml") + "\n" +
		strconv.Quote("/w/one.toml") + "\n" + `"/w/cut-sh`
	if err := os.WriteFile(filepath.Join(cache, filesList), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := registered(cache)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"/w/one.toml", odd}; !slices.Equal(got, want) {
		t.Fatalf("registered = %q, want %q", got, want)
	}
}

// The list is never written through a link: a sync whose cache folder
// holds one there refuses to list itself rather than append to whatever
// the link names.
func TestRegisterRefusesALink(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	target := filepath.Join(dir, "profile")
	if err := os.WriteFile(target, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(cache, filesList)); err != nil {
		t.Fatal(err)
	}
	w := loadWSIn(t, dir, "ws.toml", "[[repo]]\nname = \"p\"\nurl = \"https://example.com/p.git\"\n", cache)
	if err := w.Register(); err == nil || !strings.Contains(err.Error(), "not the list of workspace files") {
		t.Fatalf("Register through a link: %v", err)
	}
	if data, _ := os.ReadFile(target); string(data) != "keep\n" {
		t.Fatalf("the link's target was written: %q", data)
	}
}

// A prune removes only folders named as mirrors are named that no file
// names: anything else in the cache folder is left, and a dry run
// removes nothing.
func TestPruneTouchesOnlyMirrors(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	w := loadWSIn(t, dir, "ws.toml", "[[repo]]\nname = \"p\"\nurl = \"https://example.com/p.git\"\n", cache)
	if err := w.Register(); err != nil {
		t.Fatal(err)
	}
	kept := filepath.Base(w.Members[0].Mirror)
	unnamed := mirrorName("https://example.com/gone.git")
	for _, d := range []string{kept, unnamed, "notes", "0123456789abcdef-x.gitx", ".new-123.git"} {
		if err := os.MkdirAll(filepath.Join(cache, d, "objects"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(cache, unnamed, "objects", "pack"), make([]byte, 3000), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dry := range []bool{true, false} {
		res, err := Prune(cache, "test", nil, dry)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Removed) != 1 || res.Removed[0].Name != unnamed || res.Removed[0].Bytes != 3000 || res.Kept != 1 || res.Files != 1 {
			t.Fatalf("dry=%v: %+v", dry, res)
		}
		_, err = os.Stat(filepath.Join(cache, unnamed))
		if gone := os.IsNotExist(err); gone == dry {
			t.Fatalf("dry=%v: the unnamed mirror gone=%v", dry, gone)
		}
	}
	ents, _ := os.ReadDir(cache)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if want := []string{".new-123.git", filesList, "0123456789abcdef-x.gitx", kept, "notes"}; !slices.Equal(names, want) {
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

func FuzzRegistered(f *testing.F) {
	f.Add([]byte(strconv.Quote("/w/a.toml") + "\n" + `"/b` + "\n"))
	f.Add([]byte("\"\\x00/\"\n\n\"/\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cache := t.TempDir()
		if err := os.WriteFile(filepath.Join(cache, filesList), data, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := registered(cache)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range got {
			if !filepath.IsAbs(p) || slices.Index(got, p) != i {
				t.Fatalf("registered gave %q", got)
			}
		}
	})
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

// A file synced through a link is listed under both names, so that a
// prune after the link is gone still keeps the file's mirrors.
func TestRegisterListsTheLinkAndItsFile(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	w := loadWSIn(t, dir, "ws.toml", "[[repo]]\nname = \"p\"\nurl = \"https://example.com/p.git\"\n", cache)
	link := filepath.Join(dir, "link.toml")
	if err := os.Symlink(w.Path, link); err != nil {
		t.Fatal(err)
	}
	lw, err := Load(link, cache)
	if err != nil {
		t.Fatal(err)
	}
	if err := lw.Register(); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(w.Path)
	got, err := registered(cache)
	if err != nil || !slices.Equal(got, []string{link, real}) {
		t.Fatalf("registered = %q, %v; want the link and %q", got, err, real)
	}
	os.Remove(link)
	if err := os.MkdirAll(filepath.Join(cache, filepath.Base(w.Members[0].Mirror), "objects"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := Prune(cache, "test", nil, false)
	if err != nil || len(res.Removed) != 0 || res.Kept != 1 || res.Gone != 1 {
		t.Fatalf("prune after the link went: %+v, %v", res, err)
	}
}
