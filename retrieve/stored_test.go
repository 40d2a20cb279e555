package retrieve

import (
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// storedCorpus is a few hundred documents over a small vocabulary, so that
// terms share stems, documents share terms and lengths differ.
func storedCorpus() ([]string, []DocTerms) {
	words := []string{"cache", "caching", "cached", "cacheable", "orders", "ordering", "postgresql", "postgres",
		"mysql", "storage", "stored", "reusable", "reusing", "reuse", "payments", "payment", "retry", "retries",
		"latency", "queue", "queues", "kafka", "schema", "migration", "migrations", "database", "databases", "décision"}
	rng := rand.New(rand.NewSource(1))
	var ids []string
	var dts []DocTerms
	for i := 0; i < 300; i++ {
		var text string
		for j := 0; j < 3+rng.Intn(40); j++ {
			text += words[rng.Intn(len(words))] + " "
		}
		ids = append(ids, fmt.Sprintf("doc-%d", i))
		dts = append(dts, Analyze(Doc{Fields: []Field{{Text: text, Weight: 1 + float64(i%3)/2}}}))
	}
	return ids, dts
}

func TestStoredIndexScoresAsBuilt(t *testing.T) {
	ids, dts := storedCorpus()
	built := IndexTerms(ids, dts)
	data := AppendIndex([]byte("head"), built)
	data = append(data, "tail"...)
	stored, rest, err := OpenIndex(data[4:], ids)
	if err != nil {
		t.Fatal(err)
	}
	if string(rest) != "tail" {
		t.Fatalf("bytes after the index = %q", rest)
	}
	for _, task := range []string{"cache the orders", "reusable payment retries", "replace mysql with postgresql storage",
		"kafka queue latency", "décision", "nothing matches here", "migrating databases"} {
		q := Query(task, English)
		qb, qs := built.Expand(q, 0.5), stored.Expand(q, 0.5)
		if !reflect.DeepEqual(qb, qs) {
			t.Errorf("%q: expanded stored = %v, built = %v", task, qs, qb)
		}
		if err := sameHits(built.Search(qb), stored.Search(qb)); err != nil {
			t.Errorf("%q: %v", task, err)
		}
		for _, qt := range qb {
			if built.IDF(qt.Text) != stored.IDF(qt.Text) {
				t.Errorf("%q: IDF(%q) stored %v, built %v", task, qt.Text, stored.IDF(qt.Text), built.IDF(qt.Text))
			}
		}
	}
	if stored.IDF("absent") != built.IDF("absent") {
		t.Error("IDF of an absent term differs")
	}
}

// sameHits compares two searches. Search sums scores over maps, so two
// searches of one index may differ in the last bit; nothing else may
// differ.
func sameHits(want, got []Hit) error {
	if len(want) != len(got) {
		return fmt.Errorf("%d hits, want %d", len(got), len(want))
	}
	byDoc := map[int]Hit{}
	for _, h := range got {
		byDoc[h.Doc] = h
	}
	for _, w := range want {
		g, ok := byDoc[w.Doc]
		if !ok || g.ID != w.ID || math.Abs(g.Score-w.Score) > 1e-12 || math.Abs(g.Coverage-w.Coverage) > 1e-12 || !reflect.DeepEqual(g.Matched, w.Matched) {
			return fmt.Errorf("hit %+v, want %+v", g, w)
		}
	}
	return nil
}

func TestOpenIndexRefusesDamage(t *testing.T) {
	ids, dts := storedCorpus()
	data := AppendIndex(nil, IndexTerms(ids, dts))
	if _, _, err := OpenIndex(data, ids[:10]); err == nil {
		t.Error("an index opened over other documents")
	}
	// Truncation anywhere in the header or directory is refused; no
	// input panics, and a search over what opens never fails.
	for n := 0; n < len(data); n += 7 {
		ix, _, err := OpenIndex(data[:n], ids)
		if err == nil {
			ix.Search(Query("cache orders", English))
		}
	}
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 500; i++ {
		bad := append([]byte(nil), data...)
		bad[rng.Intn(len(bad))] ^= byte(1 + rng.Intn(255))
		if ix, _, err := OpenIndex(bad, ids); err == nil {
			q := ix.Expand(Query("reusable cache storage", English), 0.5)
			ix.Search(q)
		}
	}
}

// TestPrefix8Orders checks that prefix8 never orders two terms against
// their byte order, on generated terms of few distinct bytes (zero
// included), long and short.
func TestPrefix8Orders(t *testing.T) {
	alphabet := []string{"", "\x00", "\x01", "a", "b", "ab", "abcdefgh", "\xff"}
	rng := uint64(13)
	pick := func() string {
		var b strings.Builder
		for k := 0; k < 4; k++ {
			rng = rng*6364136223846793005 + 1442695040888963407
			b.WriteString(alphabet[(rng>>33)%uint64(len(alphabet))])
		}
		return b.String()
	}
	for n := 0; n < 100000; n++ {
		a, b := pick(), pick()
		if pa, pb := prefix8(a), prefix8(b); pa < pb && a >= b || pa > pb && a <= b {
			t.Fatalf("prefix8(%q) = %x, prefix8(%q) = %x: against the byte order", a, pa, b, pb)
		}
	}
}
