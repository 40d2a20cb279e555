package retrieve

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A log defines its own abbreviations: "Software Bill of Materials
// (SBOM)", "OPA (Open Policy Agent)". A request that says one form should
// find the record that says the other, whichever record defined it. The
// pairs are learnt from the documents themselves, when they are analysed
// (so they are cached with every other term), by the rule Schwartz and
// Hearst gave for finding abbreviation definitions in text (A simple
// algorithm for identifying abbreviation definitions in biomedical text,
// PSB 2003): the short form's letters, read backwards, must each be found
// in the long form in order, its first letter at the start of a word of
// the long form, and the long form has at most min(|short|+5, 2|short|)
// words.

// glossaryMark starts a term that records an abbreviation pair rather
// than a word: glossaryMark, the short form's term, glossarySep, the long
// form's terms separated by spaces. No word analyses to it, so no request
// matches it; it rides in a document's terms (with a frequency of zero,
// so it scores nothing) and in the index built from them.
const (
	glossaryMark = "\x01"
	glossarySep  = "\x02"
)

// An Abbreviation is a short form and the terms of its long form.
type Abbreviation struct {
	Short string
	Long  []string
}

// Abbreviations finds the abbreviations text defines, as analysed terms:
// "Open Policy Agent (OPA)" gives {opa, [open polici agent]}, as does
// "OPA (Open Policy Agent)".
func Abbreviations(text string, lang Language) []Abbreviation {
	var out []Abbreviation
	seen := map[string]bool{}
	add := func(short, long string) {
		a := Analyzer{Lang: lang}
		st := a.TermTexts(strings.ToLower(short))
		lt := a.TermTexts(long)
		if len(st) != 1 || len(lt) < 2 || len(st[0]) < 2 {
			return
		}
		for _, t := range lt {
			if t == st[0] {
				return
			}
		}
		k := st[0] + glossarySep + strings.Join(lt, " ")
		if !seen[k] {
			seen[k] = true
			out = append(out, Abbreviation{Short: st[0], Long: lt})
		}
	}
	for i := 0; i < len(text); i++ {
		// The next "(", found by IndexByte rather than byte by byte:
		// most of a text holds none.
		j := strings.IndexByte(text[i:], '(')
		if j < 0 {
			break
		}
		i += j
		// A ")" past 120 bytes closes no definition: the search stops
		// there.
		end := strings.IndexByte(text[i:min(len(text), i+121)], ')')
		if end < 0 {
			continue
		}
		inside := strings.TrimSpace(text[i+1 : i+end])
		before := text[max(0, i-200):i]
		// "Long Form (SHORT)".
		if isShortForm(inside) {
			if long := longFormBefore(before, inside); long != "" {
				add(inside, long)
			}
			continue
		}
		// "SHORT (Long Form)".
		words := strings.Fields(strings.TrimRight(before, " "))
		if len(words) == 0 {
			continue
		}
		short := strings.Trim(words[len(words)-1], "*_`'\"")
		if !isShortForm(short) {
			continue
		}
		if long := matchLongForm(short, strings.Fields(inside)); long != "" {
			add(short, long)
		}
	}
	return out
}

// isShortForm reports a candidate abbreviation: 2 to 10 letters and
// digits, starting with a letter, with at least two capitals and no more
// lower-case letters than capitals ("SBOM", "MaaS", "IaC", "K8s").
func isShortForm(s string) bool {
	n := utf8.RuneCountInString(s)
	if n < 2 || n > 10 {
		return false
	}
	upper, lower := 0, 0
	for i, r := range s {
		switch {
		case i == 0 && !unicode.IsLetter(r):
			return false
		case unicode.IsUpper(r):
			upper++
		case unicode.IsLower(r):
			lower++
		case unicode.IsDigit(r):
		default:
			return false
		}
	}
	return upper >= 2 && lower <= upper
}

// longFormBefore is the long form short abbreviates at the end of text,
// or "".
func longFormBefore(text, short string) string {
	words := strings.Fields(text)
	n := min(utf8.RuneCountInString(short)+5, 2*utf8.RuneCountInString(short))
	if len(words) > n {
		words = words[len(words)-n:]
	}
	return matchLongForm(short, words)
}

