package evidence

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/internal/lazyre"
)

// standing is whether a record is in force, and why not.
type standing struct {
	inForce bool
	// note labels a record not in force ("superseded by ADR-0002",
	// "proposed") or a record whose text says it is being replaced
	// ("possibly superseded: ... (see ADR-0009)").
	note string
	// by is the record the text points to, for a possibly superseded one.
	by *adr.Record
}

// replacedWords are the phrases with which a record's own text says it
// is superseded, in the English the corpora use ("superseded by",
// "replaced by", "deprecated in favour of", "withdrawn in favour of", "we
// are moving on from this decision"). A phrase counts only on a line that
// also names another record, so "will be replaced by a Send method" does
// not, and only when "this" does not follow it (see [saysReplaced]). "In
// favour of" alone says what someone chose, not what the record is: "we
// decommissioned the old cluster in favour of EKS (see ADR-022)".
var replacedWords = lazyre.New(`(?i)\b(super[sc]e+ded|replaced|obsoleted|deprecated?|retired|withdrawn|abandoned|retracted)\b[^.\n]{0,40}\b(by|in favou?r of|with)\b|\bmoving on from\b|\bno longer (in force|valid|applies|applicable)\b`)

// byThis is what follows a phrase of replacedWords that names the record
// as the one that replaces: "ADR 07, which is superseded by this one".
var byThis = lazyre.New(`(?i)^\s*this\b`)

// saysReplaced reports whether line says its record is replaced: it holds
// a phrase of replacedWords, and "this" does not follow one that ends in
// "by", "in favour of" or "with".
func saysReplaced(line string) bool {
	if !mayBeReplaced(line) {
		return false
	}
	for _, m := range replacedWords.Re().FindAllStringSubmatchIndex(line, -1) {
		// m[2] is where a verb starts ("superseded by"): "moving on from
		// this decision" says this record is left.
		if m[2] < 0 || !byThis.MatchString(line[m[1]:]) {
			return true
		}
	}
	return false
}

// recordMention finds references to other records on a line: Markdown
// link targets and bare IDs such as ADR-9, ADR #0033.
var (
	linkTarget = lazyre.New(`\]\(([^)\s]+)\)`)
	bareID     = lazyre.New(`(?i)\b(ADR)[-_ #]?0*([0-9]{1,6})\b`)
)

// standingOf says whether r is in force: accepted, and not marked
// superseded by its status (in any form the parser reads). A record that
// states no status at all, as MADR allows, is in force unless another
// record supersedes it, with the note "status not stated"; a status the
// parser does not know ("status unknown") is not. A record in force
// whose text says it is being replaced, naming the record that replaces
// it, is flagged as possibly superseded with that pointer.
func (s *Service) standingOf(r *adr.Record) standing {
	st := standing{inForce: true}
	if r.Status == adr.Unknown && r.RawStatus == "" {
		if cur, _ := s.successors(r); len(cur) > 0 {
			return standing{note: "status not stated; superseded by " + cur[0].ID}
		}
		st.note = "status not stated"
	} else if r.Status != adr.Accepted {
		st := standing{note: string(r.Status)}
		switch r.Status {
		case adr.Superseded:
			if cur, _ := s.successors(r); len(cur) == 1 {
				st.note = "superseded by " + cur[0].ID
			}
		case adr.Unknown:
			st.note = "status unknown"
		}
		return st
	}
	switch by, line, pointer := s.replacedInProse(r); {
	case by != nil:
		st.by = by
		st.note = fmt.Sprintf("possibly superseded: its text says %q (see %s)", clip(strings.TrimSpace(line), 120), by.ID)
	case pointer != "":
		st.note = fmt.Sprintf("possibly superseded: its text says %q (%s names no record of this log)", clip(strings.TrimSpace(line), 120), clip(pointer, 60))
	}
	return st
}

// forUnit is the standing of unit u of the record: a container section
// with a status of its own stands by that status.
func (st standing) forUnit(u adr.Unit) standing {
	if u.Status == "" {
		return st
	}
	out := standing{inForce: u.Status == adr.Accepted}
	if !out.inForce {
		out.note = string(u.Status)
	}
	return out
}

// replacedInProse finds a line of r (outside its status section) that
// says it is replaced and names the record that replaces it. A line that
// points at a record this log does not hold ("see ADR-9" with no ADR-9,
// a link to a missing .md file no record's name is close to) is returned
// with that pointer and no record, when no line names one that is there.
func (s *Service) replacedInProse(r *adr.Record) (by *adr.Record, line, pointer string) {
	var unresolvedLine, unresolved string
	t := r.Text()
	skip := map[int]bool{}
	if u, ok := r.Unit("status"); ok {
		for i := u.Start; i <= u.End; i++ {
			skip[i] = true
		}
	}
	for i := range t.Lines {
		if skip[i+1] {
			continue
		}
		line = t.LineText(i)
		if !saysReplaced(line) {
			continue
		}
		links := linkTarget.FindAllStringSubmatch(line, -1)
		missing := links[:0:0] // links that name no record
		for _, m := range links {
			o := s.Log.Target(r, m[1])
			if o != nil && o != r {
				return o, line, ""
			}
			if o == nil {
				missing = append(missing, m)
			}
		}
		for _, m := range bareID.FindAllStringSubmatch(line, -1) {
			o, err := s.Log.Resolve(m[2])
			if err == nil && o != nil && o != r && o.Root == r.Root {
				return o, line, ""
			}
			var nf *adr.NotFoundError
			if (errors.As(err, &nf) || err == nil && o == nil) && unresolved == "" {
				unresolvedLine, unresolved = line, m[0]
			}
		}
		// A link to a file that is not there ("0018-govuk-notify.md"
		// where the file is named "0018-govkuk-notify.md") means the
		// record `git adr check`'s fix for it names.
		for _, m := range missing {
			if o, _ := adr.MeantTarget(r, m[1]); o != nil && o != r {
				return o, line, ""
			}
			if strings.HasSuffix(strings.ToLower(stripAnchor(m[1])), ".md") && unresolved == "" {
				unresolvedLine, unresolved = line, m[1]
			}
		}
	}
	return nil, unresolvedLine, unresolved
}

// stripAnchor drops a link's "#fragment" and "?query".
func stripAnchor(target string) string {
	if i := strings.IndexAny(target, "#?"); i >= 0 {
		return target[:i]
	}
	return target
}
