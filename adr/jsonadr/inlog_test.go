package jsonadr

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/adr"
)

func TestInLog(t *testing.T) {
	fsys := fstest.MapFS{
		"doc/adr/0001-a.md": {Data: []byte("# 1. A\n\n## Status\n\nAccepted\n")},
		"doc/adr/0003-c.md": {Data: []byte("# 3. C\n\n## Status\n\nAccepted\n")},
	}
	l, err := adr.Load(fsys, adr.LoadOptions{Roots: []string{"doc/adr"}})
	if err != nil {
		t.Fatal(err)
	}
	top := t.TempDir()
	if err := os.MkdirAll(filepath.Join(top, "doc/adr"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(top, "doc/adr/0003-c.md"), []byte("on disk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	branch := adr.BranchTree{Ref: "refs/heads/other", FS: fstest.MapFS{"doc/adr/0005-e.md": {Data: []byte("# 5. E\n")}}}
	opt := InLog(ImportOptions{}, l, top, nil, map[string][]int{"doc/adr": {4}})
	if n := opt.Next("doc/adr"); n != 5 {
		t.Errorf("Next with number 4 reserved = %d, want 5", n)
	}
	if n := InLog(ImportOptions{}, l, top, []adr.BranchTree{branch}, nil).Next("doc/adr"); n != 6 {
		t.Errorf("Next with 0005 on a branch = %d, want 6", n)
	}
	if n := opt.Next("elsewhere"); n != 1 {
		t.Errorf("Next of a directory that is no root = %d, want 1", n)
	}
	nums := opt.Numbers("doc/adr")
	if len(nums) != 2 || nums[1] != "doc/adr/0001-a.md" || nums[3] != "doc/adr/0003-c.md" {
		t.Errorf("Numbers = %v", nums)
	}
	if len(opt.Numbers("elsewhere")) != 0 {
		t.Errorf("a directory that is no root has numbers")
	}
	if b, ok := opt.Exists("doc/adr/0003-c.md"); !ok || string(b) != "on disk\n" {
		t.Errorf("Exists of a work tree file = %q, %v", b, ok)
	}
	if _, ok := opt.Exists("doc/adr/0001-a.md"); ok {
		t.Errorf("Exists of a file the work tree lacks is true: files are read from the work tree, not the log")
	}
}
