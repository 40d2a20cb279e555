package navigate

import (
	"errors"
	"testing"
)

func TestOpenAt(t *testing.T) {
	_, top := newTree(t, map[string]string{"a/f.txt": "needle\n"})
	view, done, err := OpenAt(top, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	if rel, err := view.Resolve("f.txt"); err != nil || rel != "a/f.txt" {
		t.Errorf("Resolve from a = %q, %v", rel, err)
	}
	if _, _, err := OpenAt(top, "../out"); !errors.Is(err, ErrOutside) {
		t.Errorf("OpenAt outside = %v, want ErrOutside", err)
	}
}
