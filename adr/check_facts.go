package adr

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// textFacts are what check reads from a record's text: found when the
// record is parsed and kept with it in the parse cache, so that a check
// of a long log the cache serves reads no record's file (the texts it
// read were most of what check allocated; a finding's fix still reads
// the lines it quotes).
type textFacts struct {
	// links are the text's Markdown links (Text.Links): line, 0-based,
	// and destination.
	links []factLink
	// prose are the lines that say another record supersedes this one.
	prose []proseClaim
	// frontMatter: the text starts with front matter.
	frontMatter bool
	// nul: the text holds a NUL byte (Unparseable).
	nul bool
}

type factLink struct {
	line int
	dest string
}

// proseClaim is a line saying another record supersedes the record: the
// line (0-based), what it says, and what it names, in the order check
// tries them (the links within the sentence, then the IDs it names).
type proseClaim struct {
	line    int
	said    string
	targets []string
}

// factsOf finds the facts of t (nil: none).
func factsOf(t *Text) *textFacts {
	f := &textFacts{}
	if t == nil {
		return f
	}
	links := t.Links()
	for _, l := range links {
		f.links = append(f.links, factLink{line: l.Line, dest: l.Dest})
	}
	f.prose = proseClaims(t, links)
	f.frontMatter = len(t.Lines) > 0 && t.Lines[0].Kind == LineFrontMatter
	f.nul = bytes.IndexByte(t.Src, 0) >= 0
	return f
}

// facts are the record's text facts: those it was parsed or served with
// (decoded now from the parse cache's entry), else found in its text.
func (r *Record) facts() *textFacts {
	if r.tfacts == nil && r.factsEnc != "" {
		r.tfacts, _ = decodeFacts(r.factsEnc)
	}
	if r.tfacts == nil {
		r.tfacts = factsOf(r.Text())
	}
	return r.tfacts
}

// proseClaims are the lines of t that say another record supersedes its
// record ("Superseded by ADR-0019", "This decision was replaced by [4.
// Use Kafka](0004-use-kafka.md)."), links being t's links.
func proseClaims(t *Text, links []Link) []proseClaim {
	if !holdsSupersedeWord(t.Src) {
		return nil
	}
	var out []proseClaim
	for i, l := range t.Lines {
		if l.Kind != LineText {
			continue
		}
		// Matched in place: a line is copied out only when it says so.
		src := t.Src[l.Start:l.End]
		if !holdsBy(src) || !mayClaim(src) {
			continue
		}
		m := supersededPhrase.Re().FindIndex(src)
		if m == nil {
			continue
		}
		line := t.LineText(i)
		// The rest of the sentence names the successor; a link's text
		// ("[4. Use Kafka](0004-use-kafka.md)") does not end it.
		rest := line[m[1]:]
		if end := sentenceEnd(rest); end >= 0 {
			rest = rest[:end]
		}
		if partialPhrase.MatchString(line[:m[1]]+rest) || !recordSubject.MatchString(sentenceLead(line[:m[0]])) {
			continue
		}
		c := proseClaim{line: i, said: strings.TrimSpace(line)}
		from := l.Start + m[1]
		for _, k := range links {
			if k.Line == i && k.Start >= from && k.Start <= from+len(rest) {
				c.targets = append(c.targets, k.Dest)
			}
		}
		c.targets = append(c.targets, proseID.FindAllString(rest, -1)...)
		out = append(out, c)
	}
	return out
}

// holdsSupersedeWord reports whether src holds one of supersedeWords,
// as containsAny(src, supersedeWords) does, in four passes instead of
// eight, each skipping to a letter rarer than most of the words' first:
// "upersed", "uperced" and "eplaced" are a "p" with "u" or "e" before it
// (their capitals a "P"), then "bsoleted" and "BSOLETED".
func holdsSupersedeWord(src []byte) bool {
	return holdsAroundP(src, 'p', 'u', 'e', "ersed", "erced", "laced") ||
		holdsAroundP(src, 'P', 'U', 'E', "ERSED", "ERCED", "LACED") ||
		bytes.Contains(src, []byte("bsoleted")) || bytes.Contains(src, []byte("BSOLETED"))
}

// holdsAroundP reports whether src holds p with u before it and sed or
// ced after it, or with e before it and laced after it.
func holdsAroundP(src []byte, p, u, e byte, sed, ced, laced string) bool {
	for i := 1; i < len(src); i++ {
		j := bytes.IndexByte(src[i:], p)
		if j < 0 {
			return false
		}
		i += j
		rest := src[i+1:]
		switch src[i-1] {
		case u:
			if startsWith(rest, sed) || startsWith(rest, ced) {
				return true
			}
		case e:
			if startsWith(rest, laced) {
				return true
			}
		}
	}
	return false
}

// startsWith reports whether b starts with w.
func startsWith(b []byte, w string) bool { return len(b) >= len(w) && string(b[:len(w)]) == w }

// mayClaim reports whether line may hold supersededPhrase: one of its
// words in ASCII letters of any case, or a letter outside ASCII, which
// the phrase's (?i) may fold into one ("ſ" for "s"). Every parse asks
// it of the lines holding "by", so most are refused without the regular
// expression.
func mayClaim(line []byte) bool {
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c >= utf8.RuneSelf {
			return true
		}
		switch c | 0x20 {
		case 's', 'r', 'o':
			if hasFoldPrefix(line[i:], "super") || hasFoldPrefix(line[i:], "replaced") || hasFoldPrefix(line[i:], "obsoleted") {
				return true
			}
		}
	}
	return false
}

// hasFoldPrefix reports whether b starts with the lower-case ASCII word w
// in any case.
func hasFoldPrefix(b []byte, w string) bool {
	if len(b) < len(w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if b[i]|0x20 != w[i] {
			return false
		}
	}
	return true
}
