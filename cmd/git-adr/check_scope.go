package main

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

// scopeFindings are check's staleness signals, all warnings: review_by
// dates passed, proposals left open, code scope that no longer resolves,
// markers naming no record, and decisions in force whose code changed a
// lot since they were accepted. rev is the commit l was read from ("" for
// the work tree, or HEAD in a bare repository): the files, markers and
// history are that commit's.
func scopeFindings(env *Env, l *adr.Log, rev string) ([]adr.Finding, error) {
	r, err := env.Repo()
	if err != nil {
		return nil, err
	}
	cfg := l.Config
	if cfg == nil {
		cfg = &adr.Config{}
	}
	var out []adr.Finding
	warn := func(k adr.FindingKind, rec *adr.Record, path string, line int, msg, fix string) {
		ids := []string{}
		if rec != nil {
			ids = []string{rec.ID}
		}
		out = append(out, adr.Finding{Kind: k, Path: path, Line: line, IDs: ids, Message: msg, Fix: fix, Warning: true})
	}
	now := adr.TodayTime()
	for _, rec := range l.Records {
		for _, st := range rec.OwnStaleness(now, cfg.Check.StaleProposalDays) {
			switch st.Kind {
			case adr.KindReviewDue:
				warn(st.Kind, rec, rec.Path, 0, fmt.Sprintf("%s was to be reviewed by %s", rec.ID, st.Date),
					fmt.Sprintf("review it: confirm it with a new review_by date, or supersede it (`git adr new TITLE --supersedes %s`)", rec.ID))
			case adr.KindStaleProposal:
				warn(st.Kind, rec, rec.Path, 0, fmt.Sprintf("%s has been proposed since %s (%d days)", rec.ID, st.Date, st.Days),
					fmt.Sprintf("decide it: `git adr decide %s accept` or `git adr decide %s reject`", rec.ID, rec.ID))
			}
		}
	}
	x, err := scopeIndexAt(env, l, rev)
	if err != nil {
		return nil, err
	}
	for _, p := range x.Problems {
		fix := "correct the pattern (doublestar syntax: `payments/**`, `cmd/*.go`)"
		if p.Record == nil {
			fix = "correct the ID in the [[scope]] table of " + adr.ConfigFile + " (`git adr list` shows the IDs)"
		}
		warn(adr.KindScopeInvalid, p.Record, p.Path, 0, p.Message, fix)
	}
	for _, m := range x.Unknown {
		warn(adr.KindMarkerUnknown, nil, m.Path, m.Line, fmt.Sprintf("the marker %q names no record", m.Ref), "correct or remove the marker (`git adr list` shows the IDs)")
	}
	files, err := trackedFilesAt(r, rev)
	if err != nil {
		return nil, err
	}
	for _, m := range x.Unmatched(files) {
		warn(adr.KindScopeUnmatched, m.Record, m.Record.Path, 0, fmt.Sprintf("%s declares %s, which matches no tracked file", m.Record.ID, m.Why),
			"correct the pattern, or remove it if the code is gone (and consider whether the decision still holds)")
	}
	if churn := churnLimit(cfg); churn > 0 && !r.Bare {
		out = append(out, churnFindings(r, l, x, churn, rev)...)
	}
	return out, nil
}

// churnFindings reports accepted records with a declared scope whose
// governed files changed in more than limit commits since the record was
// added: non-merge commits reachable from HEAD and not from the commit
// that added the record, whatever their branch. Three git commands answer
// it for every record at once (the commits that added the records, the
// commits that changed any governed folder, and the commit graph), so a
// log of thousands of scoped records costs no more processes than one.
func churnFindings(r *gitops.Repo, l *adr.Log, x *scope.Index, limit int, rev string) []adr.Finding {
	order, globs := scopedInForce(x.Patterns())
	var counts map[*adr.Record]int
	var added map[string]string
	if rev == "" {
		counts, added = cachedChurn(r, l, order, globs)
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
		roots = append(roots, ":(literal)"+root.Dir())
	}
	out, err := r.Git(append([]string{"log", "-z", "--no-renames", "--diff-filter=A", "--format=%x01%H", "--name-only", rev, "--"}, roots...)...)
	if err != nil {
		return nil, nil // no commit yet, or no history to read
	}
	added := map[string]string{} // record path -> newest commit that added it
	for _, c := range logCommits(out) {
		for _, f := range c.files {
			if _, ok := added[f]; !ok {
				added[f] = c.hash
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
	args := []string{"log", "-z", "--no-merges", "--no-renames", "--full-history", "--format=%x01%H", "--name-only", rev}
	if !spec[""] && len(spec) <= maxChurnFolders {
		args = append(args, "--")
		for _, d := range slices.Sorted(maps.Keys(spec)) {
			args = append(args, ":(literal)"+d)
		}
	}
	if out, err = r.Git(args...); err != nil {
		return nil, nil
	}
	changes := logCommits(out)
	graph, err := r.Git("rev-list", "--parents", rev)
	if err != nil {
		return nil, nil
	}
	g := parseCommitGraph(graph)
	return churnCounts(order, globs, added, changes, g), added
}

// logCommit is a commit of `git log -z --format=%x01%H --name-only`
// output with the files it names.
type logCommit struct {
	hash  string
	files []string
}

func logCommits(out []byte) []logCommit {
	var cs []logCommit
	first := false
	for _, tok := range strings.Split(string(out), "\x00") {
		switch {
		case strings.HasPrefix(tok, "\x01"):
			cs = append(cs, logCommit{hash: tok[1:]})
			first = true
		case len(cs) == 0:
		default:
			if first {
				// The name list starts after the header's newline.
				tok, first = strings.TrimPrefix(tok, "\n"), false
			}
			if tok != "" {
				cs[len(cs)-1].files = append(cs[len(cs)-1].files, tok)
			}
		}
	}
	return cs
}

// commitGraph is `git rev-list --parents` output: each commit's parents,
// by index.
type commitGraph struct {
	index   map[string]int
	parents [][]int
}

func parseCommitGraph(out []byte) *commitGraph {
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
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		c := id(f[0])
		for _, p := range f[1:] {
			g.parents[c] = append(g.parents[c], id(p))
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
func churnCounts(recs []*adr.Record, globs map[*adr.Record][]string, added map[string]string, changes []logCommit, g *commitGraph) map[*adr.Record]int {
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
				if i, ok := g.index[ch.hash]; !ok || mark[i] {
					continue
				}
				if touches(ch.files, globs[rec]) {
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

// trackedFiles lists the repository's tracked files (HEAD's in a bare
// repository).
func trackedFiles(r *gitops.Repo) ([]string, error) { return trackedFilesAt(r, "") }

// trackedFilesAt lists the files of commit rev, or with rev "" the
// repository's tracked files (HEAD's in a bare repository).
func trackedFilesAt(r *gitops.Repo, rev string) ([]string, error) {
	var out []byte
	var err error
	if rev == "" && r.Bare {
		rev = "HEAD"
	}
	if rev != "" {
		out, err = r.Git("ls-tree", "-r", "-z", "--name-only", rev)
	} else {
		out, err = r.Git("ls-files", "-z")
	}
	if err != nil {
		return nil, err
	}
	return strings.FieldsFunc(string(out), func(c rune) bool { return c == 0 }), nil
}
