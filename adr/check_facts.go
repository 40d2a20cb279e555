package adr

import (
	"bytes"
	"strings"
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
	if !containsAny(t.Src, supersedeWords) {
		return nil
	}
	var out []proseClaim
	for i, l := range t.Lines {
		if l.Kind != LineText {
			continue
		}
		// Matched in place: a line is copied out only when it says so.
		src := t.Src[l.Start:l.End]
		if !holdsBy(src) {
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
