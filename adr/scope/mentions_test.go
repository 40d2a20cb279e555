package scope

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// mentionsLog is a log whose records name paths in every way prose does:
// bare, in links and code spans, with punctuation, inside longer paths and
// URLs, and with spaces and non-ASCII letters.
func mentionsLog(t *testing.T, seed int64) (map[string]string, []string) {
	rng := rand.New(rand.NewSource(seed))
	paths := []string{"src/pay/cache.go", "src/pay/", "src/pay", "pay/cache.go", "README.md", "go.mod", "docs/my file.md",
		"src/ünï/x.go", "cmd/pay/main.go", "https://example.com/src/pay/cache.go", "src/pay/cache.go.orig", "./src/pay/cache.go"}
	wraps := []string{"%s", "`%s`", "[x](%s)", "(%s)", "%s.", "%s,", "\"%s\"", "<%s>", "see %s:12", "*%s*", "%s/"}
	files := map[string]string{}
	for i := 1; i <= 60; i++ {
		var body []string
		for j := 0; j < rng.Intn(5); j++ {
			body = append(body, fmt.Sprintf(wraps[rng.Intn(len(wraps))], paths[rng.Intn(len(paths))]))
		}
		status := "Accepted"
		dir := "doc/adr/"
		if i%9 == 0 {
			dir = "doc/adr/archive/"
		}
		files[fmt.Sprintf("%s%04d-r%d.md", dir, i, i)] = fmt.Sprintf("# %d. R%d\n\nDate: 2026-01-01\n\n## Status\n\n%s\n\n## Decision\n\nWe %s.\n", i, i, status, strings.Join(body, " and "))
	}
	queries := []string{"src/pay/cache.go", "src/pay/other.go", "pay/cache.go", "README.md", "go.mod", "docs/my file.md",
		"src/ünï/x.go", "cmd/pay/main.go", "src/pay/cache.go.orig", "example.com/src/pay/cache.go", "src/pay", "x.go"}
	return files, queries
}

// TestMentionsFilterIsExact: with Mentions, Govern finds exactly the
// matches a search of every record's text finds, built or stored.
func TestMentionsFilterIsExact(t *testing.T) {
	for seed := int64(1); seed <= 5; seed++ {
		files, queries := mentionsLog(t, seed)
		l := load(t, files)
		dir := t.TempDir()
		for _, round := range []string{"built", "stored"} {
			plain, filtered := New(l, nil), New(l, nil)
			filtered.Mentions = LoadMentions(dir, l)
			for _, q := range queries {
				if want, got := plain.Govern([]string{q}), filtered.Govern([]string{q}); !reflect.DeepEqual(want, got) {
					t.Errorf("seed %d, %s, %q: filtered %v, want %v", seed, round, q, got, want)
				}
			}
			if got, want := filtered.Govern(queries), plain.Govern(queries); !reflect.DeepEqual(want, got) {
				t.Errorf("seed %d, %s, all paths: filtered %v, want %v", seed, round, got, want)
			}
		}
	}
}

// TestMentionsDamaged: a mentions file with any byte changed, cut short
// or made for another log is not used, and is replaced.
func TestMentionsDamaged(t *testing.T) {
	files, _ := mentionsLog(t, 1)
	l := load(t, files)
	dir := t.TempDir()
	LoadMentions(dir, l)
	file := filepath.Join(dir, "mentions.bin")
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	live := liveRecords(l)
	key := mentionsKey(live)
	if _, err := decodeMentions(good, key, live); err != nil {
		t.Fatal(err)
	}
	for i := range good {
		bad := append([]byte(nil), good...)
		bad[i] ^= 0x08
		if _, err := decodeMentions(bad, key, live); err == nil {
			t.Errorf("a flipped bit at byte %d of %d was trusted", i, len(good))
		}
	}
	for n := 0; n < len(good); n++ {
		if _, err := decodeMentions(good[:n], key, live); err == nil {
			t.Errorf("the first %d of %d bytes were trusted", n, len(good))
		}
	}
	files["doc/adr/0001-r1.md"] += "\nNow see src/pay/cache.go.\n"
	edited := load(t, files)
	if _, err := decodeMentions(good, mentionsKey(liveRecords(edited)), liveRecords(edited)); err == nil {
		t.Error("the mentions of another log were trusted")
	}
	m := LoadMentions(dir, edited)
	if recs, ok := m.candidates("src/pay/cache.go"); !ok || len(recs) == 0 || recs[0].Path != "doc/adr/0001-r1.md" {
		t.Errorf("after an edit, candidates = %v", recs)
	}
	if now, _ := os.ReadFile(file); bytes.Equal(now, good) {
		t.Error("the file was not replaced after an edit")
	}
}
