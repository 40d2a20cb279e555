package evidence

import (
	"testing"

	"github.com/git-adr/git-adr/internal/cachefile"
)

func FuzzDecodeVectors(f *testing.F) {
	enc := encodeVectors(map[cacheKey][]float32{{1}: {0.25, -1}, {2}: {3}})
	f.Add(enc[:len(enc)-4])
	f.Add([]byte(vectorFormat))
	f.Add([]byte("junk"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := decodeVectors(data); err == nil && len(data) >= 4 {
			if _, err := decodeVectors(cachefile.Seal(data[:len(data)-4])); err != nil {
				t.Fatal("an input accepted as sealed does not carry its checksum")
			}
		}
		entries, err := decodeVectors(cachefile.Seal(append([]byte(nil), data...)))
		if err != nil {
			return
		}
		for k, v := range entries {
			if len(v) == 0 {
				t.Fatalf("entry %x decoded as an empty vector", k[:4])
			}
		}
		back, err := decodeVectors(encodeVectors(entries))
		if err != nil || len(back) != len(entries) {
			t.Fatalf("re-encoded vectors do not decode: %v", err)
		}
	})
}
