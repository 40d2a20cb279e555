package adr

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/internal/lazyre"
)

// KindLikelySupersession: a record's own text says another record
// supersedes it ("superseded by ADR-0019"), but no relation records it:
// list and the relation graph see a decision in force. A warning: prose
// is read, not parsed.
const KindLikelySupersession FindingKind = "likely-supersession"

var (
	// supersededPhrase is a record saying it was replaced: "superseded
	// by", "superceded by", "replaced by", "obsoleted by", with a few
	// words between ("superseded in 2024 by").
	supersededPhrase = lazyre.New(`(?i)\b(?:super[sc]e+ded|replaced|obsoleted)\b[^.;\n]{0,30}?\bby\b`)
	// partialPhrase marks a supersession of part of a record, which a
	// whole-record relation would overstate.
	partialPhrase = lazyre.New(`(?i)\b(?:partly|partially|in part|parts? of)\b`)
	// recordSubject is what may stand before supersededPhrase in its
	// sentence for the record itself to be what was replaced: nothing
	// ("Superseded by ADR-19"), "this decision has been", "it was"; not
	// "These IP ranges have been" (a part of it) or "many badges (".
	recordSubject = lazyre.New(`(?i)^(?:(?:this|the)(?:\s+(?:adr|decision|record|document|proposal|rfc|design|approach))?|it)?(?:\s*\b(?:has|had|have)\b)?(?:\s*\b(?:been|was|is|were|are|got)\b)?(?:\s*\b(?:now|since|later|then|fully|entirely)\b)?$`)
	// proseID is an ID written in prose: "ADR-0019", "ADR 19", "RFC-7".
	proseID = lazyre.New(`\b[A-Za-z]{2,5}[-_ #]?[0-9]{1,6}\b`)
	// inlineLink is a Markdown link written inline, text and destination.
	inlineLink = lazyre.New(`!?\[[^\]]*\]\([^)]*\)`)
)

// supersedeWords are literals every match of supersededPhrase holds
// (past its first letter, in either case): records that hold none are
// not read line by line.
var supersedeWords = [][]byte{[]byte("upersed"), []byte("uperced"), []byte("UPERSED"), []byte("UPERCED"),
	[]byte("eplaced"), []byte("EPLACED"), []byte("bsoleted"), []byte("BSOLETED")}

// proseSuccessor is the record r's text names as the one that supersedes
// it, with the 1-based line that says so and the phrase, when no
// relation of r says so and no record's "Supersedes" names r (then the
// links are for one-way-link to judge). nil when there is none, when the
// line speaks of part of r, or when the record it names is r.
func (c *checker) proseSuccessor(r *Record) (*Record, int, string) {
	if hasRelation(r, SupersededBy) || len(c.supersededBy[r]) > 0 {
		return nil, 0, ""
	}
	for _, c2 := range r.facts().prose {
		for _, tg := range c2.targets {
			if s := c.l.Target(r, tg); s != nil && s != r {
				return s, c2.line + 1, c2.said
			}
		}
	}
	return nil, 0, ""
}

// prose reports a record whose text says another record supersedes it
// when no relation records it (status-mismatch speaks for a record whose
// status already says superseded).
func (c *checker) prose(r *Record) {
	if r.Status == Superseded {
		return
	}
	s, line, text := c.proseSuccessor(r)
	if s == nil {
		return
	}
	fix := linkCommand(c.ref(s), Supersedes, c.ref(r))
	if r.InLogFile() || s.InLogFile() {
		fix = sectionLinkFix(r, SupersededBy, s)
	}
	c.add(Finding{
		Kind: KindLikelySupersession, Path: r.Path, Line: line, IDs: []string{r.ID, s.ID}, Warning: true,
		Message: fmt.Sprintf("%s's text says %q, but no relation records that %s supersedes it (if the text means something else, reword it)", r.ID, shorten(text, 80), s.ID),
		Fix:     fix,
	})
}

// sentenceEnd is the index of the first "." or ";" of s outside its
// inline links ("[4. Use Kafka](0004-use-kafka.md)"), -1 when there is
// none.
func sentenceEnd(s string) int {
	from := 0
	for _, link := range inlineLink.FindAllStringIndex(s, -1) {
		if i := strings.IndexAny(s[from:link[0]], ".;"); i >= 0 {
			return from + i
		}
		from = link[1]
	}
	if i := strings.IndexAny(s[from:], ".;"); i >= 0 {
		return from + i
	}
	return -1
}

// sentenceLead is what stands before a phrase in its sentence, its
// Markdown decoration (emphasis, a list marker, a quote) taken off: ""
// for "**Superseded** by" at the start of a line, "this decision has
// been" for "Note: this decision has been superseded by".
func sentenceLead(before string) string {
	if i := strings.LastIndexAny(before, ".!?:"); i >= 0 {
		before = before[i+1:]
	}
	return strings.TrimSpace(strings.Trim(strings.TrimSpace(before), "*_>#-+`[( \t"))
}

// holdsBy reports whether line holds "by" in any case. Every match of
// supersededPhrase ends with it, and its (?i) folds b and y to their
// ASCII cases only: a line without it is not worth the regular
// expression, which backtracks at every position of a long line.
func holdsBy(line []byte) bool {
	for i := 0; i+1 < len(line); i++ {
		if line[i]|0x20 == 'b' && line[i+1]|0x20 == 'y' {
			return true
		}
	}
	return false
}

func containsAny(src []byte, words [][]byte) bool {
	for _, w := range words {
		if bytes.Contains(src, w) {
			return true
		}
	}
	return false
}
