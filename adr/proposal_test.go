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

func TestProposalLink(t *testing.T) {
	recs := map[string]*Record{"1": {ID: "ADR-0001", Path: "doc/adr/0001-a.md"}, "2": {ID: "ADR-0002", Path: "doc/adr/0002-b.md"}, "3": {ID: "ADR-0003", Path: "doc/adr/0003-c.md"}}
	p := Proposal{Supersedes: []string{"1"}, Amends: []string{"2"}, RelatesTo: []string{"3"}}
	var opt NewOptions
	res := NewProposalResult()
	var asked []string
	err := p.Link(&opt, res, func(field, ref string) (*Record, error) {
		asked = append(asked, field+":"+ref)
		return recs[ref], nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(asked, ","); got != "relates_to:3,amends:2,supersedes:1" {
		t.Errorf("resolved in order %s", got)
	}
	if len(opt.Links) != 2 || opt.Links[1].Label != "Amends" || opt.Links[1].Reverse != "Amended by" || len(opt.Supersedes) != 1 || opt.Supersedes[0].ID != "ADR-0001" {
		t.Errorf("options: links %+v, supersedes %+v", opt.Links, opt.Supersedes)
	}
	if len(res.Links) != 2 || res.Links[0].Target != "ADR-0003" || strings.Join(res.WouldSupersede, ",") != "ADR-0001" {
		t.Errorf("result: links %+v, would supersede %v", res.Links, res.WouldSupersede)
	}
	refused := errors.New("archived")
	if err := p.Link(&NewOptions{}, NewProposalResult(), func(string, string) (*Record, error) { return nil, refused }); !errors.Is(err, refused) {
		t.Errorf("a refused target = %v", err)
	}
}
