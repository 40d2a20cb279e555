package adr

import (
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/git-adr/git-adr/internal/lazyre"
)

// A single-file log is one Markdown file holding many decisions as
// sections ("docs/DECISIONS.md": "## ADR-001: Title", "## ADR-0002 —
// Title", ...). Each section is a record whose Text is the whole file with
// every line outside the section masked (classified LineComment), so the
// parser reads the section alone while line numbers and byte offsets stay
// those of the file. git-adr reads such logs; it does not write them
// (see [SectionError]).

// logFileStems are the file names (without extension, any case) that say
// a file is a decision log.
var logFileStems = map[string]bool{
	"decisions": true, "decision-log": true, "decision_log": true, "decisionlog": true,
	"adr": true, "adrs": true, "architecture-decisions": true, "architecture_decisions": true,
	"architecture-decision-records": true, "architecture_decision_records": true,
	"decision-records": true, "decision_records": true, "architecture-decision-log": true,
	"architecture_decision_log": true, "adr-log": true, "adr_log": true, "adrlog": true,
	"decisions-log": true, "decisions_log": true, "decisions.log": true, "decision.log": true,
	"adr.log": true, "adrs.log": true,
}

// IsLogFileName reports a Markdown file name that says the file is a
// decision log ("DECISIONS.md", "decision-log.md", "ADR.md").
func IsLogFileName(name string) bool {
	ext := ""
	for _, e := range []string{".md", ".markdown"} {
		if len(name) > len(e) && strings.EqualFold(name[len(name)-len(e):], e) {
			ext = e
		}
	}
	return ext != "" && logFileStems[strings.ToLower(name[:len(name)-len(ext)])]
}

// LogSection is one decision of a single-file log.
type LogSection struct {
	// Heading is the 0-based line of the section's heading; End the
	// 0-based line after its last line (trailing blank lines and
	// thematic breaks excluded).
	Heading, End int
	Level        int
	Number       int
	// Digits is the number as written ("001").
	Digits string
}

var (
	// "ADR-001: Title", "ADR-0001 — Title", "ADR 3. Title", "[ADR-7] Title",
	// "Decision 4: Title", "Architecture Decision Record 5: Title".
	sectionIDHeading = lazyre.New(`^\[?(?i:(adr)|architecture\s+decision(?:\s+record)?|d[ée]cision|entscheidung|decisi[óo]n)\s*[-_#]?\s*(\d{1,9})\]?(?:\s*[:.)–—-]+\s*|\s+|$)`)
	// "3. Title" (only under a title that says decisions).
	sectionNumHeading = lazyre.New(`^(\d{1,9})\s*[.:)–—]\s*\D`)
)

// sectionNumber reads a decision heading: the number and its digits as
// written; bare says the heading is "3. Title" with no lead word.
func sectionHeadingNumber(text string) (n int, digits string, bare, ok bool) {
	s := strings.TrimSpace(strings.Trim(text, "*_"))
	if m := sectionIDHeading.FindStringSubmatchIndex(s); m != nil {
		rest := strings.TrimSpace(s[m[1]:])
		sep := strings.TrimSpace(s[m[5]:m[1]])
		// "ADR 3 Title" (the lead word is ADR) is a decision; "Decision 3
		// ways" is not: other lead words need a separator.
		if m[2] >= 0 || sep != "" && sep != "]" || rest == "" {
			digits = s[m[4]:m[5]]
			n, err := strconv.Atoi(digits)
			return n, digits, false, err == nil
		}
	}
	if m := sectionNumHeading.FindStringSubmatchIndex(s); m != nil {
		digits = s[m[2]:m[3]]
		n, err := strconv.Atoi(digits)
		return n, digits, true, err == nil
	}
	return 0, "", false, false
}

