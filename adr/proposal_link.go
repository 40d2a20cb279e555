package adr

import (
	"slices"
	"strings"
)

// ProposalLinkRelations are the relations a proposal is linked by after
// it is written (the MCP tool adr_link): none binds anything.
var ProposalLinkRelations = []RelationType{RelatesTo, Amends, Refines}

// ProposalLinkRelation is the relation s names ("amends", "Relates to"),
// when it is one of [ProposalLinkRelations].
func ProposalLinkRelation(s string) (RelationType, bool) {
	typ := ParseRelationType(strings.TrimSpace(s))
	return typ, slices.Contains(ProposalLinkRelations, typ)
}

// ProposalLinkNext is what comes after linking a proposal, whose files
// updated (repository paths) were written: a person reviews the links,
// the author commits them with the proposal.
func ProposalLinkNext(updated []string) []ProposalStep {
	var paths []string
	for _, p := range updated {
		paths = append(paths, ShellWord(p))
	}
	return []ProposalStep{
		{Who: "a person", Do: "review the links", Command: "git diff -- " + strings.Join(paths, " ")},
		{Who: "the author", Do: "commit them with the proposal", Command: "git add -- " + strings.Join(paths, " ")},
	}
}
