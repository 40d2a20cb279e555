package main

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/accept"
	"github.com/git-adr/git-adr/adr/archive"
	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/git-adr/git-adr/adr/publish"
	"github.com/git-adr/git-adr/internal/failpoint"
)

// offer shows a prepared plan and asks for approval: refused when it has
// blockers or unacknowledged risks (nothing is stored then); otherwise
// stored as a revision, then Archive / Restore or Cancel on a terminal,
// or a receipt and exit 3 without one. again is the command's arguments,
// for hints.
func offer(env *Env, o archiveOptions, p *archive.Plan, again string) error {
	show := func() error {
		if o.json {
			return writeJSON(env.Out, p)
		}
		return writePreview(env, p)
	}
	what := "archived"
	if p.Kind == archive.KindRestore {
		what = "restored"
	}
	switch {
	case len(p.Blockers) > 0:
		if err := show(); err != nil {
			return err
		}
		e := failf("%s; nothing was planned or %s", p.Blockers[0], what)
		if n := len(p.Blockers) - 1; n > 0 {
			e = failf("%s (and %d more, listed above); nothing was planned or %s", p.Blockers[0], n, what)
		}
		return e.hint(blockerHint(p.Blockers[0]))
	case len(p.Records) == 0:
		return usagef("nothing to %s", p.Kind)
	case len(p.Risks) > 0 && !p.Acknowledged:
		if err := show(); err != nil {
			return err
		}
		return failf("%s that the move would leave pointing at the old path; nothing was planned or %s", plural(len(p.Risks), "reference"), what).
			hint("review them above; to go ahead knowing they may break, run `git adr archive " + again + " --ack-external-links`")
	}
	repo := mustRepo(env)
	store := &archive.Store{Repo: repo}
	done := ""
	if err := env.locked(func() error {
		prev, commit, err := store.Load(p.ID)
		switch {
		case errors.Is(err, archive.ErrNoPlan):
			_, err = store.Save(p, nil, "")
			return storeErr(err, p.ID)
		case err != nil:
			return err
		case prev.Kind == p.Kind && prev.State == archive.Done:
			done = last(prev.Published)
			*p = *prev
			return nil
		case prev.Kind == p.Kind && prev.State == archive.Planned && prev.Content() == p.Content():
			p.Revision = prev.Revision
			return nil
		}
		_, err = store.Save(p, nil, commit)
		return storeErr(err, p.ID)
	}); err != nil {
		return err
	}
	if done != "" {
		fmt.Fprintf(env.Out, "archive plan %s was already %s in commit %s; nothing to do\n", p.ID, what, short(done))
		return nil
	}
	if err := show(); err != nil {
		return err
	}
	confirm := fmt.Sprintf("git adr archive --confirm %s@%d", p.ID, p.Revision)
	if p.Kind == archive.KindRestore {
		confirm = fmt.Sprintf("git adr archive restore --confirm %s@%d", p.ID, p.Revision)
	}
	if !env.interactive() {
		verb := strings.ToUpper(string(p.Kind[:1])) + string(p.Kind[1:])
		path, err := writeReceipt(env, receipt{Plan: p.ID, Revision: p.Revision, State: "awaiting approval of the " + string(p.Kind),
			Choices: []string{strings.ToLower(verb), "cancel"}, Confirm: confirm, Review: "git adr archive status " + p.ID})
		if err != nil {
			return err
		}
		return withCode(ExitAwaiting, fmt.Errorf("%s plan %s revision %d awaits approval, and there is no terminal to ask on (receipt: %s)", p.Kind, p.ID, p.Revision, path)).
			hint("review it with `git adr archive status "+p.ID+"`, then carry it out with `"+confirm+"`",
				"to leave everything where it is, do nothing: a plan moves nothing until it is confirmed")
	}
	if !promptArchive(env, p) {
		p.State = archive.Cancelled
		if err := env.locked(func() error {
			_, commit, err := store.Load(p.ID)
			if err == nil {
				_, err = store.Save(p, nil, commit)
			}
			return storeErr(err, p.ID)
		}); err != nil {
			return err
		}
		fmt.Fprintf(env.Out, "nothing was %s; plan %s is cancelled (%s keeps its history)\n", what, p.ID, archive.Ref(p.ID))
		return nil
	}
	o.planID = p.ID
	return runArchiveConfirm(env, p.Kind, o, p.Revision)
}

func blockerHint(b string) string {
	switch {
	case strings.Contains(b, "not wholly retired"):
		return "only superseded, rejected or deprecated records move; age alone never qualifies (`git adr compaction` lists the archive candidates)"
	case strings.Contains(b, "already archived"):
		return "`git adr list --archived` shows the archive"
	case strings.Contains(b, "symbolic link"), strings.Contains(b, "collision"), strings.Contains(b, "is a file"):
		return "move the file or link that is in the way, then run the command again"
	case strings.Contains(b, "commit or stash"):
		return "commit or stash your changes to that file, then run the command again"
	case strings.Contains(b, "no longer at"):
		return "`git adr archive status` shows the plan; a record moved by hand since is not restored"
	}
	return "fix what is named above, then run the command again"
}

