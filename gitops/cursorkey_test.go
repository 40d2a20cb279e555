package gitops

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Concurrent first uses agree on one key, kept private, and never leave
// temporary files behind.
func TestCursorKeyConcurrentCreate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "adr", CursorKeyFile)
	if _, err := loadCursorKey(path, false); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing key without create: %v, want ErrNotExist", err)
	}
	const n = 16
	keys := make([][]byte, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			keys[i], errs[i] = loadCursorKey(path, true)
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("creator %d: %v", i, errs[i])
		}
		if len(keys[i]) != CursorKeySize || !bytes.Equal(keys[i], keys[0]) {
			t.Fatalf("creator %d got another key", i)
		}
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("key mode %v, want 0600", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("%d files in %s, want only the key", len(entries), filepath.Dir(path))
	}
	again, err := loadCursorKey(path, false)
	if err != nil || !bytes.Equal(again, keys[0]) {
		t.Fatalf("reading the key again: %v", err)
	}
}

func TestCursorKeyErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, CursorKeyFile)
	if err := os.WriteFile(path, []byte("short"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := loadCursorKey(path, true); err == nil || !strings.Contains(err.Error(), "holds 5 bytes") {
		t.Errorf("short key: %v", err)
	}
	// A directory that cannot be made (a file stands in its way) is
	// named in the error.
	blocked := filepath.Join(dir, "blocked")
	if err := os.WriteFile(blocked, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := loadCursorKey(filepath.Join(blocked, CursorKeyFile), true); err == nil || !strings.Contains(err.Error(), "cannot create the cursor key: mkdir "+blocked) {
		t.Errorf("blocked directory: %v", err)
	}
	if os.Getuid() == 0 {
		t.Skip("root writes into read-only directories")
	}
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o500); err != nil {
		t.Fatal(err)
	}
	_, err := loadCursorKey(filepath.Join(ro, "adr", CursorKeyFile), true)
	if err == nil || !strings.Contains(err.Error(), "cannot create the cursor key") || !errors.Is(err, fs.ErrPermission) {
		t.Errorf("read-only directory: %v", err)
	}
}
