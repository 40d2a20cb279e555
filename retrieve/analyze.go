package retrieve

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
	"github.com/kljensen/snowball/french"
	"github.com/kljensen/snowball/russian"
	"github.com/kljensen/snowball/spanish"
	"golang.org/x/text/unicode/norm"
)

// Language is a stemming language.
type Language string

// Languages with a stemmer. Others are matched without stemming.
const (
	English Language = "en"
	French  Language = "fr"
	Spanish Language = "es"
	Russian Language = "ru"
	German  Language = "de"
	// Other is a language without a stemmer: only light suffix stripping.
	// The zero Language is English.
	Other Language = "other"
)

// stopwords in the languages ADRs are commonly written in. They carry no
// topic, so they neither score nor count toward coverage.
var stopwords = map[string]bool{}

func init() {
	for _, list := range []string{
		// English, including words every ADR uses.
		"a an and are as at be been but by can could did do does for from had has have how i if in into is it its " +
			"may might must no not of on or our out over should so such than that the their them then there these they " +
			"this those to too under up us use used uses using was we were what when where which while who why will with " +
			"would you your also any all each more most other some only very via per about after before between both " +
			"during same own just one two new need needs make makes made get gets",
		// French.
		"le la les un une des du de d l et ou est sont en dans pour par sur avec au aux ce ces cette que qui ne pas " +
			"nous vous ils elle il se sa son ses leur plus",
		// German.
		"der die das ein eine und oder ist sind im in für mit auf zu den dem des nicht wir sie es von bei",
		// Spanish and Portuguese.
		"el los las y o es son en para por con del al que se su sus no lo como una uno os as um uma do da dos das é",
	} {
		for _, w := range strings.Fields(list) {
			stopwords[w] = true
		}
	}
}

// metaWords are words every ADR and every question about ADRs uses; they
// are dropped from requests (unless nothing else is left) but kept in
// documents, where their low IDF already makes them weak.
var metaWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields("decide decided decision decisions adr adrs record records recorded " +
		"architecture architectural status context consequence consequences option options chosen " +
		"accepted proposed agreed team project system question know tell show find give want look " +
		"current currently now still why what which choose chose choosing pick picking select selecting adopt " +
		"introduce add adding implement implementing create creating handle handling support supporting " +
		"define defining design designing manage managing work works working way ways thing things good " +
		"best better go going goes") {
		metaWords[w] = true
	}
}

// Term is an analysed token with the byte offsets of the word it came from.
type Term struct {
	Text       string
	Start, End int
}

// Analyzer turns text into terms. The zero value analyses English; Lang
// chooses the stemmer for other languages.
type Analyzer struct {
	Lang Language
	// KeepStopwords keeps stop words (used for exact phrase checks).
	KeepStopwords bool
	// Query drops ADR meta words as well ("which decision covers ...").
	Query bool
}

// Terms analyses text. Identifiers are split ("parseHTTPRequest" gives
// parse, http, request and the whole identifier), letters are folded
// ("décision" matches "decision"), runs of CJK characters give overlapping
// bigrams, and words are stemmed.
func (a Analyzer) Terms(text string) []Term {
	var out []Term
	forEachWord(text, func(w string, start, end int) bool {
		out = a.wordTerms(out, w, start)
		return true
	})
	return out
}

// wordTerms appends the terms of w, a word forEachWord found at byte
// offset start of a text, to out.
func (a Analyzer) wordTerms(out []Term, w string, start int) []Term {
	if isCJK(firstRune(w)) {
		return append(out, cjkTerms(w, start)...)
	}
	parts := splitIdentifier(w)
	if len(parts) > 1 {
		// The whole identifier is a term too, so exact matches score.
		if t := strings.Map(dropSeparators, fold(strings.ToLower(w))); len(t) > 1 {
			out = append(out, Term{Text: t, Start: start, End: start + len(w)})
		}
	}
	for _, p := range parts {
		lower := strings.ToLower(p.text)
		t := fold(lower)
		if len(t) < 2 && !isDigit(t) {
			continue
		}
		if !a.KeepStopwords && (stopwords[t] || a.Query && metaWords[t]) {
			continue
		}
		// Stem before folding: stemmers know their language's accents.
		out = append(out, Term{Text: fold(a.stem(lower)), Start: start + p.start, End: start + p.end})
	}
	return out
}

// TermTexts returns just the analysed strings.
func (a Analyzer) TermTexts(text string) []string {
	ts := a.Terms(text)
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Text
	}
	return out
}

var stemCache sync.Map // lang+word -> stem

func (a Analyzer) stem(w string) string {
	if len(w) < 4 || isDigit(w[:1]) {
		return w
	}
	key := string(a.Lang) + ":" + w
	if s, ok := stemCache.Load(key); ok {
		return s.(string)
	}
	var s string
	switch a.Lang {
	case French:
		s = french.Stem(w, false)
	case Spanish:
		s = spanish.Stem(w, false)
	case Russian:
		s = russian.Stem(w, false)
	case German, Other:
		s = lightStem(w)
	default:
		if isASCII(w) {
			s = english.Stem(w, false)
		} else {
			s = lightStem(w)
		}
	}
	if s == "" {
		s = w
	}
	stemCache.Store(key, s)
	return s
}

