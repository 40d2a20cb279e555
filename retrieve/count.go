package retrieve

import (
	"math"
	"strings"
	"sync"
	"unicode/utf8"
)

// counter adds up the weighted term frequencies of one document for
// Analyze. It finds the terms Analyzer.Terms finds, in the same order
// (FuzzAnalyzeAgreesWithTerms), but keeps no offsets and no slice of
// terms, and an ASCII word it has seen before costs no allocation: it
// numbers every term it meets, and remembers the term of every lower-case
// word (per language) across the documents it analyses (counters are
// pooled). The documents' terms share its strings.
//
// Analysis is most of a query on a log the term cache has not seen.
type counter struct {
	lang Language
	// stems maps a lower-case ASCII part to its term's number in vocab,
	// or to -1 when the part is not a term (a stop word, or one letter);
	// short does for the parts of 8 bytes or less (most), packed. One
	// of each per language: stems differ.
	stems        map[string]int32
	byLang       map[Language]map[string]int32
	short        *shortWords
	shortsByLang map[Language]*shortWords
	// vocab is every term the counter has seen, by number; ids numbers
	// them (whole identifiers, and the terms of non-ASCII words).
	vocab []string
	ids   map[string]int32
	// This document's terms: numbers in the order first seen, and for
	// each number of vocab, when seen[n] is doc, its place in order.
	doc    int32
	seen   []int32
	slot   []int32
	order  []int32
	freq   []float64
	total  float64
	weight float64

	buf     []byte
	parts   [][2]int
	scratch []Term

	// numberedIn is the vocabulary toVocab numbers in: for each number
	// of vocab, its term's number there, or -1 when not yet looked up
	// (AnalyzeInto).
	numberedIn *Vocabulary
	toVocab    []int32
}

var counters = sync.Pool{New: func() any { return &counter{doc: 1} }}

// counterFor is a pooled counter, reset for a document in lang.
func counterFor(lang Language) *counter {
	c := counters.Get().(*counter)
	// A long-lived counter would keep every word of every log it saw.
	if c.ids == nil || len(c.vocab) > 1<<17 || c.doc == math.MaxInt32 {
		c.byLang, c.ids = map[Language]map[string]int32{}, map[string]int32{}
		c.shortsByLang = map[Language]*shortWords{}
		c.vocab, c.seen, c.slot, c.doc = c.vocab[:0], c.seen[:0], c.slot[:0], 1
		c.numberedIn, c.toVocab = nil, c.toVocab[:0]
	}
	c.lang = lang
	c.stems, c.short = c.byLang[lang], c.shortsByLang[lang]
	if c.stems == nil {
		c.stems, c.short = map[string]int32{}, newShortWords()
		c.byLang[lang], c.shortsByLang[lang] = c.stems, c.short
	}
	c.doc++
	c.order, c.freq, c.total = c.order[:0], c.freq[:0], 0
	return c
}

// id is the number of term t, which the counter keeps (t must not be a
// piece of a text).
func (c *counter) id(t string) int32 {
	if n, ok := c.ids[t]; ok {
		return n
	}
	n := int32(len(c.vocab))
	c.vocab = append(c.vocab, t)
	c.seen = append(c.seen, 0)
	c.slot = append(c.slot, 0)
	c.ids[t] = n
	return n
}

// fields counts the terms of d's fields, each at its weight (1 when it
// has none).
func (c *counter) fields(d Doc) {
	for _, f := range d.Fields {
		w := f.Weight
		if w == 0 {
			w = 1
		}
		c.field(f.Text, w)
	}
}

// field counts the terms of text, each weighing w.
func (c *counter) field(text string, w float64) {
	c.weight = w
	forEachWord(text, c.word)
}

// word counts the terms of one word, as Analyzer.wordTerms finds them;
// it always asks forEachWord for more.
func (c *counter) word(w string, _, _ int) bool {
	// One pass over the word says what it is made of, and packs it.
	var class byte
	var key uint64
	for i := 0; i < len(w); i++ {
		class |= byteClass[w[i]]
		key = key<<8 | uint64(w[i])
	}
	if class == 0 {
		// Most words: one part, already lower case, and short.
		if len(w) <= 8 && len(w) > 0 {
			c.shortPart(key)
		} else {
			c.lowerPart(w)
		}
		return true
	}
	if class&notASCII != 0 {
		c.scratch = Analyzer{Lang: c.lang}.wordTerms(c.scratch[:0], w, 0)
		for _, t := range c.scratch {
			n, ok := c.ids[t.Text]
			if !ok {
				// A term can be a piece of the text: not kept.
				n = c.id(strings.Clone(t.Text))
			}
			c.add(n)
		}
		return true
	}
	// splitIdentifier, for ASCII: bytes are runes, and a letter, a digit,
	// a lower- or an upper-case letter are the ASCII ones.
	c.parts = c.parts[:0]
	from := 0 // where the part being read starts
	emit := func(end int) {
		if end > from {
			c.parts = append(c.parts, [2]int{from, end})
		}
	}
	for i := 0; i < len(w); i++ {
		r := w[i]
		if r == '-' || r == '_' || r == '.' || r == '\'' {
			emit(i)
			from = i + 1
			continue
		}
		if i > from {
			prev := w[i-1]
			switch {
			case isLowerByte(prev) && isUpperByte(r):
				emit(i)
				from = i
			case isUpperByte(prev) && isUpperByte(r) && i+1 < len(w) && isLowerByte(w[i+1]):
				emit(i)
				from = i
			case isLetterByte(prev) && isDigitByte(r) || isDigitByte(prev) && isLetterByte(r):
				if i-from > 3 {
					emit(i)
					from = i
				}
			}
		}
	}
	emit(len(w))
	if len(c.parts) > 1 {
		// The whole identifier, lower case, without its separators.
		c.buf = c.buf[:0]
		for i := 0; i < len(w); i++ {
			switch b := w[i]; {
			case b == '-' || b == '_' || b == '.' || b == '\'':
			case isUpperByte(b):
				c.buf = append(c.buf, b+'a'-'A')
			default:
				c.buf = append(c.buf, b)
			}
		}
		if len(c.buf) > 1 {
			n, ok := c.ids[string(c.buf)]
			if !ok {
				n = c.id(string(c.buf))
			}
			c.add(n)
		}
	}
	for _, p := range c.parts {
		c.part(w[p[0]:p[1]])
	}
	return true
}