// promptArchive asks on the terminal; only a clear Archive (or Restore)
// approves; end of input is no answer, which is never approval.
func promptArchive(env *Env, p *archive.Plan) bool {
	in := bufio.NewReader(env.In)
	key, verb := "a", "Archive"
	if p.Kind == archive.KindRestore {
		key, verb = "r", "Restore"
	}
	for {
		fmt.Fprintf(env.Err, "\n%s plan %s revision %d:\n", p.Kind, p.ID, p.Revision)
		fmt.Fprintf(env.Err, "  [%s] %s: make the %s shown above\n", key, verb, plural(p.Commits, "commit"))
		fmt.Fprintln(env.Err, "  [c] Cancel: move nothing")
		fmt.Fprint(env.Err, "choice: ")
		line, err := in.ReadString('\n')
		switch strings.ToLower(strings.TrimSpace(line)) {
		case key, strings.ToLower(verb):
			return true
		case "c", "cancel":
			return false
		}
		if err != nil {
			return false
		}
	}
}

// runArchiveConfirm carries out exactly a previewed plan revision after
// checking again, under the lock, that recomputing it from HEAD gives the
// same plan. A publication an interrupted run made is found by its
// trailer and finished, never made twice.
func runArchiveConfirm(env *Env, kind archive.Kind, o archiveOptions, rev int) error {
	repo, err := env.Repo()
	if err != nil {
		return err
	}
	store := &archive.Store{Repo: repo}
	p, commit, err := store.Load(o.planID)
	if err != nil {
		return storeErr(err, o.planID)
	}
	cmd := "git adr archive"
	if kind == archive.KindRestore {
		cmd = "git adr archive restore"
	}
	switch {
	case p.State == archive.Done && (rev == p.Revision-1 || rev == p.Revision) && p.Kind == kind:
		if o.json {
			return writeJSON(env.Out, p)
		}
		fmt.Fprintf(env.Out, "%s plan %s revision %d is done in commit %s; nothing to do\n", p.Kind, p.ID, rev, short(last(p.Published)))
		return nil
	case rev > p.Revision:
		return usagef("archive plan %s has no revision %d (the latest is %d)", p.ID, rev, p.Revision)
	case rev < p.Revision:
		return usagef("archive plan %s changed since revision %d: revision %d is the one to review", p.ID, rev, p.Revision).
			hint("review it with `git adr archive status " + p.ID + "`")
	case p.OnAccept != "" && p.State == archive.Planned:
		return usagef("archive plan %s is carried out by the acceptance of consolidation plan %s, which authorises it: confirm that plan", p.ID, p.OnAccept).
			hint(fmt.Sprintf("`git adr compaction --confirm %s` carries it out right after the acceptance, if it is still what was approved; `git adr compaction status %s` shows where it stands", p.OnAccept, strings.SplitN(p.OnAccept, "@", 2)[0]))
	case p.Kind != kind:
		other := "git adr archive"
		if p.Kind == archive.KindRestore {
			other = "git adr archive restore"
		}
		return usagef("revision %d of plan %s is a%s %s: confirm it with `%s --confirm %s@%d`", rev, p.ID, map[bool]string{true: "n", false: ""}[p.Kind == archive.KindArchive], p.Kind, other, p.ID, rev)
	case p.State != archive.Planned:
		return failf("%s plan %s revision %d is %s; nothing was moved", p.Kind, p.ID, rev, p.State).
			hint("preview it again with `" + cmd + " ...`")
	}
	if err := env.lockWrites(); err != nil {
		return err
	}
	if _, again, err := store.Load(p.ID); err != nil || again != commit {
		return withCode(ExitConflict, fmt.Errorf("archive plan %s changed while it was being confirmed; nothing was moved", p.ID)).
			hint("review it again with `git adr archive status " + p.ID + "`")
	}
	if pub, err := publish.Find(repo, p.Base, p.Trailer()); err != nil {
		return err
	} else if pub != "" {
		fmt.Fprintf(env.Err, "git-adr: note: %s plan %s revision %d was committed in %s by a run that was interrupted; finishing it\n", p.Kind, p.ID, rev, short(pub))
		return finishArchive(env, store, p, commit, pub, o.json)
	}
	l, err := env.Log()
	if err != nil {
		return err
	}
	res, err := store.Again(l, p)
	if err != nil {
		return prepareErr(err)
	}
	now := res.Plan
	again := fmt.Sprintf("%s --confirm %s@%d", cmd, p.ID, rev)
	if res.LocalChanges != nil {
		return withCode(ExitConflict, fmt.Errorf("%w; nothing was moved", res.LocalChanges)).
			hint(fmt.Sprintf("commit or stash your changes to that file, then run `%s` again", again))
	}
	if now.Content() != p.Content() {
		preview := cmd + " " + p.ID
		if p.Kind == archive.KindArchive {
			preview = cmd + " " + strings.Join(p.IDs(), " ")
		}
		return failf("%s since %s plan %s revision %d was previewed; nothing was moved", archive.Diff(p, now), p.Kind, p.ID, rev).
			hint("preview it again: `" + preview + "` shows the plan as it is now")
	}
	return commitArchive(env, l, store, p, commit, res, again, "git adr archive status "+p.ID, o.json)
}

