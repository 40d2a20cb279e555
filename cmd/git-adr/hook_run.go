package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/evidence"
	"github.com/git-adr/git-adr/adr/govern"
	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/git-adr/git-adr/adr/scope"
	"github.com/git-adr/git-adr/gitops"
	"github.com/git-adr/git-adr/hooks"
	"github.com/git-adr/git-adr/internal/lazyre"
)

// runPreCommit judges what is staged (read through the git binary, so a
// hook's GIT_INDEX_FILE is honoured) against HEAD.
func runPreCommit(env *Env, r *gitops.Repo) error {
	st, err := r.StagedState()
	if err != nil || len(st.Changes) == 0 {
		return err
	}
	changes, next, base := st.Changes, st.Next, st.Base
	cfg, err := adr.LoadConfig(r.WorktreeFS())
	if err != nil {
		return usagef("%v", err)
	}
	branches, err := env.branchTrees()
	if err != nil {
		return err
	}
	// A commit of a few new records does not pay for rewriting the cache
	// (the next command does); a hook that parsed a whole log (the first
	// after an upgrade, or in a repository where nothing else runs
	// git-adr, as the reminder reads every record) keeps what it parsed.
	cache := adr.OpenCache(filepath.Join(r.AdrDir(), "cache"), false)
	defer cache.SaveIfAdded(hookCacheSave)
	rep, err := govern.Judge(govern.Input{Base: base, Next: next, Changes: changes, Branches: branches,
		Policy: govern.Policy{StaleView: cfg.Hooks.StaleView, Index: cfg.Hooks.Index}, Cache: cache})
	if err != nil {
		return err
	}
	problems := rep.Problems
	if cfg.Hooks.Remind {
		remind(env, r, next, changes, cache)
	}
	if !rep.Blocked() && len(rep.Fixes) > 0 {
		ps, err := fixIndexes(env, r, rep.Fixes)
		if err != nil {
			return err
		}
		problems = append(problems, ps...)
	}
	if printProblems(env, problems) {
		return refused(env, "commit", countBlocking(problems))
	}
	return nil
}

// fixIndexes writes regenerated INDEX.md files into the commit being made
// and the work tree together, so the two never disagree. A partial commit
// (`git commit PATH`, which commits a temporary index) or an INDEX.md with
// unstaged changes cannot be fixed safely: it blocks with the commands.
func fixIndexes(env *Env, r *gitops.Repo, fixes []govern.IndexFix) ([]govern.Problem, error) {
	if idx := os.Getenv("GIT_INDEX_FILE"); strings.HasPrefix(filepath.Base(idx), "next-index") {
		var ps []govern.Problem
		for _, f := range fixes {
			ps = append(ps, govern.Problem{Rule: govern.RuleIndexDrift, Path: f.Path, Block: true,
				Message: f.Path + " no longer lists the records as they are, and a commit of named paths cannot update it",
				Fix:     "run `git adr index`, then commit it with the records: `git commit PATHS " + adr.ShellWord(f.Path) + "`"})
		}
		return ps, nil
	}
	if err := env.lockWrites(); err != nil {
		return nil, err
	}
	cs, err := env.Changeset()
	if err != nil {
		return nil, err
	}
	var ps []govern.Problem
	entries := map[string]string{}
	for _, f := range fixes {
		cur, exists, err := adr.ReadWorkFile(r.Top, f.Path)
		if err != nil {
			return nil, err
		}
		switch {
		case exists && bytes.Equal(cur, f.Content):
		case exists && f.Old != nil && bytes.Equal(cur, f.Old):
			cs.Update(f.Path, cur, f.Content)
		case !exists && f.Old == nil:
			cs.Create(f.Path, f.Content)
		default:
			ps = append(ps, govern.Problem{Rule: govern.RuleIndexDrift, Path: f.Path, Block: true,
				Message: f.Path + " no longer lists the records as they are, and it has changes that are not staged",
				Fix:     "run `git adr index`, then `git add " + adr.ShellWord(f.Path) + "`"})
			continue
		}
		blob, err := r.WriteBlob(f.Content)
		if err != nil {
			return nil, err
		}
		entries[f.Path] = blob
	}
	if len(ps) > 0 {
		return ps, nil
	}
	if err := cs.Apply(); err != nil {
		return nil, err
	}
	if err := r.SetIndex(entries); err != nil {
		return nil, err
	}
	for p := range entries {
		fmt.Fprintf(env.Err, "git-adr: note: updated %s in the commit and the work tree\n", adr.Escape(p))
	}
	return nil, nil
}

