package archive

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/govern"
	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/git-adr/git-adr/adr/publish"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/internal/failpoint"
)

// This file is a plan's way from a preview to its commits: stored as a
// revision (Offer), cancelled, chosen for a restore (Undoing) or a
// confirmation (ForConfirm), and carried out (Carry). The caller takes
// the lock, asks, prints and picks the exit code.

// Offer stores previewed plan p as a revision, under the lock the caller
// holds, unless the store has it already: a planned revision with the
// same content is reused (p takes its number); a plan of p's kind that is
// done already is copied into p and its last commit returned.
func (s *Store) Offer(p *Plan) (done string, err error) {
	prev, commit, err := s.Load(p.ID)
	switch {
	case errors.Is(err, ErrNoPlan):
		_, err = s.Save(p, nil, "")
		return "", err
	case err != nil:
		return "", err
	case prev.Kind == p.Kind && prev.State == Done:
		*p = *prev
		return last(prev.Published), nil
	case prev.Kind == p.Kind && prev.State == Planned && prev.Content() == p.Content():
		p.Revision = prev.Revision
		return "", nil
	}
	_, err = s.Save(p, nil, commit)
	return "", err
}

// Cancel records plan p cancelled, as a revision over the newest one.
func (s *Store) Cancel(p *Plan) error {
	p.State = Cancelled
	_, commit, err := s.Load(p.ID)
	if err == nil {
		_, err = s.Save(p, nil, commit)
	}
	return err
}

// StateError is a plan whose state does not allow what was asked: Msg
// says why, Hint what to do. Nothing was planned or moved.
type StateError struct{ Msg, Hint string }

func (e *StateError) Error() string { return e.Msg }

// Undoing returns plan id's newest revision and the done archival a
// restore of it undoes. undo is nil when p is a restore that is done
// already: there is nothing left to do.
func (s *Store) Undoing(id string) (p, undo *Plan, err error) {
	if p, _, err = s.Load(id); err != nil {
		return nil, nil, err
	}
	switch {
	case p.Kind == KindRestore && p.State == Done:
		return p, nil, nil
	case p.Kind == KindRestore:
		undo, _, err = s.Revision(p.ID, p.Undoes)
		return p, undo, err
	case p.State != Done:
		return p, nil, &StateError{Msg: fmt.Sprintf("archive plan %s revision %d is %s: nothing was archived, so there is nothing to restore", p.ID, p.Revision, p.State),
			Hint: fmt.Sprintf("carry it out with `git adr archive --confirm %s@%d`", p.ID, p.Revision)}
	}
	return p, p, nil
}

// Command is the command that previews and confirms plans of kind k.
func (k Kind) Command() string {
	if k == KindRestore {
		return "git adr archive restore"
	}
	return "git adr archive"
}

// ForConfirm returns the revision of plan id that a confirmation of
// revision rev of kind k carries out, with the commit that stores it.
// done is set when that revision is carried out already (rev, or the
// planned revision before the done one): there is nothing to do. A
// confirmation that names another revision or kind is a *RequestError;
// one of a plan whose state allows none a *StateError.
func (s *Store) ForConfirm(id string, k Kind, rev int) (p *Plan, commit string, done bool, err error) {
	if p, commit, err = s.Load(id); err != nil {
		return nil, "", false, err
	}
	switch {
	case p.State == Done && (rev == p.Revision-1 || rev == p.Revision) && p.Kind == k:
		return p, commit, true, nil
	case rev > p.Revision:
		err = &RequestError{Msg: fmt.Sprintf("archive plan %s has no revision %d (the latest is %d)", p.ID, rev, p.Revision)}
	case rev < p.Revision:
		err = &RequestError{Msg: fmt.Sprintf("archive plan %s changed since revision %d: revision %d is the one to review", p.ID, rev, p.Revision),
			Hint: "review it with `git adr archive status " + p.ID + "`"}
	case p.OnAccept != "" && p.State == Planned:
		err = &RequestError{Msg: fmt.Sprintf("archive plan %s is carried out by the acceptance of consolidation plan %s, which authorises it: confirm that plan", p.ID, p.OnAccept),
			Hint: fmt.Sprintf("`git adr compaction --confirm %s` carries it out right after the acceptance, if it is still what was approved; `git adr compaction status %s` shows where it stands", p.OnAccept, strings.SplitN(p.OnAccept, "@", 2)[0])}
	case p.Kind != k:
		article := "a"
		if p.Kind == KindArchive {
			article = "an"
		}
		err = &RequestError{Msg: fmt.Sprintf("revision %d of plan %s is %s %s: confirm it with `%s --confirm %s@%d`", rev, p.ID, article, p.Kind, p.Kind.Command(), p.ID, rev)}
	case p.State != Planned:
		err = &StateError{Msg: fmt.Sprintf("%s plan %s revision %d is %s; nothing was moved", p.Kind, p.ID, rev, p.State),
			Hint: "preview it again with `" + k.Command() + " ...`"}
	}
	if err != nil {
		return nil, "", false, err
	}
	return p, commit, false, nil
}

// CarryOptions say how a plan's commits are made: signed when Sign is
// set (git's commit.gpgsign, .adr.toml [signing], strict mode), verified
// against Strict before the branch moves, journalled in JournalDir for
// Command.
type CarryOptions struct {
	Sign       bool
	Strict     ledger.Strict
	JournalDir string
	Command    string
	// Interrupted, when set, is told the last commit of a publication an
	// interrupted run made, before that publication is finished (so a
	// caller can say so even when finishing fails).
	Interrupted func(commit string)
}

