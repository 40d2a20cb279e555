package evidence

import (
	"cmp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/retrieve"
)

// A window is the piece of a record a task answer sends: the passage
// that matches the task best, within a size, in the record's own words.
// A window is whole lines when they fit; a paragraph longer than the
// window is cut at sentence ends, so that a record written one paragraph
// a line still sends its best sentences, not the start of a long line.
type window struct {
	unit adr.Unit
	// start and end are the window's 1-based lines (inclusive); text is
	// its text, "\n" line endings, ending in a newline when it ends a
	// line.
	start, end int
	text       string
	// whole reports that the window is the unit's whole text.
	whole bool
	score float64
}

// block is a paragraph, a top-level list item, a table or a fenced code
// block of a unit: byte offsets [from, to) in the record's text, and
// 0-based lines [line, last].
type block struct {
	unit       int
	from, to   int
	line, last int
	// first reports the first block of its unit.
	first bool
}

// blocksOf splits the units of r that may answer a task into blocks.
// The status section, sections about the record itself (changelog,
// authors, references) and headings are left out, as are front matter
// and comments.
func blocksOf(r *adr.Record, units []adr.Unit) []block {
	t := r.Text()
	var out []block
	for ui, u := range units {
		start := -1
		first := true
		flush := func(end int) {
			if start < 0 {
				return
			}
			from, to := t.Lines[start].Start, t.Lines[end-1].End
			if strings.TrimSpace(string(t.Src[from:to])) != "" {
				out = append(out, block{unit: ui, from: from, to: to, line: start, last: end - 1, first: first})
				first = false
			}
			start = -1
		}
		inFence := false
		for i := max(u.Start-1, 0); i < u.End && i < len(t.Lines); i++ {
			k := t.Lines[i].Kind
			s := t.LineText(i)
			switch {
			case k == adr.LineFence:
				if !inFence {
					flush(i)
					start = i
				}
				inFence = !inFence
				if !inFence {
					flush(i + 1)
				}
			case inFence || k == adr.LineCode:
				if start < 0 {
					start = i
				}
			case k == adr.LineBlank || k == adr.LineComment || k == adr.LineFrontMatter:
				flush(i)
			case k == adr.LineHeading:
				flush(i)
			case isListItem(s):
				flush(i)
				start = i
			default:
				if start < 0 {
					start = i
				}
			}
		}
		flush(min(u.End, len(t.Lines)))
	}
	return out
}

