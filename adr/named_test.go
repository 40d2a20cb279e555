package adr

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
)

func TestSplitNamed(t *testing.T) {
	files := map[string]string{"/repo/same.md": "same", "/repo/old.md": "old"}
	read := func(p string) ([]byte, error) {
		if d, ok := files[p]; ok {
			return []byte(d), nil
		}
		if strings.HasSuffix(p, "bad") {
			return nil, errors.New("a pipe")
		}
		return nil, fs.ErrNotExist
	}
	rel := func(p string) (string, bool) { return strings.CutPrefix(p, "/repo/") }
	writes := []NamedWrite{{Path: "/repo/same.md", Data: []byte("same")}, {Path: "/repo/old.md", Data: []byte("new")}, {Path: "/tmp/out.md", Data: []byte("x")}}
	changes, outside, err := SplitNamed(writes, rel, read)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || changes[0].Path != "old.md" || string(changes[0].Old) != "old" || len(outside) != 1 || outside[0].Path != "/tmp/out.md" {
		t.Errorf("SplitNamed = %+v, %+v", changes, outside)
	}
	if _, outside, _ := SplitNamed(writes[1:2], nil, read); len(outside) != 1 {
		t.Errorf("without a work tree every write is outside, got %+v", outside)
	}
	var re *NamedReadError
	if _, _, err := SplitNamed([]NamedWrite{{Path: "/tmp/ok"}, {Path: "/tmp/bad"}}, rel, read); !errors.As(err, &re) || re.Index != 1 {
		t.Errorf("SplitNamed of an unreadable file = %v", err)
	}
}
