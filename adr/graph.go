package adr

import (
	"fmt"
	"sort"
	"strings"
)

// Graph is the relation graph of a log: one node per record, archived
// records included, and one edge per relation between two records.
type Graph struct {
	Nodes []GraphNode `json:"nodes"`
	Edges []GraphEdge `json:"edges"`
}

// GraphNode is a record in the graph. Key is unique in the graph: the ID,
// or the path when several roots use the same ID.
type GraphNode struct {
	Key      string `json:"key"`
	ID       string `json:"id"`
	Title    string `json:"title"`
	Status   Status `json:"status"`
	Path     string `json:"path"`
	Archived bool   `json:"archived"`
}

// GraphEdge is a relation from one node to another. Reciprocal relations
// are drawn once, in their active form: "A supersedes B" stands for both A's
// "Supersedes B" and B's "Superseded by A".
type GraphEdge struct {
	From string       `json:"from"`
	To   string       `json:"to"`
	Type RelationType `json:"type"`
}

// GraphOptions filters the graph.
type GraphOptions struct {
	// Status keeps only records with this status ("" for all); edges are
	// kept when both ends are.
	Status Status
}

// Graph builds the relation graph. Nodes come in root order, then by
// number and ID; edges in the order of their source, then target, then
// type. Relations whose target resolves to no record are left out (`git adr
// check` reports them).
func (l *Log) Graph(opt GraphOptions) *Graph {
	g := &Graph{Nodes: []GraphNode{}, Edges: []GraphEdge{}}
	recs := l.Records
	idCount := map[string]int{}
	for _, r := range recs {
		idCount[r.ID]++
	}
	key := map[*Record]string{}
	order := map[*Record]int{}
	for _, r := range recs {
		if opt.Status != "" && r.Status != opt.Status {
			continue
		}
		k := r.ID
		if idCount[r.ID] > 1 {
			k = r.Locus()
		}
		key[r], order[r] = k, len(g.Nodes)
		title := r.Title
		if title == "" {
			title = baseOf(r.Path)
		}
		g.Nodes = append(g.Nodes, GraphNode{Key: k, ID: r.ID, Title: title, Status: r.Status, Path: r.Path, Archived: r.Archived})
	}
	type edge struct {
		from, to *Record
		typ      RelationType
	}
	seen := map[edge]bool{}
	var edges []edge
	for _, r := range recs {
		if _, ok := key[r]; !ok {
			continue
		}
		for _, rel := range r.Relations {
			if rel.TargetID == "" {
				continue
			}
			t := l.Target(r, rel.Target)
			if t == nil {
				continue
			}
			if _, ok := key[t]; !ok {
				continue
			}
			e := edge{r, t, rel.Type}
			switch rel.Type {
			case SupersededBy, AmendedBy, RefinedBy:
				e = edge{t, r, rel.Type.Reverse()}
			case RelatesTo:
				if order[t] < order[r] {
					e = edge{t, r, rel.Type}
				}
			}
			if !seen[e] {
				seen[e] = true
				edges = append(edges, e)
			}
		}
	}
	sort.SliceStable(edges, func(i, j int) bool {
		a, b := edges[i], edges[j]
		if order[a.from] != order[b.from] {
			return order[a.from] < order[b.from]
		}
		if order[a.to] != order[b.to] {
			return order[a.to] < order[b.to]
		}
		return a.typ < b.typ
	})
	for _, e := range edges {
		g.Edges = append(g.Edges, GraphEdge{From: key[e.from], To: key[e.to], Type: e.typ})
	}
	return g
}

// DOT renders the graph in Graphviz's language: boxes labelled with ID and
// title, archived records dashed and grey, edges labelled with the relation.
func (g *Graph) DOT() string {
	var b strings.Builder
	b.WriteString("digraph adr {\n")
	b.WriteString("  rankdir=LR;\n")
	b.WriteString("  node [shape=box];\n")
	for _, n := range g.Nodes {
		attrs := fmt.Sprintf("label=%s", dotLabel(Escape(n.ID)+"\n"+Escape(n.Title)))
		if n.Archived {
			attrs += `, style=dashed, color=gray50, fontcolor=gray50`
		}
		fmt.Fprintf(&b, "  %s [%s];\n", dotQuote(Escape(n.Key)), attrs)
	}
	for _, e := range g.Edges {
		fmt.Fprintf(&b, "  %s -> %s [label=%s];\n", dotQuote(Escape(e.From)), dotQuote(Escape(e.To)), dotLabel(Escape(string(e.Type))))
	}
	b.WriteString("}\n")
	return b.String()
}

// dotQuote writes a quoted DOT string: a backslash is doubled (so record
// text never forms an escape such as \l or \N), and a newline is a line
// break of the label. Control characters must be escaped first ([Escape]).
func dotQuote(s string) string {
	return `"` + dotEscaper.Replace(s) + `"`
}

// dotEscaper is dotQuote's replacer, made once: one made for every quoted
// string allocated most of what a graph of 10,000 records took.
var dotEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", "")

// Mermaid renders the graph as a Mermaid flowchart; archived records get
// the "archived" class.
func (g *Graph) Mermaid() string {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	ids := map[string]string{}
	used := map[string]bool{}
	for _, n := range g.Nodes {
		id := mermaidID(n.Key)
		for base, i := id, 2; used[id]; i++ {
			id = fmt.Sprintf("%s_%d", base, i)
		}
		used[id] = true
		ids[n.Key] = id
		fmt.Fprintf(&b, "  %s[\"%s\"]\n", id, mermaidText(n.ID+": "+n.Title))
	}
	for _, e := range g.Edges {
		fmt.Fprintf(&b, "  %s -->|%s| %s\n", ids[e.From], mermaidText(string(e.Type)), ids[e.To])
	}
	var archived []string
	for _, n := range g.Nodes {
		if n.Archived {
			archived = append(archived, ids[n.Key])
		}
	}
	if len(archived) > 0 {
		b.WriteString("  classDef archived stroke-dasharray: 5 5,color:#777777\n")
		fmt.Fprintf(&b, "  class %s archived\n", strings.Join(archived, ","))
	}
	return b.String()
}

// mermaidID turns a key into a Mermaid node ID: letters, digits and
// underscores, never a keyword or a leading digit.
func mermaidID(key string) string {
	var b strings.Builder
	for _, r := range key {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	id := b.String()
	if id == "" || id[0] >= '0' && id[0] <= '9' || id[0] == '_' {
		id = "n" + id
	}
	switch strings.ToLower(id) {
	case "end", "graph", "flowchart", "subgraph", "class", "classdef", "style", "click", "linkstyle", "direction":
		id = "n_" + id
	}
	return id
}

// dotLabel quotes a label: Graphviz decodes HTML entities in labels
// (&#x202e; would be a bidi override), so & is written as &amp;.
func dotLabel(s string) string { return dotQuote(strings.ReplaceAll(s, "&", "&amp;")) }

// mermaidText escapes a label for a quoted Mermaid string. Mermaid renders
// labels as HTML (and a label opening with a backtick as Markdown), so the
// characters that form tags, entities or Markdown strings are written as
// Mermaid's entity codes; control characters are escaped ([Escape]).
func mermaidText(s string) string {
	return mermaidEscaper.Replace(Escape(s))
}

var mermaidEscaper = strings.NewReplacer(`"`, "#quot;", "|", "#124;", "#", "#35;", "<", "#lt;", ">", "#gt;", "&", "#amp;", "`", "#96;")
