package navigate

import (
	"bytes"
	"slices"
	"unicode"
	"unicode/utf8"
)

// Case-insensitive search compares text under Unicode simple case folding:
// every rune is replaced by the smallest rune of its fold orbit (K, k and
// the Kelvin sign K all become K), in the pattern and in the file alike.
// Folding maps one rune to one rune and never touches line breaks, so line
// numbers and rune columns carry over to the original text.

// asciiFold maps each ASCII byte to its fold representative.
var asciiFold = func() (t [utf8.RuneSelf]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'a' <= i && i <= 'z' {
			t[i] = byte(i - 'a' + 'A')
		}
	}
	return t
}()

// foldRune is the smallest rune of r's simple fold orbit.
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		return rune(asciiFold[r])
	}
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	return m
}

// foldBytes returns the folded form of b, reusing dst's storage. A byte
// that is not UTF-8 is kept as it is: it counts as one rune (as
// utf8.RuneCount counts it) and no valid pattern can match it, folded or
// not.
func foldBytes(dst, b []byte) []byte {
	dst = slices.Grow(dst[:0], len(b))
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			dst = append(dst, asciiFold[c])
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, c)
		} else {
			dst = utf8.AppendRune(dst, foldRune(r))
		}
		i += n
	}
	return dst
}

// hasCase reports whether any rune of s has other case forms; a pattern
// without any matches the same text folded or not.
func hasCase(s string) bool {
	for _, r := range s {
		if unicode.SimpleFold(r) != r {
			return true
		}
	}
	return false
}

// asciiFinder finds an ASCII pattern in text under the same folding as
// foldBytes without folding the text: the pattern's rarest byte (in both
// cases, for a letter) is searched with bytes.IndexByte, and the window
// around each hit compared byte by byte.
// It is exact for text in which no non-ASCII rune folds to an ASCII one;
// only the Kelvin sign (K) and the long s (ſ) do (see foldsToASCII).
type asciiFinder struct {
	pat []byte // folded (upper case) ASCII
	// at is the anchor's offset in pat; lo and up are its two cases
	// (equal for a caseless byte).
	at     int
	lo, up byte
}

func newASCIIFinder(folded []byte) (*asciiFinder, bool) {
	if len(folded) == 0 {
		return nil, false
	}
	f := &asciiFinder{pat: folded}
	for i, c := range folded {
		if c >= utf8.RuneSelf {
			return nil, false
		}
		// The rarest byte in text is the anchor: fewest false hits.
		if byteFrequency(c) <= byteFrequency(folded[f.at]) {
			f.at = i
		}
	}
	c := folded[f.at]
	f.lo, f.up = c, c
	if 'A' <= c && c <= 'Z' {
		f.lo = c - 'A' + 'a'
	}
	return f, true
}

// finder searches one text with an asciiFinder, remembering where each
// case of the anchor is next, so that a text dense in one case and sparse
// in the other is still read once.
type finder struct {
	*asciiFinder
	hay      []byte
	nlo, nup int // next offsets of the anchor's cases at or after the last search; -1: none
}

func (f *asciiFinder) in(hay []byte) *finder {
	return &finder{asciiFinder: f, hay: hay, nlo: -2, nup: -2}
}

// next is the offset in hay of c at or after p, from the cache when it
// is still ahead of p.
func next(hay []byte, c byte, p int, cached *int) int {
	if *cached == -1 || *cached >= p {
		return *cached
	}
	if i := bytes.IndexByte(hay[p:], c); i >= 0 {
		*cached = p + i
	} else {
		*cached = -1
	}
	return *cached
}

// index is the offset of the first match at or after from, or -1.
func (f *finder) index(from int) int {
	n := len(f.pat)
	for p := from + f.at; p < len(f.hay); {
		a := next(f.hay, f.lo, p, &f.nlo)
		if f.up != f.lo {
			if u := next(f.hay, f.up, p, &f.nup); u >= 0 && (a < 0 || u < a) {
				a = u
			}
		}
		if a < 0 {
			return -1
		}
		if s := a - f.at; s+n <= len(f.hay) && f.equal(f.hay[s:s+n]) {
			return s
		}
		p = a + 1
	}
	return -1
}

func (f *asciiFinder) equal(w []byte) bool {
	for i, c := range w {
		if c >= utf8.RuneSelf || asciiFold[c] != f.pat[i] {
			return false
		}
	}
	return true
}

// foldsToASCII reports whether text holds a rune that folds to an ASCII
// letter of pat (the Kelvin sign to K, the long s to S), where the plain
// comparison of asciiFinder would miss a match.
func foldsToASCII(text, pat []byte) bool {
	return bytes.IndexByte(pat, 'K') >= 0 && bytes.Contains(text, []byte("\u212a")) ||
		bytes.IndexByte(pat, 'S') >= 0 && bytes.Contains(text, []byte("\u017f"))
}

// byteFrequency ranks how common an ASCII byte (folded: a letter stands
// for both its cases) is in prose and source code, from 0 (rare) to 255,
// after English letter frequencies and the punctuation of common
// languages. Only the order matters: it picks the anchor of a search.
func byteFrequency(c byte) int {
	if 'a' <= c && c <= 'z' {
		c -= 'a' - 'A'
	}
	switch c {
	case ' ':
		return 255
	case '\n', 'E':
		return 230
	case 'T', 'A', '\t':
		return 220
	case 'O', 'I', 'N':
		return 205
	case 'S', 'R':
		return 195
	case 'H', 'L', 'D', '.':
		return 175
	case 'C', 'U', '(', ')', ',':
		return 160
	case 'M', 'F', 'P', 'G', '_', '=', '"', '/', '-':
		return 140
	case 'W', 'Y', 'B', '0', '1', ':', ';', '*', '{', '}':
		return 120
	case 'V', 'K', '2', '\'', '[', ']':
		return 105
	case '3', '4', '5', '6', '7', '8', '9', '<', '>', '+', '#', '&', '!':
		return 90
	case 'X', 'J':
		return 75
	case 'Q', 'Z', '%', '|', '\\', '$', '@':
		return 55
	}
	return 40
}
