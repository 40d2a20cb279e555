package retrieve

import (
	"fmt"
	"testing"
)

// TestShortWords puts 20,000 words (the table grows from 1,024 places)
// and finds each with its number, and no word it was not given.
func TestShortWords(t *testing.T) {
	tab := newShortWords()
	want := map[uint64]int32{}
	for i := 0; i < 20000; i++ {
		w := fmt.Sprintf("w%d", i*7919%100000)
		if unpackWord(packWord(w)) != w {
			t.Fatalf("unpackWord(packWord(%q)) = %q", w, unpackWord(packWord(w)))
		}
		if _, ok := want[packWord(w)]; ok {
			continue
		}
		tab.put(packWord(w), int32(i))
		want[packWord(w)] = int32(i)
	}
	for k, n := range want {
		if got, ok := tab.get(k); !ok || got != n {
			t.Fatalf("get(%q) = %d, %v, want %d", unpackWord(k), got, ok, n)
		}
	}
	for _, w := range []string{"x", "w", "w100001", "abcdefgh"} {
		if _, ok := tab.get(packWord(w)); ok {
			t.Fatalf("get(%q) found a word never put", w)
		}
	}
}