// finishArchive completes a publication of plan p that an interrupted run
// committed (pub, its last commit, found by its trailer) and records it.
func finishArchive(env *Env, store *archive.Store, p *archive.Plan, planCommit, pub string, asJSON bool) error {
	commits, kept, err := archive.Finish(store.Repo, p, pub, journalDir(store.Repo), env.command)
	if err != nil {
		return err
	}
	return recordArchive(env, store, p, planCommit, commits, kept, asJSON)
}

// commitArchive makes the commits of plan p, whose revision commit is
// planCommit, and records them. res is p computed again from HEAD under
// the lock, with the same content. again is the command that retries,
// status the one that shows the plan. The commits are signed when
// commit.gpgsign, .adr.toml [signing] or strict mode asks, like an
// acceptance commit.
func commitArchive(env *Env, l *adr.Log, store *archive.Store, p *archive.Plan, planCommit string, res *archive.Result, again, status string, asJSON bool) error {
	repo := store.Repo
	// Strict mode as HEAD commits it: an uncommitted edit of .adr.toml
	// does not turn the signature check off.
	hl, err := headLog(env)
	if err != nil {
		return err
	}
	strict := strictOf(hl)
	sign, err := signCommits(repo, l)
	if err != nil {
		return err
	}
	o := publish.Options{Steps: archive.Publication(p, res.Steps), Sign: sign || strict.On, JournalDir: journalDir(repo), Command: env.command}
	if strict.On {
		// The signed commits are the approval, as an acceptance's is: by
		// an approver's key, verified before the branch moves.
		o.Verify = func(c string) error {
			if pr := ledger.Verify(repo, c, strict); pr != nil {
				return &accept.StrictError{Problem: *pr, Commit: c}
			}
			return nil
		}
	}
	commits, kept, err := publish.Commit(repo, o)
	var se *accept.StrictError
	if errors.As(err, &se) {
		return failf("%s; nothing was moved (the branch did not move)", se.Problem.Message).hint(se.Problem.Fix)
	}
	switch {
	case err != nil && len(commits) == 0:
		return publishErr(err, "run `"+again+"` again", status)
	case err != nil:
		return failf("%s plan %s was committed in %s, but bringing the work tree up to date failed: %v", p.Kind, p.ID, short(last(commits)), err).
			hint(fmt.Sprintf("run `%s` again to finish it", again))
	}
	return recordArchive(env, store, p, planCommit, commits, kept, asJSON)
}

// recordArchive records a done plan (with the bytes every file had
// before, so a restore can give them back) and reports it. Each step can
// be repeated: an interrupted run is finished by the next confirmation.
func recordArchive(env *Env, store *archive.Store, p *archive.Plan, commit string, commits, kept []string, asJSON bool) error {
	repo := store.Repo
	rev := p.Revision
	done, err := store.Done(p, commit, commits)
	if err != nil {
		return storeErr(err, p.ID)
	}
	failpoint.Hit("archive-saved")
	writeReceipt(env, receipt{Plan: p.ID, Revision: rev, State: string(p.Kind) + " done in " + last(commits), Review: "git show --stat " + short(last(commits))})
	for _, k := range kept {
		fmt.Fprintf(env.Err, "git-adr: note: %s was changed in the work tree since; it was left as it is (the commit holds the new version)\n", env.display(k))
	}
	if asJSON {
		return writeJSON(env.Out, done)
	}
	verb := "archived"
	if p.Kind == archive.KindRestore {
		verb = "restored"
	}
	for _, m := range p.Records {
		fmt.Fprintf(env.Out, "%s %s: %s -> %s\n", verb, m.ID, env.display(m.From), env.display(m.To))
	}
	links, nfiles := p.Links()
	fmt.Fprintf(env.Out, "rewrote %s in %s\n", plural(links, "link"), plural(nfiles, "file"))
	for _, g := range p.Generated {
		fmt.Fprintf(env.Out, "%s: %s\n", env.display(g.Path), g.Action)
	}
	for _, c := range commits {
		subject, _ := repo.CommitSubject(c)
		fmt.Fprintf(env.Out, "commit %s %s\n", short(c), subject)
	}
	if p.Kind == archive.KindArchive {
		fmt.Fprintf(env.Out, "undo with: %s\n", p.Inverse)
	}
	return nil
}
