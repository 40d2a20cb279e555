package adr

import (
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/git-adr/git-adr/internal/lazyre"
)

// metaKey is what a metadata key means, whatever language it is written in.
type metaKey string

const (
	keyStatus  metaKey = "status"
	keyDate    metaKey = "date"
	keyDomain  metaKey = "domain"
	keyTitle   metaKey = "title"
	keyStyle   metaKey = "style"
	keyIter    metaKey = "iteration"
	keyScope   metaKey = "scope"
	keyApplies metaKey = "applies-to"
	keyReview  metaKey = "review-by"
	keyIgnored metaKey = "other"
)

// metaKeys maps lower-case keys to their meaning. Keys that name relations
// are recognised separately (see ParseRelationType).
var metaKeys = map[string]metaKey{
	"status": keyStatus, "state": keyStatus, "statut": keyStatus, "état": keyStatus, "etat": keyStatus,
	"estado": keyStatus, "stato": keyStatus, "zustand": keyStatus, "状态": keyStatus, "状態": keyStatus,
	"상태": keyStatus, "статус": keyStatus, "decision status": keyStatus, "adr status": keyStatus,
	"date": keyDate, "datum": keyDate, "fecha": keyDate, "data": keyDate, "日期": keyDate, "日付": keyDate,
	"날짜": keyDate, "дата": keyDate, "created": keyDate, "decision date": keyDate, "last updated": keyIgnored,
	"initial date": keyDate, "date created": keyDate, "creation date": keyDate, "created on": keyDate,
	"date of submission": keyDate, "submission date": keyDate, "date submitted": keyDate, "date of decision": keyDate,
	"date decided": keyDate, "decided on": keyDate,
	"updated": keyIgnored, "date updated": keyIgnored, "last modified": keyIgnored,
	"domain": keyDomain, "domains": keyDomain, "tags": keyDomain, "tag": keyDomain, "category": keyDomain,
	"categories": keyDomain, "area": keyDomain, "component": keyDomain, "components": keyDomain,
	"title": keyTitle, "style": keyStyle,
	"iteration": keyIter, "sprint": keyIter, "milestone": keyIter, "increment": keyIter,
	"scope": keyScope, "applicability": keyScope,
	"applies to": keyApplies, "applies_to": keyApplies, "applies-to": keyApplies, "affects": keyApplies,
	"governs": keyApplies, "paths": keyApplies,
	"review by": keyReview, "review_by": keyReview, "review-by": keyReview, "revisit by": keyReview,
	"review date": keyReview, "revisit": keyReview, "review": keyReview, "next review": keyReview,
	"deciders": keyIgnored, "decision-makers": keyIgnored, "decision makers": keyIgnored, "author": keyIgnored,
	"authors": keyIgnored, "consulted": keyIgnored, "informed": keyIgnored, "technical story": keyIgnored,
	"owner": keyIgnored, "owners": keyIgnored, "reviewers": keyIgnored, "issue": keyIgnored,
	"parent": keyIgnored, "nav_order": keyIgnored, "layout": keyIgnored, "revision": keyIgnored,
}

// metaKeyOf returns the meaning of a key, and whether it is a key at all
// (known metadata or a relation label).
// reviewDate is the review-by date of a field: any value of the explicit
// keys ("Review by"), but only a date for the bare "Review" and "Next
// review", which some logs use for other things ("Review: approved").
func reviewDate(key, val string) (string, bool) {
	d := normalizeDate(val)
	switch strings.Join(strings.Fields(strings.ToLower(key)), " ") {
	case "review", "next review":
		if _, err := time.Parse("2006-01-02", d); err != nil {
			return "", false
		}
	}
	return d, true
}

func metaKeyOf(k string) (metaKey, RelationType, bool) {
	l := strings.ToLower(strings.TrimSpace(k))
	l = strings.Join(strings.Fields(l), " ")
	if m, ok := metaKeys[l]; ok {
		return m, "", true
	}
	if t := ParseRelationType(l); t.Known() {
		return "", t, true
	}
	if l == "updates" || l == "updated by" || l == "extends" || l == "extended by" || l == "depends on" || l == "clarifies" || l == "clarified by" {
		return "", RelationType(strings.TrimSpace(k)), true
	}
	return "", "", false
}

