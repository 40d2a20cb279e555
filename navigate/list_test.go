package navigate

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// listAll pages through dir and returns every name in order.
func listAll(t testing.TB, tr *Tree, dir string) ([]string, int) {
	t.Helper()
	var names []string
	after, pages := "", 0
	for {
		l, err := tr.List(dir, ListOptions{After: after})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if len(l.Entries) > MaxListEntries {
			t.Fatalf("page of %d entries", len(l.Entries))
		}
		b, _ := json.Marshal(l.Entries)
		if len(b) > MaxListPageBytes+2 {
			t.Fatalf("page encodes to %d bytes", len(b))
		}
		for _, e := range l.Entries {
			names = append(names, e.Name)
		}
		if l.NextAfter == nil {
			return names, pages
		}
		if *l.NextAfter != l.Entries[len(l.Entries)-1].Name {
			t.Fatalf("next_after %q is not the last entry", *l.NextAfter)
		}
		after = *l.NextAfter
	}
}

func TestListPagesWithoutOmissionsOrDuplicates(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for i := range 1234 {
		// Names whose numeric and byte orders differ, and some Unicode.
		name := fmt.Sprintf("f%d.txt", i)
		if i%100 == 7 {
			name = fmt.Sprintf("é%d", i)
		}
		writeFile(t, filepath.Join(dir, name), "x")
		want = append(want, name)
	}
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	got, pages := listAll(t, tr, ".")
	if !slices.Equal(got, want) {
		t.Fatalf("paging listed %d names, want %d (first difference near %v)", len(got), len(want), firstDiff(got, want))
	}
	if pages != 7 {
		t.Errorf("%d pages, want 7 of at most 200", pages)
	}
}

func TestListEncodedBound(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for i := range 300 {
		name := fmt.Sprintf("%03d-%s", i, strings.Repeat("n", 200))
		writeFile(t, filepath.Join(dir, name), "x")
		want = append(want, name)
	}
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	l, err := tr.List("", ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) >= MaxListEntries || l.NextAfter == nil {
		t.Fatalf("long names: %d entries in one page", len(l.Entries))
	}
	got, _ := listAll(t, tr, ".")
	if !slices.Equal(got, want) {
		t.Fatal("long names: paging missed or repeated entries")
	}
}

func TestListEntries(t *testing.T) {
	tr, dir := newTree(t, map[string]string{"b.txt": "hello", "a/x": "", ".hidden": "1"})
	symlink(t, "b.txt", filepath.Join(dir, "link"))
	l, err := tr.List(".", ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(l)
	want := `{"entries":[{"name":".hidden","type":"file","size":1},{"name":"a","type":"dir","size":null},{"name":"b.txt","type":"file","size":5},{"name":"link","type":"symlink","size":null}],"next_after":null}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	// A cursor that names no entry still continues in order.
	l, err = tr.List(".", ListOptions{After: "aa"})
	if err != nil || len(l.Entries) != 2 || l.Entries[0].Name != "b.txt" {
		t.Errorf("after aa: %+v %v", l, err)
	}
	l, err = tr.List(".", ListOptions{After: "zzz"})
	if err != nil || len(l.Entries) != 0 || l.NextAfter != nil {
		t.Errorf("after the last: %+v %v", l, err)
	}
	_, err = tr.List("b.txt", ListOptions{})
	wantErr(t, err, ErrNotDir)
	_, err = tr.List("missing", ListOptions{})
	wantErr(t, err, ErrNotFound)
	var ae *ArgError
	if _, err = tr.List(".", ListOptions{After: "a/x"}); !errors.As(err, &ae) || ae.Arg != "after" {
		t.Errorf("a path as cursor: %v", err)
	}
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("%d: %q vs %q", i, a[i], b[i])
		}
	}
	return fmt.Sprintf("length %d vs %d", len(a), len(b))
}
