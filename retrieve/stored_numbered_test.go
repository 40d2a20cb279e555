package retrieve

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"
)

// TestAppendNumberedAsBuilt: the stored form made straight from numbered
// documents is, byte for byte, the built index's: over random documents
// with terms listed twice in a document, frequencies of zero, more than
// 128 distinct frequencies (places of two bytes), terms sharing their
// first eight bytes, and terms of the vocabulary no document uses.
func TestAppendNumberedAsBuilt(t *testing.T) {
	rng := uint64(11)
	rand := func(n int) int {
		rng = rng*6364136223846793005 + 1442695040888963407
		return int((rng >> 33) % uint64(n))
	}
	for round := 0; round < 300; round++ {
		v := NewVocabulary(0)
		words := 1 + rand(60)
		for w := 0; w < words; w++ {
			switch rand(3) {
			case 0:
				v.Add(fmt.Sprintf("w%d", w))
			case 1:
				v.Add(fmt.Sprintf("longprefix%d", w)) // the same first eight bytes
			default:
				v.Add(fmt.Sprintf("longpref%d", w)) // and one that ends there
			}
		}
		tfs := 1 + rand(3)
		if round%10 == 0 {
			tfs = 200
		}
		var docs []NumberedTerms
		var ids []string
		for d := rand(40); d >= 0; d-- {
			var nt NumberedTerms
			for k := rand(30); k > 0; k-- {
				nt.Terms = append(nt.Terms, int32(rand(v.Len())))
				nt.TF = append(nt.TF, float32(rand(tfs))*0.5)
				nt.Len += nt.TF[len(nt.TF)-1]
			}
			docs = append(docs, nt)
			ids = append(ids, fmt.Sprint("ADR-", len(ids)))
		}
		want := AppendIndex([]byte("head"), IndexNumbered(ids, v, docs))
		got := AppendNumbered([]byte("head"), v, docs)
		if !bytes.Equal(got, want) {
			t.Fatalf("round %d: AppendNumbered differs from AppendIndex of the built index\n got %x\nwant %x", round, got, want)
		}
		if _, rest, err := OpenIndex(got[4:], ids); err != nil || len(rest) != 0 {
			t.Fatalf("round %d: the stored form does not open: %v (%d bytes left)", round, err, len(rest))
		}
	}
}

func TestUvarintLen(t *testing.T) {
	for _, x := range []uint64{0, 1, 127, 128, 16383, 16384, 1<<21 - 1, 1 << 21, 1<<63 + 5} {
		var buf [10]byte
		if got, want := uvarintLen(x), binary.PutUvarint(buf[:], x); got != want {
			t.Errorf("uvarintLen(%d) = %d, want %d", x, got, want)
		}
	}
}