var dateLayouts = []string{
	"2006-01-02", "2006/01/02", "2006.01.02", "2006-1-2", "2006/1/2",
	"02-01-2006", "02/01/2006", "02.01.2006", "2-1-2006", "2/1/2006", "2.1.2006",
	// Month first only when the day-first reading is no date
	// ("11/23/2021").
	"01-02-2006", "01/02/2006", "1/2/2006", "1-2-2006",
	"January 2, 2006", "January 2 2006", "2 January 2006", "Jan 2, 2006", "Jan 2 2006", "2 Jan 2006",
	"2006-01", "January 2006",
}

var dateInText = lazyre.New(`\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{4}|(?i:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+\d{4})`)

var ordinalSuffix = lazyre.New(`(\d)(st|nd|rd|th)\b`)

// normalizeDate returns an ISO date for text that holds one, or the trimmed
// text itself.
func normalizeDate(raw string) string {
	s := strings.TrimSpace(strings.Trim(raw, "*_`"))
	if isISODate(s) {
		// The usual form: dateInText finds all of it, and the first
		// layout reads it when it is a date.
		if t, err := time.Parse(dateLayouts[0], s); err == nil {
			return t.Format("2006-01-02")
		}
	}
	if !strings.ContainsAny(s, "0123456789") {
		return s // every form of dateInText has digits
	}
	if m := dateInText.FindString(s); m != "" {
		s2 := ordinalSuffix.ReplaceAllString(m, "$1")
		s2 = strings.Join(strings.Fields(s2), " ")
		for _, l := range dateLayouts {
			if t, err := time.Parse(l, s2); err == nil {
				return t.Format("2006-01-02")
			}
			// Month names are matched case-sensitively by time.Parse.
			if t, err := time.Parse(l, titleCase(s2)); err == nil {
				return t.Format("2006-01-02")
			}
		}
	}
	return wholeValueDate(s)
}

// shortYearDate is a whole value written with a two-digit year
// ("10/04/18", "12/02/26", as templates' "dd/mm/yy" asks), and
// dayMonthName one with the month's name between dashes
// ("11-April-2023").
var (
	shortYearDate = lazyre.New(`^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2})$`)
	dayMonthName  = lazyre.New(`^\d{1,2}-[A-Za-z]{3,9}-\d{4}$`)
)

// wholeValueDate reads the date forms that are only a date when they
// are the whole value (two digits of year could be anything in a
// sentence): day first, as for four-digit years, month first when that
// reading is no date; the year in this century.
func wholeValueDate(s string) string {
	if m := shortYearDate.FindStringSubmatch(s); m != nil {
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		y, _ := strconv.Atoi(m[3])
		for _, dm := range [][2]int{{a, b}, {b, a}} {
			t := time.Date(2000+y, time.Month(dm[1]), dm[0], 0, 0, 0, 0, time.UTC)
			if dm[1] >= 1 && dm[1] <= 12 && t.Day() == dm[0] {
				return t.Format("2006-01-02")
			}
		}
	}
	if dayMonthName.MatchString(s) {
		// "11-April-2023" is "11 April 2023", a form dateLayouts reads.
		if d := normalizeDate(strings.ReplaceAll(s, "-", " ")); isISODate(d) {
			return d
		}
	}
	return s
}

// recordDate reads the value of a date field: its date as YYYY-MM-DD, a
// value that is no date as written, and nothing for a template's
// placeholder ("[YYYY-MM-DD when the decision was last updated]",
// "{date}"), which states no date.
func recordDate(val string) string {
	v := strings.TrimSpace(val)
	if strings.Contains(v, "<!--") {
		v = strings.TrimSpace(htmlComment.ReplaceAllString(v, ""))
	}
	if isDatePlaceholder(v) {
		return ""
	}
	return normalizeDate(v)
}

