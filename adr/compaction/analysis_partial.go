package compaction

import (
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/lazyre"
)

var (
	// A status such as "Partly superseded" or "Partially replaced".
	partialStatus = lazyre.New(`(?i)\b(?:in\s+part|partly|partially|partial)\b.*\b(?:supersed|superced|replac)|\b(?:supersed|superced|replac)\w*\s+(?:in\s+part|partly|partially)\b`)
	// Prose that supersedes in part: "in part supersedes", "partly
	// replaced by", "supersedes some aspects of", "superseded in part".
	partialProse = []*lazyre.Regexp{
		lazyre.New(`(?i)\b(?:in\s+part|partly|partially)\s+(supersedes?|superseded|supercedes?|superceded|replaces?|replaced)\b`),
		lazyre.New(`(?i)\b(supersedes?|superseded|supercedes?|superceded|replaces?|replaced)\s+(?:in\s+part|partly|partially)\b`),
		lazyre.New(`(?i)\b(supersedes?|supercedes?)\s+(?:only\s+)?(?:some|certain|several|parts?|portions?|aspects|elements|sections?)\s+(?:(?:aspects|parts|elements)\s+)?of\b`),
	}
	mdLinkTarget = lazyre.New(`\]\(\s*<?([^)\s>]+)`)
	idMention    = lazyre.New(`(?i)\bADRs?[-\s#]*0*([0-9]{1,6})\b`)
)

// partial finds partial supersession around r: its status says so, a line
// of its prose says so, a relation supersedes only a unit of it, or it is
// a retired container with a section still accepted.
func (a *analyzer) partial(r *adr.Record) {
	sl := statusLine(r)
	if containsFold([]byte(r.RawStatus), "part") && partialStatus.MatchString(r.RawStatus) {
		a.add(Issue{Kind: KindPartialSupersession, Path: r.Path, Line: sl,
			Message: fmt.Sprintf("the status says %q: the record stays partly in force", shorten(r.RawStatus, 60))}, r)
		a.block(r, rankPartial, fmt.Sprintf("partly superseded (status on line %d): decide which of its decisions remain in force", sl))
	}
	f, ok := a.texts[r]
	if !ok {
		facts := factsOf(r, r.PeekText())
		f = &facts
	}
	for _, ln := range f.partial {
		a.partialLine(r, ln.n, ln.s)
	}
	for _, e := range a.links[r].partial {
		// A sectioned container retires sections one by one: a section
		// that says it is superseded is ordinary life, not an issue.
		if a.sectionRetired(r, e) {
			continue
		}
		at := e.at[0]
		a.add(Issue{Kind: KindPartialSupersession, Path: at.path, Line: at.line,
			Message: fmt.Sprintf("%s supersedes only a part of %s: the rest of %s stays in force", e.r.ID, r.ID, r.ID)}, e.r, r)
		a.block(r, rankPartial, fmt.Sprintf("partly superseded by %s (%s): decide which of its decisions remain in force", e.r.ID, at))
	}
	if r.Style == adr.StyleOCP && (r.Status == adr.Superseded || r.Status == adr.Deprecated || r.Status == adr.Rejected) {
		var live []string
		line := 0
		for _, u := range r.Units() {
			if strings.HasPrefix(u.Anchor, "§") && u.Status == adr.Accepted {
				live = append(live, u.Anchor)
				if line == 0 {
					line = u.Start
				}
			}
		}
		if len(live) > 0 {
			a.add(Issue{Kind: KindPartialSupersession, Path: r.Path, Line: line,
				Message: fmt.Sprintf("the record is %s but %s still accepted: a partly live container stays live", r.Status, joinAnd(live)+pluralIs(len(live)))}, r)
			a.block(r, rankPartial, fmt.Sprintf("%s, but section %s still accepted: retire each section or correct the status", r.Status, joinAnd(live)+pluralIs(len(live))))
		}
	}
}

func pluralIs(n int) string {
	if n == 1 {
		return " is"
	}
	return " are"
}

// sectionRetired reports whether every locator by which e supersedes r
// names a section of a container that itself says it is superseded.
func (a *analyzer) sectionRetired(r *adr.Record, e edge) bool {
	if r.Style != adr.StyleOCP {
		return false
	}
	for _, rel := range e.r.Relations {
		if rel.Type != adr.Supersedes || rel.TargetID != r.ID {
			continue
		}
		_, anchor := adr.SplitLocator(rel.Target)
		if anchor == "" {
			continue
		}
		u, ok := r.Unit(anchor)
		if !ok || u.Status != adr.Superseded {
			return false
		}
	}
	return true
}

