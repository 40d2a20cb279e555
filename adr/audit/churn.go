package audit

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/scope"
	"github.com/git-adr/git-adr/gitops"
)

// churnFindings reports accepted records with a declared scope whose
// governed files changed in more than limit commits since the record was
// added: non-merge commits reachable from HEAD and not from the commit
// that added the record, whatever their branch. Three git commands answer
// it for every record at once (the commits that added the records, the
// commits that changed any governed folder, and the commit graph), so a
// log of thousands of scoped records costs no more processes than one.
func churnFindings(r *gitops.Repo, l *adr.Log, x *scope.Index, limit int, rev string) []adr.Finding {
	order, globs := ScopedInForce(x.Patterns())
	var counts map[*adr.Record]int
	var added map[string]string
	if rev == "" {
		counts, added = CachedChurn(r, l, order, globs)
	} else {
		// Another commit's counts (a pull request's base): counted, not
		// cached, so that HEAD's stay in the cache.
		counts, added = churnOf(r, l, order, globs, rev)
	}
	var found []adr.Finding
	for _, rec := range order {
		count, ok := counts[rec]
		if !ok || count <= limit {
			continue
		}
		pats := strings.Join(globs[rec], ", ")
		found = append(found, adr.Finding{Kind: adr.KindScopeChurn, Path: rec.Path, IDs: []string{rec.ID}, Warning: true,
			Message: fmt.Sprintf("%s is in force, and the code it governs (%s) changed in %d commits since it was recorded", rec.ID, pats, count),
			Fix:     fmt.Sprintf("check that it still describes the code (`git adr log %s`, `git log --oneline --no-merges %s..HEAD -- %s`); the threshold is [check] churn_commits", rec.ID, short(added[rec.Path]), strings.Join(globs[rec], " "))})
	}
	return found
}

// maxChurnFolders is the most folders churnOf names to git (a command
// line has a length limit: 32 KiB on Windows).
const maxChurnFolders = 200

// churnOf counts, for each of order (accepted records with the patterns
// globs gives them), the non-merge commits since the commit that added
// it that changed a file its patterns match, and says which commit added
// each (by path), in the history of rev ("" for HEAD). Three git commands
// answer it for all of them.
func churnOf(r *gitops.Repo, l *adr.Log, order []*adr.Record, globs map[*adr.Record][]string, rev string) (map[*adr.Record]int, map[string]string) {
	if len(order) == 0 {
		return nil, nil
	}
	if rev == "" {
		rev = "HEAD"
	}
	var roots []string
	for _, root := range l.Roots {
		roots = append(roots, root.Dir())
	}
	adds, err := r.AddedFiles(rev, roots)
	if err != nil {
		return nil, nil // no commit yet, or no history to read
	}
	added := map[string]string{} // record path -> newest commit that added it
	for _, c := range adds {
		for _, f := range c.Files {
			if _, ok := added[f]; !ok {
				added[f] = c.Hash
			}
		}
	}
	// The walk is limited to the folders the patterns start with (a
	// superset of what they match: git's glob syntax is not doublestar's),
	// or not limited when a pattern starts with a wildcard, or when the
	// folders are too many to name on one command line.
	spec := map[string]bool{}
	for _, rec := range order {
		for _, g := range globs[rec] {
			spec[scope.Folder(g)] = true
		}
	}
	var dirs []string
	if !spec[""] && len(spec) <= maxChurnFolders {
		dirs = slices.Sorted(maps.Keys(spec))
	}
	changes, err := r.ChangedFiles(rev, dirs)
	if err != nil {
		return nil, nil
	}
	history, err := r.History(rev)
	if err != nil {
		return nil, nil
	}
	return churnCounts(order, globs, added, changes, newCommitGraph(history)), added
}

// commitGraph is a history's commits with each one's parents, by index.
type commitGraph struct {
	index   map[string]int
	parents [][]int
}

func newCommitGraph(history []gitops.CommitParents) *commitGraph {
	g := &commitGraph{index: map[string]int{}}
	id := func(h string) int {
		i, ok := g.index[h]
		if !ok {
			i = len(g.parents)
			g.index[h] = i
			g.parents = append(g.parents, nil)
		}
		return i
	}
	for _, c := range history {
		n := id(c.Hash)
		for _, p := range c.Parents {
			g.parents[n] = append(g.parents[n], id(p))
		}
	}
	return g
}

// ancestors marks c and every commit reachable from it.
func (g *commitGraph) ancestors(c int, mark []bool) {
	stack := []int{c}
	mark[c] = true
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range g.parents[n] {
			if !mark[p] {
				mark[p] = true
				stack = append(stack, p)
			}
		}
	}
}

// churnCounts counts, for each record that a commit of the graph added,
// the changes (non-merge commits and their files) outside that commit's
// ancestry that touch a file its patterns match.
func churnCounts(recs []*adr.Record, globs map[*adr.Record][]string, added map[string]string, changes []gitops.LogCommit, g *commitGraph) map[*adr.Record]int {
	bySince := map[int][]*adr.Record{}
	var sinces []int
	for _, rec := range recs {
		c, ok := g.index[added[rec.Path]]
		if !ok {
			continue // not added in HEAD's history
		}
		if len(bySince[c]) == 0 {
			sinces = append(sinces, c)
		}
		bySince[c] = append(bySince[c], rec)
	}
	counts := map[*adr.Record]int{}
	mark := make([]bool, len(g.parents))
	for _, s := range sinces {
		clear(mark)
		g.ancestors(s, mark)
		for _, rec := range bySince[s] {
			n := 0
			for _, ch := range changes {
				if i, ok := g.index[ch.Hash]; !ok || mark[i] {
					continue
				}
				if touches(ch.Files, globs[rec]) {
					n++
				}
			}
			counts[rec] = n
		}
	}
	return counts
}

func touches(files, patterns []string) bool {
	for _, f := range files {
		for _, p := range patterns {
			if ok, _ := doublestar.Match(p, f); ok {
				return true
			}
		}
	}
	return false
}

// ScopedInForce are the accepted, live records among a scope index's
// patterns (applies_to and [[scope]]) with their normalised patterns, in
// log order.
func ScopedInForce(patterns []scope.Match) ([]*adr.Record, map[*adr.Record][]string) {
	globs := map[*adr.Record][]string{}
	var order []*adr.Record
	for _, m := range patterns {
		rec := m.Record
		if rec.Archived || rec.Status != adr.Accepted {
			continue
		}
		if _, ok := globs[rec]; !ok {
			order = append(order, rec)
		}
		globs[rec] = append(globs[rec], m.Path)
	}
	return order, globs
}

// ChurnLimit is [check] churn_commits: adr.DefaultChurnCommits when
// unset, negative for never.
func ChurnLimit(cfg *adr.Config) int {
	if cfg == nil || cfg.Check.ChurnCommits == 0 {
		return adr.DefaultChurnCommits
	}
	return cfg.Check.ChurnCommits
}
