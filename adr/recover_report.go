package adr

import (
	"path/filepath"
	"time"
)

// RecoverReport is what `git adr recover --json` prints: the interrupted
// changes finished and blocked, the files kept or saved, the journals
// discarded, and what the caller adds (the lock it removed, temporary
// files, acceptances).
type RecoverReport struct {
	Lock      *RecoveredLock    `json:"lock"`
	Finished  []JournalReport   `json:"finished"`
	Blocked   []JournalReport   `json:"blocked"`
	Kept      []string          `json:"kept"`
	Saved     map[string]string `json:"saved"`
	Discarded []string          `json:"discarded"`
	TempFiles []string          `json:"temp_files_removed"`
	// Acceptances are interrupted acceptances finished or cleared.
	Acceptances []string `json:"acceptances"`
}

// RecoveredLock is a lock recovery removed: its owner.
type RecoveredLock struct {
	PID     int    `json:"pid"`
	Host    string `json:"host"`
	Command string `json:"command"`
	Since   string `json:"since"`
}

// JournalReport is one interrupted change in a [RecoverReport].
type JournalReport struct {
	Journal   string           `json:"journal"`
	Command   string           `json:"command,omitempty"`
	Started   string           `json:"started,omitempty"`
	Files     int              `json:"files"`
	Error     string           `json:"error,omitempty"`
	Conflicts []ConflictReport `json:"conflicts,omitempty"`
}

// ConflictReport is a file of an interrupted change that someone changed
// since, and how.
type ConflictReport struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Report is res as `git adr recover --json` reports it, every list
// present (empty, never null); the caller fills in Lock, TempFiles and
// Acceptances.
func (res *RecoverResult) Report() *RecoverReport {
	out := &RecoverReport{Finished: []JournalReport{}, Blocked: []JournalReport{}, Kept: []string{}, Saved: map[string]string{},
		Discarded: []string{}, TempFiles: []string{}, Acceptances: []string{}}
	for _, p := range res.Finished {
		out.Finished = append(out.Finished, p.report())
	}
	for _, p := range res.Blocked {
		out.Blocked = append(out.Blocked, p.report())
	}
	out.Kept = append(out.Kept, res.Kept...)
	for k, v := range res.Saved {
		out.Saved[k] = v
	}
	for _, d := range res.Discarded {
		out.Discarded = append(out.Discarded, filepath.Base(d))
	}
	return out
}

func (p *PendingChange) report() JournalReport {
	j := JournalReport{Journal: filepath.Base(p.File)}
	if p.Err != nil {
		j.Error = p.Err.Error()
		return j
	}
	j.Command, j.Started, j.Files = p.Journal.Command, p.Journal.Started.UTC().Format(time.RFC3339), len(p.Journal.Steps)
	for _, c := range p.Conflicts() {
		j.Conflicts = append(j.Conflicts, ConflictReport{Path: c.Conflict, Reason: c.Reason})
	}
	return j
}
