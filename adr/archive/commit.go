package archive

import (
	"fmt"
	"path"
	"strings"

	"github.com/git-adr/git-adr/adr/publish"
	"github.com/git-adr/git-adr/gitops"
)

// Publication turns a prepared plan's steps into the commits that carry
// it out. With two steps the first commit is the tracked rename alone,
// the second the link rewriting; the last commit carries the plan's
// trailer (see [Plan.Trailer]), so an interrupted run is found and
// finished rather than repeated, and one line per moved record.
func Publication(p *Plan, steps [][]gitops.TreeChange) []publish.Step {
	verb, into := "Archive", "into "+destination(p)
	if p.Kind == KindRestore {
		verb, into = "Restore", "out of the archive"
	}
	ids := joinIDs(p.IDs(), 4)
	links, files := p.Links()
	var body strings.Builder
	fmt.Fprintf(&body, "%d link destinations rewritten in %d files", links, files)
	if len(p.Generated) > 0 {
		var gs []string
		for _, g := range p.Generated {
			gs = append(gs, path.Base(g.Path))
		}
		fmt.Fprintf(&body, "; %s refreshed without a model", strings.Join(dedupe(gs), " and "))
	}
	body.WriteString(".\n")
	if p.Kind == KindRestore {
		body.WriteString("Restoring a location does not restore a superseded decision's authority:\nevery record keeps its status.\n")
	} else {
		fmt.Fprintf(&body, "The exact inverse is `%s`.\n", p.Inverse)
	}
	var trailers strings.Builder
	fmt.Fprintf(&trailers, "\n%s\n", p.Trailer())
	for _, m := range p.Records {
		fmt.Fprintf(&trailers, "ADR-%sd: %s %s -> %s\n", verb, m.ID, m.From, m.To)
	}
	if len(steps) == 1 {
		msg := fmt.Sprintf("%s %s: move %s and repair the links\n\n%s", verb, ids, into, body.String()) +
			"Git follows every rename through this commit (measured with its rename\ndetection), so `git log --follow` keeps each record's history.\n" + trailers.String()
		return []publish.Step{{Message: msg, Changes: steps[0]}}
	}
	rename := fmt.Sprintf("%s %s: move %s (rename only)\n\n", verb, ids, into) +
		"The tracked rename alone, so that `git log --follow` keeps each record's\nhistory; the next commit repairs the links.\n\n" +
		fmt.Sprintf("%s-Rename: %s@%d\n", strings.SplitN(p.Trailer(), ":", 2)[0], p.ID, p.Revision)
	rewrite := fmt.Sprintf("%s %s: repair the links\n\n%s", verb, ids, body.String()) + trailers.String()
	return []publish.Step{{Message: rename, Changes: steps[0]}, {Message: rewrite, Changes: steps[1]}}
}

// destination names where a plan's records go: one folder, or "the
// archive" when they go to several.
func destination(p *Plan) string {
	dir := ""
	for _, m := range p.Records {
		d := path.Dir(m.To) + "/"
		if dir != "" && d != dir {
			return "the archive"
		}
		dir = d
	}
	return dir
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// Changes are a done plan's files as tree changes, their content read
// from commit (the plan's last commit), to finish an interrupted run.
func Changes(repo *gitops.Repo, p *Plan, commit string) ([]gitops.TreeChange, error) {
	var out []gitops.TreeChange
	for _, f := range p.Files {
		data, err := repo.ReadBlobAt(commit, f.Path)
		if err != nil {
			return nil, err
		}
		out = append(out, gitops.TreeChange{Path: f.Path, From: f.From, Data: data, Mode: f.Mode})
	}
	return out, nil
}
