package adr_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/adr"
)

// TestArchiveYearFolders: records in archive/ and archive/<year>/ are
// archived records of their root (other folders of archive/ are not),
// count for numbering on other branches, and links into them resolve.
func TestArchiveYearFolders(t *testing.T) {
	rec := func(n, status, extra string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("# " + n + ". R\n\nDate: 2024-01-01\n\n## Status\n\n" + status + "\n" + extra + "\n## Decision\n\nX.\n")}
	}
	fsys := fstest.MapFS{
		"doc/adr/0001-a.md":                    rec("1", "Accepted", "\nRelates to [2](archive/2023/0002-b.md)\n"),
		"doc/adr/archive/0003-c.md":            rec("3", "Deprecated", ""),
		"doc/adr/archive/2023/0002-b.md":       rec("2", "Deprecated", ""),
		"doc/adr/archive/notes/0009-not-it.md": rec("9", "Deprecated", ""),
	}
	l, err := adr.Load(fsys, adr.LoadOptions{Roots: []string{"doc/adr"}})
	if err != nil {
		t.Fatal(err)
	}
	root := l.Roots[0]
	var got []string
	for _, r := range root.Records {
		got = append(got, r.ID+":"+r.Path)
		if r.Path != "doc/adr/0001-a.md" && !r.Archived {
			t.Errorf("%s is not archived", r.Path)
		}
	}
	want := "ADR-0001:doc/adr/0001-a.md ADR-0002:doc/adr/archive/2023/0002-b.md ADR-0003:doc/adr/archive/0003-c.md"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("records %s, want %s", s, want)
	}
	if rel := l.ByPath("doc/adr/0001-a.md").Relations; len(rel) != 1 || rel[0].TargetID != "ADR-0002" {
		t.Errorf("the link into archive/2023/ resolves to %+v", rel)
	}
	if !root.IsArchiveDir("doc/adr/archive/2023") || !root.IsArchiveDir("doc/adr/archive") || root.IsArchiveDir("doc/adr/archive/notes") {
		t.Error("IsArchiveDir")
	}
	if p := root.ArchivePath("0004-d.md", "2025"); p != "doc/adr/archive/2025/0004-d.md" {
		t.Errorf("ArchivePath = %s", p)
	}
	seen := adr.ScanBranches([]adr.BranchTree{{Ref: "refs/heads/main", FS: fsys}}, l.Roots)
	if n := adr.NextNumber(root, seen, nil); n != 4 {
		t.Errorf("next number %d, want 4", n)
	}
	empty, _ := adr.Load(fstest.MapFS{"doc/adr/0001-a.md": rec("1", "Accepted", "")}, adr.LoadOptions{Roots: []string{"doc/adr"}})
	if n := adr.NextNumber(empty.Roots[0], adr.ScanBranches([]adr.BranchTree{{Ref: "refs/heads/main", FS: fsys}}, empty.Roots), nil); n != 4 {
		t.Errorf("a branch that has only record 1 allocates %d; want 4 (past archive/2023/0002 and archive/0003 elsewhere)", n)
	}
}
