package workflow

import (
	"encoding/json"
	"fmt"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/gitops"
)

// DraftConflictError means a reserved path holds a file that is not the
// draft Save drafts only would write there; nothing is saved.
type DraftConflictError struct{ Path, ID string }

func (e *DraftConflictError) Error() string {
	return fmt.Sprintf("%s exists and is not the draft of %s; nothing was saved", e.Path, e.ID)
}

// SaveDrafts is what Save drafts only writes for plan p's newest revision
// over l, the work tree's log: each replacement as a proposed record at its
// reserved path. Nothing is superseded, published, committed or accepted,
// and the plan still needs acceptance. It returns the changes to write
// (none for a draft saved already) and every path that holds its draft
// once they are written. A reserved path that holds anything else is a
// [*DraftConflictError]; a plan with no readable candidate an [*Error].
func SaveDrafts(repo *gitops.Repo, l *adr.Log, p *compaction.Plan) (changes []adr.FileChange, saved []string, err error) {
	store := &compaction.Store{Repo: repo}
	_, commit, err := store.Load(p.ID)
	if err != nil {
		return nil, nil, err
	}
	data, err := store.File(commit, "candidate.json")
	if err != nil {
		return nil, nil, &Error{Msg: fmt.Sprintf("plan %s has no candidate to save", p.ID)}
	}
	var cand compaction.Candidate
	if err := json.Unmarshal(data, &cand); err != nil {
		return nil, nil, &Error{Msg: fmt.Sprintf("plan %s: candidate.json: %v", p.ID, err)}
	}
	drafts, err := compaction.Drafts(l, p, &cand)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range p.Reserved {
		d, ok := drafts[r.Path]
		if !ok {
			continue
		}
		if cur := l.ByPath(r.Path); cur != nil {
			if string(cur.Text().Src) == string(d) {
				saved = append(saved, r.Path)
				continue
			}
			return nil, nil, &DraftConflictError{Path: r.Path, ID: r.ID}
		}
		changes = append(changes, adr.FileChange{Path: r.Path, New: d})
		saved = append(saved, r.Path)
	}
	return changes, saved, nil
}
