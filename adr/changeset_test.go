package adr

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func newChangeset(t *testing.T) (*Changeset, string) {
	t.Helper()
	top := t.TempDir()
	return &Changeset{Top: top, JournalDir: filepath.Join(top, ".git", "adr", "journal")}, top
}

func write(t *testing.T, top, rel, data string, mode fs.FileMode) {
	t.Helper()
	p := filepath.Join(top, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, top, rel string) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(top, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b), true
}

// leftovers lists temporary files and journals a finished Apply must not
// leave behind.
func leftovers(t *testing.T, c *Changeset) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(c.Top, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".tmp") || strings.HasPrefix(p, c.JournalDir)) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func TestChangesetApply(t *testing.T) {
	c, top := newChangeset(t)
	write(t, top, "docs/adr/0001-a.md", "old a\n", 0o600)
	write(t, top, "docs/adr/0002-b.md", "old b\n", 0o644)
	c.Create("docs/adr/0003-c.md", []byte("new c\n"))
	c.Update("docs/adr/0001-a.md", []byte("old a\n"), []byte("new a\n"))
	c.Update("docs/adr/0001-a.md", []byte("old a\n"), []byte("newer a\n")) // a second update of the same file replaces the first
	c.Rename("docs/adr/0002-b.md", "docs/adr/archive/0002-b.md", []byte("old b\n"), []byte("archived b\n"))
	if got, want := c.Paths(), []string{"docs/adr/0001-a.md", "docs/adr/0002-b.md", "docs/adr/0003-c.md", "docs/adr/archive/0002-b.md"}; !slices.Equal(got, want) {
		t.Errorf("Paths() = %q, want %q", got, want)
	}
	if err := c.Apply(); err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]string{
		"docs/adr/0001-a.md":         "newer a\n",
		"docs/adr/0003-c.md":         "new c\n",
		"docs/adr/archive/0002-b.md": "archived b\n",
	} {
		if got, ok := read(t, top, rel); !ok || got != want {
			t.Errorf("%s = %q (exists %v), want %q", rel, got, ok, want)
		}
	}
	if _, ok := read(t, top, "docs/adr/0002-b.md"); ok {
		t.Errorf("the rename's source still exists")
	}
	if fi, err := os.Stat(filepath.Join(top, "docs/adr/0001-a.md")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("an update must keep the file mode: %v %v", fi.Mode(), err)
	}
	if l := leftovers(t, c); len(l) > 0 {
		t.Errorf("left behind: %q", l)
	}
}

func TestChangesetNoop(t *testing.T) {
	c, _ := newChangeset(t)
	c.Update("x.md", []byte("same"), []byte("same"))
	if !c.Empty() {
		t.Errorf("an update that changes nothing is not a change")
	}
	if err := c.Apply(); err != nil {
		t.Errorf("empty Apply: %v", err)
	}
}

func TestChangesetRefusals(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(c *Changeset)
		changed bool // want ErrChangedOnDisk
		msg     string
	}{
		{"update of a file changed on disk", func(c *Changeset) {
			c.Update("a.md", []byte("what we read\n"), []byte("new\n"))
		}, true, `"a.md"`},
		{"update of a file deleted on disk", func(c *Changeset) {
			c.Update("gone.md", []byte("x"), []byte("y"))
		}, false, `"gone.md"`},
		{"create over an existing file", func(c *Changeset) {
			c.Create("a.md", []byte("new\n"))
		}, false, `"a.md" already exists`},
		{"rename of a changed file", func(c *Changeset) {
			c.Rename("a.md", "archive/a.md", []byte("what we read\n"), []byte("new\n"))
		}, true, `"a.md"`},
		{"rename onto an existing file", func(c *Changeset) {
			c.Rename("a.md", "b.md", []byte("on disk\n"), []byte("new\n"))
		}, false, `"b.md" already exists`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, top := newChangeset(t)
			write(t, top, "a.md", "on disk\n", 0o644)
			write(t, top, "b.md", "b\n", 0o644)
			c.Create("new.md", []byte("must not appear\n"))
			tt.setup(c)
			err := c.Apply()
			if err == nil {
				t.Fatal("Apply succeeded")
			}
			if errors.Is(err, ErrChangedOnDisk) != tt.changed || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Apply() = %v; want ErrChangedOnDisk=%v and %s", err, tt.changed, tt.msg)
			}
			// Nothing happened: the other change in the set is not applied.
			if _, ok := read(t, top, "new.md"); ok {
				t.Errorf("a refused changeset wrote part of itself")
			}
			if got, _ := read(t, top, "a.md"); got != "on disk\n" {
				t.Errorf("a.md = %q", got)
			}
			if l := leftovers(t, c); len(l) > 0 {
				t.Errorf("left behind: %q", l)
			}
		})
	}
}

