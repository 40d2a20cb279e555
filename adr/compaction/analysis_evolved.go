package compaction

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/lazyre"
	"github.com/git-adr/git-adr/retrieve"
)

// sharedTerms are the six terms the members ms share most: each pair's
// eight largest contributions to its cosine, the largest ranked highest.
func sharedTerms(ms []int, vecs *retrieve.Vectors) []string {
	rank := map[string]int{}
	for x, i := range ms {
		for _, j := range ms[x+1:] {
			for k, t := range vecs.Shared(i, j, 8) {
				rank[t] += 8 - k
			}
		}
	}
	return topTerms(rank, 6)
}

// describeGroup says what the members ms of subs have in common (shared
// are their sharedTerms) and which of them evolved from which (the
// command is consolidateCommand's).
func describeGroup(subs []subject, ms []int, shared []string, sim func(i, j int) (float64, bool)) InferredGroup {
	g := InferredGroup{IDs: []string{}, Records: []GroupRecord{}, SharedTerms: []string{}, TitleWords: []string{}, Evolved: []Evolution{}}
	low := 1.0
	for x, i := range ms {
		for _, j := range ms[x+1:] {
			s, _ := sim(i, j)
			low = min(low, s)
		}
	}
	g.Similarity = math.Round(low*100) / 100
	texts := make([]*memberText, len(ms))
	for k, i := range ms {
		r := subs[i].r
		g.IDs = append(g.IDs, r.ID)
		g.Records = append(g.Records, GroupRecord{ID: r.ID, Path: r.Path, Title: r.Title, Date: r.Date, Status: string(r.Status)})
		texts[k] = readMember(subs[i])
	}
	titles := map[string]int{}
	for _, i := range ms {
		for _, t := range subs[i].title {
			titles[t]++
		}
	}
	for t, n := range titles {
		if n < 2 {
			delete(titles, t)
		}
	}
	titleWords := topTerms(titles, 8)
	words := surfaceWords(texts, append(shared, titleWords...))
	g.SharedTerms, g.TitleWords = wordsOf(shared, words), wordsOf(titleWords, words)
	g.Evolved = evolutions(ms, texts, sim)
	return g
}

