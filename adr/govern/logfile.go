package govern

import (
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
)

// logFile reports a path that is a single-file log, in the next state or
// the base.
func (j *judge) logFile(p string) bool {
	for _, l := range []*adr.Log{j.next, j.base} {
		if l == nil {
			continue
		}
		for _, r := range l.LogFiles() {
			if r.Path == p {
				return true
			}
		}
	}
	return false
}

// sections are the records of log l that are sections of the file at p,
// by ID; IDs two sections carry are left out (check reports them).
func sections(l *adr.Log, p string) (map[string]*adr.Record, []string) {
	out := map[string]*adr.Record{}
	var order []string
	twice := map[string]bool{}
	if l == nil {
		return out, nil
	}
	for _, r := range l.Records {
		if !r.InLogFile() || r.Path != p {
			continue
		}
		if _, ok := out[r.ID]; ok {
			twice[r.ID] = true
			continue
		}
		out[r.ID] = r
		order = append(order, r.ID)
	}
	kept := order[:0]
	for _, id := range order {
		if twice[id] {
			delete(out, id)
		} else {
			kept = append(kept, id)
		}
	}
	return out, kept
}

// logChange judges a change of a single-file log section by section,
// matched by ID: a section that is gone is a deleted record, one that is
// there in both is judged as an edit. git-adr writes no section, so every
// fix is an edit by hand.
func (j *judge) logChange(c gitops.DiffEntry) {
	from := c.Path
	if c.Status == 'R' {
		from = c.OldPath
	}
	was, order := map[string]*adr.Record{}, []string(nil)
	if c.Status != 'A' && c.Status != 'C' {
		was, order = sections(j.base, from)
	}
	now := map[string]*adr.Record{}
	if c.Status != 'D' {
		now, _ = sections(j.next, c.Path)
	}
	restore := "`git restore --staged --worktree -- " + adr.ShellWord(from) + "` restores the file"
	for _, id := range order {
		w := was[id]
		n, ok := now[id]
		if !ok {
			j.add(Problem{Rule: RuleDeleted, Path: from, Line: sectionLine(w),
				Message: fmt.Sprintf("%s (%s), a section of the single-file log %s, is deleted", w.ID, w.Title, from),
				Fix:     fmt.Sprintf("decisions are never deleted (their IDs are forever): put the section back (%s) and mark it superseded or deprecated instead", restore),
				Block:   true})
			continue
		}
		j.rep.Checked++
		before := len(j.rep.Problems)
		j.edited(w, n)
		for i := before; i < len(j.rep.Problems); i++ {
			p := &j.rep.Problems[i]
			switch p.Rule {
			case RuleAcceptedEdit:
				p.Fix = fmt.Sprintf("an accepted decision changes by a new decision: add a section that supersedes %s and keep %s as it was (%s)", w.ID, w.ID, restore)
			case RuleLifecycle:
				p.Fix = fmt.Sprintf("keep the status of %s as it was (%s)", w.ID, restore)
			}
		}
	}
}

func sectionLine(r *adr.Record) int {
	from, _ := r.LineRange()
	return from
}
