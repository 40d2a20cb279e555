package navigate

import (
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