// Carried is a plan carried out.
type Carried struct {
	// Interrupted is the last commit of a publication an interrupted run
	// made, found by its trailer and finished ("" when this run made
	// the commits).
	Interrupted string
	// Commits are the publication's commits, oldest first.
	Commits []string
	// Kept are files left as they were in the work tree because they
	// changed since (the commits hold the new version).
	Kept []string
	// Done is the revision that records the plan done.
	Done *Plan
}

// LocalChangesError means a file the plan writes has local changes;
// nothing was moved.
type LocalChangesError struct{ Err error }

func (e *LocalChangesError) Error() string { return e.Err.Error() }
func (e *LocalChangesError) Unwrap() error { return e.Err }

// ChangedError means the plan computed again from HEAD is not the one
// approved; Diff says how (archive.Diff). Nothing was moved.
type ChangedError struct{ Diff string }

func (e *ChangedError) Error() string { return e.Diff }

// StrictError means strict mode refused the signed commits: the branch
// did not move and nothing was moved.
type StrictError struct {
	Problem govern.Problem
	Commit  string
}

func (e *StrictError) Error() string { return e.Problem.Message }

// CommitError means the publication made no commit (Commits is empty:
// an error of publish.Commit, such as local changes or a detached HEAD)
// or made its commits but could not bring the work tree up to date.
type CommitError struct {
	Commits []string
	Err     error
}

func (e *CommitError) Error() string { return e.Err.Error() }
func (e *CommitError) Unwrap() error { return e.Err }

// Carry carries out plan p, whose revision commit is planCommit, under
// the lock the caller holds: a publication an interrupted run committed
// is found by its trailer and finished, never made twice; otherwise p is
// computed again from HEAD over log l (an error of [Store.Again] as it is, a
// *LocalChangesError, a *ChangedError when it is not what was approved),
// committed (a *StrictError, a *CommitError) and recorded done
// (failpoint "archive-saved" right after).
func (s *Store) Carry(l *adr.Log, p *Plan, planCommit string, o CarryOptions) (*Carried, error) {
	repo := s.Repo
	out := &Carried{}
	pub, err := publish.Find(repo, p.Base, p.Trailer())
	if err != nil {
		return nil, err
	}
	if pub != "" {
		out.Interrupted = pub
		if o.Interrupted != nil {
			o.Interrupted(pub)
		}
		if out.Commits, out.Kept, err = Finish(repo, p, pub, o.JournalDir, o.Command); err != nil {
			return nil, err
		}
	} else {
		res, err := s.Again(l, p)
		switch {
		case err != nil:
			return nil, err
		case res.LocalChanges != nil:
			return nil, &LocalChangesError{Err: res.LocalChanges}
		case res.Plan.Content() != p.Content():
			return nil, &ChangedError{Diff: Diff(p, res.Plan)}
		}
		po := publish.Options{Steps: Publication(p, res.Steps), Sign: o.Sign || o.Strict.On, JournalDir: o.JournalDir, Command: o.Command}
		if o.Strict.On {
			// The signed commits are the approval, as an acceptance's is:
			// by an approver's key, verified before the branch moves.
			po.Verify = func(c string) error {
				if pr := ledger.Verify(repo, c, o.Strict); pr != nil {
					return &StrictError{Problem: *pr, Commit: c}
				}
				return nil
			}
		}
		out.Commits, out.Kept, err = publish.Commit(repo, po)
		var se *StrictError
		switch {
		case errors.As(err, &se):
			return nil, se
		case err != nil:
			return nil, &CommitError{Commits: out.Commits, Err: err}
		}
	}
	if out.Done, err = s.Done(p, planCommit, out.Commits); err != nil {
		return nil, err
	}
	failpoint.Hit("archive-saved")
	return out, nil
}

func last(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return xs[len(xs)-1]
}

// Latest is the newest revision of plan id, or of every plan when id is
// "" (in the order [Store.List] gives).
func (s *Store) Latest(id string) ([]*Plan, error) {
	ids := []string{id}
	if id == "" {
		var err error
		if ids, err = s.List(); err != nil {
			return nil, err
		}
	}
	out := []*Plan{}
	for _, pid := range ids {
		p, _, err := s.Load(pid)
		if err != nil {
			return nil, &LoadError{ID: pid, Err: err}
		}
		out = append(out, p)
	}
	return out, nil
}

// LoadError is a plan [Store.Latest] could not load.
type LoadError struct {
	ID  string
	Err error
}

func (e *LoadError) Error() string { return e.Err.Error() }
func (e *LoadError) Unwrap() error { return e.Err }

// Preview plans the archival of the records ids name over log l at
// commit head, in the layout the log's configuration gives; ack
// acknowledges the external-link risks. A record that is a section of a
// single-file log is refused first (an *adr.SectionError): git-adr moves
// records that are files.
func Preview(repo *gitops.Repo, l *adr.Log, head string, ids []string, ack bool) (*Result, error) {
	for _, id := range ids {
		if r, err := l.Resolve(id); err == nil {
			if err := adr.Writable(r, "archive"); err != nil {
				return nil, err
			}
		}
	}
	layout := ""
	if l.Config != nil {
		layout = l.Config.Archive.Layout
	}
	return Prepare(repo, l, Request{Kind: KindArchive, Base: head, IDs: ids, Layout: layout, Ack: ack})
}
