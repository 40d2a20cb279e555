package adr

import (
	"bytes"
	"strings"
)

// Link is a link destination written in a Markdown text: an inline link
// or image ("[x](dest)", "[x](<dest> "title")") or a link reference
// definition ("[x]: dest").
type Link struct {
	// Line is the 0-based line; Start and End are the byte offsets of the
	// destination in Text.Src (angle brackets and title excluded).
	Line       int
	Start, End int
	Dest       string
}

// Links returns every link destination of the text in order, with the
// same rules `git adr check` reads links by: text and heading lines only
// (never code blocks, HTML comments or front matter), and nothing inside
// an inline code span.
func (t *Text) Links() []Link {
	var out []Link
	for i, ln := range t.Lines {
		if ln.Kind != LineText && ln.Kind != LineHeading {
			continue
		}
		// Most lines hold no link: look before copying the line.
		if b := t.Src[ln.Start:ln.End]; !bytes.Contains(b, []byte("](")) && !bytes.Contains(b, []byte("]:")) {
			continue
		}
		s := t.LineText(i)
		// Code spans keep their length, so offsets stay those of the line.
		s = inlineCode.ReplaceAllStringFunc(s, func(m string) string { return strings.Repeat(" ", len(m)) })
		first := len(out)
		for _, m := range mdLink.FindAllStringSubmatchIndex(s, -1) {
			out = append(out, Link{Line: i, Start: ln.Start + m[4], End: ln.Start + m[5], Dest: s[m[4]:m[5]]})
		}
		if m := refDefinition.FindStringSubmatchIndex(s); m != nil && !linkAt(out[first:], ln.Start+m[2]) {
			out = append(out, Link{Line: i, Start: ln.Start + m[2], End: ln.Start + m[3], Dest: s[m[2]:m[3]]})
		}
	}
	return out
}

func linkAt(ls []Link, start int) bool {
	for _, l := range ls {
		if l.Start == start {
			return true
		}
	}
	return false
}
