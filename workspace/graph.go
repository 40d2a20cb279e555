package workspace

import (
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// Graph is the relation graph of every member, keys and IDs qualified,
// with an edge "relates-to" for each qualified ID a record names in
// another member that resolves (a broken one is check's finding).
func (w *Workspace) Graph(opt adr.GraphOptions) (*adr.Graph, error) {
	g := &adr.Graph{Nodes: []adr.GraphNode{}, Edges: []adr.GraphEdge{}}
	keys := map[string]bool{}
	var ms []mention
	err := w.Each(false, func(ld *Loaded) error {
		mg := ld.Log.Graph(opt)
		for _, n := range mg.Nodes {
			n.Key, n.ID = Qualify(ld.Member.Name, n.Key), Qualify(ld.Member.Name, n.ID)
			// Copies: a record's strings can be views of its log's whole
			// text, which must not outlive the member.
			n.Title, n.Path, n.Status = strings.Clone(n.Title), strings.Clone(n.Path), adr.Status(strings.Clone(string(n.Status)))
			keys[n.Key] = true
			g.Nodes = append(g.Nodes, n)
		}
		for _, e := range mg.Edges {
			e.From, e.To = Qualify(ld.Member.Name, e.From), Qualify(ld.Member.Name, e.To)
			g.Edges = append(g.Edges, e)
		}
		for _, r := range ld.Log.Records {
			if opt.Status != "" && r.Status != opt.Status {
				continue
			}
			for _, m := range w.mentions(ld, r) {
				if m.member != ld.Member.Name {
					ms = append(ms, m)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	seen := map[adr.GraphEdge]bool{}
	err = w.resolveMentions(ms, func(m mention, mem *Member, target *adr.Record) {
		if target == nil {
			return
		}
		e := adr.GraphEdge{From: m.from.ID, To: Qualify(mem.Name, target.ID), Type: adr.RelatesTo}
		// Keys are IDs unless a member has one ID in several roots;
		// such a target is left out rather than drawn to the wrong node.
		if keys[e.From] && keys[e.To] && !seen[e] {
			seen[e] = true
			g.Edges = append(g.Edges, e)
		}
	})
	return g, err
}
