package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, []byte("new"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(b) != "new" || fi.Mode().Perm() != 0o755 {
		t.Errorf("%q %v", b, fi.Mode())
	}
	// A destination that cannot be replaced (a directory) leaves no
	// temporary file behind.
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "d", "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(filepath.Join(dir, "d"), []byte("x"), 0o644); err == nil {
		t.Error("replaced a non-empty directory")
	}
	es, _ := os.ReadDir(dir)
	if len(es) != 2 {
		t.Errorf("left %d entries", len(es))
	}
}

// TestWriteSweepsStale: a write removes what killed writes to the same
// file left, once it is older than StaleAfter; a young one (a write under
// way) and other files' are kept, and so is a link or a folder named like
// one.
func TestWriteSweepsStale(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "cache.bin")
	old := time.Now().Add(-2 * StaleAfter)
	mk := func(name string, age time.Time) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(f, age, age); err != nil {
			t.Fatal(err)
		}
		return f
	}
	stale := mk(".cache.bin.123.tmp", old)
	young := mk(".cache.bin.456.tmp", time.Now())
	other := mk(".other.bin.789.tmp", old)
	bare := mk(".cache.bin..tmp", old)
	outside := filepath.Join(t.TempDir(), "target")
	os.WriteFile(outside, []byte("keep"), 0o600)
	link := filepath.Join(dir, ".cache.bin.999.tmp")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(outside, old, old)
	folder := filepath.Join(dir, ".cache.bin.888.tmp")
	os.Mkdir(folder, 0o700)
	os.Chtimes(folder, old, old)
	if err := Write(p, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temporary file kept: %v", err)
	}
	for _, f := range []string{young, other, bare, link, folder, outside} {
		if _, err := os.Lstat(f); err != nil {
			t.Errorf("%s removed: %v", filepath.Base(f), err)
		}
	}
}

// WriteFunc writes what its function writes; an error from the function
// leaves the file as it was and no temporary file behind.
func TestWriteFunc(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "cache.bin")
	big := strings.Repeat("0123456789", 20000) // past the buffer
	if err := WriteFunc(p, 0o600, func(w io.Writer) error {
		_, err := io.WriteString(w, big)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != big {
		t.Fatalf("wrote %d bytes, want %d", len(got), len(big))
	}
	boom := errors.New("boom")
	if err := WriteFunc(p, 0o600, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	}); !errors.Is(err, boom) {
		t.Fatalf("WriteFunc = %v; want the function's error", err)
	}
	if got, _ := os.ReadFile(p); string(got) != big {
		t.Fatal("a failed write changed the file")
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Fatalf("left %d files; want the file alone", len(es))
	}
}

// A cache's folder is made as MkdirAll makes it, but never a repository's
// own folder (*.git): a write into a mirror that was moved aside fails
// instead of leaving an empty folder where the mirror was.
func TestMkdirCache(t *testing.T) {
	top := t.TempDir()
	if err := MkdirCache(filepath.Join(top, "a", "b", "c"), 0o755); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(top, "a", "b", "c")); err != nil || !fi.IsDir() {
		t.Fatalf("not made: %v", err)
	}
	if err := MkdirCache(filepath.Join(top, "a", "b", "c"), 0o755); err != nil {
		t.Fatalf("made twice: %v", err)
	}
	repo := filepath.Join(top, "0123-plat.git")
	if err := os.MkdirAll(filepath.Join(repo, "objects"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := MkdirCache(filepath.Join(repo, "adr", "cache"), 0o755); err != nil {
		t.Fatalf("inside a repository that is there: %v", err)
	}
	if err := os.RemoveAll(repo); err != nil {
		t.Fatal(err)
	}
	if err := MkdirCache(filepath.Join(repo, "adr", "cache"), 0o755); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("inside a repository that is gone: %v", err)
	}
	if _, err := os.Lstat(repo); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the repository's folder was made again: %v", err)
	}
	if err := os.WriteFile(filepath.Join(top, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := MkdirCache(filepath.Join(top, "file", "x"), 0o755); err == nil {
		t.Fatal("made a folder under a file")
	}
}

func TestCreateNeverReplaces(t *testing.T) {
	t.Run("links", testCreateNeverReplaces)
	// A file system without links (FAT, some network ones): the rename
	// that replaces nothing.
	t.Run("no links", func(t *testing.T) {
		if err := renameNoReplace(filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")); errors.Is(err, errors.ErrUnsupported) {
			t.Skip("no rename that replaces nothing here")
		}
		link = func(oldname, newname string) error {
			return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: syscall.EPERM}
		}
		defer func() { link = os.Link }()
		testCreateNeverReplaces(t)
	})
}

func testCreateNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ws.toml")
	var wg sync.WaitGroup
	var won atomic.Int32
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := Create(p, []byte{byte('a' + i)}, 0o644)
			switch {
			case err == nil:
				won.Add(1)
			case !errors.Is(err, fs.ErrExist):
				t.Errorf("create %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if won.Load() != 1 {
		t.Fatalf("%d creates won, want 1", won.Load())
	}
	before, _ := os.ReadFile(p)
	if err := Create(p, []byte("late"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("create over a file: %v", err)
	}
	if after, _ := os.ReadFile(p); string(after) != string(before) || len(after) != 1 {
		t.Fatalf("the file went from %q to %q", before, after)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Fatalf("left in the folder: %v", es)
	}
}

func TestRenameNoReplace(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, []byte("a"), 0o644)
	os.WriteFile(b, []byte("b"), 0o644)
	if err := renameNoReplace(a, b); err == nil {
		t.Fatal("renamed over a file")
	}
	if got, _ := os.ReadFile(b); string(got) != "b" {
		t.Fatalf("b holds %q", got)
	}
	os.Remove(b)
	if err := renameNoReplace(a, b); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("rename to a free name: %v", err)
	}
}
