//go:build linux

package confine

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// ReadListed reads what ReadFile reads, and in a directory the FS listed
// describes the file it read (the fewer-system-calls path ran).
func TestConfinedFSReadListed(t *testing.T) {
	c, base := confinedTree(t)
	es, err := c.ReadDir("doc/adr")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		name := "doc/adr/" + e.Name()
		want, wantErr := c.ReadFile(name)
		got, fi, err := c.ReadListed(name, e)
		if string(got) != string(want) || errors.Is(err, ErrOutside) != errors.Is(wantErr, ErrOutside) || (err == nil) != (wantErr == nil) {
			t.Errorf("ReadListed(%q) = %q, %v; ReadFile gives %q, %v", name, got, err, want, wantErr)
		}
		if e.Type().IsRegular() {
			st, ok := fi.(*statInfo)
			if !ok || st.Size() != int64(len(want)) || !st.Mode().IsRegular() {
				t.Errorf("ReadListed(%q) described it as %v; want its fstat", name, fi)
			}
		} else if fi != nil {
			t.Errorf("ReadListed(%q) of a link described %v; the link is read the confined way", name, fi)
		}
	}

	// StatListed says what the entry's Info says, for a file and a link.
	for _, e := range es {
		name := "doc/adr/" + e.Name()
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		want := fi.Sys().(*syscall.Stat_t)
		got, ok := c.StatListed(name)
		if !ok || got.Dev != uint64(want.Dev) || got.Ino != want.Ino || got.Mode != want.Mode || got.Size != want.Size ||
			got.Mtime != want.Mtim.Nano() || got.Ctime != want.Ctim.Nano() {
			t.Errorf("StatListed(%q) = %+v, %v; Info says %+v", name, got, ok, want)
		}
	}
	if _, ok := c.StatListed("sub/deep/f.txt"); ok {
		t.Error("StatListed of a directory never listed answered; want false, for the caller to ask the entry")
	}

	// Swapped after the listing: the entry still says "regular file".
	entry := func(name string) fs.DirEntry {
		for _, e := range es {
			if e.Name() == name {
				return e
			}
		}
		t.Fatalf("no entry %q", name)
		return nil
	}
	a := filepath.Join(c.Top(), "doc", "adr", "0001-a.md")
	e := entry("0001-a.md")

	grown := "# 1. A\n" + string(make([]byte, 100000))
	if err := os.WriteFile(a, []byte(grown), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _, err := c.ReadListed("doc/adr/0001-a.md", e); err != nil || string(got) != grown {
		t.Errorf("a file that grew: %d bytes, %v; want %d", len(got), err, len(grown))
	}

	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "outside", "secret.md"), a); err != nil {
		t.Fatal(err)
	}
	if got, _, err := c.ReadListed("doc/adr/0001-a.md", e); !errors.Is(err, ErrOutside) {
		t.Errorf("swapped for a link that leads out: %q, %v; want ErrOutside", got, err)
	}

	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(a, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := c.ReadListed("doc/adr/0001-a.md", e)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrSpecialFile) {
			t.Errorf("swapped for a FIFO: %v; want ErrSpecialFile", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("blocked on a FIFO swapped in after the listing")
	}

	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.ReadListed("doc/adr/0001-a.md", e); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("removed after the listing: %v; want fs.ErrNotExist", err)
	}
}
