package cachefile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/git-adr/git-adr/internal/confine"
)

func TestSealOpen(t *testing.T) {
	sealed := Seal([]byte("head\nbody"))
	if body, ok := Open(sealed, []byte("head\n")); !ok || string(body) != "body" {
		t.Fatalf("Open = %q, %v", body, ok)
	}
	if body, ok := OpenString(string(sealed), "head\n"); !ok || body != "body" {
		t.Fatalf("OpenString = %q, %v", body, ok)
	}
	for name, bad := range map[string][]byte{
		"other header": sealed,
		"truncated":    sealed[:len(sealed)-1],
		"flipped bit":  append(append([]byte(nil), sealed[:6]...), append([]byte{sealed[6] ^ 1}, sealed[7:]...)...),
		"too short":    sealed[:3],
	} {
		header := "head\n"
		if name == "other header" {
			header = "hexd\n"
		}
		if _, ok := Open(bad, []byte(header)); ok {
			t.Errorf("%s: opened", name)
		}
		if _, ok := OpenString(string(bad), header); ok {
			t.Errorf("%s: opened as a string", name)
		}
	}
}

func FuzzOpen(f *testing.F) {
	f.Add(Seal([]byte("h\nx")), []byte("h\n"))
	f.Fuzz(func(t *testing.T, data, header []byte) {
		body, ok := Open(data, header)
		sbody, sok := OpenString(string(data), string(header))
		if ok != sok || string(body) != sbody {
			t.Fatalf("Open and OpenString disagree: %q %v, %q %v", body, ok, sbody, sok)
		}
		if ok && string(Seal(append(append([]byte(nil), header...), body...))) != string(data) {
			t.Fatal("an opened file does not re-seal to itself")
		}
	})
}

// A file written through a Sealer is the file Seal makes of its bytes.
func TestSealer(t *testing.T) {
	var b bytes.Buffer
	s := NewSealer(&b)
	s.Write([]byte("header\n"))
	s.Write([]byte("body in "))
	s.Write([]byte("parts"))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if want := Seal([]byte("header\nbody in parts")); !bytes.Equal(b.Bytes(), want) {
		t.Fatalf("sealed %q, Seal gives %q", b.Bytes(), want)
	}
	if body, ok := Open(b.Bytes(), []byte("header\n")); !ok || string(body) != "body in parts" {
		t.Fatalf("Open = %q, %v", body, ok)
	}
}

// ReadFile, which every cache read but the three read outside the heap
// goes through, reads a cache whole and refuses a named pipe put in its
// place at once instead of waiting for a writer.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "tokens.bin")
	want := Seal([]byte("header body"))
	if err := os.WriteFile(good, want, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFile(good); err != nil || !bytes.Equal(got, want) {
		t.Errorf("ReadFile: %q, %v", got, err)
	}
	pipe := filepath.Join(dir, "mentions.bin")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadFile(pipe); done <- err }()
	select {
	case err := <-done:
		var se *confine.SpecialFileError
		if !errors.As(err, &se) {
			t.Errorf("ReadFile of a named pipe: %v, want a SpecialFileError", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("ReadFile waited on a named pipe")
	}
}
