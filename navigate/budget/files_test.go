package budget

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The transcript is read from a regular file or stdin; the request is
// written only to a new file that is not the transcript.
func TestTranscriptFiles(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "t.json")
	os.WriteFile(in, []byte("[]"), 0o644)
	if data, err := ReadTranscript(in, nil); err != nil || string(data) != "[]" {
		t.Fatalf("ReadTranscript = %q, %v", data, err)
	}
	if data, err := ReadTranscript("-", strings.NewReader("{}")); err != nil || string(data) != "{}" {
		t.Fatalf("ReadTranscript(-) = %q, %v", data, err)
	}
	var fe *FileError
	if _, err := ReadTranscript(dir, nil); !errors.As(err, &fe) {
		t.Errorf("ReadTranscript of a directory = %v, want a *FileError", err)
	}
	if err := WriteNew(in, in, []byte("x")); !errors.Is(err, ErrTranscriptItself) {
		t.Errorf("WriteNew over the transcript = %v", err)
	}
	out := filepath.Join(dir, "out.json")
	if err := WriteNew(in, out, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := WriteNew(in, out, []byte("y")); !errors.Is(err, os.ErrExist) {
		t.Errorf("WriteNew over a file = %v, want os.ErrExist", err)
	}
	if data, _ := os.ReadFile(out); string(data) != "x" {
		t.Errorf("the file holds %q, want x", data)
	}
}
