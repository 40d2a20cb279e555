package gitops

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// snapshot is every file of fsys with its content.
func snapshot(t *testing.T, fsys fs.FS) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		out[p] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStagedStateBaseIsHead stages every kind of change the hook sees
// (an edit, an addition, a deletion, a rename with an edit, a type
// change, `git add -N` (which the diff does not list), an unstaged edit
// on top of a staged one) and
// checks that the state derived from the index is HEAD's tree exactly,
// and the index's own state the index, in process and through the git
// binary.
func TestStagedStateBaseIsHead(t *testing.T) {
	dir := newRepo(t, map[string]string{
		"doc/adr/0001-a.md": "# 1. A\n\nAccepted\n",
		"doc/adr/0002-b.md": "# 2. B\n\nAccepted\n" + strings.Repeat("line of text\n", 40),
		"doc/adr/0003-c.md": "# 3. C\n\nAccepted\n",
		"doc/adr/0004-d.md": "# 4. D\n\nAccepted\n",
		"src/link":          "target",
		"README.md":         "readme\n",
	})
	write := func(p, c string) {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("doc/adr/0001-a.md", "# 1. A\n\nDeprecated\n")
	runGit(t, dir, "add", "doc/adr/0001-a.md")
	write("doc/adr/0001-a.md", "# 1. A\n\nRejected, unstaged\n")
	runGit(t, dir, "mv", "doc/adr/0002-b.md", "doc/adr/0005-b.md")
	write("doc/adr/0005-b.md", "# 5. B\n\nAccepted\n"+strings.Repeat("line of text\n", 40))
	runGit(t, dir, "add", "doc/adr/0005-b.md")
	runGit(t, dir, "rm", "-q", "doc/adr/0003-c.md")
	write("doc/adr/0006-new.md", "# 6. New\n\nProposed\n")
	runGit(t, dir, "add", "doc/adr/0006-new.md")
	write("doc/adr/0007-later.md", "# 7. Later\n")
	runGit(t, dir, "add", "-N", "doc/adr/0007-later.md")
	if err := os.Remove(filepath.Join(dir, "src/link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("elsewhere", filepath.Join(dir, "src/link")); err != nil {
		t.Fatal(err)
	}
	runGit(t, dir, "add", "src/link")
	for _, viaGit := range []bool{false, true} {
		r, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if viaGit {
			r.gogitErr = errors.New("test: the git binary") // ls-files, ls-tree
		}
		st, err := r.StagedState()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range st.Changes {
			got = append(got, string(c.Status)+" "+c.OldPath+" "+c.Path)
		}
		sort.Strings(got)
		want := []string{"A  doc/adr/0006-new.md", "D  doc/adr/0003-c.md", "M  doc/adr/0001-a.md", "R doc/adr/0002-b.md doc/adr/0005-b.md", "T  src/link"}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("go-git %v: changes %q", !viaGit, got)
		}
		head, err := r.TreeFS("HEAD")
		if err != nil {
			t.Fatal(err)
		}
		if b, h := snapshot(t, st.Base), snapshot(t, head); !equalMaps(b, h) {
			t.Errorf("go-git %v: base %v, HEAD %v", !viaGit, b, h)
		}
		idx, err := r.IndexFS()
		if err != nil {
			t.Fatal(err)
		}
		if n, i := snapshot(t, st.Next), snapshot(t, idx); !equalMaps(n, i) {
			t.Errorf("go-git %v: next %v, index %v", !viaGit, n, i)
		}
		r.Close()
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