// maybePartial is a cheap filter before the partial-supersession patterns:
// a verb and a word of partiality, without allocating.
func maybePartial(b []byte) bool {
	if !containsFold(b, "upersed") && !containsFold(b, "uperced") && !containsFold(b, "replac") {
		return false
	}
	for _, w := range []string{"part", "some", "certain", "several", "portion", "aspect", "element", "section"} {
		if containsFold(b, w) {
			return true
		}
	}
	return false
}

// containsFold reports whether b contains the lower-case ASCII word in any
// case.
func containsFold(b []byte, word string) bool {
	n := len(word)
	for i := 0; i+n <= len(b); i++ {
		j := 0
		for j < n {
			c := b[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != word[j] {
				break
			}
			j++
		}
		if j == n {
			return true
		}
	}
	return false
}

// partialLine looks for partial supersession in one line of prose.
func (a *analyzer) partialLine(r *adr.Record, line int, s string) {
	var verb string
	for _, re := range partialProse {
		if m := re.FindStringSubmatch(s); m != nil {
			verb = strings.ToLower(m[1])
			break
		}
	}
	if verb == "" {
		return
	}
	var named []*adr.Record
	seen := map[*adr.Record]bool{r: true}
	addNamed := func(t *adr.Record) {
		if t != nil && !seen[t] {
			seen[t] = true
			named = append(named, t)
		}
	}
	for _, m := range mdLinkTarget.FindAllStringSubmatch(s, -1) {
		addNamed(a.l.Target(r, m[1]))
	}
	for _, m := range idMention.FindAllStringSubmatch(s, -1) {
		addNamed(a.l.Target(r, "ADR-"+m[1]))
	}
	replace := strings.HasPrefix(verb, "replac")
	if replace && len(named) == 0 {
		return // "partly replaces" without a record is ordinary prose
	}
	quote := shorten(strings.TrimSpace(s), 80)
	passive := strings.HasSuffix(verb, "ed")
	switch {
	case passive:
		by := ""
		if len(named) > 0 {
			by = " by " + idList(named, 3)
		}
		a.add(Issue{Kind: KindPartialSupersession, Path: r.Path, Line: line,
			Message: fmt.Sprintf("%s says it is superseded only in part%s (%q): it stays partly in force", r.ID, by, quote)}, append([]*adr.Record{r}, named...)...)
		a.block(r, rankPartial, fmt.Sprintf("partly superseded (line %d): decide which of its decisions remain in force", line))
	case len(named) == 0:
		a.add(Issue{Kind: KindPartialSupersession, Path: r.Path, Line: line,
			Message: fmt.Sprintf("%s says it supersedes a record in part but links none (%q): link it so the rest stays visible", r.ID, quote)}, r)
	case r.Status == adr.Accepted:
		a.add(Issue{Kind: KindPartialSupersession, Path: r.Path, Line: line,
			Message: fmt.Sprintf("%s supersedes %s only in part (%q): %s partly in force", r.ID, idList(named, 3), quote, stays(named))}, append([]*adr.Record{r}, named...)...)
		for _, t := range named {
			a.block(t, rankPartial, fmt.Sprintf("partly superseded by %s (%s:%d): decide which of its decisions remain in force", r.ID, r.Path, line))
		}
	default:
		// A record not in force retires nothing: a proposal must be
		// decided first; rejected or retired records are history.
		a.add(Issue{Kind: KindPartialSupersession, Path: r.Path, Line: line,
			Message: fmt.Sprintf("%s (%s) says it supersedes %s in part (%q): until it is accepted, %s wholly in force", r.ID, r.Status, idList(named, 3), quote, stays(named))}, append([]*adr.Record{r}, named...)...)
		if r.Status == adr.Proposed {
			a.block(r, rankPartial, fmt.Sprintf("proposes to supersede %s in part (line %d): decide which of their decisions it replaces, then accept it (git adr decide %s accept) or reject it", idList(named, 3), line, r.ID))
		}
	}
}

func stays(rs []*adr.Record) string {
	if len(rs) == 1 {
		return rs[0].ID + " stays"
	}
	return "they stay"
}