// part counts one ASCII part of a word: lower-cased, dropped when it is a
// stop word or a single letter, else stemmed.
func (c *counter) part(p string) {
	if len(p) <= 8 && len(p) > 0 {
		key := uint64(0)
		for i := 0; i < len(p); i++ {
			b := p[i]
			if isUpperByte(b) {
				b += 'a' - 'A'
			}
			key = key<<8 | uint64(b)
		}
		c.shortPart(key)
		return
	}
	if lowerASCII(p) {
		c.lowerPart(p)
		return
	}
	c.buf = c.buf[:0]
	for i := 0; i < len(p); i++ {
		b := p[i]
		if isUpperByte(b) {
			b += 'a' - 'A'
		}
		c.buf = append(c.buf, b)
	}
	n, ok := c.stems[string(c.buf)]
	if !ok {
		lower := string(c.buf)
		n = c.newPart(lower)
		c.stems[lower] = n
	}
	if n >= 0 {
		c.add(n)
	}
}

// shortPart is part for a part of 1 to 8 bytes, lower case, packed into
// key (packWord).
func (c *counter) shortPart(key uint64) {
	n, ok := c.short.get(key)
	if !ok {
		n = c.newPart(unpackWord(key))
		c.short.put(key, n)
	}
	if n >= 0 {
		c.add(n)
	}
}

// lowerPart is part for a part of lower-case letters a to z.
func (c *counter) lowerPart(p string) {
	if len(p) <= 8 && len(p) > 0 {
		c.shortPart(packWord(p))
		return
	}
	n, ok := c.stems[p]
	if !ok {
		// A piece of the text: the counter keeps its own copy.
		lower := strings.Clone(p)
		n = c.newPart(lower)
		c.stems[lower] = n
	}
	if n >= 0 {
		c.add(n)
	}
}

// newPart is the term number of a lower-case part the counter has not
// seen in its language, -1 when the part is not a term (a stop word, or
// one letter).
func (c *counter) newPart(lower string) int32 {
	if (len(lower) >= 2 || isDigit(lower)) && !stopwords[lower] {
		return c.id(fold(Analyzer{Lang: c.lang}.stem(lower)))
	}
	return -1
}

// add counts term number n once more.
func (c *counter) add(n int32) {
	if c.seen[n] == c.doc {
		c.freq[c.slot[n]] += c.weight
	} else {
		c.seen[n], c.slot[n] = c.doc, int32(len(c.order))
		c.order = append(c.order, n)
		c.freq = append(c.freq, c.weight)
	}
	c.total += c.weight
}

// docTerms is what the counter counted, terms in the order first met (no
// user of DocTerms needs an order, and sorting was a tenth of analysis).
func (c *counter) docTerms() DocTerms {
	dt := DocTerms{Len: float32(c.total), Terms: make([]string, len(c.order)), TF: make([]float32, len(c.order))}
	for i, n := range c.order {
		dt.Terms[i], dt.TF[i] = c.vocab[n], float32(c.freq[i])
	}
	return dt
}

// numbered is what the counter counted, numbered in v, then extra terms
// at a frequency of zero: v.Number(docTerms()) with the extra terms
// appended, but a term the counter has numbered in v before costs no
// look-up of its string. The caller holds v.
func (c *counter) numbered(v *Vocabulary, extra []string) NumberedTerms {
	if c.numberedIn != v {
		c.numberedIn, c.toVocab = v, c.toVocab[:0]
	}
	for len(c.toVocab) < len(c.vocab) {
		c.toVocab = append(c.toVocab, -1)
	}
	v.pairs = v.pairs[:0]
	for i, n := range c.order {
		x := c.toVocab[n]
		if x < 0 {
			x = v.Add(c.vocab[n])
			c.toVocab[n] = x
		}
		v.pairs = append(v.pairs, uint32(x), v.freqNumber(float32(c.freq[i])))
	}
	for _, t := range extra {
		v.pairs = append(v.pairs, uint32(v.Add(t)), v.freqNumber(0))
	}
	return v.pack(float32(c.total))
}

// byteClass says what a byte of a word is: 0 for a lower-case letter a to
// z, notLower for any other, with notASCII too from 0x80 up.
var byteClass = func() (t [256]byte) {
	for c := range t {
		switch {
		case c >= utf8.RuneSelf:
			t[c] = notLower | notASCII
		case !isLowerByte(byte(c)):
			t[c] = notLower
		}
	}
	return t
}()

// The bits of byteClass.
const (
	notLower = 1 << iota
	notASCII
)

func isLowerByte(b byte) bool  { return b >= 'a' && b <= 'z' }
func isUpperByte(b byte) bool  { return b >= 'A' && b <= 'Z' }
func isDigitByte(b byte) bool  { return b >= '0' && b <= '9' }
func isLetterByte(b byte) bool { return isLowerByte(b) || isUpperByte(b) }
