package compaction

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// phrases are wordings to find in sentences, written as slots of
// alternative words: "move|moved [away] from" is "move" or "moved",
// optionally "away", then "from". Words are compared in lower case.
// Matching a few hundred thousand sentences of a large log word by word
// is many times faster than one regular expression with these
// alternations.
type phrases struct {
	// byFirst are the phrases by the words they start with.
	byFirst map[string][]phrase
}

// phrase is one wording, slot by slot.
type phrase []slot

type slot struct {
	words    map[string]bool
	optional bool
}

func newPhrases(ps ...string) phrases {
	out := phrases{byFirst: map[string][]phrase{}}
	for _, p := range ps {
		var slots phrase
		for _, f := range strings.Fields(p) {
			s := slot{words: map[string]bool{}}
			if strings.HasPrefix(f, "[") {
				s.optional = true
				f = strings.Trim(f, "[]")
			}
			for _, w := range strings.Split(f, "|") {
				s.words[w] = true
			}
			slots = append(slots, s)
		}
		if slots[0].optional {
			panic("compaction: a phrase starts with an optional word: " + p)
		}
		for w := range slots[0].words {
			out.byFirst[w] = append(out.byFirst[w], slots)
		}
	}
	return out
}

// word is a word of a sentence in lower case and where it is.
type word struct {
	text     string
	from, to int
}

// appendWords appends to out the words of s: runs of letters and digits,
// in lower case.
func appendWords(out []word, s string) []word {
	// One lower-case copy of an ASCII sentence (most are) serves every
	// word; other sentences are lowered word by word, where offsets
	// cannot shift.
	ascii := true
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] < utf8.RuneSelf
	}
	lower := s
	if ascii {
		lower = strings.ToLower(s)
	}
	start := -1
	add := func(end int) {
		w := lower[start:end]
		if !ascii {
			w = strings.ToLower(w)
		}
		out = append(out, word{w, start, end})
	}
	for i, r := range s {
		letter := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case letter && start < 0:
			start = i
		case !letter && start >= 0:
			add(i)
			start = -1
		}
	}
	if start >= 0 {
		add(len(s))
	}
	return out
}

// wordBufs holds find's word lists for reuse.
var wordBufs = sync.Pool{New: func() any { return new([]word) }}

// find returns where in s each wording starts and ends (byte offsets),
// in order, without overlaps.
func (ps phrases) find(s string) [][2]int {
	// The words of every sentence of a member are listed through one
	// buffer: grown afresh for each, they were most of what an analysis
	// of 10,000 records allocated.
	buf := wordBufs.Get().(*[]word)
	ws := appendWords((*buf)[:0], s)
	defer func() { *buf = ws[:0]; wordBufs.Put(buf) }()
	var out [][2]int
	for i := 0; i < len(ws); {
		end := -1
		for _, p := range ps.byFirst[ws[i].text] {
			if e := p.matchAt(ws, i); e > end {
				end = e
			}
		}
		if end < 0 {
			i++
			continue
		}
		out = append(out, [2]int{ws[i].from, ws[end-1].to})
		i = end
	}
	return out
}

// matchAt is the index after the last word of ws that p matches from
// ws[i], or -1 when p does not match there.
func (p phrase) matchAt(ws []word, i int) int {
	if len(p) == 0 {
		return -1
	}
	for _, sl := range p {
		switch {
		case i < len(ws) && sl.words[ws[i].text]:
			i++
		case sl.optional:
		default:
			return -1
		}
	}
	return i
}
