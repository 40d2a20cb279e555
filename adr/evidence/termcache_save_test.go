package evidence

import "testing"

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
