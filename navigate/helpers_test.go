package navigate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newTree writes files (slash paths to contents) into a temporary directory
// and opens it as a tree.
func newTree(t testing.TB, files map[string]string) (*Tree, string) {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(p)), c)
	}
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr, dir
}

func writeFile(t testing.TB, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symbolic links unavailable: %v", err)
	}
}

// readAll reads p page by page with line_count n and returns the
// concatenated content and the pages.
func readAll(t testing.TB, tr *Tree, p string, n int) (string, []*Page) {
	t.Helper()
	var b strings.Builder
	var pages []*Page
	start := 1
	for {
		pg, err := tr.Read(p, ReadOptions{StartLine: start, LineCount: n})
		if err != nil {
			t.Fatalf("read %s from line %d: %v", p, start, err)
		}
		pages = append(pages, pg)
		b.WriteString(pg.Content)
		if pg.NextStartLine == nil {
			return b.String(), pages
		}
		if *pg.NextStartLine != start+pg.LineCount || pg.LineCount == 0 {
			t.Fatalf("page at %d: next_start_line %d after %d lines", start, *pg.NextStartLine, pg.LineCount)
		}
		if len(pages) > 100000 {
			t.Fatal("paging does not end")
		}
		start = *pg.NextStartLine
	}
}

func wantErr(t testing.TB, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error %v, want %v", err, target)
	}
}
