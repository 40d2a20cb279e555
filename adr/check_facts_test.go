package adr

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHoldsSupersedeWord compares holdsSupersedeWord with containsAny
// over supersedeWords on generated texts of the words' pieces, in every
// case, at the start and end of the text, and on the corpora's records.
func TestHoldsSupersedeWord(t *testing.T) {
	pieces := []string{"u", "U", "p", "P", "e", "E", "r", "R", "s", "S", "c", "C", "d", "D", "la", "LA", "ced", "sed",
		"uper", "UPER", "plac", "PLAC", "bsolet", "BSOLET", "ed", "ED", "b", "o", " ", "\n", "é", "ersed", "ERCED", "laced"}
	rng := uint64(5)
	holds := 0
	for n := 0; n < 200000; n++ {
		var b strings.Builder
		for k := 0; k < 1+n%9; k++ {
			rng = rng*6364136223846793005 + 1442695040888963407
			b.WriteString(pieces[(rng>>33)%uint64(len(pieces))])
		}
		src := []byte(b.String())
		want := containsAny(src, supersedeWords)
		if got := holdsSupersedeWord(src); got != want {
			t.Fatalf("holdsSupersedeWord(%q) = %v, want %v", src, got, want)
		}
		if want {
			holds++
		}
	}
	if holds < 1000 {
		t.Fatalf("only %d generated texts hold a word: the test proves little", holds)
	}
	dir := filepath.Join("..", "..", "shared", "corpora")
	_ = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		if got, want := holdsSupersedeWord(src), containsAny(src, supersedeWords); got != want {
			t.Errorf("%s: holdsSupersedeWord = %v, want %v", p, got, want)
		}
		return nil
	})
}