// isListItem reports a top-level list item: "- ", "* ", "+ " or "1. "
// with less than two spaces of indentation.
func isListItem(s string) bool {
	trimmed := strings.TrimLeft(s, " \t")
	if len(s)-len(trimmed) >= 2 {
		return false
	}
	if len(trimmed) >= 2 && strings.ContainsRune("-*+", rune(trimmed[0])) && trimmed[1] == ' ' {
		return true
	}
	i := 0
	for i < len(trimmed) && trimmed[i] >= '0' && trimmed[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(trimmed) && (trimmed[i] == '.' || trimmed[i] == ')') && trimmed[i+1] == ' '
}

// matcher scores a passage by the task's words it holds: each word (its
// coverage group, expansions included) counts once, by the IDF weight of
// its best term in the passage.
type matcher struct {
	q    []retrieve.QueryTerm
	ix   *retrieve.Index
	lang retrieve.Language
}

func (m matcher) score(text string) float64 {
	// The text's terms as the counter finds them (the terms
	// Analyzer.Terms finds, FuzzAnalyzeAgreesWithTerms, without a string
	// or an offset made for each): windows are scored by the hundred in
	// every answer.
	found := retrieve.Analyze(retrieve.Doc{Lang: m.lang, Fields: []retrieve.Field{{Text: text, Weight: 1}}}).Terms
	has := func(t string) bool {
		for _, f := range found {
			if f == t {
				return true
			}
		}
		return false
	}
	best := map[int]float64{}
	var groups []int // in query order: a sum in map order differs by rounding from run to run
	free := 0.0
	for _, t := range m.q {
		if !has(t.Text) {
			continue
		}
		w := m.ix.IDF(t.Text) * t.Weight
		if t.Group < 0 {
			free += w
			continue
		}
		if _, ok := best[t.Group]; !ok {
			groups = append(groups, t.Group)
		}
		best[t.Group] = max(best[t.Group], w)
	}
	sc := free
	for _, g := range groups {
		sc += best[g]
	}
	return sc
}

// windowOpts say what a window prefers.
type windowOpts struct {
	// limit is the window's size in code points.
	limit int
	// main is the index in units of the unit that states the decision
	// (-1: none); its blocks weigh mainBonus times as much, and its first
	// block, which usually states the decision, gets firstBonus on top.
	main int
	// prefer are units (by index) the intent favours, weighed like main.
	prefer map[int]bool
	// fill is how far a window grows into the sections around its own
	// (0: minFill): the best records send more than their best section.
	fill int
	// sameUnit keeps a window within its section (a container's
	// sections are decisions of their own, each with its status).
	sameUnit bool
	// wholeSentences: a paragraph cut to its best sentences sends whole
	// sentences only, however much of the limit they leave (the
	// NoSentenceFill ablation).
	wholeSentences bool
}

// Weights of a window's preferences.
const (
	mainBonus  = 1.4
	firstBonus = 0.35 // of the query's best word
	// minFill: a window shorter than this (and than its limit) takes in
	// the blocks of the sections around it.
	minFill = 240
)

// bestWindow picks the window of r that answers the task best: the best
// block (the task's words it holds, the decision's blocks preferred),
// cut to its best sentences when it is longer than the limit, else
// widened with the blocks around it in the same section, the decision's
// first block first.
func bestWindow(r *adr.Record, units []adr.Unit, m matcher, o windowOpts) (window, bool) {
	blocks := blocksOf(r, units)
	if len(blocks) == 0 {
		return window{}, false
	}
	t := r.Text()
	topWord := 0.0
	for _, qt := range m.q {
		if qt.Weight >= 1 {
			topWord = max(topWord, m.ix.IDF(qt.Text))
		}
	}
	scores := make([]float64, len(blocks))
	best := -1
	for i, b := range blocks {
		sc := m.score(string(t.Src[b.from:b.to]))
		if b.unit == o.main || o.prefer[b.unit] {
			sc *= mainBonus
			if b.first && b.unit == o.main {
				sc += firstBonus * topWord
			}
		}
		scores[i] = sc
		if best < 0 || sc > scores[best] {
			best = i
		}
	}
	// Nothing matches: the decision's first block, else the first block.
	if scores[best] == 0 {
		best = 0
		for i, b := range blocks {
			if b.unit == o.main {
				best = i
				break
			}
		}
	}
	b := blocks[best]
	from, to := b.from, b.to
	if n := runes(t.Src[from:to]); n > o.limit {
		from, to = bestSentences(t.Src, from, to, m, o.limit, o.wholeSentences)
	} else {
		// Widen within the unit: the unit's first block when it is the
		// decision's (it states what was decided), then the blocks after,
		// then those before, while they fit.
		size := n
		lo, hi := best, best
		grow := func(i int, anyUnit bool) bool {
			anyUnit = anyUnit && !o.sameUnit
			if i < 0 || i >= len(blocks) || !anyUnit && blocks[i].unit != b.unit {
				return false
			}
			nb := blocks[i]
			add := runes(t.Src[min(from, nb.from):max(to, nb.to)]) - size
			if size+add > o.limit {
				return false
			}
			from, to = min(from, nb.from), max(to, nb.to)
			size += add
			return true
		}
		if b.unit == o.main && !b.first {
			for first := best - 1; first >= 0 && blocks[first].unit == b.unit; first-- {
				if blocks[first].first {
					if grow(first, false) {
						lo = first
					}
					break
				}
			}
		}
		for hi+1 < len(blocks) && grow(hi+1, false) {
			hi++
		}
		for lo-1 >= 0 && grow(lo-1, false) {
			lo--
		}
		// A section of a line or two says too little on its own: the
		// blocks around it, in the sections next to it, while the window
		// is short of fill.
		fill := min(o.limit, cmp.Or(o.fill, minFill))
		for size < fill && hi+1 < len(blocks) && grow(hi+1, true) {
			hi++
		}
		for size < fill && lo-1 >= 0 && grow(lo-1, true) {
			lo--
		}
		// Still short, and the next block does not fit whole: its first
		// sentences; then the previous block's last ones.
		if size < fill && hi+1 < len(blocks) && (!o.sameUnit || blocks[hi+1].unit == b.unit) {
			if e := leadingSentences(t.Src, from, blocks[hi+1].from, blocks[hi+1].to, o.limit); e > to {
				to = e
				size = runes(t.Src[from:to])
			}
		}
		if size < fill && lo-1 >= 0 && (!o.sameUnit || blocks[lo-1].unit == b.unit) {
			pb := blocks[lo-1]
			st := trailingSentences(t.Src, pb.from, pb.to, to, o.limit)
			if st >= pb.to {
				// Not even its last sentence fits: its last words, from a
				// word boundary.
				st = cutFrom(t.Src, pb.from, pb.to, o.limit-runes(t.Src[pb.to:to]))
			}
			if st < pb.to {
				from = st
				size = runes(t.Src[from:to])
			}
		}
	}
	w := window{unit: units[b.unit], score: scores[best]}
	w.start, w.end = lineAt(t, from)+1, lineAt(t, max(from, to-1))+1
	// A window within one section is named after it; one that spans
	// sections after the record alone (its lines say where it is).
	if u := units[b.unit]; w.start < u.Start || w.end > u.End {
		w.unit = adr.Unit{ID: r.ID, Start: w.start, End: w.end}
	}
	w.text = strings.ReplaceAll(string(t.Src[from:to]), "\r\n", "\n")
	if to == t.Lines[w.end-1].End {
		w.text += "\n"
	}
	u := w.unit
	body := strings.TrimSpace(r.UnitText(u))
	if i := strings.IndexByte(body, '\n'); i >= 0 && u.Start > 0 && u.Start <= len(t.Lines) && t.Lines[u.Start-1].Kind == adr.LineHeading {
		body = strings.TrimSpace(body[i+1:]) // the heading is no part of what a window sends
	}
	w.whole = strings.TrimSpace(w.text) == body
	return w, true
}

// lineAt is the 0-based line holding byte offset off of t.
func lineAt(t *adr.Text, off int) int {
	lo, hi := 0, len(t.Lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if t.Lines[mid].Start <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

func runes(b []byte) int { return utf8.RuneCount(b) }

// bestSentences cuts src[from:to], longer than limit code points, to the
// run of its sentences that holds the most of the task's words within
// the limit: the best sentence, then its neighbours while they fit (the
// following one first). A sentence longer than the limit is cut at a
// word boundary, and so is the sentence that fills a window whose whole
// sentences leave a third of the limit unused (unless whole).
func bestSentences(src []byte, from, to int, m matcher, limit int, whole bool) (int, int) {
	ends := sentenceEnds(src, from, to)
	// ends[i] is where sentence i ends; sentence i starts at ends[i-1]
	// (or from), after its leading space.
	type sent struct{ from, to int }
	var ss []sent
	prev := from
	for _, e := range ends {
		s := prev
		for s < e && (src[s] == ' ' || src[s] == '\n' || src[s] == '\r' || src[s] == '\t') {
			s++
		}
		if s < e {
			ss = append(ss, sent{s, e})
		}
		prev = e
	}
	if len(ss) == 0 {
		return from, cutAt(src, from, to, limit)
	}
	best, bestScore := 0, -1.0
	for i, s := range ss {
		if sc := m.score(string(src[s.from:s.to])); sc > bestScore {
			best, bestScore = i, sc
		}
	}
	lo, hi := best, best
	wfrom, wto := ss[best].from, ss[best].to
	if runes(src[wfrom:wto]) > limit {
		return wfrom, cutAt(src, wfrom, wto, limit)
	}
	for {
		grown := false
		if hi+1 < len(ss) && runes(src[wfrom:ss[hi+1].to]) <= limit {
			hi++
			wto = ss[hi].to
			grown = true
		}
		if lo-1 >= 0 && runes(src[ss[lo-1].from:wto]) <= limit {
			lo--
			wfrom = ss[lo].from
			grown = true
		}
		if !grown {
			break
		}
	}
	// Whole sentences left much of the limit unused (the next one is
	// long): the next sentence's first words, to a word boundary, so that
	// a short window still carries a passage rather than a line; at the
	// paragraph's end, the previous sentence's last words.
	if room := limit - runes(src[wfrom:wto]); !whole && room >= 40 && 3*room > limit {
		switch {
		case hi+1 < len(ss):
			if e := cutAt(src, ss[hi+1].from, ss[hi+1].to, room-1); e > ss[hi+1].from {
				wto = e
			}
		case lo > 0:
			if st := cutFrom(src, ss[lo-1].from, ss[lo-1].to, room-1); st < ss[lo-1].to {
				wfrom = st
			}
		}
	}
	return wfrom, wto
}

// leadingSentences is the end of the longest run of leading sentences of
// the block src[bfrom:bto] that a window starting at from can take
// within limit code points (at a word boundary when not even its first
// sentence fits); bfrom when none of it fits.
func leadingSentences(src []byte, from, bfrom, bto, limit int) int {
	best := bfrom
	for _, e := range sentenceEnds(src, bfrom, bto) {
		if runes(src[from:e]) > limit {
			break
		}
		best = e
	}
	if best == bfrom {
		if room := limit - runes(src[from:bfrom]); room >= 40 {
			if e := cutAt(src, bfrom, bto, room); e > bfrom && e < bto {
				return e
			}
		}
	}
	return best
}

// trailingSentences is the start of the longest run of trailing
// sentences of the block src[bfrom:bto] that a window ending at to can
// take within limit code points; bto when none fits.
func trailingSentences(src []byte, bfrom, bto, to, limit int) int {
	ends := sentenceEnds(src, bfrom, bto)
	starts := append([]int{bfrom}, ends[:len(ends)-1]...)
	best := bto
	for i := len(starts) - 1; i >= 0; i-- {
		st := starts[i]
		for st < bto && (src[st] == ' ' || src[st] == '\n' || src[st] == '\r' || src[st] == '\t') {
			st++
		}
		if st >= bto {
			continue // only the space after the block's last sentence
		}
		if runes(src[st:to]) > limit {
			break
		}
		best = st
	}
	return best
}

// sentenceEnds are the offsets in src[from:to] after each sentence: after
// ". ", "! ", "? " (and their newline forms) or a line break before a
// list marker, and to.
func sentenceEnds(src []byte, from, to int) []int {
	var ends []int
	for i := from; i < to; i++ {
		c := src[i]
		if (c == '.' || c == '!' || c == '?' || c == ';') && i+1 < to && (src[i+1] == ' ' || src[i+1] == '\n' || src[i+1] == '\r') {
			// "e.g. " and "i.e. " do not end a sentence, nor does a list
			// item's number ("1. ") at the start of a line.
			if c == '.' && i >= from+3 && src[i-2] == '.' {
				continue
			}
			if c == '.' && listNumber(src, from, i) {
				continue
			}
			ends = append(ends, i+1)
		}
	}
	if len(ends) == 0 || ends[len(ends)-1] != to {
		ends = append(ends, to)
	}
	return ends
}

// cutFrom is the start of the longest suffix of src[from:to] within
// limit code points that starts after a space; to when there is none of
// at least 40 code points.
func cutFrom(src []byte, from, to, limit int) int {
	if limit < 40 {
		return to
	}
	n, start := 0, to
	for start > from && n < limit {
		_, size := utf8.DecodeLastRune(src[from:start])
		start -= size
		n++
	}
	if start == from {
		return from
	}
	for i := start; i < to; i++ {
		if src[i] == ' ' || src[i] == '\n' {
			if to-(i+1) >= 40 {
				return i + 1
			}
			return to
		}
	}
	return to
}

// listNumber reports that the '.' at i ends a list item's number: only
// digits between it and the start of its line (or of the text).
func listNumber(src []byte, from, i int) bool {
	j := i - 1
	for j >= from && src[j] >= '0' && src[j] <= '9' {
		j--
	}
	if j == i-1 {
		return false
	}
	for j >= from && (src[j] == ' ' || src[j] == '\t') {
		j--
	}
	return j < from || src[j] == '\n'
}

// cutAt is the end of the longest prefix of src[from:to] within limit code
// points that ends at a word boundary (at a rune boundary when the first
// word is longer than that).
func cutAt(src []byte, from, to, limit int) int {
	n, end, lastSpace := 0, from, -1
	for end < to && n < limit {
		r, size := utf8.DecodeRune(src[end:to])
		if unicode.IsSpace(r) {
			lastSpace = end
		}
		end += size
		n++
	}
	if end < to && lastSpace > from {
		return lastSpace
	}
	return end
}