// titleSaysDecisions reports a log title that names decisions ("Decision
// log", "Architecture Decision Records", "Décisions", "ADRs").
func titleSaysDecisions(title string) bool {
	t := strings.ToLower(title)
	for _, w := range []string{"decision", "décision", "entscheidung", "decisión", "decisão", "决策", "决定", "adr"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// SplitLog finds the decision sections of a single-file log: headings that
// name numbered decisions ("ADR-001: Title", "Decision 4: Title", or "3.
// Title" when the file's first H1 says decisions). A decision heading
// inside another decision's section is part of it. Each section ends at the
// next heading of its level or above. Fewer than two sections mean the
// file is not a log (nil).
func SplitLog(t *Text) []LogSection {
	hs := t.Headings()
	titled := false
	for _, h := range hs {
		if h.Level == 1 {
			titled = titleSaysDecisions(h.Text)
			break
		}
	}
	type cand struct {
		hi     int
		n      int
		digits string
	}
	var strong, bare []cand
	for hi, h := range hs {
		n, digits, isBare, ok := sectionHeadingNumber(h.Text)
		switch {
		case !ok:
		case !isBare:
			strong = append(strong, cand{hi, n, digits})
		case titled && h.Level > 1:
			bare = append(bare, cand{hi, n, digits})
		}
	}
	use := strong
	if len(strong) < 2 {
		use = bare
		// Bare numbers are decisions at one level only (the shallowest
		// that holds them): "### 1. Context" below is a section.
		lvl := 7
		for _, c := range use {
			lvl = min(lvl, hs[c.hi].Level)
		}
		var keep []cand
		for _, c := range use {
			if hs[c.hi].Level == lvl {
				keep = append(keep, c)
			}
		}
		use = keep
	}
	var out []LogSection
	openEnd, openLevel := -1, 0
	for _, c := range use {
		h := hs[c.hi]
		if h.Line < openEnd && h.Level > openLevel {
			continue // inside the previous decision
		}
		end := len(t.Lines)
		for _, h2 := range hs[c.hi+1:] {
			if h2.Level <= h.Level {
				end = h2.Line
				break
			}
		}
		openEnd, openLevel = end, h.Level
		// A setext heading's underline is part of the heading, never a
		// thematic break to trim.
		body := h.Line + 1
		if h.Setext {
			body++
		}
		for end > body && sectionTail(t, end-1) {
			end--
		}
		out = append(out, LogSection{Heading: h.Line, End: end, Level: h.Level, Number: c.n, Digits: c.digits})
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// sectionTail reports a line a section does not end with: blank, or a
// thematic break separating it from the next one.
func sectionTail(t *Text, i int) bool {
	k := t.Lines[i].Kind
	if k == LineBlank {
		return true
	}
	if k != LineText {
		return false
	}
	s := strings.ReplaceAll(strings.TrimSpace(t.LineText(i)), " ", "")
	return len(s) >= 3 && (strings.Trim(s, "-") == "" || strings.Trim(s, "*") == "" || strings.Trim(s, "_") == "")
}

// maskedText is base with every line before from masked and the lines
// from to on left out: line i is still line i of the file, and Src is
// the whole file. Each section holds its own line index, so a log costs
// its sections times the lines up to each; leaving out what follows a
// section halves that.
func maskedText(base *Text, from, to int) *Text {
	t := *base
	t.Lines = make([]Line, to)
	copy(t.Lines, base.Lines[:to])
	for i := 0; i < from; i++ {
		t.Lines[i].Kind = LineComment
	}
	if t.Unclosed < from || t.Unclosed >= to {
		t.Unclosed = -1
	}
	return &t
}

// ParseSection reads one decision section of a single-file log. The
// record's Text is the whole file, masked outside the section; its title
// is the section's heading.
func ParseSection(base *Text, sec LogSection) *Record {
	t := maskedText(base, sec.Heading, sec.End)
	p := &parser{t: t, rec: &Record{text: t, TitleNumber: -1, Status: Unknown}, titleAt: sec.Heading + 1}
	p.run()
	r := p.rec
	r.span = &logSpan{From: sec.Heading, To: sec.End}
	r.bareTitle = ""
	r.TitleNumber = sec.Number
	if m := sectionIDHeading.FindStringIndex(r.RawTitle); m != nil {
		r.Title = strings.TrimSpace(r.RawTitle[m[1]:])
	}
	r.Number, r.Numbered = sec.Number, true
	// The parser's fallback unit runs to the end of the file.
	units := r.ownUnits()
	for i := range units {
		if units[i].End > sec.End {
			units[i].End = sec.End
			units[i].Hash = hashLines(t, units[i].Start-1, sec.End)
		}
	}
	if len(units) == 1 && units[0].Anchor == "body" {
		if us := bulletUnits(t, sec.Heading+1, sec.End); len(us) > 0 {
			r.SetUnits(us)
		}
	}
	headingRelations(p, sec.Heading)
	return r
}

// bulletUnits are the units a section without sub-headings states as
// labelled bullets or lines ("- **Context:** ...", "* **Décision** : ...",
// "Consequences: ..."): each runs to the next labelled line.
func bulletUnits(t *Text, from, to int) []Unit {
	type label struct {
		line   int
		anchor string
		text   string
	}
	var ls []label
	for i := from; i < to; i++ {
		if t.Lines[i].Kind != LineText {
			continue
		}
		s := t.LineText(i)
		if indent := len(s) - len(strings.TrimLeft(s, " \t")); indent > 1 {
			continue
		}
		key, _, _, ok := splitMetaLine(s)
		if !ok {
			continue
		}
		k := headingKey(key)
		if a := canonicalAnchors[k]; a != "" && a != "status" {
			ls = append(ls, label{i, a, strings.TrimSpace(key)})
		} else if _, _, known := metaKeyOf(key); known || a == "status" {
			ls = append(ls, label{i, "", ""}) // ends the unit before it
		}
	}
	var us []Unit
	seen := map[string]int{}
	for j, l := range ls {
		if l.anchor == "" {
			continue
		}
		end := to
		if j+1 < len(ls) {
			end = ls[j+1].line
		}
		for end > l.line+1 && t.Lines[end-1].Kind == LineBlank {
			end--
		}
		anchor := l.anchor
		if seen[anchor] > 0 {
			anchor += "-" + strconv.Itoa(seen[anchor]+1)
		}
		seen[l.anchor]++
		us = append(us, Unit{Anchor: anchor, Heading: l.text, Start: l.line + 1, End: end, Hash: hashLines(t, l.line, end)})
	}
	return us
}

var (
	headingParen = lazyre.New(`\(([^()]*)\)`)
	headingIDRef = lazyre.New(`(?i)\b(?:adr|rfc)[-_ ]?\d{1,9}[a-z]?\b`)
	partialWords = []string{"en partie", "partiellement", "partially", "partly", "in part", "teilweise", "parcialmente", "em parte"}
)

// headingRelations reads relations written in parentheses in a decision's
// heading: "(supersedes ADR-3)", "(remplace ADR-0005)". A partial
// replacement ("remplace en partie ADR-0005", "partially replaces ADR-3")
// is read as amends: the older decision stays in force.
func headingRelations(p *parser, line int) {
	for _, m := range headingParen.FindAllStringSubmatch(p.t.LineText(line), -1) {
		clause := strings.TrimSpace(m[1])
		loc := headingIDRef.FindStringIndex(clause)
		if loc == nil {
			continue
		}
		words := strings.Fields(clause[:loc[0]])
		if len(words) == 0 || len(words) > 4 {
			continue
		}
		// The label may stand anywhere among the words ("partially
		// replaces", "remplace en partie"): the longest known run wins.
		var rt RelationType
		for n := len(words); n >= 1 && rt == ""; n-- {
			for i := 0; i+n <= len(words) && rt == ""; i++ {
				if t := ParseRelationType(strings.Join(words[i:i+n], " ")); t.Known() {
					rt = t
				}
			}
		}
		if rt == "" {
			continue
		}
		label := strings.Join(words, " ")
		lower := strings.ToLower(label)
		for _, w := range partialWords {
			if strings.Contains(lower, w) && rt == Supersedes {
				rt = Amends
			}
		}
		for _, tg := range headingIDRef.FindAllString(clause, -1) {
			p.addRelation(rt, label, tg, line)
		}
	}
}

// readLogFile reads a root that is a single-file log: one record per
// decision section.
func (root *Root) readLogFile(fsys fs.FS) error {
	data, err := fs.ReadFile(fsys, root.Path)
	if err != nil {
		return fmt.Errorf("read ADR log %q: %w", root.Path, err)
	}
	root.Exists, root.File = true, true
	base := NewText(data)
	padded, unpadded, width := 0, 0, 0
	for _, sec := range SplitLog(base) {
		rec := ParseSection(base, sec)
		rec.Path = root.Path
		rec.Root = root
		root.Records = append(root.Records, rec)
		if len(sec.Digits) > 1 && sec.Digits[0] == '0' {
			padded++
			width = max(width, len(sec.Digits))
		} else {
			unpadded++
		}
	}
	if !root.digitsSet {
		root.Digits = 0
		if padded > 0 && padded >= unpadded {
			root.Digits = width
		}
	}
	root.deriveConventions()
	root.Style = StyleLog
	return nil
}

// isLogFile reports whether the file at p is a single-file log.
func isLogFile(fsys fs.FS, p string) bool {
	data, err := fs.ReadFile(fsys, p)
	return err == nil && len(SplitLog(NewText(data))) >= 2
}

// logFilesIn lists the single-file logs among entries of dir.
func logFilesIn(fsys fs.FS, dir string, entries []fs.DirEntry) []string {
	var out []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !IsLogFileName(e.Name()) {
			continue
		}
		p := path.Join(dir, e.Name())
		if isLogFile(fsys, p) {
			out = append(out, p)
		}
	}
	return out
}
