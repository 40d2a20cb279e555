package adr

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// supersession is an edge "from supersedes to", with the lines that say
// so ("path:line", one per side that writes it).
type supersession struct {
	to       *Record
	evidence []string
}

// supersessionEdges returns, per record, the records it supersedes, from
// either side's link ("A Supersedes B" or "B Superseded by A"), sorted.
func (c *checker) supersessionEdges() map[*Record][]supersession {
	edges := map[*Record][]supersession{}
	at := map[[2]*Record]int{}
	addEdge := func(from, to *Record, ev string) {
		k := [2]*Record{from, to}
		if i, ok := at[k]; ok {
			e := &edges[from][i]
			if !slices.Contains(e.evidence, ev) {
				e.evidence = append(e.evidence, ev)
			}
			return
		}
		at[k] = len(edges[from])
		edges[from] = append(edges[from], supersession{to, []string{ev}})
	}
	for _, r := range c.l.Records {
		for i, t := range c.targets[r] {
			if t == nil {
				continue
			}
			rel := r.Relations[i]
			switch rel.Type {
			case Supersedes:
				addEdge(r, t, fmt.Sprintf("%s:%d", r.Path, rel.Line))
			case SupersededBy:
				addEdge(t, r, fmt.Sprintf("%s:%d", r.Path, rel.Line))
			}
		}
	}
	for _, es := range edges {
		sort.SliceStable(es, func(i, j int) bool { return recordLess(es[i].to, es[j].to) })
	}
	return edges
}

// cycles reports every strongly connected set of records that supersede
// each other (Tarjan's algorithm, iterative, linear in records and links),
// naming one concrete cycle through its first record.
func (c *checker) cycles() {
	edges := c.supersessionEdges()
	if len(edges) == 0 {
		return
	}
	var nodes []*Record
	for r := range edges {
		nodes = append(nodes, r)
	}
	sortRecords(nodes)
	index := map[*Record]int{}
	low := map[*Record]int{}
	onStack := map[*Record]bool{}
	var stack []*Record
	next := 0
	type frame struct {
		r *Record
		i int
	}
	var sccs [][]*Record
	for _, start := range nodes {
		if _, ok := index[start]; ok {
			continue
		}
		work := []frame{{start, 0}}
		index[start], low[start] = next, next
		next++
		stack = append(stack, start)
		onStack[start] = true
		for len(work) > 0 {
			top := &work[len(work)-1]
			if top.i < len(edges[top.r]) {
				w := edges[top.r][top.i].to
				top.i++
				if _, ok := index[w]; !ok {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					work = append(work, frame{w, 0})
				} else if onStack[w] {
					low[top.r] = min(low[top.r], index[w])
				}
				continue
			}
			v := top.r
			work = work[:len(work)-1]
			if len(work) > 0 {
				p := work[len(work)-1].r
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				var scc []*Record
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					scc = append(scc, w)
					if w == v {
						break
					}
				}
				if len(scc) > 1 || selfLoop(edges, v) {
					sccs = append(sccs, scc)
				}
			}
		}
	}
	for _, scc := range sccs {
		c.reportCycle(scc, edges)
	}
}

func selfLoop(edges map[*Record][]supersession, r *Record) bool {
	for _, e := range edges[r] {
		if e.to == r {
			return true
		}
	}
	return false
}

// reportCycle finds the shortest cycle through the first record of scc
// (breadth-first within it) and reports it.
func (c *checker) reportCycle(scc []*Record, edges map[*Record][]supersession) {
	sortRecords(scc)
	in := map[*Record]bool{}
	for _, r := range scc {
		in[r] = true
	}
	start := scc[0]
	type step struct {
		prev *Record
		ev   []string
	}
	from := map[*Record]step{}
	queue := []*Record{start}
	var lastEv []string
	var last *Record
	for len(queue) > 0 && last == nil {
		v := queue[0]
		queue = queue[1:]
		for _, e := range edges[v] {
			if !in[e.to] {
				continue
			}
			if e.to == start {
				last, lastEv = v, e.evidence
				break
			}
			if _, ok := from[e.to]; !ok {
				from[e.to] = step{v, e.evidence}
				queue = append(queue, e.to)
			}
		}
	}
	if last == nil {
		return
	}
	path := []*Record{start}
	evs := [][]string{lastEv}
	for v := last; v != start; v = from[v].prev {
		path = append(path, v)
		evs = append(evs, from[v].ev)
	}
	// path is start, then the cycle backwards: reverse all but start.
	for i, j := 1, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	slices.Reverse(evs)
	var ids, words, links []string
	for i, r := range path {
		ids = append(ids, r.ID)
		words = append(words, r.ID)
		next := start
		if i+1 < len(path) {
			next = path[i+1]
		}
		links = append(links, fmt.Sprintf("%s supersedes %s at %s", r.ID, next.ID, strings.Join(evs[i], " and ")))
	}
	words = append(words, start.ID)
	line := 0
	for _, ev := range evs[0] {
		if p, l, ok := splitEvidence(ev); ok && p == start.Path {
			line = l
			break
		}
	}
	c.add(Finding{
		Kind: KindCycle, Path: start.Path, Line: line, IDs: ids,
		Message: "supersession cycle: " + strings.Join(words, " supersedes "),
		Fix:     "decide which record is current and remove one supersession, on every line that states it: " + strings.Join(links, "; "),
	})
}

func splitEvidence(ev string) (string, int, bool) {
	i := strings.LastIndexByte(ev, ':')
	if i < 0 {
		return "", 0, false
	}
	n := 0
	for _, ch := range ev[i+1:] {
		n = n*10 + int(ch-'0')
	}
	return ev[:i], n, true
}