var htmlComment = lazyre.New(`<!--.*?(?:-->|$)`)

// isDatePlaceholder reports a date a template left to fill in: a format
// ("YYYY-MM-DD", "DD/MM/YYYY") or template brackets around words
// ("{date}", "<date>").
func isDatePlaceholder(v string) bool {
	l := strings.ToLower(v)
	if strings.Contains(l, "yyyy") || strings.Contains(l, "dd/mm") || strings.Contains(l, "mm/dd") || strings.Contains(l, "dd-mm") || strings.Contains(l, "dd.mm") {
		return true
	}
	if len(v) < 2 || strings.ContainsAny(v, "0123456789") {
		return false
	}
	switch v[0] {
	case '{':
		return v[len(v)-1] == '}'
	case '[':
		return v[len(v)-1] == ']'
	case '<':
		return v[len(v)-1] == '>'
	}
	return false
}

// colonlessDate reads a date field written without its colon ("- Date
// 2023-09-26", "**Date** 2023-09-28"): a date key, then a date in digits
// and nothing else.
func colonlessDate(line string) (string, bool) {
	i := strings.IndexAny(line, "0123456789")
	if i <= 0 || line[i-1] != ' ' && line[i-1] != '\t' {
		return "", false
	}
	key := strings.TrimSpace(line[:i])
	for _, b := range []string{"- ", "* ", "+ "} {
		key = strings.TrimPrefix(key, b)
	}
	if key = strings.Trim(key, "*_` "); key == "" {
		return "", false
	}
	if m, _, _ := metaKeyOf(key); m != keyDate {
		return "", false
	}
	loc := dateInText.FindStringIndex(line[i:])
	if loc == nil || loc[0] != 0 {
		return "", false
	}
	if rest := strings.Trim(strings.TrimSpace(htmlComment.ReplaceAllString(line[i+loc[1]:], "")), "*_`"); rest != "" {
		return "", false
	}
	d := normalizeDate(line[i : i+loc[1]])
	return d, isISODate(d)
}

// isISODate reports whether s is four digits, '-', two digits, '-', two
// digits.
func isISODate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if i != 4 && i != 7 && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}

func titleCase(s string) string {
	w := strings.Fields(strings.ToLower(s))
	for i, x := range w {
		if x != "" && x[0] >= 'a' && x[0] <= 'z' {
			w[i] = strings.ToUpper(x[:1]) + x[1:]
		}
	}
	return strings.Join(w, " ")
}

// splitList splits "a, b; c" or a YAML flow list "[a, b]" into items.
func splitList(v string) []string {
	v = strings.TrimSpace(v)
	v = strings.TrimSuffix(strings.TrimPrefix(v, "["), "]")
	var out []string
	for _, p := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' }) {
		p = strings.Trim(strings.TrimSpace(p), `"'`)
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// appliesTo reads an "Applies to:" value: path globs ("payments/**,
// cmd/*.go") are the record's code scope; a plain word ("system") is its
// applicability, as "Scope:" says it.
func (p *parser) appliesTo(val string, items []string) {
	if len(items) == 0 {
		items = splitList(val)
	}
	var globs []string
	for _, it := range items {
		it = strings.Trim(strings.TrimSpace(it), "`\"'")
		if it == "" {
			continue
		}
		globs = append(globs, strings.Fields(it)...)
	}
	pathy := false
	for _, g := range globs {
		if strings.ContainsAny(g, "/*?[.{") {
			pathy = true
		}
	}
	if !pathy {
		if p.rec.Scope == "" {
			p.rec.Scope = strings.ToLower(strings.Join(globs, " "))
		}
		return
	}
	p.rec.AppliesTo = append(p.rec.AppliesTo, globs...)
}

// Today is ADR_DATE (honoured as adr-tools does, for reproducible records)
// or the local date, as records write dates.
func Today() string {
	if d := os.Getenv("ADR_DATE"); d != "" {
		return d
	}
	return time.Now().Format("2006-01-02")
}
