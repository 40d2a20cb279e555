package evidence

import (
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"github.com/git-adr/git-adr/retrieve"
)

// TestSortHitsIsStable: sortHits orders as sort.SliceStable by score
// does, over random scores with many ties.
func TestSortHitsIsStable(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 50; round++ {
		hits := make([]retrieve.Hit, r.IntN(300))
		for i := range hits {
			hits[i] = retrieve.Hit{Doc: i, Score: float64(r.IntN(7)) / 2}
		}
		want := append([]retrieve.Hit(nil), hits...)
		sort.SliceStable(want, func(a, b int) bool { return want[a].Score > want[b].Score })
		if got := sortHits(hits); !reflect.DeepEqual(got, want) && len(hits) > 0 {
			t.Fatalf("round %d: sortHits differs from a stable sort", round)
		}
	}
}
