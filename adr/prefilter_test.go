package adr

import (
	"strings"
	"testing"
	"time"
)

// The parser's prefilters (a byte test before a regular expression) must
// not change what it reads: each function is compared with its form
// before the prefilter.

func referenceNormalizeDate(raw string) string {
	s := strings.TrimSpace(strings.Trim(raw, "*_`"))
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
func referenceHeadingKey(s string) string {
	// Emphasis, colons and decoration (emoji) around the words, at the
	// start and after a section number: "## ⚡ Status", "2. ✅ Status".
	undecorated := func(s string) string { return strings.Trim(trimDecoration(strings.Trim(s, "*_`: ")), "*_`: ") }
	s = undecorated(strings.ToLower(strings.TrimSpace(s)))
	if n := sectionNumberLen(s); n > 0 && n < len(s) {
		s = undecorated(s[n:])
	} else if m := titleNum.FindStringIndex(s); m != nil && m[1] < len(s) {
		s = undecorated(s[m[1]:])
	}
	return strings.Join(strings.Fields(s), " ")
}
func referenceSplitMetaLine(s string) (key string, vstart, vend int, ok bool) {
	m := metaLine.FindStringSubmatchIndex(s)
	if m == nil {
		return "", 0, 0, false
	}
	key = s[m[2]:m[3]]
	vstart = m[1]
	vend = len(strings.TrimRight(s, " \t"))
	if vend < vstart {
		vend = vstart
	}
	// "**Status:** Accepted" leaves the closing "**" before the value when
	// the colon sits inside the emphasis; strip symmetrical decoration.
	v := s[vstart:vend]
	for _, d := range []string{"**", "__"} {
		if strings.HasPrefix(v, d) && strings.HasSuffix(v, d) && len(v) > 2*len(d) {
			vstart += len(d)
			vend -= len(d)
			v = s[vstart:vend]
		} else if strings.HasSuffix(v, d) && len(v) > len(d) && strings.Contains(s[:vstart], d) {
			// "Status: **Accepted**" (the pattern took the opening "**")
			// or "**Status: Accepted**": the closing "**" is decoration
			// too, or an edit of the value would break the emphasis.
			vend -= len(d)
			v = s[vstart:vend]
		}
	}
	return key, vstart, vend, true
}

func FuzzPrefiltersAgree(f *testing.F) {
	for _, s := range []string{
		"2017-05-29", "2017-13-45", "**2021-01-02**", "Date: 2020-1-2", "12th March 2021", "march 3, 2020", "none",
		"1. Context", "[12] Status", "8.1 Statut", "**Status:** Accepted", "- Status: Accepted", "Statut：Accepté",
		"Deciders: a, b", "no colon here", "__Date__: 2020-01-01", "1999-99-99", "０１-２３",
		"⚡ Status", "2. ✅ Status", "🔨 Decisão 🔨", "**⚡ Status**",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := normalizeDate(s), referenceNormalizeDate(s); got != want {
			t.Fatalf("normalizeDate(%q) = %q, want %q", s, got, want)
		}
		if got, want := headingKey(s), referenceHeadingKey(s); got != want {
			t.Fatalf("headingKey(%q) = %q, want %q", s, got, want)
		}
		k, a, b, ok := splitMetaLine(s)
		rk, ra, rb, rok := referenceSplitMetaLine(s)
		if k != rk || a != ra || b != rb || ok != rok {
			t.Fatalf("splitMetaLine(%q) = %q %d %d %v, want %q %d %d %v", s, k, a, b, ok, rk, ra, rb, rok)
		}
	})
}
