package accept

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/lazyre"
)

// JournalVersion is the format of acceptance journals.
const JournalVersion = 1

// Journal records how far an acceptance got, for the person and for the
// next run: it is progress, never authority. A run that finds one whose
// commit did not reach the branch starts over, and asks again; one whose
// commit is on the branch is finished from the commit itself.
type Journal struct {
	Version  int      `json:"version"`
	Key      string   `json:"key"`
	Plan     string   `json:"plan,omitempty"`
	Accepted []string `json:"accepted,omitempty"`
	Head     string   `json:"head"`
	Branch   string   `json:"branch"`
	// Approval is the digest of the approval being executed.
	Approval string        `json:"approval"`
	Steps    []JournalStep `json:"steps"`
	// Commit is the acceptance commit object once made; Moved reports
	// that the branch points at it, Synced that the work tree and index
	// have its files.
	Commit  string `json:"commit,omitempty"`
	Moved   bool   `json:"moved"`
	Synced  bool   `json:"synced"`
	Command string `json:"command,omitempty"`
	Started string `json:"started"`
}

// JournalStep is one tree built.
type JournalStep struct {
	Name string `json:"name"`
	Tree string `json:"tree"`
}

var unsafeKey = lazyre.New(`[^A-Za-z0-9._-]+`)

func journalKey(a *Acceptance) string {
	if a.Plan != nil {
		return journalKeyOf(a.Plan.ID)
	}
	return "decide-" + unsafeKey.ReplaceAllString(strings.Join(a.Ledger.Accepted, "+"), "_")
}

func journalKeyOf(planID string) string { return unsafeKey.ReplaceAllString(planID, "_") }

func (j *Journal) path(dir string) string { return filepath.Join(dir, j.Key+".json") }

// save writes the journal whole (temporary file, fsync, rename).
func (j *Journal) save(dir string) error {
	if dir == "" {
		return nil
	}
	j.Version = JournalVersion
	if j.Started == "" {
		j.Started = time.Now().UTC().Format(time.RFC3339)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+j.Key+".*.tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(append(data, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), j.path(dir))
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

func (j *Journal) remove(dir string) {
	if dir != "" {
		os.Remove(j.path(dir))
	}
}

// Remove deletes the journal (recovery, once it has finished or reported
// it).
func (j *Journal) Remove(dir string) { j.remove(dir) }

// Committed reports whether the journal's commit is in HEAD's history:
// the acceptance happened, and only its follow-up steps may be missing.
func (j *Journal) Committed(repo *gitops.Repo) bool {
	return j.Commit != "" && onBranch(repo, j.Commit)
}

// Pending reads the acceptance journals left in dir, oldest first.
func Pending(dir string) ([]*Journal, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []*Journal
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		var j Journal
		if err := json.Unmarshal(data, &j); err != nil || j.Version != JournalVersion || j.Key+".json" != e.Name() {
			return nil, fmt.Errorf("%s is not an acceptance journal this git-adr reads", filepath.Join(dir, e.Name()))
		}
		out = append(out, &j)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Started < out[b].Started })
	return out, nil
}

// ReadJournal reads the journal of one plan ("" and nil when there is
// none).
func ReadJournal(dir, planID string) (*Journal, error) {
	js, err := Pending(dir)
	if err != nil {
		return nil, err
	}
	for _, j := range js {
		if j.Key == journalKeyOf(planID) {
			return j, nil
		}
	}
	return nil, nil
}

// Describe says, in one line, where an interrupted acceptance stopped.
func (j *Journal) Describe(repo *gitops.Repo) string {
	what := "the acceptance of plan " + j.Plan
	if j.Plan == "" {
		what = "the acceptance of " + strings.Join(j.Accepted, ", ")
	}
	switch {
	case j.Moved && j.Synced:
		return fmt.Sprintf("%s was committed in %s and is in the work tree; the plan is not recorded yet", what, shortHash(j.Commit))
	case j.Moved:
		return fmt.Sprintf("%s was committed in %s; the work tree is not brought up to date yet", what, shortHash(j.Commit))
	case j.Commit != "" && onBranch(repo, j.Commit):
		return fmt.Sprintf("%s was committed in %s", what, shortHash(j.Commit))
	case len(j.Steps) > 0:
		return fmt.Sprintf("%s stopped after its %s step, before its commit reached the branch: nothing was accepted", what, j.Steps[len(j.Steps)-1].Name)
	}
	return fmt.Sprintf("%s stopped before it built anything: nothing was accepted", what)
}

// onBranch reports whether commit is in HEAD's history.
func onBranch(repo *gitops.Repo, commit string) bool {
	_, err := repo.Git("merge-base", "--is-ancestor", commit, "HEAD")
	return err == nil
}

func dirExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// StateDir is where a repository's acceptance journals live.
func StateDir(repo *gitops.Repo) string { return filepath.Join(repo.GitDir, "adr", "accept") }