func TestNextNumber(t *testing.T) {
	fsys := fstest.MapFS{
		"docs/adr/0001-a.md":         nygard(1, "A", "Accepted"),
		"docs/adr/0002-b.md":         nygard(2, "B", "Accepted"),
		"docs/adr/archive/0005-e.md": nygard(5, "E", "Deprecated"),
		"other/adr/0001-x.md":        nygard(1, "X", "Accepted"),
		"other/adr/0030-y.md":        nygard(30, "Y", "Accepted"),
		".adr.toml":                  file("[[roots]]\npath = \"docs/adr\"\n[[roots]]\npath = \"other/adr\"\n"),
	}
	l, err := Load(fsys, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	docs, other := l.Roots[0], l.Roots[1]
	if n := NextNumber(docs, nil, nil); n != 6 {
		t.Errorf("past the archive: %d, want 6", n)
	}
	if n := NextNumber(other, nil, nil); n != 31 {
		t.Errorf("other root: %d, want 31", n)
	}
	branches := ScanBranches([]BranchTree{
		{Ref: "refs/remotes/origin/feature", FS: fstest.MapFS{
			"docs/adr/0001-a.md":          nygard(1, "A", "Accepted"),
			"docs/adr/0007-g.md":          nygard(7, "G", "Proposed"),
			"docs/adr/archive/0009-i.md":  nygard(9, "I", "Deprecated"),
			"docs/adr/README.md":          file("# 0099\n"),
			"docs/adr/20990101-slug.md":   file("# slug\n"),
			"docs/adr/drafts/0050-x.md":   nygard(50, "X", "Proposed"),
			"other/adr/0031-z.md":         nygard(31, "Z", "Proposed"),
			"unrelated/adr/0100-other.md": nygard(100, "O", "Accepted"),
		}},
		{Ref: "refs/heads/empty", FS: fstest.MapFS{}},
	}, l.Roots)
	var got []string
	for _, b := range branches {
		got = append(got, b.Ref+":"+b.Path)
	}
	want := []string{
		"refs/remotes/origin/feature:docs/adr/0001-a.md",
		"refs/remotes/origin/feature:docs/adr/0007-g.md",
		"refs/remotes/origin/feature:docs/adr/archive/0009-i.md",
		"refs/remotes/origin/feature:other/adr/0031-z.md",
	}
	if !slices.Equal(got, want) {
		t.Errorf("ScanBranches = %q, want %q", got, want)
	}
	if n := NextNumber(docs, branches, nil); n != 10 {
		t.Errorf("past another branch's archive: %d, want 10", n)
	}
	if n := NextNumber(other, branches, nil); n != 32 {
		t.Errorf("other root with branches: %d, want 32", n)
	}
	if n := NextNumber(docs, branches, []int{3, 12}); n != 13 {
		t.Errorf("past a reservation: %d, want 13", n)
	}
	if n := NextNumber(&Root{}, nil, nil); n != 1 {
		t.Errorf("an empty log starts at %d, want 1", n)
	}
	madr := &Root{Records: []*Record{{Numbered: true, Number: 0}}}
	if n := NextNumber(madr, nil, nil); n != 1 {
		t.Errorf("a log starting at 0 continues at %d, want 1", n)
	}
	slugs := &Root{Records: []*Record{{ID: "20200101-x"}}}
	if n := NextNumber(slugs, nil, nil); n != 1 {
		t.Errorf("a slug log: %d, want 1", n)
	}
}