// runPrePush checks the commits a push sends: ledgers and (strict)
// signatures of acceptance and publication commits, and numbers the
// remote's branch holds for other records.
func runPrePush(env *Env, r *gitops.Repo, args []string, stdin []byte) error {
	remote := ""
	if len(args) > 0 {
		remote = args[0]
	}
	updates, err := hooks.ParsePrePush(stdin)
	if err != nil {
		return usagef("%v", err)
	}
	if len(updates) == 0 {
		updates = hooks.PrePushFromEnv(os.Getenv, r.ResolveRef)
		if remote == "" {
			remote = os.Getenv("PRE_COMMIT_REMOTE_NAME")
		}
	}
	if len(updates) == 0 && !fromOwnScript("pre-push") {
		if err := prePushUnseen(r, remote); err != nil {
			return err
		}
	}
	var problems []govern.Problem
	for _, u := range updates {
		if u.Deletes() || strings.HasPrefix(u.Ref, "refs/adr/") {
			continue // plans, candidates and memory are shared as they are
		}
		strict, err := pushPolicy(r, remote, u)
		if err != nil {
			return err
		}
		exclude := []string{}
		if remote != "" {
			exclude = append(exclude, "--remotes="+remote)
		}
		commits, err := hooks.Commits(r, u, exclude...)
		if err != nil {
			return err
		}
		ps, err := hooks.CheckCommits(r, commits, strict)
		if err != nil {
			return err
		}
		problems = append(problems, ps...)
		if remote != "" && strings.HasPrefix(u.Ref, "refs/heads/") {
			// The branch pushed to and the remote's default branch, as
			// last fetched.
			seen := map[string]bool{}
			for _, t := range []string{"refs/remotes/" + remote + "/" + strings.TrimPrefix(u.Ref, "refs/heads/"),
				"refs/remotes/" + remote + "/HEAD", "refs/remotes/" + remote + "/main", "refs/remotes/" + remote + "/master"} {
				h, err := r.ResolveRef(t)
				if err != nil || seen[h] {
					continue
				}
				seen[h] = true
				ds, err := hooks.PushDuplicates(r, u.New, t)
				if err != nil {
					return err
				}
				problems = append(problems, ds...)
			}
		}
	}
	if printProblems(env, problems) {
		return refused(env, "push", countBlocking(problems))
	}
	return nil
}

// fromOwnScript reports whether git-adr's own hook script for name runs
// this process (it sets HookDirEnv to its folder, where it is installed),
// so that what git gives the hook reaches it unchanged. A variable set by
// anything else must name a folder where git-adr's hook is installed.
func fromOwnScript(name string) bool {
	dir := os.Getenv(gitops.HookDirEnv)
	if dir == "" {
		return false
	}
	st, err := gitops.HookStatus(dir, name)
	return err == nil && st.Installed
}

