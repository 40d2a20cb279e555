package retrieve

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"
)

// referenceAnalyze is Analyze as it was before the counter: every term
// of the reference word scanner, through Analyzer.wordTerms, into a map.
// Analyze must agree with it.
func referenceAnalyze(d Doc) DocTerms {
	a := Analyzer{Lang: d.Lang}
	termTexts := func(text string) []string {
		var out []string
		referenceForEachWord(text, func(w string, start, _ int) {
			for _, t := range a.wordTerms(nil, w, start) {
				out = append(out, t.Text)
			}
		})
		return out
	}
	tf := map[string]float64{}
	total := 0.0
	for _, f := range d.Fields {
		w := f.Weight
		if w == 0 {
			w = 1
		}
		for _, t := range termTexts(f.Text) {
			tf[t] += w
			total += w
		}
	}
	dt := DocTerms{Len: float32(total), Terms: make([]string, 0, len(tf)), TF: make([]float32, 0, len(tf))}
	for t := range tf {
		dt.Terms = append(dt.Terms, t)
	}
	sort.Strings(dt.Terms)
	for _, t := range dt.Terms {
		dt.TF = append(dt.TF, float32(tf[t]))
	}
	return dt
}

// referenceDetect is DetectLanguage before it counted in an array.
func referenceDetect(text string) Language {
	counts := map[Language]int{}
	n := 0
	referenceForEachWord(text, func(w string, _, _ int) {
		if n > 400 {
			return
		}
		n++
		lw := w
		if !lowerASCII(w) {
			lw = strings.ToLower(w)
		}
		if lang, ok := languageMarkers[lw]; ok {
			counts[lang]++
		}
		if len(w) > 0 && unicode.Is(unicode.Cyrillic, firstRune(w)) {
			counts[Russian]++
		}
	})
	best, bn := English, 0
	for _, l := range []Language{English, French, Spanish, German, Russian} {
		if counts[l] > bn {
			best, bn = l, counts[l]
		}
	}
	return best
}

// sortedTerms is dt with its terms in byte order, as the reference gives
// them.
func sortedTerms(dt DocTerms) DocTerms {
	idx := make([]int, len(dt.Terms))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return dt.Terms[idx[a]] < dt.Terms[idx[b]] })
	out := DocTerms{Len: dt.Len, Terms: make([]string, 0, len(idx)), TF: make([]float32, 0, len(idx))}
	for _, i := range idx {
		out.Terms = append(out.Terms, dt.Terms[i])
		out.TF = append(out.TF, dt.TF[i])
	}
	return out
}

func checkAnalyze(t *testing.T, d Doc) {
	t.Helper()
	got, want := sortedTerms(Analyze(d)), referenceAnalyze(d)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Analyze(%v, %s) =\n%v\nwant\n%v", d.Fields, d.Lang, got, want)
	}
	// Twice: the second time the pooled counter has the words cached.
	if got := sortedTerms(Analyze(d)); !reflect.DeepEqual(got, want) {
		t.Fatalf("second Analyze(%v, %s) =\n%v\nwant\n%v", d.Fields, d.Lang, got, want)
	}
	checkAnalyzeInto(t, d)
}

// intoVocab and numberVocab are numbered in by every check, so that the
// numbers AnalyzeInto remembers are used across documents.
var (
	intoVocab, numberVocab = NewVocabulary(0), NewVocabulary(0)
	intoMu                 sync.Mutex
)

// checkAnalyzeInto checks that AnalyzeInto numbers what Number numbers
// of Analyze's terms and the glossary's, in the same order: in a
// vocabulary it has numbered in before, in a new one, and in the first
// again.
func checkAnalyzeInto(t *testing.T, d Doc) {
	t.Helper()
	abbrs := []Abbreviation{{Short: "db", Long: []string{"data", "base"}}}
	decode := func(nt NumberedTerms, v *Vocabulary) (out []string) {
		for n, tf := range nt.All(v) {
			out = append(out, fmt.Sprintf("%s=%g", v.Term(n), tf))
		}
		return append(out, fmt.Sprintf("len=%g count=%d", nt.Len, nt.Count()))
	}
	want := decode(numberVocab.Number(WithGlossary(Analyze(d), abbrs)), numberVocab)
	fresh := NewVocabulary(0)
	for i, v := range []*Vocabulary{intoVocab, fresh, intoVocab} {
		var lock sync.Locker = &intoMu
		if v == fresh {
			lock = nil // one goroutine numbers in it
		}
		if got := decode(AnalyzeInto(d, abbrs, v, lock), v); !reflect.DeepEqual(got, want) {
			t.Fatalf("AnalyzeInto(%v, %s), vocabulary %d =\n%v\nwant\n%v", d.Fields, d.Lang, i, got, want)
		}
	}
}

