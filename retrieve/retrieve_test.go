package retrieve

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestTerms(t *testing.T) {
	for _, tc := range []struct {
		in   string
		lang Language
		want []string
	}{
		{"parseHTTPRequest", English, []string{"parsehttprequest", "pars", "http", "request"}},
		{"pre-commit hooks", English, []string{"precommit", "pre", "commit", "hook"}},
		{"go.mod and go.sum", English, []string{"gomod", "go", "mod", "gosum", "go", "sum"}},
		{"snake_case_name", English, []string{"snakecasename", "snake", "case", "name"}},
		{"Décision acceptée", French, []string{"decis", "accept"}},
		{"Databases are persisted", English, []string{"databas", "persist"}},
		{"缓存策略", English, []string{"缓存", "存策", "策略"}},
		{"the and of", English, nil},
	} {
		got := Analyzer{Lang: tc.lang}.TermTexts(tc.in)
		if len(got) == 0 && len(tc.want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Terms(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTermOffsets(t *testing.T) {
	s := "Use Ärger-free `parseJSON` in 缓存层."
	for _, term := range (Analyzer{}).Terms(s) {
		if term.Start < 0 || term.End > len(s) || term.Start >= term.End {
			t.Errorf("term %q has bad offsets %d..%d", term.Text, term.Start, term.End)
		}
	}
}

func TestQueryExpansions(t *testing.T) {
	q := Query("which datastore keeps the time to live", English)
	has := func(text string, weight float64) bool {
		for _, t := range q {
			if t.Text == text && t.Weight == weight {
				return true
			}
		}
		return false
	}
	if !has("datastor", 1) || !has("postgresql", ExpansionWeight) {
		t.Errorf("datastore expansion missing: %v", q)
	}
	if !has("ttl", 1) {
		t.Errorf("time to live -> ttl missing: %v", q)
	}
	// A question's words of its own kind are dropped, unless nothing else
	// is left.
	if q := Query("which decision records the architecture", English); len(q) == 0 {
		t.Error("meta-only query lost every word")
	}
}

func TestSearchGroupsScoreTheirBestTerm(t *testing.T) {
	ix := NewIndex([]Doc{
		{ID: "many", Fields: []Field{{Text: "postgresql mysql sqlite mariadb oracle schema table"}}},
		{ID: "exact", Fields: []Field{{Text: "our database choice"}}},
	})
	hits := ix.Search(Query("database", English))
	if len(hits) != 2 || hits[0].ID != "exact" {
		t.Fatalf("hits = %+v; the record with the word itself must beat one with many synonyms", hits)
	}
	// Ties keep document order.
	ix = NewIndex([]Doc{{ID: "a", Fields: []Field{{Text: "cache"}}}, {ID: "b", Fields: []Field{{Text: "cache"}}}})
	hits = ix.Search(Query("cache", English))
	if hits[0].ID != "a" || hits[1].ID != "b" {
		t.Errorf("tie order = %s, %s", hits[0].ID, hits[1].ID)
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(p, s string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(s), 0o644)
	}
	var long strings.Builder
	for i := 0; i < 100; i++ {
		long.WriteString("filler line\n")
	}
	long.WriteString("// the retry budget for payments\nfunc retryPayment() {}\n")
	write("pay/retry.go", long.String())
	write("pay/other.go", "package pay\n")
	write("bin.dat", "cache\x00\x01")
	write("node_modules/x/retry.js", "retry payments")
	xs, st := Files(Query("retry payments", English), FileOptions{FS: os.DirFS(dir), Paths: []string{"bin.dat", "node_modules/x/retry.js", "pay/other.go", "pay/retry.go"}, Priority: "pay/other.go"})
	if len(xs) != 2 || xs[0].Path != "pay/other.go" || !xs[0].Priority || xs[1].Path != "pay/retry.go" {
		t.Fatalf("excerpts = %+v", xs)
	}
	if xs[1].Start > 101 || xs[1].End < 102 || !strings.Contains(xs[1].Text, "retryPayment") {
		t.Errorf("window %d-%d %q misses the matching lines", xs[1].Start, xs[1].End, xs[1].Text)
	}
	if st.Skipped != 1 {
		t.Errorf("skipped %d files, want the binary one", st.Skipped)
	}
}

func FuzzTerms(f *testing.F) {
	for _, s := range []string{"parseHTTPRequest", "décision", "缓存策略 cache", "go.mod-x_y'z", "\xff\xfe", "a--b..c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, lang := range []Language{English, French, Other} {
			for _, term := range (Analyzer{Lang: lang}).Terms(s) {
				if term.Start < 0 || term.End > len(s) || term.Start > term.End || term.Text == "" {
					t.Fatalf("%q: bad term %+v", s, term)
				}
			}
		}
		Query(s, English)
	})
}

// expandsTo reports whether the English query of task looks for want as
// an expansion (a weight below a word of the task's own).
func expandsTo(task, want string) bool {
	for _, q := range Query(task, English) {
		if q.Text == want && q.Weight < 1 {
			return true
		}
	}
	return false
}

// TestHyphenatedEntries: a hyphenated thesaurus entry stands for the whole
// identifier, so its parts do not join the group: "user" does not expand
// to the frontend words, nor "login" to "sign" and "in".
func TestHyphenatedEntries(t *testing.T) {
	for _, c := range []struct{ task, not string }{
		{"user accounts", "react"}, {"user accounts", "css"}, {"login page", "sign"}, {"login page", "in"}, {"login page", "to"},
		{"end of the stream", "e2e"}, {"front door", "react"},
	} {
		if expandsTo(c.task, c.not) {
			t.Errorf("%q expands to %q", c.task, c.not)
		}
	}
	for _, c := range []struct{ task, want string }{
		{"the user-interface", "react"}, {"sign-in flow", "oauth"}, {"login page", "signin"}, {"end-to-end tests", "mock"},
	} {
		if !expandsTo(c.task, c.want) {
			t.Errorf("%q does not expand to %q", c.task, c.want)
		}
	}
}

// A word of several concept groups is expanded with the group the rest of
// the request points to, and an expansion is never expanded again.
func TestExpansionSenses(t *testing.T) {
	for _, c := range []struct{ task, not string }{
		// "pipeline" is delivery and data; "deployment" says delivery.
		{"deployment pipelines", "warehous"}, {"deployment pipelines", "etl"},
		// "data pipeline" says data.
		{"data pipeline", "rollout"},
		// "ci" is the phrase "continuous integration", whose "integration"
		// is in the testing group: not expanded again.
		{"which ci system", "mock"}, {"which ci system", "e2e"},
	} {
		if expandsTo(c.task, c.not) {
			t.Errorf("%q expands to %q", c.task, c.not)
		}
	}
	for _, c := range []struct{ task, want string }{
		{"deployment pipelines", "rollout"}, {"data pipeline", "etl"},
		// With nothing else to go by, both senses stand.
		{"the pipeline", "rollout"}, {"the pipeline", "etl"},
		{"which ci system", "deploy"}, {"integration tests", "mock"},
	} {
		if !expandsTo(c.task, c.want) {
			t.Errorf("%q does not expand to %q", c.task, c.want)
		}
	}
}

// A short French request detected as English still finds French stems,
// in the word's own group and below the weight of the request's words.
func TestAlternateStems(t *testing.T) {
	task := "chiffrement en rust"
	lang := DetectLanguage(task)
	q := WithAlternateStems(task, lang, Query(task, lang))
	fr := Analyzer{Lang: French, Query: true}.TermTexts("chiffrement")[0]
	group := -1
	for _, t := range q {
		if t.Weight >= 1 && t.Text == (Analyzer{Lang: lang, Query: true}).TermTexts("chiffrement")[0] {
			group = t.Group
		}
	}
	found := false
	for _, t := range q {
		if t.Text == fr {
			found = t.Group == group && t.Weight == AlternateWeight
		}
	}
	if fr == (Analyzer{Lang: English}).TermTexts("chiffrement")[0] || !found {
		t.Errorf("no French stem %q in the group of \"chiffrement\": %v", fr, q)
	}
}

// Equal documents score exactly alike whatever the order Go walks a map
// in, so they keep document order on every run (scores of several groups
// summed in map order differed by a rounding error and swapped them).
func TestSearchDeterministicTies(t *testing.T) {
	text := "orders are cached in redis with a short expiry, retried on timeout by the gateway, logged to kafka, billed monthly through stripe and archived nightly into glacier storage"
	var docs []Doc
	for _, id := range []string{"a", "b", "c", "d"} {
		docs = append(docs, Doc{ID: id, Fields: []Field{{Text: text}}})
	}
	// Other documents hold some of the words, so that every word weighs
	// differently and the order of a sum shows in its last bits.
	words := strings.Fields("orders cached redis expiry retried timeout gateway logged kafka billed monthly stripe archived nightly glacier")
	for i := range words {
		docs = append(docs, Doc{ID: fmt.Sprint("other", i), Fields: []Field{{Text: strings.Join(words[:i+1], " ") + " " + strings.Repeat(words[i]+" ", i)}}})
	}
	ix := NewIndex(docs)
	q := Query(strings.Join(words, " "), English)
	for range 200 {
		hits := ix.Search(q)
		for i, h := range hits[:4] {
			if h.Score != hits[0].Score || h.ID != docs[i].ID {
				t.Fatalf("equal documents: %v", hits[:4])
			}
		}
	}
}

// TestScoresAreSearchScores: Scores gives each document the score Search
// gives it, to the bit, and 0 to every document Search does not return,
// for a broad query with groups and expansions over synthetic documents.
func TestScoresAreSearchScores(t *testing.T) {
	common := []string{"database", "postgres", "mysql", "order", "storage", "store", "replace", "queue", "cache"}
	vocab := common
	for i := 0; i < 300; i++ {
		vocab = append(vocab, fmt.Sprintf("word%d", i))
	}
	ix := NewIndex(synthDocs(vocab, len(common), 2000, 60))
	for _, task := range []string{"replace MySQL with PostgreSQL for order storage", "word7 queue", "nothing matches zzzq"} {
		q := ix.Expand(Query(task, English), 0.5)
		scores := ix.Scores(q)
		if len(scores) != 2000 {
			t.Fatalf("%d scores for 2000 documents", len(scores))
		}
		want := make([]float64, len(scores))
		for _, h := range ix.Search(q) {
			want[h.Doc] = h.Score
		}
		for d := range want {
			if scores[d] != want[d] {
				t.Fatalf("%q: document %d scores %v, Search %v", task, d, scores[d], want[d])
			}
		}
	}
}

// A term's frequencies (TermFreqs), the documents' lengths and the mean
// length make, with its IDF, the score a one-term query gives each
// document; its document frequency is the term's.
func TestTermFreqsMakeOneTermScores(t *testing.T) {
	common := []string{"database", "postgres", "queue", "cache"}
	vocab := common
	for i := 0; i < 100; i++ {
		vocab = append(vocab, fmt.Sprintf("word%d", i))
	}
	ix := NewIndex(synthDocs(vocab, len(common), 300, 40))
	if ix.Len() != 300 {
		t.Fatalf("Len %d, want 300", ix.Len())
	}
	docs := []int{0, 7, 42, 299}
	for _, word := range []string{"queue", "word3", "cache", "absent"} {
		term := Query(word, English)[0].Text
		scores := ix.Scores([]QueryTerm{{Text: term, Weight: 1}})
		df, tfs := ix.TermFreqs(term, docs)
		matched := 0
		for _, s := range scores {
			if s > 0 {
				matched++
			}
		}
		if df != matched {
			t.Errorf("%q: df %d, %d documents score", term, df, matched)
		}
		if (df == 0) != (word == "absent") {
			t.Errorf("%q: df %d", term, df)
		}
		for i, d := range docs {
			tf := tfs[i]
			norm := tf * (ix.K1 + 1) / (tf + ix.K1*(1-ix.B+ix.B*ix.DocLen(d)/ix.AvgLen()))
			if got, want := ix.IDF(term)*norm, scores[d]; math.Abs(got-want) > 1e-9 {
				t.Errorf("%q: document %d: IDF × BM25 factor %v, score %v", term, d, got, want)
			}
		}
	}
}