// prePushUnseen fails closed when pre-push was given no refs by a caller
// other than git-adr's own hook script. git gives one line for every ref
// a push updates, and none only for a push that updates nothing; a hook
// manager may withhold the lines (lefthook does without use_stdin), and
// a push that passed unseen would carry its commits past every check.
// With nothing a push could send (every commit of HEAD, the branches and
// the tags is on the remote) there is nothing to check.
func prePushUnseen(r *gitops.Repo, remote string) error {
	n, err := hooks.Unpushed(r, remote)
	if err != nil || n == 0 {
		return err
	}
	where, verb := "the remote", "are"
	if remote != "" {
		where = fmt.Sprintf("%q", remote)
	}
	if n == 1 {
		verb = "is"
	}
	return failf("pre-push received no pushed refs on its standard input, and %s of HEAD, the branches and the tags %s not on %s: git-adr cannot tell what this push sends, so it refuses it",
		plural(n, "commit"), verb, where).
		hint("lefthook passes git's input to a command only with `use_stdin: true`: add it under the git-adr command of pre-push (`git adr hooks install --pre-push` prints the lines)",
			"a hook of your own that runs `git adr hook pre-push \"$@\"` must leave its standard input to it",
			"git gives no refs only when a push sends nothing: if that is so (everything up to date), `git push --no-verify` skips the hooks")
}

var refsTrailer = lazyre.New(`(?m)^Refs:.*$`)

