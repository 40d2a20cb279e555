package evidence

import (
	"reflect"
	"sort"
	"testing"

	"github.com/git-adr/git-adr/retrieve"
)

// cacheOf is a term cache's vocabulary and entries for texts, keyed 1, 2, …
func cacheOf(texts ...string) (*retrieve.Vocabulary, map[cacheKey]cachedDoc) {
	c := &termCache{vocab: retrieve.NewVocabulary(0), entries: map[cacheKey]cachedDoc{}, used: map[cacheKey]bool{}}
	for i, text := range texts {
		body := retrieve.Analyze(retrieve.Doc{Fields: []retrieve.Field{{Text: text}}})
		title := retrieve.Analyze(retrieve.Doc{Fields: []retrieve.Field{{Text: text[:len(text)/2], Weight: 3}}})
		c.put(cacheKey{byte(i + 1)}, body, title)
	}
	return c.vocab, c.entries
}

// cachedTerm is one term of a cached document, spelled out.
type cachedTerm struct {
	term string
	tf   float32
}

type spelledDoc struct {
	bodyLen, titleLen float32
	body, title       []cachedTerm
}

// cacheTerms is entries with their terms spelled out, in a comparable form.
func cacheTerms(vocab *retrieve.Vocabulary, entries map[cacheKey]cachedDoc) map[cacheKey]spelledDoc {
	spell := func(nt retrieve.NumberedTerms) []cachedTerm {
		var out []cachedTerm
		for n, tf := range nt.All(vocab) {
			out = append(out, cachedTerm{vocab.Term(n), tf})
		}
		return out
	}
	out := map[cacheKey]spelledDoc{}
	for k, d := range entries {
		out[k] = spelledDoc{d.body.Len, d.title.Len, spell(d.body), spell(d.title)}
	}
	return out
}

// TestTermCacheRoundTrip: what is written decodes the same, and the file's
// vocabulary is the words of the entries written, however many more the
// cache's vocabulary has known.
func TestTermCacheRoundTrip(t *testing.T) {
	vocab, entries := cacheOf("cache the orders API behind a read-through cache",
		"payments use idempotency keys", "kafka carries the order events")
	gotVocab, got, err := decodeCache(encodeCache(vocab, entries))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cacheTerms(gotVocab, got), cacheTerms(vocab, entries)) {
		t.Fatalf("decoded %v, want %v", cacheTerms(gotVocab, got), cacheTerms(vocab, entries))
	}
	// One entry left out: its words that no other entry uses leave too.
	delete(entries, cacheKey{2})
	gotVocab, got, err = decodeCache(encodeCache(vocab, entries))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cacheTerms(gotVocab, got), cacheTerms(vocab, entries)) {
		t.Fatalf("decoded %v, want %v", cacheTerms(gotVocab, got), cacheTerms(vocab, entries))
	}
	var words []string
	for n := 0; n < gotVocab.Len(); n++ {
		words = append(words, gotVocab.Term(int32(n)))
	}
	sort.Strings(words)
	var want []string
	seen := map[string]bool{}
	for _, d := range cacheTerms(vocab, entries) {
		for _, ct := range append(d.body, d.title...) {
			if !seen[ct.term] {
				seen[ct.term] = true
				want = append(want, ct.term)
			}
		}
	}
	sort.Strings(want)
	if len(want) >= vocab.Len() {
		t.Fatalf("the entry left out had no words of its own: %q", want)
	}
	if !reflect.DeepEqual(words, want) {
		t.Fatalf("the file's vocabulary is %q, want %q", words, want)
	}
}
