package evidence

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/git-adr/git-adr/internal/cachefile"
)

// TestTokenCounts: a cached count is the tokenizer's count of the same
// bytes; a damaged, foreign or truncated file is ignored and replaced.
func TestTokenCounts(t *testing.T) {
	dir := t.TempDir()
	texts := []string{"", "cache the orders API", "décision: PostgreSQL 16 replaces MySQL 8.0\n\n  - 12,000 code points"}
	c := &tokenCache{path: filepath.Join(dir, "tokens.bin")}
	for _, s := range texts {
		if got, want := c.count([]byte(s)), tokensO200k([]byte(s)); got != want {
			t.Errorf("count(%q) = %d, want %d", s, got, want)
		}
	}
	if err := c.save(); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(c.path)
	if err != nil {
		t.Fatal(err)
	}
	warm := &tokenCache{path: c.path}
	warm.loading.Do(warm.load)
	if len(warm.counts) != len(texts) {
		t.Fatalf("%d counts read back, want %d", len(warm.counts), len(texts))
	}
	for _, s := range texts {
		if got, want := warm.count([]byte(s)), tokensO200k([]byte(s)); got != want {
			t.Errorf("cached count(%q) = %d, want %d", s, got, want)
		}
	}
	if warm.added {
		t.Error("counts served from the file were added again")
	}
	foreign := append([]byte(tokenCacheFormat), good[len(tokenCacheFormat):]...)
	foreign[len(tokenCacheFormat)+3] ^= 1 // another tokenizer version
	for i := range good {
		bad := append([]byte(nil), good...)
		bad[i] ^= 0x20
		if _, _, ok := decodeTokenCounts(bad, c.header()); ok {
			t.Errorf("a flipped bit at byte %d of %d was trusted", i, len(good))
		}
	}
	for n := 0; n < len(good); n++ {
		if _, _, ok := decodeTokenCounts(good[:n], c.header()); ok {
			t.Errorf("the first %d of %d bytes were trusted", n, len(good))
		}
	}
	if _, _, ok := decodeTokenCounts(cachefile.Seal(foreign[:len(foreign)-4]), c.header()); ok {
		t.Error("counts of another tokenizer version were trusted")
	}
}
