package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/git-adr/git-adr/adr/accept"
	"github.com/git-adr/git-adr/adr/archive"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/compaction/workflow"
)

// This file carries out the archive part of a consolidation's acceptance
// (`--mode consolidate --archive`): after the ONE acceptance commit has
// landed, the archive plan it authorises is computed again under the lock
// on the new HEAD and carried out, in commits of its own as `git adr
// archive` makes them, only when it is exactly what was approved;
// otherwise it is skipped and said so. The acceptance stands either way.

// runArchiveOnAccept carries out the archive part acceptance commit c
// authorises (nothing when it authorises none, or when it was carried out
// already). planRev is the plan revision, for hints. The caller holds the
// lock. A skipped or pending part is an error: the command never claims
// overall success while a component is not done.
func runArchiveOnAccept(env *Env, c, planRev string) error {
	repo, err := env.Repo()
	if err != nil {
		return err
	}
	st, err := accept.ArchiveOf(repo, c)
	if err != nil {
		return err
	}
	switch {
	case st.Plan == "" || st.Done != nil:
		return nil
	case st.Skipped != "":
		return archiveSkipped(planRev, c, st.Skipped, nil)
	}
	p, planCommit := st.Approved, st.PlanCommit
	store := &archive.Store{Repo: repo}
	again := "git adr compaction --confirm " + planRev
	l, err := headLog(env)
	if err != nil {
		return err
	}
	opts, err := carryOptions(env, l)
	if err != nil {
		return err
	}
	opts.Interrupted = func(c string) {
		fmt.Fprintf(env.Err, "git-adr: note: archive plan %s revision %d was committed in %s by a run that was interrupted; finishing it\n", p.ID, p.Revision, short(c))
	}
	res, err := store.Carry(l, p, planCommit, opts)
	var re *archive.RequestError
	var ce *archive.ChangedError
	var lc *archive.LocalChangesError
	var se *archive.StrictError
	var cm *archive.CommitError
	if err == nil && res.Interrupted == "" || errors.As(err, &se) || errors.As(err, &cm) {
		fmt.Fprintf(env.Out, "archive plan %s, approved with the acceptance, is unchanged: carrying it out\n", p.ID)
	}
	switch {
	case errors.As(err, &re):
		return skipArchive(store, p, planCommit, planRev, c, re.Msg)
	case errors.As(err, &ce):
		return skipArchive(store, p, planCommit, planRev, c, ce.Diff+" since it was approved")
	case errors.As(err, &lc):
		return withCode(ExitConflict, fmt.Errorf("plan %s is accepted in commit %s, but its archive part is pending: %w; nothing was moved", planRev, short(c), lc.Err)).
			hint(fmt.Sprintf("commit or stash your changes to that file, then run `%s` again: it carries out the archive part if it is still what was approved", again))
	case err != nil:
		return carryErr(err, p, again, "git adr compaction status "+strings.SplitN(planRev, "@", 2)[0])
	}
	return recordArchive(env, p, res, false)
}

// skipArchive records that an approved archive part was not carried out
// (a revision in state skipped, with why) and reports it.
func skipArchive(store *archive.Store, p *archive.Plan, planCommit, planRev, c, why string) error {
	if err := store.Skip(p, planCommit, why); err != nil {
		return storeErr(err, p.ID)
	}
	return archiveSkipped(planRev, c, why, p)
}

func archiveSkipped(planRev, c, why string, p *archive.Plan) error {
	e := failf("plan %s is accepted in commit %s, but its archive part was skipped: %s; nothing was moved", planRev, short(c), why).
		hint("the acceptance stands; the archive part is carried out only exactly as it was approved")
	if p != nil {
		e.hint("preview the move as the log is now: git adr archive " + strings.Join(p.IDs(), " "))
	}
	return e
}

// archivePartCard describes the archive part on the approval card and in
// --confirm's disclosure: the exact moves, link rewrites, generated files
// and external-link risks of the plan, or why the part is not authorised.
func archivePartCard(w io.Writer, env *Env, part *accept.ArchivePart) {
	if part == nil {
		fmt.Fprintln(w, "  archive nothing (plan with --archive to move the records it retires; archival is also its own plan: git adr archive)")
		return
	}
	for _, h := range part.Held {
		fmt.Fprintf(w, "  note: %s\n", h)
	}
	if !part.Authorised() {
		fmt.Fprintf(w, "  archive nothing: %s; the acceptance does not depend on it\n", part.Blocked)
		if part.Plan != nil {
			writePreviewTo(&indented{w: w, prefix: "    "}, env, part.Plan)
			if len(part.Plan.Risks) > 0 && !part.Plan.Acknowledged {
				fmt.Fprintln(w, "    to move them with the acceptance, plan again with --archive --ack-external-links; or archive them later with `git adr archive ID... --ack-external-links`")
			}
		}
		return
	}
	ap := part.Plan
	fmt.Fprintf(w, "  then carry out archive plan %s in %s of its own, only if, computed again once the acceptance has landed, it is still exactly this:\n", ap.ID, plural(ap.Commits, "commit"))
	writePreviewTo(&indented{w: w, prefix: "    "}, env, ap)
}

// indented prefixes every line written through it.
type indented struct {
	w      io.Writer
	prefix string
	mid    bool
}

func (in *indented) Write(b []byte) (int, error) {
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if line == "" {
			continue
		}
		if !in.mid {
			if _, err := io.WriteString(in.w, in.prefix); err != nil {
				return 0, err
			}
		}
		if _, err := io.WriteString(in.w, line); err != nil {
			return 0, err
		}
		in.mid = !strings.HasSuffix(line, "\n")
	}
	return len(b), nil
}

// archiveReview is the archive part of a plan made with --archive for
// `compaction review` (workflow.ReviewArchive), rendered as a section;
// nothing for other plans.
func archiveReview(env *Env, p *compaction.Plan) (*compaction.ArchiveReview, []byte) {
	review, part := workflow.ReviewArchive(p, func() (accept.Input, error) {
		l, err := headLog(env)
		if err != nil {
			return accept.Input{}, err
		}
		return acceptInput(env, l)
	})
	if review == nil {
		return nil, nil
	}
	var b bytes.Buffer
	b.WriteString("\narchive on acceptance (--archive):\n")
	if part == nil {
		fmt.Fprintf(&b, "  %s\n", review.Blocked)
		return review, b.Bytes()
	}
	archivePartCard(&b, env, part)
	return review, b.Bytes()
}
