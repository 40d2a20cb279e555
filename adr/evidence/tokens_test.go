package evidence

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// TestTokenizerOnlyWhenCounting: a process whose counts all come from
// tokens.bin never builds the o200k tokenizer (a 200,000-token map, most
// of a small answer's time); one that must count builds it. Each answer
// runs in a process of its own: the tokenizer, once built, stays.
func TestTokenizerOnlyWhenCounting(t *testing.T) {
	if dir := os.Getenv("GIT_ADR_TOKENIZER_CHILD"); dir != "" {
		svc := &Service{Log: load(t, os.DirFS(filepath.Join(dir, "log"))), CacheDir: filepath.Join(dir, "cache")}
		answer(t, svc, Request{Task: "where are orders stored"})
		if encBuilt.Load() {
			t.Log("tokenizer built")
		} else {
			t.Log("tokenizer not built")
		}
		return
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "log", "doc", "adr")
	if err := os.MkdirAll(log, 0o755); err != nil {
		t.Fatal(err)
	}
	rec := record(1, "1. Store orders in PostgreSQL", "Accepted", "## Decision\n\nOrders are stored in PostgreSQL.")
	if err := os.WriteFile(filepath.Join(log, "0001-store-orders.md"), []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	child := func() string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestTokenizerOnlyWhenCounting$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "GIT_ADR_TOKENIZER_CHILD="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return string(out)
	}
	if out := child(); !strings.Contains(out, "tokenizer built") {
		t.Fatalf("a cold answer did not build the tokenizer:\n%s", out)
	}
	if out := child(); !strings.Contains(out, "tokenizer not built") {
		t.Fatalf("an answer whose counts are all in tokens.bin built the tokenizer:\n%s", out)
	}
}
