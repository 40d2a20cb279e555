package hooks

import (
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/lazyre"
)

var refsTrailer = lazyre.New(`(?m)^Refs:.*$`)

// UnlinkedRecords names the records a commit being made changes (and does
// not delete) that no Refs: line of its message msg names: commit-msg
// suggests the trailer, and never edits the message. A log that cannot be
// read gives none (a broken configuration is pre-commit's to report).
func UnlinkedRecords(r *gitops.Repo, msg []byte) ([]string, error) {
	changes, err := r.StagedChanges()
	if err != nil || len(changes) == 0 {
		return nil, err
	}
	next, err := r.IndexFS()
	if err != nil {
		return nil, err
	}
	l, err := adr.Load(next, adr.LoadOptions{Lazy: true})
	if err != nil {
		return nil, nil
	}
	refs := strings.Join(refsTrailer.FindAllString(string(msg), -1), "\n")
	var missing []string
	for _, c := range changes {
		rec := l.ByPath(c.Path)
		if rec == nil || c.Status == 'D' || strings.Contains(refs, rec.ID) {
			continue
		}
		missing = append(missing, rec.ID)
	}
	return missing, nil
}
