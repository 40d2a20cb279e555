package retrieve

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
)

// AppendNumbered appends the stored form of the index of documents
// numbered in v (indexNumbered) to b, without building that index: the
// same bytes AppendIndex(b, indexNumbered(ids, v, docs)) appends, made by
// three passes over the documents straight into the postings' places. A
// built index holds every posting in eight bytes, and its encoding grows
// a second copy; this holds the stored form alone, about three bytes a
// posting, and a few numbers per term of v.
func AppendNumbered(b []byte, v *Vocabulary, docs []NumberedTerms) []byte {
	// How many postings each of v's frequencies has (AppendIndex stores
	// those used, most used first), and each term's document count (its
	// postings, one per place a document lists it).
	used := make([]int, len(v.freqs.keys))
	df := make([]uint32, v.Len())
	for _, d := range docs {
		for p := d.packed; len(p) > 0; {
			var n, f uint32
			n, f, p = nextPair(p)
			df[n]++
			used[f]++
		}
	}
	weights := make([]float32, len(used))
	for f := range weights {
		weights[f] = v.freq(uint32(f))
	}
	// Most used first, then by value, as AppendIndex orders them.
	byUse := make([]int32, 0, len(weights))
	for n, u := range used {
		if u > 0 {
			byUse = append(byUse, int32(n))
		}
	}
	slices.SortFunc(byUse, func(a, c int32) int {
		if x := cmp.Compare(used[c], used[a]); x != 0 {
			return x
		}
		return cmp.Compare(weights[a], weights[c])
	})
	place := make([]uint64, len(weights))
	for i, n := range byUse {
		place[n] = uint64(i)
	}
	// The terms the documents use, in byte order.
	type term struct {
		prefix uint64
		n      int32
	}
	terms := make([]term, 0, len(df))
	termBytes := 0
	for n, c := range df {
		if c > 0 {
			terms = append(terms, term{prefix8(v.terms.keys[n]), int32(n)})
			termBytes += len(v.terms.keys[n])
		}
	}
	slices.SortFunc(terms, func(a, c term) int {
		if a.prefix != c.prefix {
			return cmp.Compare(a.prefix, c.prefix)
		}
		return strings.Compare(v.terms.keys[a.n], v.terms.keys[c.n])
	})
	// Each term's postings' bytes: a document's distance from the term's
	// previous one, and its frequency's place, as uvarints.
	size := make([]uint32, len(df)) // then each term's next write offset
	prev := make([]int32, len(df))
	for i, d := range docs {
		for p := d.packed; len(p) > 0; {
			var n, f uint32
			n, f, p = nextPair(p)
			size[n] += uint32(uvarintLen(uint64(int32(i)-prev[n])) + uvarintLen(place[f]))
			prev[n] = int32(i)
		}
	}
	postBytes := uint32(0)
	for _, t := range terms {
		s := size[t.n]
		size[t.n] = postBytes
		postBytes += s
	}
	// The header, directory and term bytes, then the postings in place.
	head := uvarintLen(uint64(len(docs))) + 4*len(docs) + uvarintLen(uint64(len(byUse))) + 4*len(byUse) +
		uvarintLen(uint64(len(terms))) + dirEntry*len(terms) + 8
	b = slices.Grow(b, head+termBytes+int(postBytes))
	b = binary.AppendUvarint(b, uint64(len(docs)))
	for _, d := range docs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(d.Len))
	}
	b = binary.AppendUvarint(b, uint64(len(byUse)))
	for _, n := range byUse {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(weights[n]))
	}
	b = binary.AppendUvarint(b, uint64(len(terms)))
	termOff := uint32(0)
	for _, t := range terms {
		b = binary.LittleEndian.AppendUint32(b, termOff)
		b = binary.LittleEndian.AppendUint32(b, size[t.n])
		b = binary.LittleEndian.AppendUint32(b, df[t.n])
		termOff += uint32(len(v.terms.keys[t.n]))
	}
	b = binary.LittleEndian.AppendUint32(b, termOff)
	b = binary.LittleEndian.AppendUint32(b, postBytes)
	for _, t := range terms {
		b = append(b, v.terms.keys[t.n]...)
	}
	start := len(b)
	b = b[:start+int(postBytes)]
	post := b[start:]
	clear(prev)
	for i, d := range docs {
		for p := d.packed; len(p) > 0; {
			var n, f uint32
			n, f, p = nextPair(p)
			at := size[n]
			at += uint32(binary.PutUvarint(post[at:], uint64(int32(i)-prev[n])))
			at += uint32(binary.PutUvarint(post[at:], place[f]))
			size[n], prev[n] = at, int32(i)
		}
	}
	return b
}

// StoredNumbered is the index of documents numbered in v over ids, made
// in its stored form (AppendNumbered) and opened over those bytes, which
// are returned too (for a file). A stored form that does not open is a
// bug of this package, not bad input: it panics.
func StoredNumbered(ids []string, v *Vocabulary, docs []NumberedTerms) (*Index, []byte) {
	data := AppendNumbered(nil, v, docs)
	ix, rest, err := OpenIndex(data, ids)
	if err != nil || len(rest) != 0 {
		panic(fmt.Sprintf("retrieve: a stored index just made does not open (%v, %d bytes left)", err, len(rest)))
	}
	return ix, data
}

// uvarintLen is the length of x as a uvarint.
func uvarintLen(x uint64) int { return (bits.Len64(x|1) + 6) / 7 }
