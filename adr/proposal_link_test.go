package adr

import (
	"reflect"
	"testing"
)

func TestProposalLinkRelationAndNext(t *testing.T) {
	for s, want := range map[string]RelationType{" amends ": Amends, "relates-to": RelatesTo, "Refines": Refines} {
		if typ, ok := ProposalLinkRelation(s); !ok || typ != want {
			t.Errorf("ProposalLinkRelation(%q) = %q, %v; want %q", s, typ, ok, want)
		}
	}
	for _, s := range []string{"supersedes", "superseded-by", "amended-by", "nonsense"} {
		if _, ok := ProposalLinkRelation(s); ok {
			t.Errorf("ProposalLinkRelation(%q) accepted", s)
		}
	}
	want := []ProposalStep{
		{Who: "a person", Do: "review the links", Command: "git diff -- doc/adr/0003-a.md 'doc/adr/0004-b c.md'"},
		{Who: "the author", Do: "commit them with the proposal", Command: "git add -- doc/adr/0003-a.md 'doc/adr/0004-b c.md'"},
	}
	if got := ProposalLinkNext([]string{"doc/adr/0003-a.md", "doc/adr/0004-b c.md"}); !reflect.DeepEqual(got, want) {
		t.Errorf("ProposalLinkNext = %+v", got)
	}
}