// topTerms are the n terms of score with the highest scores (ties by
// term).
func topTerms(score map[string]int, n int) []string {
	ts := make([]string, 0, len(score))
	for t := range score {
		ts = append(ts, t)
	}
	slices.SortFunc(ts, func(x, y string) int {
		if c := cmp.Compare(score[y], score[x]); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	return ts[:min(n, len(ts))]
}

// surfaceWords maps each of the terms (stems) to a word a member writes
// for it, looking through titles, file names and sentences until every
// term has one.
func surfaceWords(ms []*memberText, terms []string) map[string]string {
	out := map[string]string{}
	need := map[string]bool{}
	for _, t := range terms {
		need[t] = true
	}
	look := func(m *memberText, text string) bool {
		for _, term := range (retrieve.Analyzer{Lang: m.lang}).Terms(text) {
			if need[term.Text] {
				delete(need, term.Text)
				out[term.Text] = strings.ToLower(text[term.Start:term.End])
			}
		}
		return len(need) == 0
	}
	for _, m := range ms {
		if look(m, m.r.Title) || look(m, slugWords(m.r.Path)) {
			return out
		}
	}
	// A few sentences of each member: the terms of a group are in most
	// of them, and a large group would read them all for nothing.
	for _, m := range ms {
		for _, s := range m.body[:min(len(m.body), 20)] {
			if look(m, s.text) {
				return out
			}
		}
	}
	return out
}

// wordsOf are the words for terms, each once.
func wordsOf(terms []string, words map[string]string) []string {
	out := []string{}
	for _, t := range terms {
		w := words[t]
		if w == "" {
			w = t
		}
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// consolidateCommand is the command that plans the consolidation of
// records rs, naming each by its ID when that names it alone, else by its
// path; "" and a note when a record cannot be named in --sources, or is a
// section of a single-file log (which a plan refuses to write).
func (a *analyzer) consolidateCommand(rs []*adr.Record) (string, string) {
	var names []string
	for _, r := range rs {
		if r.InLogFile() {
			return "", fmt.Sprintf("%s is a section of the single-file log %s: `git adr compaction --mode consolidate` writes records that are files only; merge the sections by hand", r.ID, r.Path)
		}
		name := ""
		for _, n := range []string{r.ID, r.Path} {
			if n == "" || strings.HasPrefix(n, "-") || strings.ContainsAny(n, ",") {
				continue
			}
			if got, err := a.l.Resolve(n); err == nil && got == r {
				name = n
				break
			}
		}
		if name == "" {
			return "", fmt.Sprintf("%s cannot be named in --sources (its ID and path hold a comma, start with '-' or name other records too): rename its file first", r.Path)
		}
		names = append(names, name)
	}
	return "git adr compaction --mode consolidate --sources " + shellWord(strings.Join(names, ",")), ""
}

// shellWord quotes s for a POSIX shell when it holds anything but
// letters, digits and -_./:=@%+, (a hostile file name stays one word).
func shellWord(s string) string {
	const plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,"
	if s != "" && strings.Trim(s, plain) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// sentence is a sentence of a record: the line it starts on (1-based)
// and its text with white space collapsed.
type sentence struct {
	line int
	text string
}

// memberText is what evolution looks at in a member of a group.
type memberText struct {
	r *adr.Record
	// choice are the sentences of the decision (of the whole body when
	// the record has no decision section); body those of every section
	// but the status.
	choice, body []sentence
	// chosen are the named things (technologies, products, options) of
	// the choice sentences that say what is chosen ("we will use ..."),
	// by lower-case name.
	chosen map[string]name
	// vocab are the capitalised words the record writes mid-sentence.
	vocab map[string]bool
	// names are the names each choice sentence chooses (chosenIn);
	// changes the sentences of the body with a wording of change, and
	// where it is (each sentence is matched once, not once per pair).
	names   [][]name
	changes []change
	// lower is the record's text in lower case, to tell whether it
	// mentions a name at all.
	lower string
	title []string
	lang  retrieve.Language
	date  string
	iso   bool
}

// Bounds of what evolution reads of a record.
const (
	maxChoice = 40
	maxBody   = 200
)

func readMember(s subject) *memberText {
	r := s.r
	m := &memberText{r: r, chosen: map[string]name{}, title: s.title, lang: s.lang, date: r.Date}
	m.iso = isoDate.MatchString(r.Date)
	t := r.PeekText()
	if t == nil {
		return m
	}
	m.lower = strings.ToLower(r.ContentViewIn(t))
	// A change is stated in any section ("Approach: we remove ..."); a
	// choice in the decision, or anywhere when there is none.
	for _, u := range r.Units() {
		if u.Anchor == "status" {
			continue
		}
		ss := sentencesOf(t, u.Start, u.End)
		m.body = append(m.body, ss...)
		if u.Anchor == "decision" {
			m.choice = append(m.choice, ss...)
		}
	}
	if len(r.Units()) == 0 {
		from, to := 1, len(t.Lines)
		if r.InLogFile() {
			from, to = r.LineRange()
		}
		m.body = sentencesOf(t, from, to)
	}
	if len(m.choice) == 0 {
		m.choice = m.body
	}
	m.choice = m.choice[:min(len(m.choice), maxChoice)]
	m.body = m.body[:min(len(m.body), maxBody)]
	m.vocab = nameVocabulary(m.body)
	m.names = make([][]name, len(m.choice))
	for k, s := range m.choice {
		m.names[k] = m.chosenIn(s)
		for _, n := range m.names[k] {
			if _, ok := m.chosen[strings.ToLower(n.text)]; !ok {
				m.chosen[strings.ToLower(n.text)] = n
			}
		}
	}
	for _, s := range m.body {
		for _, at := range changeWords.find(s.text) {
			m.changes = append(m.changes, change{s, at[0], at[1]})
		}
	}
	return m
}

// change is a wording of change, s.text[from:to], in sentence s.
type change struct {
	s        sentence
	from, to int
}

// chooses are the wordings of a sentence that says what is chosen.
var chooses = newPhrases(
	"use|uses|used|using", "adopt|adopts|adopted|adopting", "choose|chooses|chose|chosen",
	"select|selects|selected|selecting", "prefer|prefers|preferred", "go|goes|going|went with",
	"rely|relies|relying on", "standardise|standardize|standardised|standardized|standardising|standardizing on",
	"switch|switches|switched|switching [over] to", "move|moves|moved|moving to", "migrate|migrates|migrated|migrating to",
	"based|built on|with", "implemented with|in|using", "run|runs|running on", "deploy|deploys|deployed|deploying on|to|with",
	"store|stores|stored|storing in", "introduce|introduces|introduced|introducing",
)

// chosenIn are the names sentence s says are chosen: those within a few
// words after a wording of choice ("we will use Redis for sessions"),
// not the other names of the sentence ("... for the MVP").
func (m *memberText) chosenIn(s sentence) []name {
	var out []name
	for _, at := range chooses.find(s.text) {
		out = append(out, namesIn(s.text[at[1]:wordsAfter(s.text, at[1], 4)], m.vocab)...)
	}
	return out
}

// wordsBefore is the offset in s of the n-th word before offset at.
func wordsBefore(s string, at, n int) int {
	fields := 0
	inWord := false
	for i := at; i > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		space := unicode.IsSpace(r)
		if !space && !inWord {
			fields++
		}
		if space && inWord && fields == n {
			return i
		}
		inWord = !space
		i -= size
	}
	return 0
}

// wordsAfter is the offset in s after the n words that follow offset at.
func wordsAfter(s string, at, n int) int {
	fields := 0
	inWord := false
	for i, r := range s[at:] {
		space := unicode.IsSpace(r)
		if !space && !inWord {
			if fields == n {
				return at + i
			}
			fields++
		}
		inWord = !space
	}
	return len(s)
}

var isoDate = lazyre.New(`^\d{4}-\d{2}-\d{2}`)

// evolutions finds, for each later member, the earlier member it appears
// to replace or contradict. Members are in log order; they are compared
// by date when every member has one, else in log (number) order.
func evolutions(ms []int, texts []*memberText, sim func(i, j int) (float64, bool)) []Evolution {
	order := make([]int, len(ms))
	for k := range order {
		order[k] = k
	}
	byDate := true
	for _, m := range texts {
		byDate = byDate && m.iso
	}
	if byDate {
		slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(texts[x].date[:10], texts[y].date[:10]) })
	}
	out := []Evolution{}
	for k := 1; k < len(order); k++ {
		l := texts[order[k]]
		var best *Evolution
		bestRank, bestSim := 0, 0.0
		for _, p := range order[:k] {
			e := texts[p]
			ev, rank := evolved(e, l)
			if ev == nil {
				continue
			}
			s, _ := sim(ms[p], ms[order[k]])
			if rank > bestRank || rank == bestRank && s > bestSim {
				best, bestRank, bestSim = ev, rank, s
			}
		}
		if best != nil {
			out = append(out, *best)
		}
	}
	return out
}

// changeWords are the wordings of a decision that changes or drops an
// earlier one.
var changeWords = newPhrases(
	"instead of", "rather than", "in favour|favor of", "no longer",
	"replace|replaces|replaced|replacing|replacement", "supersede|supersedes|superseded|superseding",
	"move|moves|moved|moving|migrate|migrates|migrated|migrating|switch|switches|switched|switching|transition|transitions|transitioned|transitioning [away] from",
	"switch|switches|switched|switching [over] to", "stop|stops|stopped using", "phase|phases|phased|phasing out",
	"deprecate|deprecates|deprecated|deprecating", "remove|removes|removed|removing|removal",
	"delete|deletes|deleted|deleting", "discontinue|discontinues|discontinued|discontinuing",
	"abandon|abandons|abandoned|abandoning", "revert|reverts|reverted|reverting", "retire|retires|retired|retiring",
)

// evolved reports whether l, later than e, states another choice for the
// concern e decided. Rank 2: a sentence of l with a wording of change
// that names what e chose, e's ID or number, or words of e's title.
// Rank 1, failing that: a sentence of l that chooses something e never
// mentions where a sentence of e on the same concern (a word in common)
// chose something l never mentions. The sentences are the evidence.
func evolved(e, l *memberText) (*Evolution, int) {
	ev := &Evolution{Earlier: e.r.ID, Later: l.r.ID, Signals: []string{}, Evidence: []Quote{}}
	for _, c := range l.changes {
		about, ok := refersTo(changed(c.s.text, c.from, c.to), e, l)
		if !ok {
			continue
		}
		ev.Signals = append(ev.Signals, fmt.Sprintf("%s says %q about %s", l.r.ID, strings.ToLower(c.s.text[c.from:c.to]), about))
		ev.Evidence = append(ev.Evidence, e.quote(e.choiceAbout(about)), l.quote(c.s))
		return ev, 2
	}
	for k, se := range e.choice {
		xs := onlyIn(e.names[k], l)
		if len(xs) == 0 {
			continue
		}
		for k2, sl := range l.choice {
			ys := onlyIn(l.names[k2], e)
			if len(ys) == 0 || !sameConcern(se.text, sl.text, append(xs, ys...), l.lang) {
				continue
			}
			ev.Signals = append(ev.Signals, fmt.Sprintf("%s chooses %s where %s chose %s, on the same concern", l.r.ID, nameList(ys), e.r.ID, nameList(xs)))
			ev.Evidence = append(ev.Evidence, e.quote(se), l.quote(sl))
			return ev, 1
		}
	}
	return nil, 0
}

// changed is the part of sentence s where what a wording of change
// (s[from:to]) changes is written: before a passive one or "in favour
// of" ("Y will be removed", "drop Y in favour of X"), on both sides of
// "no longer", after the others ("X instead of Y", "replace Y with X").
func changed(s string, from, to int) string {
	w := strings.ToLower(s[from:to])
	before := s[wordsBefore(s, from, 12):from]
	after := s[to:wordsAfter(s, to, 12)]
	switch {
	case w == "no longer":
		return before + after
	case strings.HasPrefix(w, "in favo") || passive.MatchString(before):
		return before
	}
	return after
}

var passive = lazyre.New(`(?i)\b(?:be|been|being|is|are|was|were|get|gets|got)\s+(?:\w+ly\s+)?$`)

// refersTo reports whether text s of later record l is about earlier
// record e: it names what e chose (unless l's title names it too: then
// it is their common subject, not e's choice), e's ID or number, or two
// words of e's title (its only word, for a title of one); about says
// which.
func refersTo(s string, e, l *memberText) (string, bool) {
	lower := strings.ToLower(s)
	names := make([]string, 0, len(e.chosen))
	for n := range e.chosen {
		names = append(names, n)
	}
	slices.Sort(names)
	lTitle := strings.ToLower(l.r.Title)
	for _, n := range names {
		if containsWord(lower, n) && !containsWord(lTitle, n) {
			return e.chosen[n].text, true
		}
	}
	if containsWord(lower, strings.ToLower(e.r.ID)) {
		return e.r.ID, true
	}
	if e.r.Numbered {
		for _, m := range adrNumber.FindAllStringSubmatch(s, -1) {
			if k, err := strconv.Atoi(m[1]); err == nil && k == e.r.Number {
				return e.r.ID, true
			}
		}
	}
	// The title's words as s writes them.
	var shared []string
	for _, t := range (retrieve.Analyzer{Lang: e.lang}).Terms(s) {
		w := strings.ToLower(s[t.Start:t.End])
		if slices.Contains(e.title, t.Text) && !slices.Contains(shared, w) {
			shared = append(shared, w)
		}
	}
	if len(e.title) > 0 && len(shared) >= min(2, len(e.title)) {
		return strings.Join(shared, ", "), true
	}
	return "", false
}

var adrNumber = lazyre.New(`(?i)\bADR[\s#-]*0*(\d{1,6})\b`)

// choiceAbout is the decision sentence of m that names about, else its
// first one.
func (m *memberText) choiceAbout(about string) sentence {
	lower := strings.ToLower(about)
	for _, s := range m.choice {
		if containsWord(strings.ToLower(s.text), lower) {
			return s
		}
	}
	if len(m.choice) > 0 {
		return m.choice[0]
	}
	return sentence{}
}

// onlyIn keeps the names that other never mentions, leaving out code
// spans: a component or a field one record names and the other does not
// is no choice between them.
func onlyIn(names []name, other *memberText) []string {
	var out []string
	for _, n := range names {
		if !n.code && !containsWord(other.lower, strings.ToLower(n.text)) && !slices.Contains(out, n.text) {
			out = append(out, n.text)
		}
	}
	return out
}

// sameConcern reports whether two decision sentences speak of the same
// thing: two words other than the names they differ in, analysed, in
// both ("caching", "billing" in "use Redis for caching in billing" and
// "use Kafka for caching in billing").
func sameConcern(x, y string, names []string, lang retrieve.Language) bool {
	an := retrieve.Analyzer{Lang: lang, Query: true}
	skip := map[string]bool{}
	for _, n := range names {
		for _, t := range an.TermTexts(n) {
			skip[t] = true
		}
	}
	xs := an.TermTexts(x)
	shared := 0
	for _, t := range an.TermTexts(y) {
		if !skip[t] && slices.Contains(xs, t) {
			skip[t] = true
			if shared++; shared == 2 {
				return true
			}
		}
	}
	return false
}

func nameList(ns []string) string {
	if len(ns) > 3 {
		ns = append(ns[:3:3], "...")
	}
	return strings.Join(ns, ", ")
}

// quote is sentence s of m as evidence, clipped to 240 characters.
func (m *memberText) quote(s sentence) Quote {
	text := s.text
	if utf8.RuneCountInString(text) > 240 {
		text = string([]rune(text)[:239]) + "…"
	}
	return Quote{ID: m.r.ID, Path: m.r.Path, Line: s.line, Text: text}
}

// containsWord reports whether lower-case text holds w as a whole word.
func containsWord(text, w string) bool {
	if w == "" {
		return false
	}
	for i := 0; ; {
		k := strings.Index(text[i:], w)
		if k < 0 {
			return false
		}
		k += i
		before, _ := utf8.DecodeLastRuneInString(text[:k])
		after, _ := utf8.DecodeRuneInString(text[k+len(w):])
		if !isWordRune(before) && !isWordRune(after) {
			return true
		}
		i = k + 1
	}
}

func isWordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
}
