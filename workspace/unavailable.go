package workspace

import (
	"errors"
	"sync"
)

// Unavailable is a member a read of the workspace went on without: a
// remote one not synced yet (its first fetch failed or never ran), or a
// local one whose path does not exist (not cloned on this machine) or
// holds no repository. Err is the error opening it gave.
type Unavailable struct {
	Member *Member
	Err    error
}

// Reason is what keeps the member from being read, in a few words ("not
// synced yet", "not a git repository").
func (u Unavailable) Reason() string { return unavailableReason(u.Err) }

// UnavailableReason is, when err (a member's opening gave it) leaves the
// member out of a read of every member, why in a few words; "" when err
// is nil or any other failure.
func UnavailableReason(err error) string { return unavailableReason(err) }

// unavailableErrs are the errors opening a member gives that a read of
// every member goes on without (see [Workspace.Reading]).
var unavailableErrs = []error{ErrNotSynced, ErrNoPath, ErrNotRepository}

// unavailableReason is the one of unavailableErrs that err is, in words,
// "" when it is none.
func unavailableReason(err error) string {
	for _, e := range unavailableErrs {
		if errors.Is(err, e) {
			return e.Error()
		}
	}
	return ""
}

// Skips collects the members one read of a workspace went on without.
type Skips struct {
	mu  sync.Mutex
	err map[*Member]error
}

// Reading returns a view of w for one command or one tool call: where it
// reads every member (list, context, graph, index, export, check, an
// unqualified ID), a member that is unavailable is left out and noted in
// the Skips returned, and the answer comes from the others; a member
// named by a qualified ID (payments:ADR-0001) still fails with its error.
// Without this view every member must open. One repository of a thousand
// whose remote is gone, or that is not cloned here, no longer stops every
// question; the command says which were left out.
func (w *Workspace) Reading() (*Workspace, *Skips) {
	view := *w
	view.skips = &Skips{}
	return &view, view.skips
}

// skip notes m as unavailable, with the error opening it gave, and
// reports whether the read goes on without it: false when w is not a
// [Workspace.Reading] view or err is another kind of failure.
func (w *Workspace) skip(m *Member, err error) bool {
	if w.skips == nil || unavailableReason(err) == "" {
		return false
	}
	w.skips.mu.Lock()
	defer w.skips.mu.Unlock()
	if w.skips.err == nil {
		w.skips.err = map[*Member]error{}
	}
	w.skips.err[m] = err
	return true
}

// skipped is the error that left m out of this read, nil when it was not.
func (w *Workspace) skipped(m *Member) error {
	if w.skips == nil {
		return nil
	}
	w.skips.mu.Lock()
	defer w.skips.mu.Unlock()
	return w.skips.err[m]
}

// noneRead is the first member's error when this read went on without
// every member of the workspace: an answer from none would say nothing,
// so the command fails as it did before any member was left out.
func (w *Workspace) noneRead() error {
	if w.skips == nil {
		return nil
	}
	w.skips.mu.Lock()
	defer w.skips.mu.Unlock()
	var first error
	for _, m := range w.Members {
		err := w.skips.err[m]
		if err == nil {
			return nil // this one was read (or not tried)
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// List is the members left out, in the order of the workspace file.
func (s *Skips) List(w *Workspace) []Unavailable {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Unavailable
	for _, m := range w.Members {
		if err, ok := s.err[m]; ok {
			out = append(out, Unavailable{Member: m, Err: err})
		}
	}
	return out
}