// languageMarkers are the frequent short words of each language
// DetectLanguage counts (each belongs to one language).
var languageMarkers = func() map[string]Language {
	m := map[string]Language{}
	for lang, ws := range map[Language][]string{
		English: {"the", "and", "is", "to", "of", "we", "will", "this"},
		French:  {"le", "la", "les", "et", "est", "des", "nous", "pour", "une"},
		Spanish: {"el", "los", "las", "es", "para", "una", "que", "por"},
		German:  {"der", "die", "das", "und", "ist", "wir", "nicht", "eine"},
	} {
		for _, w := range ws {
			m[w] = lang
		}
	}
	return m
}()

// maxMarker is the length of the longest language marker, in bytes.
const maxMarker = 5 // at most 8, to pack into a uint64

// detectOrder is the order in which DetectLanguage counts languages,
// which breaks ties.
var detectOrder = [...]Language{English, French, Spanish, German, Russian}

// markerTable holds the markers as DetectLanguage packs them (the bytes of
// a lower-case ASCII word of at most maxMarker bytes, big-endian) in a
// table without collisions: a marker is found at slot(k), an array read,
// with the language's place in detectOrder. Empty slots hold 0, which no
// word packs to.
type markerTable struct {
	mul  uint64
	keys [128]uint64
	lang [128]uint8
}

// slot is where key k would be.
func (t *markerTable) slot(k uint64) uint64 { return (k * t.mul) >> 57 }

// markers is languageMarkers as a markerTable.
var markers = func() *markerTable {
	keys := map[uint64]int{}
	for w, lang := range languageMarkers {
		if len(w) > maxMarker || !isASCII(w) || strings.ToLower(w) != w {
			panic("retrieve: language marker " + w + " is longer than maxMarker, or not lower-case ASCII")
		}
		k := uint64(0)
		for i := 0; i < len(w); i++ {
			k = k<<8 | uint64(w[i])
		}
		keys[k] = slices.Index(detectOrder[:], lang)
	}
	// Odd multipliers of a pseudo-random sequence, until one places the
	// markers apart: the first places today's (found by running this loop
	// from 0x9e3779b97f4a7c15); a changed list may need a few more.
	t := &markerTable{}
	for mul := uint64(0xcf979dc7bbf4e265); ; mul = (mul*6364136223846793005 + 1442695040888963407) | 1 {
		*t = markerTable{mul: mul}
		apart := true
		for k, lang := range keys {
			s := t.slot(k)
			if t.keys[s] != 0 {
				apart = false
				break
			}
			t.keys[s], t.lang[s] = k, uint8(lang)
		}
		if apart {
			return t
		}
	}
}()

