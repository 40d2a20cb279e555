package retrieve

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"reflect"
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
		for d := rand(40) - 1; d >= 0; d-- { // no document at all, at times
			var terms []int32
			var tf []float32
			l := float32(0)
			for k := rand(30); k > 0; k-- {
				terms = append(terms, int32(rand(v.Len())))
				tf = append(tf, float32(rand(tfs))*0.5)
				l += tf[len(tf)-1]
			}
			docs = append(docs, v.Numbered(l, terms, tf))
			ids = append(ids, fmt.Sprint("ADR-", len(ids)))
		}
		want := AppendIndex([]byte("head"), indexNumbered(ids, v, docs))
		got := AppendNumbered([]byte("head"), v, docs)
		if !bytes.Equal(got, want) {
			t.Fatalf("round %d: AppendNumbered differs from AppendIndex of the built index\n got %x\nwant %x", round, got, want)
		}
		ix, data := StoredNumbered(ids, v, docs)
		if !bytes.Equal(data, got[4:]) || ix.stored == nil || len(ix.ids) != len(ids) {
			t.Fatalf("round %d: StoredNumbered is not the stored form opened", round)
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

// TestNumberedAll: a numbered document yields its terms and frequencies
// as given, in order, twice listed terms and numbers past one byte
// included; renumbered in another vocabulary, the same words.
func TestNumberedAll(t *testing.T) {
	v := NewVocabulary(0)
	for i := 0; i < 300; i++ {
		v.Add(fmt.Sprintf("t%d", i))
	}
	terms := []int32{0, 299, 5, 299, 128, 127}
	tf := []float32{1, 2.5, 0, 7, 1, 130}
	nt := v.Numbered(11.5, terms, tf)
	var gotTerms []int32
	var gotTF []float32
	for n, f := range nt.All(v) {
		gotTerms, gotTF = append(gotTerms, n), append(gotTF, f)
	}
	if !reflect.DeepEqual(gotTerms, terms) || !reflect.DeepEqual(gotTF, tf) || nt.Count() != len(terms) || nt.Len != 11.5 {
		t.Fatalf("All = %v %v (count %d, length %v), want %v %v", gotTerms, gotTF, nt.Count(), nt.Len, terms, tf)
	}
	other := NewVocabulary(0)
	other.Add("first")
	re := other.Renumber(nt, v)
	var words []string
	for n, f := range re.All(other) {
		words = append(words, fmt.Sprint(other.Term(n), "=", f))
	}
	if want := []string{"t0=1", "t299=2.5", "t5=0", "t299=7", "t128=1", "t127=130"}; !reflect.DeepEqual(words, want) {
		t.Fatalf("renumbered: %v, want %v", words, want)
	}
}
