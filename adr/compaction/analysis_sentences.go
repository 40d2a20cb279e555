package compaction

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/lazyre"
)

// sentencesOf splits lines from..to (1-based, inclusive) of t into
// sentences. Paragraphs are the text lines between blank lines,
// headings, code and comments; a list item or a quoted line starts a
// paragraph of its own; table rows are left out (a table of options
// is no sentence).
func sentencesOf(t *adr.Text, from, to int) []sentence {
	var out []sentence
	type seg struct {
		line, at int
	}
	var para strings.Builder
	var segs []seg
	flush := func() {
		if para.Len() > 0 {
			out = append(out, splitSentences(para.String(), func(at int) int {
				line := segs[0].line
				for _, s := range segs {
					if s.at > at {
						break
					}
					line = s.line
				}
				return line
			})...)
		}
		para.Reset()
		segs = segs[:0]
	}
	for i := max(from, 1) - 1; i < min(to, len(t.Lines)); i++ {
		if t.Lines[i].Kind != adr.LineText {
			flush()
			continue
		}
		s := strings.TrimSpace(t.LineText(i))
		if s == "" || strings.HasPrefix(s, "|") {
			flush()
			continue
		}
		if n := listMarker(s); n > 0 {
			flush()
			s = strings.TrimSpace(s[n:])
		}
		s = strings.TrimSpace(s[boldLabel(s):])
		if para.Len() > 0 {
			para.WriteByte(' ')
		}
		segs = append(segs, seg{line: i + 1, at: para.Len()})
		para.WriteString(s)
	}
	flush()
	return out
}

