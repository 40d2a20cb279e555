package main

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/accept"
	"github.com/git-adr/git-adr/adr/archive"
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
	store := &archive.Store{Repo: mustRepo(env)}
	done := ""
	if err := env.locked(func() (err error) {
		done, err = store.Offer(p)
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
		if err := env.locked(func() error { return storeErr(store.Cancel(p), p.ID) }); err != nil {
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
// same plan (archive.Store.Carry). A publication an interrupted run made
// is found by its trailer and finished, never made twice.
func runArchiveConfirm(env *Env, kind archive.Kind, o archiveOptions, rev int) error {
	repo, err := env.Repo()
	if err != nil {
		return err
	}
	store := &archive.Store{Repo: repo}
	p, commit, done, err := store.ForConfirm(o.planID, kind, rev)
	var re *archive.RequestError
	var se *archive.StateError
	switch {
	case errors.As(err, &re):
		e := usagef("%s", re.Msg)
		if re.Hint != "" {
			e.hint(re.Hint)
		}
		return e
	case errors.As(err, &se):
		return failf("%s", se.Msg).hint(se.Hint)
	case err != nil:
		return storeErr(err, o.planID)
	case done:
		if o.json {
			return writeJSON(env.Out, p)
		}
		fmt.Fprintf(env.Out, "%s plan %s revision %d is done in commit %s; nothing to do\n", p.Kind, p.ID, rev, short(last(p.Published)))
		return nil
	}
	if err := env.lockWrites(); err != nil {
		return err
	}
	if _, again, err := store.Load(p.ID); err != nil || again != commit {
		return withCode(ExitConflict, fmt.Errorf("archive plan %s changed while it was being confirmed; nothing was moved", p.ID)).
			hint("review it again with `git adr archive status " + p.ID + "`")
	}
	l, err := env.Log()
	if err != nil {
		return err
	}
	opts, err := carryOptions(env, l)
	if err != nil {
		return err
	}
	cmd := kind.Command()
	again := fmt.Sprintf("%s --confirm %s@%d", cmd, p.ID, rev)
	opts.Interrupted = func(c string) {
		fmt.Fprintf(env.Err, "git-adr: note: %s plan %s revision %d was committed in %s by a run that was interrupted; finishing it\n", p.Kind, p.ID, rev, short(c))
	}
	res, err := store.Carry(l, p, commit, opts)
	var lc *archive.LocalChangesError
	var ce *archive.ChangedError
	switch {
	case errors.As(err, &lc):
		return withCode(ExitConflict, fmt.Errorf("%w; nothing was moved", lc.Err)).
			hint(fmt.Sprintf("commit or stash your changes to that file, then run `%s` again", again))
	case errors.As(err, &ce):
		preview := cmd + " " + p.ID
		if p.Kind == archive.KindArchive {
			preview = cmd + " " + strings.Join(p.IDs(), " ")
		}
		return failf("%s since %s plan %s revision %d was previewed; nothing was moved", ce.Diff, p.Kind, p.ID, rev).
			hint("preview it again: `" + preview + "` shows the plan as it is now")
	case err != nil:
		return carryErr(err, p, again, "git adr archive status "+p.ID)
	}
	return recordArchive(env, p, res, o.json)
}

// carryOptions says how an archive plan's commits are made: signed when
// commit.gpgsign, .adr.toml [signing] or strict mode asks, like an
// acceptance commit, and verified in strict mode as HEAD commits it (an
// uncommitted edit of .adr.toml does not turn the signature check off).
func carryOptions(env *Env, l *adr.Log) (archive.CarryOptions, error) {
	repo := mustRepo(env)
	hl, err := headLog(env)
	if err != nil {
		return archive.CarryOptions{}, err
	}
	sign, err := accept.Signs(repo, l)
	if err != nil {
		return archive.CarryOptions{}, err
	}
	return archive.CarryOptions{Sign: sign, Strict: accept.StrictOf(hl), JournalDir: journalDir(repo), Command: env.command}, nil
}

// carryErr explains a plan that could not be carried out; again is the
// command that retries, status the one that shows the plan.
func carryErr(err error, p *archive.Plan, again, status string) error {
	var se *archive.StrictError
	var ce *archive.CommitError
	switch {
	case errors.As(err, &se):
		return failf("%s; nothing was moved (the branch did not move)", se.Problem.Message).hint(se.Problem.Fix)
	case errors.As(err, &ce) && len(ce.Commits) == 0:
		return publishErr(ce.Err, "run `"+again+"` again", status)
	case errors.As(err, &ce):
		return failf("%s plan %s was committed in %s, but bringing the work tree up to date failed: %v", p.Kind, p.ID, short(last(ce.Commits)), ce.Err).
			hint(fmt.Sprintf("run `%s` again to finish it", again))
	}
	return storeErr(prepareErr(err), p.ID)
}

// recordArchive reports a plan carried out (res) and leaves a receipt.
func recordArchive(env *Env, p *archive.Plan, res *archive.Carried, asJSON bool) error {
	repo := mustRepo(env)
	commits := res.Commits
	writeReceipt(env, receipt{Plan: p.ID, Revision: p.Revision, State: string(p.Kind) + " done in " + last(commits), Review: "git show --stat " + short(last(commits))})
	for _, k := range res.Kept {
		fmt.Fprintf(env.Err, "git-adr: note: %s was changed in the work tree since; it was left as it is (the commit holds the new version)\n", env.display(k))
	}
	if asJSON {
		return writeJSON(env.Out, res.Done)
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
