package offheap

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// fileOf opens a file that holds data, closed when the test ends.
func fileOf(t *testing.T, data []byte) *os.File {
	t.Helper()
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// needMappings skips a test on a system without anonymous mappings.
func needMappings(t *testing.T) {
	t.Helper()
	if mapAnonymous(1) == nil {
		t.Skip("no anonymous mappings on this system")
	}
}

func TestReadFull(t *testing.T) {
	want := bytes.Repeat([]byte("0123456789abcdef"), 5000)
	for _, on := range []bool{false, true} {
		got, _, err := Reader{On: on}.ReadFull(fileOf(t, want), int64(len(want)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("On=%v: %d bytes, %v; want the file's %d", on, len(got), err, len(want))
		}
	}
}

// A file shorter than its size said (damaged, or replaced meanwhile) is an
// error, not bytes padded with zeros.
func TestReadFullShortFile(t *testing.T) {
	for _, on := range []bool{false, true} {
		if b, _, err := (Reader{On: on}).ReadFull(fileOf(t, []byte("short")), 4096); err == nil {
			t.Errorf("On=%v: read %d bytes of a 5-byte file said to be 4096, no error", on, len(b))
		}
	}
}

// A file past MaxFile is refused, not read (a sparse one: no disk used).
func TestReadFullTooLarge(t *testing.T) {
	f := fileOf(t, nil)
	if err := os.Truncate(f.Name(), MaxFile+1); err != nil {
		t.Skip("no sparse file here:", err)
	}
	for _, on := range []bool{false, true} {
		if _, _, err := (Reader{On: on}).ReadFull(f, MaxFile+1); !errors.Is(err, ErrTooLarge) {
			t.Errorf("On=%v: %v, want ErrTooLarge", on, err)
		}
	}
	if err := Use(f, MaxFile+1, func([]byte) error { t.Error("Use read a file past MaxFile"); return nil }); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Use: %v, want ErrTooLarge", err)
	}
}

// The mapping is really outside the heap: reading 8 MiB with On
// allocates next to nothing there.
func TestReadFullOutsideHeap(t *testing.T) {
	needMappings(t)
	f := fileOf(t, make([]byte, 8<<20))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, release, err := Reader{On: true}.ReadFull(f, 8<<20)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("reading 8 MiB outside the heap allocated %d bytes in it", n)
	}
}

// Use hands over the file's bytes and takes the memory back.
func TestUse(t *testing.T) {
	want := bytes.Repeat([]byte("x"), 100_000)
	var got []byte
	err := Use(fileOf(t, want), int64(len(want)), func(b []byte) error { got = bytes.Clone(b); return nil })
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("Use: %d bytes, %v", len(got), err)
	}
}

// Held counts what ReadFull keeps outside the heap, and release gives it
// back.
func TestHeldAndRelease(t *testing.T) {
	needMappings(t)
	f := fileOf(t, make([]byte, 1<<20))
	before := Held()
	_, release, err := Reader{On: true}.ReadFull(f, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if n := Held() - before; n != 1<<20 {
		t.Errorf("held %d more bytes, want %d", n, 1<<20)
	}
	release()
	if n := Held() - before; n != 0 {
		t.Errorf("after release, held %d more bytes, want 0", n)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	if _, release, err := (Reader{}).ReadFull(f, 1<<20); err != nil || Held() != before {
		t.Errorf("a read into the heap: held %d more bytes, %v", Held()-before, err)
	} else {
		release() // does nothing
	}
}