// listMarker is the length of the quote marks and list marker ("> ",
// "- ", "12. ") a line starts with, 0 when none.
func listMarker(s string) int {
	i := 0
	for i < len(s) && s[i] == '>' {
		i++
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	j := i
	switch {
	case j < len(s) && (s[j] == '-' || s[j] == '*' || s[j] == '+'):
		j++
	default:
		for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i || j >= len(s) || s[j] != '.' && s[j] != ')' {
			return i
		}
		j++
	}
	if j >= len(s) || s[j] != ' ' && s[j] != '\t' {
		return i // "-foo", "3.5": no marker
	}
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	return j
}

// boldLabel is the length of a bold label a line starts with
// ("**Decision:** ...", as single-file logs label their sections), 0 when
// none.
func boldLabel(s string) int {
	if !strings.HasPrefix(s, "**") {
		return 0
	}
	end := strings.Index(s[2:], ":**")
	if end < 0 || end > 40 || strings.Contains(s[2:2+end], "**") {
		return 0
	}
	return 2 + end + 3
}

// splitSentences splits a paragraph after '.', '!' or '?' followed by a
// space and a capital, digit or quote ("e.g. this" stays one sentence);
// lineAt gives the line of a byte offset.
func splitSentences(p string, lineAt func(int) int) []sentence {
	var out []sentence
	start := 0
	emit := func(end int) {
		s := strings.TrimSpace(p[start:end])
		if strings.Contains(s, "  ") || strings.ContainsAny(s, "\t\u00a0") {
			s = strings.Join(strings.Fields(s), " ")
		}
		if s != "" {
			out = append(out, sentence{line: lineAt(start), text: s})
		}
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		if j >= len(p) || p[j] != ' ' {
			continue
		}
		for j < len(p) && p[j] == ' ' {
			j++
		}
		next, _ := utf8.DecodeRuneInString(p[j:])
		if unicode.IsUpper(next) || unicode.IsDigit(next) || strings.ContainsRune("\"'`*[(", next) {
			emit(i + 1)
			start = j
		}
	}
	emit(len(p))
	return out
}

// commonCapitals are capitalised words that name nothing a decision
// chooses.
var commonCapitals = map[string]bool{}

func init() {
	for _, w := range strings.Fields("I We Our Us You They It Its He She The This That These Those A An In On For With As At By If " +
		"When Where While Each Every All Any No Not Yes Also But And Or So To Of From Then Than Thus Therefore However " +
		"ADR ADRs Status Context Decision Decisions Consequences Accepted Proposed Superseded Deprecated Rejected " +
		"Option Options Pros Cons Note Notes TODO OK Good Bad Positive Negative Neutral Alternatives Rationale Summary " +
		// The verbs an option's name starts with ("Use X", "Adopt X").
		"Use Using Adopt Keep Add Remove Create Do Make Switch Move Migrate Replace Introduce Implement Support Allow " +
		"Provide Choose Chosen Go Stay Drop Build Run Store Write " +
		"January February March April May June July August September October November December " +
		"Monday Tuesday Wednesday Thursday Friday Saturday Sunday") {
		commonCapitals[w] = true
	}
}

// recordRef is a reference like ADR-0012 or JIRA-123, not a name.
var recordRef = lazyre.New(`^[A-Za-z]{2,6}-\d+$`)

// nameVocabulary are the capitalised words a record writes in the middle
// of a sentence: names, which count at the start of a sentence too.
func nameVocabulary(ss []sentence) map[string]bool {
	v := map[string]bool{}
	for _, s := range ss {
		forEachToken(s.text, func(w string, _ int, initial, code bool) {
			if !initial && !code && isCapitalName(w) {
				v[w] = true
			}
		})
	}
	return v
}

// namesIn are the named things of a sentence: code spans, words with a
// capital inside ("PostgreSQL", "gRPC") or letters and digits ("S3"),
// and capitalised words that do not start the sentence (or that vocab
// knows as names), but not common words or record references.
func namesIn(s string, vocab map[string]bool) []name {
	var out []name
	end := -1 // where the last name ended
	forEachToken(s, func(w string, at int, initial, code bool) {
		switch {
		case code:
		case recordRef.MatchString(w):
			return
		case commonCapitals[w]:
			return
		case innerCapital(w):
		case isCapitalName(w) && (!initial || vocab[w]):
		default:
			return
		}
		// Names written one after the other are one name: "Error
		// Prone", "Data Plane Selector".
		if n := len(out); n > 0 && !code && !out[n-1].code && at == end+1 && s[end] == ' ' {
			out[n-1].text += " " + w
		} else {
			out = append(out, name{w, code})
		}
		end = at + len(w)
	})
	return out
}

// name is a named thing of a sentence; code when written as a code span
// (a component or a field more often than a technology).
type name struct {
	text string
	code bool
}

// forEachToken calls fn for every word of s (letters and digits, joined
// by '.', '-', '_', '+' or '#' inside a word, "C++" and "C#" whole) and
// every code span (`...`, up to 40 bytes), with its offset in s, saying
// whether the word starts the sentence. Link targets ("](...)") are
// skipped.
func forEachToken(s string, fn func(w string, at int, initial, code bool)) {
	initial := true
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '`':
			end := strings.IndexByte(s[i+1:], '`')
			if end < 0 {
				i++
				continue
			}
			if span := strings.TrimSpace(s[i+1 : i+1+end]); span != "" && len(span) <= 40 {
				fn(span, i+1, initial, true)
			}
			initial = false
			i += end + 2
			continue
		case c == ']' && i+1 < len(s) && s[i+1] == '(':
			end := strings.IndexByte(s[i:], ')')
			if end < 0 {
				end = len(s) - i - 1
			}
			i += end + 1
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			i += size
			continue
		}
		j := i
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				j += n
				continue
			}
			if strings.ContainsRune(".-_", r) && j+1 < len(s) {
				if r2, _ := utf8.DecodeRuneInString(s[j+1:]); unicode.IsLetter(r2) || unicode.IsDigit(r2) {
					j += n
					continue
				}
			}
			if r == '+' || r == '#' {
				for j < len(s) && (s[j] == '+' || s[j] == '#') {
					j++
				}
			}
			break
		}
		w := strings.TrimSuffix(strings.TrimSuffix(s[i:j], "'s"), "’s")
		fn(w, i, initial, false)
		initial = false
		i = j
	}
}

// isCapitalName reports a word that starts with a capital and holds at
// least two letters or digits.
func isCapitalName(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) && utf8.RuneCountInString(w) >= 2
}

// innerCapital reports a word with a capital after its first letter, or
// with both letters and digits: "PostgreSQL", "gRPC", "S3", "OAuth2".
func innerCapital(w string) bool {
	letters, digits := false, false
	for k, r := range w {
		switch {
		case unicode.IsUpper(r) && k > 0:
			return true
		case unicode.IsLetter(r):
			letters = true
		case unicode.IsDigit(r):
			digits = true
		}
	}
	return letters && digits && utf8.RuneCountInString(w) >= 2
}
