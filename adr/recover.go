package adr

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// PendingChange is a journal an interrupted run left: the change it
// describes and where each of its files stands.
type PendingChange struct {
	// File is the journal's path.
	File string
	// Journal is nil when the file cannot be used (Err says why).
	Journal *Journal
	Err     error
	// Steps parallels Journal.Steps.
	Steps []StepStatus
}

// StepStatus is where one file of a pending change stands.
type StepStatus struct {
	state stepState
	// Conflict names the file that no longer holds what the change read
	// nor what it wrote, and why; empty when the step can be finished.
	Conflict, Reason string
}

// Conflicts lists the files of the change that were changed by someone
// else since it was interrupted.
func (p *PendingChange) Conflicts() []StepStatus {
	var out []StepStatus
	for _, s := range p.Steps {
		if s.state == stepConflict {
			out = append(out, s)
		}
	}
	return out
}

// Remaining counts the files still to be written or removed.
func (p *PendingChange) Remaining() int {
	n := 0
	for _, s := range p.Steps {
		if s.state != stepDone {
			n++
		}
	}
	return n
}

// Describe names the change for a person: "`git adr renumber 7` (pid 4242,
// started 2026-01-15T10:00:00Z), 3 of 12 files still to do".
func (p *PendingChange) Describe() string {
	if p.Journal == nil {
		return p.Run()
	}
	return fmt.Sprintf("%s, %d of %d files still to do", p.Run(), p.Remaining(), len(p.Journal.Steps))
}

// Run names the run that left the change: "`git adr renumber 7` (pid
// 4242, started 2026-01-15T10:00:00Z)".
func (p *PendingChange) Run() string {
	if p.Journal == nil {
		return "journal " + filepath.Base(p.File)
	}
	j := p.Journal
	what := "a change"
	if j.Command != "" {
		what = fmt.Sprintf("`%s`", j.Command)
	}
	return fmt.Sprintf("%s (pid %d, started %s)", what, j.PID, j.Started.UTC().Format(time.RFC3339))
}

// HasJournals reports cheaply whether dir holds any journal, so read-only
// commands can warn that the log may be half changed.
func HasJournals(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			return true
		}
	}
	return false
}

// PendingJournals reads every journal in dir and compares each of its
// files with the work tree at top. It changes nothing.
func PendingJournals(top, dir string) ([]*PendingChange, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(top)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	var out []*PendingChange
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		p := &PendingChange{File: filepath.Join(dir, e.Name())}
		out = append(out, p)
		if !e.Type().IsRegular() {
			p.Err = fmt.Errorf("%w: %s is not a regular file", ErrBadJournal, e.Name())
			continue
		}
		data, err := os.ReadFile(p.File)
		if err != nil {
			p.Err = fmt.Errorf("%w: %v", ErrBadJournal, err)
			continue
		}
		if p.Journal, p.Err = DecodeJournal(e.Name(), data); p.Err != nil {
			continue
		}
		for _, s := range p.Journal.Steps {
			p.Steps = append(p.Steps, evalStep(root, s))
		}
	}
	sort.Slice(out, func(i, k int) bool { return started(out[i]).Before(started(out[k])) })
	return out, nil
}

func started(p *PendingChange) time.Time {
	if p.Journal == nil {
		return time.Time{}
	}
	return p.Journal.Started
}

// evalStep compares one step with the work tree.
func evalStep(root *os.Root, s JournalStep) StepStatus {
	state := func(p string) (hash string, exists bool, reason string) {
		data, _, exists, err := readWork(root, p)
		if err != nil {
			return "", exists, err.Error()
		}
		return contentHash(data), exists, ""
	}
	conflict := func(p, why string) StepStatus {
		return StepStatus{state: stepConflict, Conflict: p, Reason: why}
	}
	cur, exists, why := state(s.Path)
	if why != "" {
		return conflict(s.Path, why)
	}
	if s.Delete {
		switch {
		case !exists:
			return StepStatus{state: stepDone}
		case cur == s.Old:
			return StepStatus{state: stepTodo}
		}
		return conflict(s.Path, "was edited")
	}
	if s.From == "" {
		switch {
		case exists && cur == s.New:
			return StepStatus{state: stepDone}
		case s.Old == "" && !exists, s.Old != "" && exists && cur == s.Old:
			return StepStatus{state: stepTodo}
		case !exists:
			return conflict(s.Path, "was deleted")
		case s.Old == "":
			return conflict(s.Path, "was created meanwhile with other content")
		}
		return conflict(s.Path, "was edited")
	}
	from, fromExists, why := state(s.From)
	if why != "" {
		return conflict(s.From, why)
	}
	switch {
	case exists && cur != s.New:
		return conflict(s.Path, "was created meanwhile with other content")
	case !fromExists && exists:
		return StepStatus{state: stepDone}
	case !fromExists:
		return conflict(s.From, "was deleted")
	case from != s.Old:
		return conflict(s.From, "was edited")
	case exists:
		return StepStatus{state: stepRemove}
	}
	return StepStatus{state: stepTodo}
}

