package retrieve

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

func vectorsOf(texts ...string) *Vectors {
	vocab := NewVocabulary(0)
	docs := make([]NumberedTerms, len(texts))
	for i, t := range texts {
		docs[i] = vocab.Number(Analyze(Doc{Fields: []Field{{Text: t, Weight: 1}}}))
	}
	return NewVectors(vocab, docs)
}

func TestCosine(t *testing.T) {
	v := vectorsOf(
		"cache user sessions in redis",
		"cache user sessions in redis",
		"cache user sessions in memcached",
		"deploy services on kubernetes",
		"sign commits with ssh keys",
	)
	if s := v.Cosine(0, 1); math.Abs(s-1) > 1e-6 {
		t.Errorf("identical documents: %v, want 1", s)
	}
	same, other := v.Cosine(0, 2), v.Cosine(0, 3)
	if !(same > 0.3 && same < 1) || other != 0 {
		t.Errorf("cosine(redis, memcached) = %v, want in (0.3, 1); cosine(redis, kubernetes) = %v, want 0", same, other)
	}
	if got := v.Shared(0, 2, 2); len(got) != 2 || got[0] == "memcach" || got[1] == "memcach" {
		t.Errorf("shared terms %v", got)
	}
	// A term every document has weighs (almost) nothing; one term of
	// one document is left out of its vector but still counts in its
	// length.
	if v.IDF("redi") <= v.IDF("cach") {
		t.Errorf("idf(redis) %v <= idf(cache) %v", v.IDF("redi"), v.IDF("cach"))
	}
}

// TestSimilarPairsMatchesAllPairs checks blocking against comparing every
// pair, on documents about a few subjects with words of their own.
func TestSimilarPairsMatchesAllPairs(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	subjects := [][]string{
		{"session", "cache", "redis", "ttl", "expiry"},
		{"invoice", "billing", "ledger", "currency", "rounding"},
		{"kubernetes", "helm", "rollout", "canary", "probe"},
		{"oauth", "token", "refresh", "rotation", "revocation"},
		{"kafka", "topic", "partition", "consumer", "offset"},
	}
	common := strings.Fields("team service system rule production operation change")
	var texts []string
	for i := 0; i < 300; i++ {
		s := subjects[rnd.IntN(len(subjects))]
		var b strings.Builder
		for k := 0; k < 12; k++ {
			b.WriteString(s[rnd.IntN(len(s))] + " ")
			b.WriteString(common[rnd.IntN(len(common))] + " ")
		}
		fmt.Fprintf(&b, "unique%dword", i)
		texts = append(texts, b.String())
	}
	v := vectorsOf(texts...)
	const minSim = 0.3
	got := map[[2]int32]float32{}
	for _, p := range v.SimilarPairs(PairOptions{Min: minSim, MaxBlock: 400}) {
		if p.A >= p.B {
			t.Fatalf("pair %d, %d out of order", p.A, p.B)
		}
		got[[2]int32{p.A, p.B}] = p.Sim
	}
	want := 0
	for i := range texts {
		for j := i + 1; j < len(texts); j++ {
			s := v.Cosine(i, j)
			if s < minSim {
				continue
			}
			want++
			// The same sum as Cosine's, to the bit.
			if g, ok := got[[2]int32{int32(i), int32(j)}]; !ok || g != float32(s) {
				t.Fatalf("pair %d, %d (%.3f) missing or wrong (%v)", i, j, s, g)
			}
		}
	}
	if want == 0 || len(got) != want {
		t.Errorf("%d pairs found, %d expected", len(got), want)
	}
}

// TestSimilarPairsBlocksAreBounded: documents that share only terms more
// documents have than MaxBlock are never compared, so the work stays
// bounded however alike a large log is.
func TestSimilarPairsBlocksAreBounded(t *testing.T) {
	var texts []string
	for i := 0; i < 50; i++ {
		texts = append(texts, fmt.Sprintf("session cache redis expiry w%d", i))
	}
	v := vectorsOf(texts...)
	if n := len(v.SimilarPairs(PairOptions{MaxBlock: 100})); n != 50*49/2 {
		t.Errorf("with blocks of 100: %d pairs, want every one of %d", n, 50*49/2)
	}
	// Four terms every document has: alone each is a block of 50, too
	// large; two by two they are blocks of 50 too.
	if n := len(v.SimilarPairs(PairOptions{MaxBlock: 20})); n != 0 {
		t.Errorf("with blocks of at most 20: %d pairs, want 0", n)
	}
}

// TestSimilarPairsKeep: Keep is asked of every pair at Min or above, and
// only the pairs it keeps are returned, in the same order.
func TestSimilarPairsKeep(t *testing.T) {
	var texts []string
	for i := 0; i < 40; i++ {
		texts = append(texts, fmt.Sprintf("session cache redis expiry ttl w%d w%d", i%7, i%5))
	}
	v := vectorsOf(texts...)
	all := v.SimilarPairs(PairOptions{Min: 0.2})
	var want []Pair
	for _, p := range all {
		if (p.A+p.B)%3 == 0 {
			want = append(want, p)
		}
	}
	var asked atomic.Int64
	got := v.SimilarPairs(PairOptions{Min: 0.2, Keep: func(a, b int32, sim float32) bool {
		asked.Add(1)
		return (a+b)%3 == 0
	}})
	if int(asked.Load()) != len(all) || len(want) == 0 || len(want) == len(all) {
		t.Fatalf("asked %d times for %d pairs, %d kept", asked.Load(), len(all), len(want))
	}
	if !slices.Equal(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
}
