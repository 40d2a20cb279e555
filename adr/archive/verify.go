package archive

import (
	"bytes"
	"io/fs"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
)

// verify proves the plan changes nothing but locations: every record
// keeps its ID, status, title and units (only the moved ones change
// whether they are archived), and every rewritten Markdown file differs
// from before only in how its link destinations are written, each still
// reaching the file it reached.
func (pl *planner) verify(after *adr.Log) {
	for _, r := range pl.before.Records {
		to := pl.mv.where(r.Path)
		n := after.ByPath(to)
		_, moved := pl.mv.moves[r.Path]
		want := r.Archived != moved
		switch {
		case n == nil && r.Root != nil && r.Root.Source == "detected":
			pl.block("after the move, %s would not be read as a record at %s: %s is a detected root, and too few records would be left in it to detect it; pin it first with `git adr init --dir %s`", r.ID, to, r.Root.Dir(), r.Root.Dir())
		case n == nil:
			pl.block("after the move, %s would not be read as a record at %s", r.ID, to)
		case n.ID != r.ID:
			pl.block("after the move, %s at %s would be read as %s", r.ID, to, n.ID)
		case n.Status != r.Status || n.Title != r.Title || len(n.Units()) != len(r.Units()):
			pl.block("after the move, %s would read differently (status, title or sections)", r.ID)
		case n.Archived != want:
			pl.block("after the move, %s would not be read as %s", r.ID, map[bool]string{true: "archived", false: "live"}[want])
		}
	}
	for _, c := range pl.files {
		if c.kind == FileIndex || c.kind == FileView || c.exact {
			continue
		}
		from := c.path
		if c.from != "" {
			from = c.from
		}
		if pl.mv.normalize(adr.NewText(c.old), from, true) != pl.mv.normalize(adr.NewText(c.data), c.path, false) {
			pl.block("rewriting %s would change more than where its links point (a bug: please report it)", c.path)
		}
	}
}

// measure decides between one commit and two with git's own rename
// detection, the one `git log --follow` uses: one commit when every moved
// file is found as a rename with its rewrite in the same commit; else the
// tracked rename first, alone, and the rewriting second.
func (pl *planner) measure() ([][]gitops.TreeChange, error) {
	all := pl.changes()
	tree, err := pl.repo.BuildTree(pl.req.Base, all)
	if err != nil {
		return nil, err
	}
	found, err := pl.repo.Renames(pl.req.Base, tree)
	if err != nil {
		return nil, err
	}
	one := true
	for _, m := range pl.p.Records {
		c := pl.files[m.To]
		s := Similarity{Path: m.To, Changed: c != nil && !bytes.Equal(c.old, c.data), Followed: found[m.To] == m.From}
		one = one && s.Followed
		pl.p.Similarity = append(pl.p.Similarity, s)
	}
	if one {
		pl.p.Commits = 1
		return [][]gitops.TreeChange{all}, nil
	}
	pl.p.Commits = 2
	var renames, rewrites []gitops.TreeChange
	for _, c := range all {
		if c.From == "" {
			rewrites = append(rewrites, c)
			continue
		}
		orig, err := fs.ReadFile(pl.base, c.From)
		if err != nil {
			return nil, err
		}
		renames = append(renames, gitops.TreeChange{Path: c.Path, From: c.From, Data: orig, Mode: c.Mode})
		if !bytes.Equal(orig, c.Data) {
			rewrites = append(rewrites, gitops.TreeChange{Path: c.Path, Data: c.Data, Mode: c.Mode})
		}
	}
	return [][]gitops.TreeChange{renames, rewrites}, nil
}