// RecoverMode says what recovery does with a file that someone changed
// after the change that was writing it was interrupted.
type RecoverMode int

const (
	// RecoverSafe finishes a change only when none of its files was
	// changed since; otherwise it touches nothing of that change.
	RecoverSafe RecoverMode = iota
	// RecoverFinish finishes the change over such files, keeping a copy of
	// each under the save directory first.
	RecoverFinish
	// RecoverKeep keeps such files as they are and finishes the rest; an
	// unusable journal is removed without carrying out anything in it.
	RecoverKeep
)

// RecoverResult says what recovery did.
type RecoverResult struct {
	// Finished are the changes completed (in Keep mode, except Kept).
	Finished []*PendingChange
	// Blocked are the changes left untouched: conflicts in Safe mode,
	// unusable journals in Safe and Finish mode.
	Blocked []*PendingChange
	// Kept are files left as someone else changed them (Keep mode).
	Kept []string
	// Saved maps a file overwritten in Finish mode to the copy kept of it.
	Saved map[string]string
	// Discarded are unusable journals removed in Keep mode.
	Discarded []string
}

// RecoverJournals finishes or reports the changes interrupted runs left in
// dir. The caller holds the project lock, so no journal belongs to a live
// run. saveDir receives the copies RecoverFinish keeps.
func RecoverJournals(top, dir string, mode RecoverMode, saveDir string) (*RecoverResult, error) {
	res := &RecoverResult{Saved: map[string]string{}}
	// A journal still under its temporary name was never put in place, so
	// its change never started.
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".json.tmp") {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
	pending, err := PendingJournals(top, dir)
	if err != nil || len(pending) == 0 {
		return res, err
	}
	root, err := os.OpenRoot(top)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	for _, p := range pending {
		if p.Journal == nil {
			if mode == RecoverKeep {
				if err := os.Remove(p.File); err != nil {
					return res, err
				}
				res.Discarded = append(res.Discarded, p.File)
				continue
			}
			res.Blocked = append(res.Blocked, p)
			continue
		}
		if len(p.Conflicts()) > 0 && mode == RecoverSafe {
			res.Blocked = append(res.Blocked, p)
			continue
		}
		for i, s := range p.Journal.Steps {
			st := p.Steps[i]
			if st.state == stepConflict {
				if mode == RecoverKeep {
					res.Kept = append(res.Kept, st.Conflict)
					continue
				}
				for _, f := range []string{s.Path, s.From} {
					if f == "" {
						continue
					}
					saved, err := saveCopy(root, f, filepath.Join(saveDir, p.Journal.ID))
					if err != nil {
						return res, fmt.Errorf("keep a copy of %q before finishing: %w", f, err)
					}
					if saved != "" {
						res.Saved[f] = saved
					}
				}
				st.state = stepTodo
			}
			if err := applyStep(root, p.Journal.ID, s, st.state); err != nil {
				return res, fmt.Errorf("finish %q: %w", s.Path, err)
			}
		}
		for _, s := range p.Journal.Steps {
			root.Remove(tmpPath(s.Path, p.Journal.ID))
		}
		if err := os.Remove(p.File); err != nil {
			return res, err
		}
		res.Finished = append(res.Finished, p)
	}
	return res, nil
}

// saveCopy copies a work tree file (when it is a regular file) to dir,
// under its own relative path, and returns where.
func saveCopy(root *os.Root, p, dir string) (string, error) {
	data, _, exists, err := readWork(root, p)
	if err != nil && !errors.Is(err, ErrNotRegular) {
		return "", err
	}
	if !exists || err != nil {
		return "", nil
	}
	dst := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return "", err
	}
	return dst, os.WriteFile(dst, data, 0o600)
}