// lowerASCII reports whether w is made of the letters a to z only.
func lowerASCII(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// lightStem strips common plural and inflection endings for languages
// without a stemmer here; it only ever shortens a word.
func lightStem(w string) string {
	r := []rune(w)
	for _, suf := range []string{"ungen", "ung", "en", "er", "es", "e", "s", "n"} {
		sr := []rune(suf)
		if len(r) > len(sr)+3 && string(r[len(r)-len(sr):]) == suf {
			return string(r[:len(r)-len(sr)])
		}
	}
	return w
}

// asciiWord marks the ASCII bytes that are part of words (none from 0x80
// up: a byte is looked up without a check).
var asciiWord [256]bool

func init() {
	for c := 0; c < utf8.RuneSelf; c++ {
		asciiWord[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
	}
}

// forEachWord calls fn for every run of letters, digits, marks and
// connectors ("_", "-" inside a word, "." between letters as in "go.mod"),
// until fn returns false.
// ASCII text, by far the most common, is classified byte by byte.
func forEachWord(s string, fn func(w string, start, end int) bool) {
	start := -1
	prevCJK := false
	more := true
	flush := func(end int) {
		if start >= 0 {
			for end > start && isTrailer(s[end-1]) {
				end--
			}
			if end > start {
				more = fn(s[start:end], start, end)
			}
			start = -1
		}
	}
	for i := 0; i < len(s) && more; {
		c := s[i]
		if asciiWord[c] {
			// A run of ASCII word bytes, the common case, in one loop.
			if start < 0 {
				start = i
			} else if prevCJK {
				flush(i)
				start = i
			}
			prevCJK = false
			for i++; i < len(s) && asciiWord[s[i]]; i++ {
			}
			continue
		}
		if c < utf8.RuneSelf {
			// Any other ASCII byte ends the word being read, unless it
			// is a joiner ("pre-commit", "go.mod": split later); between
			// words it is nothing.
			if start >= 0 && c != '-' && c != '.' && c != '\'' {
				flush(i)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		word := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
		cjk := word && isCJK(r)
		switch {
		case word && start >= 0 && cjk != prevCJK:
			// A change between CJK and other scripts ends a word.
			flush(i)
			start = i
		case word:
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
		if word {
			prevCJK = cjk
		}
		i += size
	}
	if more {
		flush(len(s))
	}
}

// isTrailer reports whether c is a joiner forEachWord drops from the end
// of a word ("go.mod." is "go.mod").
func isTrailer(c byte) bool { return c == '-' || c == '.' || c == '_' || c == '\'' }

type part struct {
	text       string
	start, end int
}

// splitIdentifier splits on "-", "_", ".", "'" and case changes:
// "parseHTTPRequest" -> parse, HTTP, Request; "pre-commit" -> pre, commit.
func splitIdentifier(w string) []part {
	if w != "" && lowerASCII(w) {
		// Most words: nothing to split.
		return []part{{text: w, start: 0, end: len(w)}}
	}
	var out []part
	rs := []rune(w)
	offs := make([]int, len(rs)+1)
	o := 0
	for i, r := range rs {
		offs[i] = o
		o += len(string(r))
	}
	offs[len(rs)] = o
	start := 0
	emit := func(end int) {
		if end > start {
			out = append(out, part{text: string(rs[start:end]), start: offs[start], end: offs[end]})
		}
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '-' || r == '_' || r == '.' || r == '\'' {
			emit(i)
			start = i + 1
			continue
		}
		if i > start {
			prev := rs[i-1]
			switch {
			case unicode.IsLower(prev) && unicode.IsUpper(r):
				emit(i)
				start = i
			case unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				emit(i)
				start = i
			case unicode.IsLetter(prev) && unicode.IsDigit(r) || unicode.IsDigit(prev) && unicode.IsLetter(r):
				// "v2", "o200k": keep letters and digits together only
				// when short, which most version tags are.
				if i-start > 3 {
					emit(i)
					start = i
				}
			}
		}
	}
	emit(len(rs))
	return out
}

func dropSeparators(r rune) rune {
	if r == '-' || r == '_' || r == '.' || r == '\'' {
		return -1
	}
	return r
}

// fold removes diacritics: "décision" -> "decision", "Ü" -> "U".
func fold(s string) string {
	if isASCII(s) {
		return s
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteRune(r)
	}
	return norm.NFC.String(b.String())
}

func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

func cjkTerms(w string, start int) []Term {
	rs := []rune(w)
	offs := make([]int, len(rs)+1)
	o := start
	for i, r := range rs {
		offs[i] = o
		o += len(string(r))
	}
	offs[len(rs)] = o
	if len(rs) == 1 {
		return []Term{{Text: w, Start: start, End: o}}
	}
	out := make([]Term, 0, len(rs)-1)
	for i := 0; i+1 < len(rs); i++ {
		out = append(out, Term{Text: string(rs[i : i+2]), Start: offs[i], End: offs[i+2]})
	}
	return out
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func isDigit(s string) bool {
	return s != "" && s[0] >= '0' && s[0] <= '9'
}

// detectWords is how many words of a text DetectLanguage reads at most.
const detectWords = 401

// DetectLanguage guesses the stemming language of a text from its stop
// words in its first detectWords words; English when unsure.
func DetectLanguage(text string) Language {
	var counts [len(detectOrder)]int
	n := 0
	forEachWord(text, func(w string, _, end int) bool {
		n++
		countMarker(&counts, w)
		if n == detectWords {
			return false
		}
		// Read on only while the words left could change the answer. A
		// word counts for one language at most; one that counts is two
		// bytes or more (every marker, and every Cyrillic letter) and
		// apart from the next by a byte at least: k of them take 3k-1.
		return n%8 != 0 || !settled(&counts, min(detectWords-n, (len(text)-end+1)/3))
	})
	best, bn := English, 0
	for i, l := range detectOrder {
		if counts[i] > bn {
			best, bn = l, counts[i]
		}
	}
	return best
}

// countMarker counts word w in counts if it is a language's marker or
// Cyrillic.
func countMarker(counts *[len(detectOrder)]int, w string) {
	if !isASCII(w) {
		if unicode.Is(unicode.Cyrillic, firstRune(w)) {
			counts[4]++
		}
		if lang, ok := languageMarkers[strings.ToLower(w)]; ok {
			counts[slices.Index(detectOrder[:], lang)]++
		}
		return
	}
	if len(w) > maxMarker {
		return // longer than every marker
	}
	// Lower-cased and packed into a number: no string, no hashing.
	k := uint64(0)
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		k = k<<8 | uint64(c)
	}
	if s := markers.slot(k); markers.keys[s] == k {
		counts[markers.lang[s]]++
	}
}

// settled reports whether counts lead with one language by more than
// rest, the most any language may still gain: more words cannot change
// DetectLanguage's answer.
func settled(counts *[len(detectOrder)]int, rest int) bool {
	top, second := 0, 0
	for _, c := range counts {
		if c > top {
			top, second = c, top
		} else if c > second {
			second = c
		}
	}
	return top-second > rest
}