func FuzzAnalyzeAgreesWithTerms(f *testing.F) {
	for _, s := range []string{
		"parseHTTPRequest", "HTTPServer v2 o200k abc1234 2017-05-29", "décision DÉCISION Straße",
		"缓存策略 cache", "go.mod-x_y'z.", "\xff\xfe", "a--b..c", "The THE tHe a I", "K\u212aelvin ſtate",
		"Protocol Buffers is run by the SRE rotation", "les décisions de l'équipe", "и кеш", "a_b A_B __x__",
		"x-Y.z'W", "ABCdef GHi9 9abc ab12cd", "",
	} {
		f.Add(s, "", uint8(0))
	}
	langs := []Language{English, French, Spanish, Russian, German, Other, ""}
	f.Fuzz(func(t *testing.T, a, b string, lang uint8) {
		d := Doc{Lang: langs[int(lang)%len(langs)], Fields: []Field{{Text: a, Weight: 2}, {Text: b}, {Text: a + " " + b, Weight: 1.5}}}
		checkAnalyze(t, d)
		checkWords(t, a+b)
		if got, want := DetectLanguage(a+b), referenceDetect(a+b); got != want {
			t.Fatalf("DetectLanguage(%q) = %s, want %s", a+b, got, want)
		}
	})
}

// TestAnalyzeAgreesOnCorpora compares Analyze with the reference on every
// Markdown file of the shared corpora, in every stemming language.
func TestAnalyzeAgreesOnCorpora(t *testing.T) {
	dir := os.Getenv("GIT_ADR_CORPORA")
	if dir == "" {
		dir = filepath.Join(moduleRoot(t), "..", "shared", "corpora")
	}
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("corpora not found at %s (CI=true: the corpora are required)", dir)
		}
		t.Skipf("corpora not found at %s", dir)
	}
	files := 0
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		text := string(data)
		if got, want := DetectLanguage(text), referenceDetect(text); got != want {
			t.Errorf("%s: DetectLanguage = %s, want %s", p, got, want)
		}
		for _, lang := range []Language{English, French, Other} {
			checkAnalyze(t, Doc{Lang: lang, Fields: []Field{{Text: filepath.Base(p), Weight: 2}, {Text: text}}})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("compared %d files, want the corpora's hundreds", files)
	}
}

// referenceForEachWord is forEachWord before its ASCII loop: it calls fn for every run of letters, digits, marks and
// connectors ("_", "-" inside a word, "." between letters as in "go.mod").
// ASCII text, by far the most common, is classified byte by byte.
func referenceForEachWord(s string, fn func(w string, start, end int)) {
	start := -1
	prevCJK := false
	flush := func(end int) {
		if start >= 0 {
			w := strings.TrimRight(s[start:end], "-._'")
			if w != "" {
				fn(w, start, start+len(w))
			}
			start = -1
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		var word, joiner, cjk bool
		size := 1
		if c < utf8.RuneSelf {
			word = asciiWord[c]
			joiner = (c == '-' || c == '.' || c == '\'') && start >= 0
		} else {
			r, n := utf8.DecodeRuneInString(s[i:])
			size = n
			word = unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
			cjk = word && isCJK(r)
		}
		switch {
		case word && start >= 0 && cjk != prevCJK:
			// A change between CJK and other scripts ends a word.
			flush(i)
			start = i
		case word:
			if start < 0 {
				start = i
			}
		case joiner:
			// Keep "pre-commit", "go.mod" together; split later.
		default:
			flush(i)
		}
		if word {
			prevCJK = cjk
		}
		i += size
	}
	flush(len(s))
}

// TestForEachWordAgrees compares forEachWord with the reference scanner
// on the fuzz seeds and on generated mixes of every kind of byte.
func TestForEachWordAgrees(t *testing.T) {
	pieces := []string{"a", "Z", "9", "_", "-", ".", "'", " ", "é", "缓", "存", "и", "\xff", "\u0301", "\n", "x-", "-y", "..", "ab'"}
	rng := uint64(1)
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for k := 0; k < 12; k++ {
			rng = rng*6364136223846793005 + 1442695040888963407
			b.WriteString(pieces[(rng>>33)%uint64(len(pieces))])
		}
		checkWords(t, b.String())
	}
}

