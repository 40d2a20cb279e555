package adr

import (
	"bytes"
	"sort"
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
// same rules `git adr check` reads links by: text, heading and front
// matter lines (MADR writes "status: superseded by [ADR-0005](0005-x.md)"
// there), never code blocks or HTML comments, nothing inside an inline
// code span, and nothing inside a comment within a paragraph (a
// template's example, "<!-- Refined by [x](yyyymmdd-x.md) -->").
func (t *Text) Links() []Link {
	out := t.lineLinks()
	if comments := inlineComments(t); len(comments) > 0 {
		kept := out[:0]
		for _, l := range out {
			if !comments.holds(l.Start) {
				kept = append(kept, l)
			}
		}
		out = kept
	}
	return out
}

// lineLinks is Links before inline comments are taken out.
func (t *Text) lineLinks() []Link {
	var out []Link
	for i, ln := range t.Lines {
		if ln.Kind != LineText && ln.Kind != LineHeading && ln.Kind != LineFrontMatter {
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

// spans are byte ranges [start, end) of a text's source, in order.
type spans [][2]int

func (s spans) holds(off int) bool {
	// The spans are in offset order and do not overlap: the last one
	// starting at or before off is the only one that can hold it.
	k := sort.Search(len(s), func(k int) bool { return s[k][0] > off }) - 1
	return k >= 0 && off < s[k][1]
}

// inlineComments finds the HTML comments the parser leaves inside
// paragraphs: a line that starts with "<!--" is a comment line already
// (its links are never read), but "- [x](y) <!-- example: [z](w.md) -->"
// is a text line, and a comment opened there may close lines further on.
// As in CommonMark, a comment lies within one paragraph (a run of text
// lines) and needs its "-->": an opener never closed is plain text. Code
// spans hide both markers.
func inlineComments(t *Text) spans {
	if t == nil || !bytes.Contains(t.Src, []byte("<!--")) {
		return nil
	}
	var out spans
	for i := 0; i < len(t.Lines); {
		if k := t.Lines[i].Kind; k != LineText && k != LineHeading {
			i++
			continue
		}
		// A paragraph: this line and the text lines after it (a heading
		// stands alone).
		j := i + 1
		for t.Lines[i].Kind == LineText && j < len(t.Lines) && t.Lines[j].Kind == LineText {
			j++
		}
		start := t.Lines[i].Start
		if !bytes.Contains(t.Src[start:t.Lines[j-1].End], []byte("<!--")) {
			i = j // no comment in this paragraph: nothing to copy
			continue
		}
		par := bytes.Clone(t.Src[start:t.Lines[j-1].End])
		// Code spans, line by line as Links reads them, are blanked
		// out: offsets stay those of Src.
		for k := i; k < j; k++ {
			ln := t.Lines[k]
			for _, m := range inlineCode.FindAllStringIndex(t.LineText(k), -1) {
				copy(par[ln.Start-start+m[0]:ln.Start-start+m[1]], bytes.Repeat([]byte(" "), m[1]-m[0]))
			}
		}
		for off := 0; ; {
			o := bytes.Index(par[off:], []byte("<!--"))
			if o < 0 {
				break
			}
			o += off
			c := bytes.Index(par[o+4:], []byte("-->"))
			if c < 0 {
				break
			}
			end := o + 4 + c + 3
			out = append(out, [2]int{start + o, start + end})
			off = end
		}
		i = j
	}
	return out
}
