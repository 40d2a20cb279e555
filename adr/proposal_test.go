package adr

import (
	"errors"
	"strings"
	"testing"
)

func TestProposalCheck(t *testing.T) {
	field := func(n string) string { return "--" + n }
	ok := Proposal{Title: "  Cache reads  ", Context: "Slow.", Decision: "Cache.", Domains: []string{" Storage "}}
	secs, domains, err := ok.Check(field)
	if err != nil {
		t.Fatal(err)
	}
	if ok.Title != "Cache reads" || len(secs) != 2 || secs[1].Anchor != "decision" || strings.Join(domains, ",") != "storage" {
		t.Errorf("Check = %q, %+v, %v", ok.Title, secs, domains)
	}
	for _, c := range []struct {
		p    Proposal
		want string
	}{
		{Proposal{Context: "c", Decision: "d"}, "a proposal needs a title"},
		{Proposal{Title: strings.Repeat("x", MaxProposalTitle+1), Context: "c", Decision: "d"}, "at most 200"},
		{Proposal{Title: "a\x1bb", Context: "c", Decision: "d"}, "control character"},
		{Proposal{Title: "t", Context: "c"}, "--decision is empty"},
		{Proposal{Title: "t", Context: "c", Decision: "d", Domains: []string{"a,b"}}, "--domains \"a,b\" is not a domain name"},
		{Proposal{Title: "t", Context: "c", Decision: "d", RelatesTo: make([]string, MaxProposalLinks+1)}, "names 21 records to link"},
	} {
		_, _, err := c.p.Check(field)
		var pe *ProposalError
		if !errors.As(err, &pe) || pe.Refused || !strings.Contains(pe.Msg, c.want) {
			t.Errorf("Check(%+v) = %v, want %q", c.p, err, c.want)
		}
	}
}

func TestProposalNext(t *testing.T) {
	res := NewProposalResult()
	res.ID, res.Path, res.Updated, res.WouldSupersede = "ADR-0003", "doc/adr/0003-x.md", []string{"doc/adr/0003-x.md", "doc/adr/0001-a.md"}, []string{"ADR-0001"}
	steps := ProposalNext(res, func(p string) string { return "../" + p })
	var cmds []string
	for _, s := range steps {
		cmds = append(cmds, s.Command)
	}
	got := strings.Join(cmds, "\n")
	for _, want := range []string{"git adr show ADR-0003", "git add -- ../doc/adr/0003-x.md ../doc/adr/0001-a.md && git commit -m 'Propose ADR-0003'", "git adr decide ADR-0003 accept"} {
		if !strings.Contains(got, want) {
			t.Errorf("next steps lack %q:\n%s", want, got)
		}
	}
	if !strings.Contains(steps[len(steps)-2].Do, "marks ADR-0001 superseded") {
		t.Errorf("accepting does not say what it supersedes: %+v", steps[len(steps)-2])
	}
}