// matchLongForm is the shortest run of words, ending with the last of
// words, whose letters hold short's letters in order (Schwartz and
// Hearst), its first letter starting a word; "" when none does.
func matchLongForm(short string, words []string) string {
	if len(words) == 0 {
		return ""
	}
	long := strings.ToLower(strings.Join(words, " "))
	s := []rune(strings.ToLower(short))
	l := []rune(long)
	si, li := len(s)-1, len(l)-1
	for si >= 0 {
		c := s[si]
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			si--
			continue
		}
		for li >= 0 && (l[li] != c || si == 0 && li > 0 && (unicode.IsLetter(l[li-1]) || unicode.IsDigit(l[li-1]))) {
			li--
		}
		if li < 0 {
			return ""
		}
		li--
		si--
	}
	start := li + 1
	// The long form starts at the word that holds its first letter.
	for start > 0 && l[start-1] != ' ' {
		start--
	}
	out := strings.TrimSpace(string(l[start:]))
	if strings.Count(out, " ")+1 < 2 || strings.ContainsAny(out, "()") {
		return ""
	}
	return out
}

// glossaryTerms are the terms that record abbreviations in a document.
func glossaryTerms(abbrs []Abbreviation) []string {
	out := make([]string, len(abbrs))
	for i, a := range abbrs {
		out[i] = glossaryMark + a.Short + glossarySep + strings.Join(a.Long, " ")
	}
	return out
}

// WithGlossary adds the abbreviations abbrs to the document's terms, at a
// frequency of zero: they score nothing, and the index built from the
// document knows them (Index.Glossary).
func WithGlossary(dt DocTerms, abbrs []Abbreviation) DocTerms {
	if len(abbrs) == 0 {
		return dt
	}
	terms := append(dt.Terms[:len(dt.Terms):len(dt.Terms)], glossaryTerms(abbrs)...)
	tf := append(dt.TF[:len(dt.TF):len(dt.TF)], make([]float32, len(abbrs))...)
	return DocTerms{Terms: terms, TF: tf, Len: dt.Len}
}

// Glossary is every abbreviation the indexed documents define.
func (ix *Index) Glossary() []Abbreviation {
	var out []Abbreviation
	ix.termsWithPrefix(glossaryMark, func(t string) {
		short, long, ok := strings.Cut(t[len(glossaryMark):], glossarySep)
		if ok && short != "" && long != "" {
			out = append(out, Abbreviation{Short: short, Long: strings.Split(long, " ")})
		}
	})
	return out
}

// ExpandGlossary adds to q, for each abbreviation of the glossary whose
// short form is a word of the request, its long form's terms (at
// ExpansionWeight, in that word's group), and for each whose long form
// the request says word for word, its short form (at AlternateWeight, in the
// group of the long form's first word). text is the request.
func ExpandGlossary(q []QueryTerm, text string, lang Language, glossary []Abbreviation) []QueryTerm {
	if len(glossary) == 0 {
		return q
	}
	have := map[string]int{}
	for _, t := range q {
		if t.Weight >= 1 {
			if _, ok := have[t.Text]; !ok {
				have[t.Text] = t.Group
			}
		}
	}
	seen := map[string]bool{}
	for _, t := range q {
		seen[t.Text] = true
	}
	folded := " " + strings.Join(Analyzer{Lang: lang}.TermTexts(text), " ") + " "
	out := q
	for _, a := range glossary {
		if g, ok := have[a.Short]; ok {
			for _, w := range a.Long {
				if !seen[w] {
					seen[w] = true
					out = append(out, QueryTerm{Text: w, Weight: ExpansionWeight, Group: g})
				}
			}
			continue
		}
		if !seen[a.Short] && strings.Contains(folded, " "+strings.Join(a.Long, " ")+" ") {
			g, ok := have[a.Long[0]]
			if !ok {
				g = -1
			}
			seen[a.Short] = true
			out = append(out, QueryTerm{Text: a.Short, Weight: AlternateWeight, Group: g})
		}
	}
	return out
}
