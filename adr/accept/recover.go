package accept

import (
	"strings"

	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/publish"
	"github.com/git-adr/git-adr/gitops"
)

// Recovered is an interrupted acceptance that [FinishPending] finished
// or cleared.
type Recovered struct {
	// What names it: "the acceptance of plan s-1a2b@2" or "the
	// acceptance of ADR-0004, ADR-0005".
	What string
	// Cleared: its commit never reached the branch, so nothing was
	// accepted and only its journal was removed.
	Cleared bool
	// Commit is its acceptance commit (finished only).
	Commit string
	// Plan is the plan revision it accepted ("" for a decision).
	Plan string
	// ArchivePending is the archive plan its archive part names when that
	// part is neither done nor skipped yet.
	ArchivePending string
}

// FinishPending finishes the acceptances js (read by [Pending] from
// dir) that interrupted runs left: one whose commit is on the branch gets
// its work tree files, its plan record and its ref cleanup (from the
// commit itself, never recomputed); one whose commit never reached the
// branch accepted nothing, and its journal is cleared. The caller holds
// the lock. An error of the plan store is returned as it is.
func FinishPending(r *gitops.Repo, js []*Journal, dir, journalDir, command string) ([]Recovered, error) {
	store := &compaction.Store{Repo: r}
	var out []Recovered
	for _, j := range js {
		rc := Recovered{What: "the acceptance of " + strings.Join(j.Accepted, ", "), Plan: j.Plan}
		if j.Plan != "" {
			rc.What = "the acceptance of plan " + j.Plan
		}
		if !j.Committed(r) {
			j.Remove(dir)
			rc.Cleared = true
			out = append(out, rc)
			continue
		}
		if head, err := r.ResolveRef("HEAD"); err == nil && head == j.Commit {
			changes, err := CommitChanges(r, j.Commit)
			if err != nil {
				return nil, err
			}
			if _, err := publish.Sync(r, j.Commit+"^", j.Commit, changes, journalDir, command); err != nil {
				return nil, err
			}
		}
		if id, _, ok := strings.Cut(j.Plan, "@"); ok {
			p, commit, err := store.Load(id)
			if err != nil {
				return nil, err
			}
			if _, err := Finish(Input{Repo: r, Store: store}, p, commit, j.Commit, dir); err != nil {
				return nil, err
			}
		}
		j.Remove(dir)
		rc.Commit = j.Commit
		if st, err := ArchiveOf(r, j.Commit); err == nil && st.Plan != "" && st.Done == nil && st.Skipped == "" {
			rc.ArchivePending = st.Plan
		}
		out = append(out, rc)
	}
	return out, nil
}
