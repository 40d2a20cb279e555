package evidence

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// The term cache is rewritten for a first query, or once what changed is
// 1/128 of it, not for the one record an edit changed.
func TestTermCacheWorthSaving(t *testing.T) {
	c := func(loaded, added, used int) *termCache {
		tc := &termCache{entries: map[cacheKey]cachedDoc{}, used: map[cacheKey]bool{}, loaded: loaded, added: added}
		for i := range loaded + added {
			k := cacheKey{byte(i), byte(i >> 8), byte(i >> 16)}
			tc.entries[k] = cachedDoc{}
			if i >= loaded+added-used {
				tc.used[k] = true
			}
		}
		return tc
	}
	for _, tc := range []struct {
		loaded, added, used int
		want                bool
	}{
		{0, 500, 500, true},       // a first query
		{10000, 1, 10000, false},  // one record edited: the old entry unused, the new one added
		{10000, 30, 10000, false}, // 30 added, 30 unused: 60 < 10000/128
		{10000, 39, 10039, false}, // 39 added, none unused
		{10000, 79, 10079, true},  // 79 added: 79*128 >= 10000
		{10000, 0, 9900, true},    // 100 records gone
		{100, 1, 100, true},       // a short log: any change
	} {
		if got := c(tc.loaded, tc.added, tc.used).worthSaving(); got != tc.want {
			t.Errorf("loaded %d, added %d, used %d: worth saving %v, want %v", tc.loaded, tc.added, tc.used, got, tc.want)
		}
	}
}

// Through the service: the first question after one record of a log
// of 400 records is edited (one new entry and one unused are 2 of 400, under 1/128) rebuilds the task index with that record's
// new words but leaves the term cache's file as it was; its answer is the
// one a question with no cache at all gives.
func TestTermCacheKeptAfterOneEdit(t *testing.T) {
	fsys := fstest.MapFS{}
	for i := 1; i <= 400; i++ {
		fsys[name(i, fmt.Sprintf("d%d", i))] = &fstest.MapFile{Data: []byte(nygard(i, fmt.Sprintf("Decision %d about service %d", i, i), "Accepted", fmt.Sprintf("Service %d keeps its state in store %d.", i, i%7)))}
	}
	cache := t.TempDir()
	terms := filepath.Join(cache, "terms.bin")
	req := Request{Task: "where does the payments ledger keep its state"}
	answer(t, &Service{Log: load(t, fsys), CacheDir: cache}, req)
	before, err := os.ReadFile(terms)
	if err != nil {
		t.Fatalf("a first question wrote no term cache: %v", err)
	}
	index, _ := os.ReadFile(filepath.Join(cache, "index.bin"))
	fsys[name(57, "d57")] = &fstest.MapFile{Data: []byte(nygard(57, "Keep the payments ledger in PostgreSQL", "Accepted", "The payments ledger keeps its state in PostgreSQL."))}
	got := answer(t, &Service{Log: load(t, fsys), CacheDir: cache}, req)
	if after, _ := os.ReadFile(terms); !bytes.Equal(after, before) {
		t.Error("one edited record of 400 rewrote the term cache")
	}
	if after, _ := os.ReadFile(filepath.Join(cache, "index.bin")); bytes.Equal(after, index) {
		t.Error("the task index was not rebuilt after the edit")
	}
	fresh := answer(t, &Service{Log: load(t, fsys), CacheDir: t.TempDir()}, req)
	if len(got.Units) == 0 || !strings.HasPrefix(got.Units[0].ID, "ADR-0057") {
		t.Errorf("the edited record is not the first answer: %v", unitIDs(got))
	}
	if fmt.Sprint(unitIDs(got)) != fmt.Sprint(unitIDs(fresh)) {
		t.Errorf("after the edit %v, with no cache %v", unitIDs(got), unitIDs(fresh))
	}
}
