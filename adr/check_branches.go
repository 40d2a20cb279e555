package adr

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// branchDuplicates reports numbers of ours that another branch uses for a
// different file in the same root: git merges both files without a
// conflict and the log ends up with two records of one ID. The same path on
// both sides is one record, and a file already in the merge base was
// renamed or deleted on one side rather than added twice.
func (c *checker) branchDuplicates() {
	if len(c.opt.Branches) == 0 {
		return
	}
	theirs := map[string]map[string]bool{} // ref -> paths
	for _, b := range c.opt.Branches {
		if theirs[b.Ref] == nil {
			theirs[b.Ref] = map[string]bool{}
		}
		theirs[b.Ref][b.Path] = true
	}
	type hit struct {
		our   *Record
		their string
	}
	var hits []hit
	refs := map[hit][]string{}
	for _, b := range c.opt.Branches {
		if c.l.byPath[b.Path] != nil {
			continue
		}
		for _, r := range c.sameNumber(b.Root, b.Number, b.Suffix) {
			if theirs[b.Ref][r.Path] {
				continue // their own duplicate; their check reports it
			}
			if base := c.mergeBase(b.Ref); base != nil && (exists(base, r.Path) || exists(base, b.Path)) {
				continue
			}
			h := hit{r, b.Path}
			if _, ok := refs[h]; !ok {
				hits = append(hits, h)
			}
			refs[h] = append(refs[h], b.Ref)
		}
	}
	for _, h := range hits {
		rs := refs[h]
		sort.Strings(rs)
		r := h.our
		otherDefault := false
		var names []string
		for _, ref := range rs {
			names = append(names, ShortRef(ref))
			if c.opt.IsDefaultRef != nil && c.opt.IsDefaultRef(ref) {
				otherDefault = true
			}
		}
		where := "branch " + names[0]
		if len(names) > 1 {
			where = "branches " + strings.Join(names, ", ")
		}
		f := Finding{
			Kind: KindDuplicateIDBranch, Path: r.Path, Line: titleLine(r), IDs: []string{r.ID},
			Message: fmt.Sprintf("%s is also used by %s on %s", r.ID, h.their, where),
		}
		if c.opt.OnDefaultBranch && !otherDefault {
			// The default branch has it; the other branch is the unmerged
			// side and must move.
			f.Message += "; that branch is not merged yet, so it must renumber"
			f.Fix = fmt.Sprintf("git switch %s && git adr renumber %s", switchName(rs[0]), r.Root.FormatID(r.Number))
		} else {
			f.Message += "; this branch is not merged yet, so it must renumber"
			f.Fix = "git adr renumber " + c.ref(r)
		}
		c.add(f)
	}
}

func (c *checker) mergeBase(ref string) fs.FS {
	if c.opt.MergeBase == nil {
		return nil
	}
	if b, ok := c.mergeBases[ref]; ok {
		return b
	}
	b := c.opt.MergeBase(ref)
	c.mergeBases[ref] = b
	return b
}

func exists(fsys fs.FS, p string) bool {
	_, err := fs.Stat(fsys, p)
	return err == nil
}

// ShortRef is how git names a branch ref for people: "feature" for
// refs/heads/feature, "origin/feature" for refs/remotes/origin/feature.
func ShortRef(ref string) string {
	for _, p := range []string{"refs/heads/", "refs/remotes/"} {
		if strings.HasPrefix(ref, p) {
			return ref[len(p):]
		}
	}
	return ref
}

// switchName is the name `git switch` takes for a ref: a remote-tracking
// branch "origin/feature" is switched to as "feature" (git creates the
// local branch tracking it).
func switchName(ref string) string {
	if strings.HasPrefix(ref, "refs/remotes/") {
		s := ref[len("refs/remotes/"):]
		if i := strings.IndexByte(s, '/'); i >= 0 {
			return s[i+1:]
		}
	}
	return ShortRef(ref)
}
