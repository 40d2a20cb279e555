package embeddings

import (
	"math"
	"testing"
)

// FuzzDecode: whatever an endpoint answers, a decoded answer holds one
// vector per text, all of one length within MaxDims, of finite numbers.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"data":[{"index":1,"embedding":[1,2]},{"index":0,"embedding":[3,4]}]}`), 2)
	f.Add([]byte(`{"data":[{"embedding":[1e39]}]}`), 1)
	f.Add([]byte(`{"data":[]}`), 0)
	f.Add([]byte(`null`), 1)
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		if n < 0 || n > 1000 {
			return
		}
		vs, err := decode(data, n)
		if err != nil {
			return
		}
		if len(vs) != n {
			t.Fatalf("%d vectors for %d texts", len(vs), n)
		}
		for i, v := range vs {
			if len(v) == 0 || len(v) > MaxDims || len(v) != len(vs[0]) {
				t.Fatalf("vector %d has %d numbers", i, len(v))
			}
			for _, x := range v {
				if math.IsInf(float64(x), 0) || math.IsNaN(float64(x)) {
					t.Fatalf("vector %d holds %v", i, x)
				}
			}
		}
	})
}
