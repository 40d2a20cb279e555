package navigate

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// place is a match start as a line and a rune column, which folding
// keeps (byte offsets it does not).
type place struct{ line, col int }

func placeOf(hay []byte, at int) place {
	start := bytes.LastIndexByte(hay[:at], '\n') + 1
	return place{bytes.Count(hay[:at], []byte{'\n'}) + 1, utf8.RuneCount(hay[start:at])}
}

// FuzzASCIIFinderAgreesWithFolding: the search of an ASCII pattern in
// unfolded text finds every place the search of the folded pattern in the
// folded text finds, and no other, whenever it is used (no rune of the
// text folds to an ASCII letter of the pattern).
func FuzzASCIIFinderAgreesWithFolding(f *testing.F) {
	for _, c := range [][2]string{
		{"MaxHeaderBytes maxheaderbytes MAXHEADERBYTES", "maxheaderbytes"},
		{"sssss sSsS", "ss"},
		{"a\nb\nxa_b x_A_B", "a_b"},
		{"ünïcödé Straße ßS", "s"},
		{"Kelvin \u212a and k", "k"},
		{"long \u017f s", "s"},
		{"\xff\xfeabc", "ABC"},
		{"", "x"},
		{"zzzz", "zz"},
	} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, text, pattern string) {
		pat := foldBytes(nil, []byte(pattern))
		af, ok := newASCIIFinder(pat)
		data := []byte(text)
		if !ok || foldsToASCII(data, pat) {
			return
		}
		var got, want []place
		fd := af.in(data)
		for from := 0; from <= len(data); {
			at := fd.index(from)
			if at < 0 {
				break
			}
			got = append(got, placeOf(data, at))
			from = at + 1
		}
		folded := foldBytes(nil, data)
		for pos := 0; pos <= len(folded); {
			i := bytes.Index(folded[pos:], pat)
			if i < 0 {
				break
			}
			want = append(want, placeOf(folded, pos+i))
			pos += i + 1
		}
		if len(got) != len(want) {
			t.Fatalf("%q in %q: found at %v, folding finds %v", pattern, text, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%q in %q: found at %v, folding finds %v", pattern, text, got, want)
			}
		}
	})
}

// A text holding the Kelvin sign or the long s is folded before it is
// searched: those runes fold to K and S.
func TestSearchFoldsKelvinAndLongS(t *testing.T) {
	for _, c := range []struct{ text, pattern string }{{"temp 5\u212a\n", "5k"}, {"ma\u017f\u017f\n", "mass"}} {
		if !foldsToASCII([]byte(c.text), foldBytes(nil, []byte(c.pattern))) {
			t.Errorf("%q, %q: not detected", c.text, c.pattern)
		}
		folded := foldBytes(nil, []byte(c.text))
		if !bytes.Contains(folded, foldBytes(nil, []byte(c.pattern))) {
			t.Errorf("%q does not hold %q folded", c.text, c.pattern)
		}
	}
}

func TestSearchFindsThroughKelvinSign(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.txt"), []byte("plain 5k\nsign 5\u212a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	res, err := tr.Search(SearchOptions{Pattern: "5K"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 2 || res.Matches[1].Line != 2 {
		t.Fatalf("matches %+v, want lines 1 and 2", res.Matches)
	}
}