// runCommitMsg suggests a Refs: trailer naming the records a commit
// changes; it never edits the message.
func runCommitMsg(env *Env, r *gitops.Repo, args []string) error {
	if len(args) == 0 {
		return usagef("commit-msg needs the message file git passes")
	}
	msg, err := os.ReadFile(args[0])
	if err != nil {
		return failf("reading the commit message: %v", err)
	}
	changes, err := r.StagedChanges()
	if err != nil || len(changes) == 0 {
		return err
	}
	next, err := r.IndexFS()
	if err != nil {
		return err
	}
	l, err := adr.Load(next, adr.LoadOptions{Lazy: true})
	if err != nil {
		return nil // a broken configuration is pre-commit's to report
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
	if len(missing) > 0 {
		fmt.Fprintf(env.Err, "git-adr: note: this commit changes %s; to record the link in history, add the trailer\n\n    Refs: %s\n\n(git commit --amend, or `git commit --trailer \"Refs: %s\"` next time)\n",
			strings.Join(missing, ", "), strings.Join(missing, ", "), strings.Join(missing, ", "))
	}
	return nil
}

// runPreReceive applies, on a server, the pre-commit rules to each pushed
// range and the pre-push checks to its commits. The policy comes from the
// receiving side's state before the push, never from what is pushed.
func runPreReceive(env *Env, r *gitops.Repo, stdin []byte) error {
	updates, err := hooks.ParsePreReceive(stdin)
	if err != nil {
		return usagef("%v", err)
	}
	var problems []govern.Problem
	for _, u := range updates {
		if u.Deletes() || !strings.HasPrefix(u.Ref, "refs/heads/") {
			continue
		}
		commits, err := hooks.Commits(r, u, "--all")
		if err != nil {
			return err
		}
		if len(commits) == 0 {
			continue
		}
		policyRev := u.Old
		if u.Old == gitops.ZeroHash {
			policyRev = "HEAD"
		}
		cfg := &adr.Config{}
		var policyFS fs.FS
		if t, err := r.TreeFS(policyRev); err == nil {
			policyFS = t
			if c, err := adr.LoadConfig(t); err == nil {
				cfg = c
			}
		}
		base := u.Old
		if base == gitops.ZeroHash {
			base = commits[0] + "^"
		}
		var baseFS fs.FS
		if _, err := r.ResolveRef(base); err == nil {
			if baseFS, err = r.TreeFS(base); err != nil {
				return err
			}
		} else {
			base = gitops.EmptyTree
		}
		nextFS, err := r.TreeFS(u.New)
		if err != nil {
			return err
		}
		changes, err := r.TreeChanges(base, u.New)
		if err != nil {
			return err
		}
		rep, err := govern.Judge(govern.Input{Base: baseFS, Next: nextFS, Changes: changes,
			Policy: govern.Policy{StaleView: cfg.Hooks.StaleView, Index: "check"}})
		if err != nil {
			return err
		}
		problems = append(problems, rep.Problems...)
		ps, err := hooks.CheckCommits(r, commits, ledger.StrictFrom(cfg.Governance, policyFS))
		if err != nil {
			return err
		}
		problems = append(problems, ps...)
	}
	if printProblems(env, problems) {
		return refused(env, "push", countBlocking(problems))
	}
	return nil
}

// pushPolicy is the strict-mode policy a push is judged by: the remote's,
// as this repository knows it (the commit the remote's ref is at, else
// the remote's branch or default branch as last fetched), so a push can
// neither relax the policy nor add a signer by a change of its own, and
// nothing uncommitted counts. A remote this repository knows nothing of
// (a first push) has no policy yet: its pre-receive hook, if installed,
// has its own.
func pushPolicy(r *gitops.Repo, remote string, u hooks.Update) (ledger.Strict, error) {
	revs := []string{}
	if u.Old != gitops.ZeroHash {
		revs = append(revs, u.Old)
	}
	if remote != "" {
		revs = append(revs, "refs/remotes/"+remote+"/"+strings.TrimPrefix(u.Ref, "refs/heads/"),
			"refs/remotes/"+remote+"/HEAD", "refs/remotes/"+remote+"/main", "refs/remotes/"+remote+"/master")
	}
	for _, rev := range revs {
		if _, err := r.ResolveRef(rev + "^{commit}"); err != nil {
			continue
		}
		t, err := r.TreeFS(rev)
		if err != nil {
			return ledger.Strict{}, err
		}
		cfg, err := adr.LoadConfig(t)
		if err != nil {
			return ledger.Strict{}, usagef("the configuration the remote has (%s): %v", rev, err)
		}
		return ledger.StrictFrom(cfg.Governance, t), nil
	}
	return ledger.Strict{}, nil
}

// hookCacheSave is how many records the pre-commit hook must have parsed
// before it saves the parse cache.
const hookCacheSave = 64

// remindBudget bounds the reminder: 800 o200k tokens.
const remindBudget = 800

// remind prints, never blocks, the decisions in force that govern the
// staged paths ([hooks] remind = true), within remindBudget tokens.
func remind(env *Env, r *gitops.Repo, next fs.FS, changes []gitops.DiffEntry, cache *adr.Cache) {
	// Every record is read (through the parse cache): any of them may
	// declare the scope of a staged file, and a lazy load would know the
	// declarations of its sample alone.
	l, err := adr.Load(next, adr.LoadOptions{Cache: cache})
	if err != nil || len(l.Roots) == 0 {
		return
	}
	var paths []string
	for _, c := range changes {
		if c.Status == 'D' || l.ByPath(c.Path) != nil {
			continue // records themselves are governed by the rules above
		}
		paths = append(paths, c.Path)
	}
	if len(paths) == 0 {
		return
	}
	out, err := r.Grep(scope.MarkerPattern, "", paths, nil, markersPerFile, markersMax)
	if err != nil {
		return
	}
	// The records that name a path are found through their stored path
	// tokens, not by reading every record's text out of the object store.
	x := withMentions(r, l, scope.New(l, scope.ParseMarkers(out, markersMax)))
	var b strings.Builder
	shown, total := 0, 0
	for _, m := range x.Govern(paths) {
		if m.Record.Status != adr.Accepted {
			continue
		}
		total++
		line := fmt.Sprintf("git-adr: note: %s is governed by %s %s (%s)\n", adr.Escape(m.Path), adr.Escape(m.Record.ID), adr.Escape(m.Record.Title), adr.Escape(m.Why))
		if b.Len()+len(line) > remindBudget*3 {
			continue
		}
		b.WriteString(line)
		shown++
	}
	if total == 0 {
		return
	}
	if shown < total {
		fmt.Fprintf(&b, "git-adr: note: and %d more: `git adr explain %s`\n", total-shown, strings.Join(paths[:min(3, len(paths))], " "))
	}
	text := b.String()
	// Bytes bound tokens from above; count them only when they might
	// exceed the budget (the tokenizer takes time to load).
	for len(text) > remindBudget && evidence.TokensO200k(text) > remindBudget {
		lines := strings.SplitAfter(strings.TrimSuffix(text, "\n"), "\n")
		text = strings.Join(lines[:len(lines)-1], "")
	}
	fmt.Fprint(env.Err, text)
}
