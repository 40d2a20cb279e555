package retrieve

import "math/rand/v2"

// shortWords maps a lower-case ASCII word of at most 8 bytes, packed into
// a number (packWord), to a number: the counter's cache of the term of
// each such part, which is most words. A packed word is looked up
// without hashing a string or comparing its bytes: one multiplication
// and, mostly, one read.
type shortWords struct {
	// keys holds the packed words (0, which no word packs to: empty),
	// vals their numbers; open addressing, linear probing, at most half
	// full.
	keys []uint64
	vals []int32
	n    int
	// mul is odd and drawn per table, so that no text can choose words
	// that crowd one place of every process's table; shift keeps the
	// product's top bits, a place in keys.
	mul   uint64
	shift uint
}

// newShortWords is an empty table.
func newShortWords() *shortWords {
	t := &shortWords{mul: rand.Uint64() | 1}
	t.resize(1 << 10)
	return t
}

// packWord is w, at most 8 bytes, as a number: its bytes, big-endian.
func packWord(w string) uint64 {
	k := uint64(0)
	for i := 0; i < len(w); i++ {
		k = k<<8 | uint64(w[i])
	}
	return k
}

// unpackWord is the word packWord packed into k.
func unpackWord(k uint64) string {
	var b [8]byte
	i := len(b)
	for ; k != 0; k >>= 8 {
		i--
		b[i] = byte(k)
	}
	return string(b[i:])
}

// get is the number of packed word k, if the table has it.
func (t *shortWords) get(k uint64) (int32, bool) {
	mask := len(t.keys) - 1
	for i := int((k * t.mul) >> t.shift); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			return t.vals[i], true
		case 0:
			return 0, false
		}
	}
}

// put gives packed word k, which the table does not have, number n.
func (t *shortWords) put(k uint64, n int32) {
	if 2*(t.n+1) > len(t.keys) {
		t.resize(2 * len(t.keys))
	}
	t.insert(k, n)
}

func (t *shortWords) insert(k uint64, n int32) {
	mask := len(t.keys) - 1
	i := int((k * t.mul) >> t.shift)
	for t.keys[i] != 0 {
		i = (i + 1) & mask
	}
	t.keys[i], t.vals[i] = k, n
	t.n++
}

// resize makes the table size places (a power of two) and puts its
// words back.
func (t *shortWords) resize(size int) {
	keys, vals := t.keys, t.vals
	t.keys, t.vals, t.n = make([]uint64, size), make([]int32, size), 0
	t.shift = 64
	for s := size; s > 1; s >>= 1 {
		t.shift--
	}
	for i, k := range keys {
		if k != 0 {
			t.insert(k, vals[i])
		}
	}
}
