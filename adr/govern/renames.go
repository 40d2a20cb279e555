package govern

import (
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
)

// RuleArchivedInForce: a record still in force (accepted) was moved into
// archive/ by hand. `git adr archive` moves only wholly retired records;
// a plain `git mv` into archive/ would take a binding decision out of
// every view of the log without a successor.
const RuleArchivedInForce Rule = "archived-in-force"

// followIDs pairs the two sides of a change by record: git's rename
// detection pairs files by content, so two records that swap contents
// while they move (into archive/, to new names, to other letter cases)
// would each be judged against the other's text, and an edit of either
// would pass as a plain move. Each record that leaves a path (deleted or
// renamed away) is paired with the record of the same ID, in the same
// root, that arrives at a path (added or renamed to); only when a record
// has no such counterpart (it was renumbered, or its ID is not unique on
// either side) does git's pairing stand.
func (j *judge) followIDs(changes []gitops.DiffEntry) []gitops.DiffEntry {
	if j.base == nil {
		return changes
	}
	type side struct {
		path  string
		entry int // index in changes
		key   string
	}
	var olds, news []side
	oldKeys, newKeys := map[string]int{}, map[string]int{}
	key := func(r *adr.Record) string {
		root := ""
		if r.Root != nil {
			root = r.Root.Path
		}
		return root + "\x00" + r.ID
	}
	for i, c := range changes {
		if c.Status == 'D' || c.Status == 'R' {
			from := c.Path
			if c.Status == 'R' {
				from = c.OldPath
			}
			if was := j.base.ByPath(from); was != nil {
				olds = append(olds, side{path: from, entry: i, key: key(was)})
				oldKeys[key(was)]++
			}
		}
		if c.Status == 'A' || c.Status == 'R' {
			if now := j.next.ByPath(c.Path); now != nil {
				news = append(news, side{path: c.Path, entry: i, key: key(now)})
				newKeys[key(now)]++
			}
		}
	}
	pairs := map[string]string{} // old path -> new path, by ID
	differs := false
	for _, o := range olds {
		if oldKeys[o.key] != 1 || newKeys[o.key] != 1 {
			continue
		}
		for _, n := range news {
			if n.key == o.key {
				pairs[o.path] = n.path
				differs = differs || n.entry != o.entry
			}
		}
	}
	if !differs {
		return changes
	}
	taken := map[string]bool{}
	for _, to := range pairs {
		taken[to] = true
	}
	out := make([]gitops.DiffEntry, 0, len(changes))
	for _, c := range changes {
		from, to := c.OldPath, c.Path
		switch c.Status {
		case 'R':
		case 'D':
			from, to = c.Path, ""
		case 'A':
			from = ""
		default:
			out = append(out, c)
			continue
		}
		paired, byID := pairs[from]
		switch {
		case from == "":
		case byID:
			out = append(out, gitops.DiffEntry{Status: 'R', OldPath: from, Path: paired})
		case to == "" || taken[to]:
			out = append(out, gitops.DiffEntry{Status: 'D', Path: from})
		default: // a rename neither side of which has a counterpart by ID
			out = append(out, c)
			continue
		}
		if to != "" && !taken[to] {
			out = append(out, gitops.DiffEntry{Status: 'A', Path: to})
		}
	}
	return out
}

// archivedInForce refuses a record that leaves the live log for archive/
// while it is still accepted: only `git adr archive` moves records there,
// and only wholly retired ones.
func (j *judge) archivedInForce(was, now *adr.Record) {
	if was.Archived || !now.Archived || now.Status != adr.Accepted {
		return
	}
	j.add(Problem{Rule: RuleArchivedInForce, Path: now.Path, Line: now.StatusField.Line + 1,
		Message: fmt.Sprintf("%s is accepted and in force, and the change moves it into the archive", was.ID),
		Fix: fmt.Sprintf("only retired records are archived, with `git adr archive`: put it back (`git restore --staged --worktree -- %s %s`), retire it first (`git adr new TITLE --supersedes %s`, or `git adr decide %s deprecate`), then `git adr archive %s`",
			adr.ShellWord(was.Path), adr.ShellWord(now.Path), was.ID, was.ID, was.ID),
		Block: true})
}
