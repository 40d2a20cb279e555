package evidence

import (
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// sectionRole says what a record's section is for, judged by its heading:
// which section states the decision when no section is called one.
type sectionRole int

const (
	// roleProposal: a section that states what is done under another
	// name ("Proposal", "Proposed solution", "Design", "Approach").
	roleProposal sectionRole = iota
	// roleContent: a section named after its subject ("Per-Message
	// TTL", "Limit Markers"), as specification-like records write them.
	roleContent
	// roleContext: why and what else ("Context", "Motivation",
	// "Considered Options", "Consequences").
	roleContext
	// roleMeta: about the record itself ("Status", "Changelog",
	// "Authors", "References", "Definitions", "TODO").
	roleMeta
)

// metaHeadings are headings of sections about the record itself, in the
// words of their slug ("revision-history"). A heading counts when it is
// one of these or starts with one ("references-and-links").
var metaHeadings = []string{
	"status", "changelog", "change-log", "changes-log", "history", "revision-history",
	"release-history", "version-history", "update-history", "change-history",
	"document-history", "revisions", "author", "authors", "author-s", "deciders",
	"decision-makers", "reviewers", "participants", "stakeholders", "date", "dates",
	"references", "reference", "links", "related", "related-adrs", "related-decisions",
	"related-records", "see-also", "further-reading", "definitions", "glossary",
	"terminology", "terms", "todo", "to-do", "todos", "table-of-contents", "contents",
	"toc", "appendix", "appendices", "notes", "acknowledgements", "acknowledgments",
	"open-questions", "questions", "metadata", "tags", "deprecation-note",
	"deprecated", "technical-story", "more-information", "additional-information",
	"footnotes",
}

// contextHeadings are headings of sections that say why, or what else
// was weighed, rather than what was decided.
var contextHeadings = []string{
	"context", "background", "motivation", "problem", "problem-statement",
	"prior-work", "prior-art", "drivers", "decision-drivers", "forces", "options",
	"considered-options", "alternatives", "alternatives-considered", "pros-and-cons",
	"consequences", "positive-consequences", "negative-consequences", "implications",
	"risks", "assumptions", "constraints", "requirements", "goals", "non-goals",
	"goals-and-non-goals", "scope", "abstract", "introduction", "overview-of-the-problem",
	"current-situation", "current-state", "the-problem", "issue", "discussion", "why",
	"rationale", "reasoning", "justification",
}

// proposalWords name, anywhere in a heading, a section that states what
// is done.
var proposalWords = map[string]bool{
	"decision": true, "decisions": true, "proposal": true, "proposals": true, "proposed": true, "solution": true, "solutions": true,
	"design": true, "approach": true, "specification": true, "spec": true, "resolution": true,
	"recommendation": true, "recommendations": true, "outcome": true, "conclusion": true,
	"decided": true, "chosen": true, "rules": true, "policy": true, "guidelines": true,
	"overview": true, "summary": true,
}

// roleOf classifies a unit by its anchor: the slug of its heading, with
// the "-2" a repeated heading gets ignored.
func roleOf(u adr.Unit) sectionRole {
	a := u.Anchor
	if i := strings.LastIndexByte(a, '-'); i > 0 && isDigits(a[i+1:]) {
		a = a[:i]
	}
	if headingIs(a, metaHeadings) {
		return roleMeta
	}
	if headingIs(a, contextHeadings) {
		return roleContext
	}
	for _, w := range strings.Split(a, "-") {
		if proposalWords[w] {
			return roleProposal
		}
	}
	return roleContent
}

// headingIs reports whether the slug a is one of names, or starts with
// one of them followed by more words.
func headingIs(a string, names []string) bool {
	for _, n := range names {
		if a == n || strings.HasPrefix(a, n+"-") {
			return true
		}
	}
	return false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// mainUnit is the unit that states a record's decision: the decision
// section, else the body; in a record with neither (RFC-like records:
// "Proposal", "Design"), the first section named like a proposal, else
// the first section named after its subject, else the first context
// section, and a section about the record itself (changelog, authors,
// references) only when there is nothing else. Containers: every section.
func mainUnit(r *adr.Record) (adr.Unit, bool) {
	if u, ok := r.Unit("decision"); ok {
		return u, true
	}
	if u, ok := r.Unit("body"); ok {
		return u, true
	}
	var best adr.Unit
	found := false
	bestRole := roleMeta + 1
	for _, u := range r.Units() {
		if u.Anchor == "status" {
			continue
		}
		if role := roleOf(u); role < bestRole {
			best, bestRole, found = u, role, true
		}
	}
	return best, found
}