func checkWords(t *testing.T, s string) {
	t.Helper()
	type word struct {
		w          string
		start, end int
	}
	var got, want []word
	forEachWord(s, func(w string, start, end int) bool { got = append(got, word{w, start, end}); return true })
	referenceForEachWord(s, func(w string, start, end int) { want = append(want, word{w, start, end}) })
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("forEachWord(%q) = %v, want %v", s, got, want)
	}
	// Stopped after each word in turn: the words before, and no more.
	for stop := range want {
		got = got[:0]
		forEachWord(s, func(w string, start, end int) bool { got = append(got, word{w, start, end}); return len(got) <= stop })
		if !reflect.DeepEqual(got, want[:stop+1]) {
			t.Fatalf("forEachWord(%q) stopped after %d words = %v, want %v", s, stop+1, got, want[:stop+1])
		}
	}
}

// referenceIndexTerms is IndexTerms before its postings were laid out in
// one slab.
func referenceIndexTerms(ids []string, dts []DocTerms) *Index {
	// Counted first, so that every term's postings are allocated once, at
	// their size.
	df := map[string]int32{}
	for _, dt := range dts {
		for _, t := range dt.Terms {
			df[t]++
		}
	}
	ix := &Index{ids: ids, docLen: make([]float64, len(dts)), postings: make(map[string][]posting, len(df)), K1: 1.2, B: 0.75}
	for t, n := range df {
		ix.postings[t] = make([]posting, 0, n)
	}
	total := 0.0
	for i, dt := range dts {
		ix.docLen[i] = float64(dt.Len)
		total += float64(dt.Len)
		for j, t := range dt.Terms {
			ix.postings[t] = append(ix.postings[t], posting{doc: int32(i), tf: dt.TF[j]})
		}
	}
	if len(dts) > 0 {
		ix.avgLen = total / float64(len(dts))
	}
	return ix
}

func TestIndexTermsAgrees(t *testing.T) {
	words := strings.Fields("cache retry queue postgres mysql order storage event log kafka nats session token audit")
	rng := uint64(7)
	rand := func(n int) int {
		rng = rng*6364136223846793005 + 1442695040888963407
		return int((rng >> 33) % uint64(n))
	}
	for round := 0; round < 200; round++ {
		var ids []string
		var dts []DocTerms
		for d := rand(30); d >= 0; d-- {
			var b strings.Builder
			for w := rand(40); w > 0; w-- {
				b.WriteString(words[rand(len(words))] + " ")
			}
			ids = append(ids, fmt.Sprint("ADR-", d))
			dts = append(dts, Analyze(Doc{Fields: []Field{{Text: b.String(), Weight: float64(1 + rand(3))}}}))
		}
		got, want := IndexTerms(ids, dts), referenceIndexTerms(ids, dts)
		if !reflect.DeepEqual(got.postings, want.postings) || !reflect.DeepEqual(got.docLen, want.docLen) || got.avgLen != want.avgLen {
			t.Fatalf("round %d: IndexTerms = %+v, want %+v", round, got, want)
		}
	}
}

// moduleRoot is the directory holding go.mod above the test's directory,
// so the corpora are found however deep this package moves.
func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// TestDetectLanguageAgrees compares DetectLanguage, which stops reading
// once more words could not change its answer, with the reference, which
// reads its 401 words, on generated texts where languages race: markers
// of every language, Cyrillic words, capitals, joiners, CJK and filler,
// from a few words to well past 401.
func TestDetectLanguageAgrees(t *testing.T) {
	pieces := []string{"the", "And", "is", "TO", "we", "this", "le", "la", "nous", "Pour", "el", "los", "que", "por",
		"der", "die", "und", "nicht", "кеш", "и", "Данные", "cache", "x", "go.mod", "the-", "is.", "缓存", "é", "les'",
		"postgres", "9", "a_b", "ïs"}
	seps := []string{" ", "  ", "\n", ", ", ".", "-", "", "缓"}
	rng := uint64(3)
	rand := func(n int) int {
		rng = rng*6364136223846793005 + 1442695040888963407
		return int((rng >> 33) % uint64(n))
	}
	for round := 0; round < 5000; round++ {
		var b strings.Builder
		// A bias per text, so that one language often leads by a little.
		bias := rand(len(pieces))
		for w := rand(900); w > 0; w-- {
			if rand(3) == 0 {
				b.WriteString(pieces[bias])
			} else {
				b.WriteString(pieces[rand(len(pieces))])
			}
			b.WriteString(seps[rand(len(seps))])
		}
		text := b.String()
		if got, want := DetectLanguage(text), referenceDetect(text); got != want {
			t.Fatalf("DetectLanguage(%q) = %s, want %s", text, got, want)
		}
	}
}
