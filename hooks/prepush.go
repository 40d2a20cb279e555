package hooks

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/govern"
	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/git-adr/git-adr/gitops"
)

// InputError is input a hook cannot read: what git passed it, or the
// configuration its policy comes from. Nothing was checked.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// UnseenPushError refuses a push pre-push was given no refs for although
// Commits commits could be sent to Remote ("" when git named none).
type UnseenPushError struct {
	Commits int
	Remote  string
}

func (e *UnseenPushError) Error() string {
	where, verb, s := "the remote", "are", "s"
	if e.Remote != "" {
		where = fmt.Sprintf("%q", e.Remote)
	}
	if e.Commits == 1 {
		verb, s = "is", ""
	}
	return fmt.Sprintf("pre-push received no pushed refs on its standard input, and %d commit%s of HEAD, the branches and the tags %s not on %s: git-adr cannot tell what this push sends, so it refuses it",
		e.Commits, s, verb, where)
}

// PrePushOptions are what git passes pre-push.
type PrePushOptions struct {
	// Args are the hook's arguments: the remote's name and its URL.
	Args []string
	// Stdin is the hook's standard input, one line per ref pushed.
	Stdin []byte
	// Getenv reads the environment (the pre-commit framework describes
	// the push there, and git-adr's own hook script names its folder).
	Getenv func(string) string
}

// PrePush checks the commits a push sends: ledgers and (strict)
// signatures of acceptance and publication commits, and numbers the
// remote's branch holds for other records. Input it cannot read is an
// [*InputError]; a push it cannot see, an [*UnseenPushError].
func PrePush(r *gitops.Repo, opts PrePushOptions) ([]govern.Problem, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	remote := ""
	if len(opts.Args) > 0 {
		remote = opts.Args[0]
	}
	updates, err := ParsePrePush(opts.Stdin)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	if len(updates) == 0 {
		updates = PrePushFromEnv(getenv, r.ResolveRef)
		if remote == "" {
			remote = getenv("PRE_COMMIT_REMOTE_NAME")
		}
	}
	if len(updates) == 0 && !fromOwnScript(getenv, "pre-push") {
		if err := unseen(r, remote); err != nil {
			return nil, err
		}
	}
	var problems []govern.Problem
	for _, u := range updates {
		if u.Deletes() || strings.HasPrefix(u.Ref, "refs/adr/") {
			continue // plans, candidates and memory are shared as they are
		}
		strict, err := pushPolicy(r, remote, u)
		if err != nil {
			return nil, err
		}
		commits, err := pushedCommits(r, u, remote)
		if err != nil {
			return nil, err
		}
		ps, err := CheckCommits(r, commits, strict)
		if err != nil {
			return nil, err
		}
		problems = append(problems, ps...)
		if remote != "" && strings.HasPrefix(u.Ref, "refs/heads/") {
			// The branch pushed to and the remote's default branch, as
			// last fetched.
			seen := map[string]bool{}
			for _, t := range remoteBranches(remote, u) {
				h, err := r.ResolveRef(t)
				if err != nil || seen[h] {
					continue
				}
				seen[h] = true
				ds, err := PushDuplicates(r, u.New, t)
				if err != nil {
					return nil, err
				}
				problems = append(problems, ds...)
			}
		}
	}
	return problems, nil
}

// remoteBranches names, as last fetched, the branch u pushes to and the
// remote's default branch.
func remoteBranches(remote string, u Update) []string {
	return []string{"refs/remotes/" + remote + "/" + strings.TrimPrefix(u.Ref, "refs/heads/"),
		"refs/remotes/" + remote + "/HEAD", "refs/remotes/" + remote + "/main", "refs/remotes/" + remote + "/master"}
}

// fromOwnScript reports whether git-adr's own hook script for name runs
// this process (it sets HookDirEnv to its folder, where it is installed),
// so that what git gives the hook reaches it unchanged. A variable set by
// anything else must name a folder where git-adr's hook is installed.
func fromOwnScript(getenv func(string) string, name string) bool {
	dir := getenv(gitops.HookDirEnv)
	if dir == "" {
		return false
	}
	st, err := gitops.HookStatus(dir, name)
	return err == nil && st.Installed
}

// unseen fails closed when pre-push was given no refs by a caller other
// than git-adr's own hook script. git gives one line for every ref a push
// updates, and none only for a push that updates nothing; a hook manager
// may withhold the lines (lefthook does without use_stdin), and a push
// that passed unseen would carry its commits past every check. With
// nothing a push could send (every commit of HEAD, the branches and the
// tags is on the remote) there is nothing to check.
func unseen(r *gitops.Repo, remote string) error {
	n, err := r.CountNotOnRemote(remote)
	if err != nil || n == 0 {
		return err
	}
	return &UnseenPushError{Commits: n, Remote: remote}
}

// pushPolicy is the strict-mode policy a push is judged by: the remote's,
// as this repository knows it (the commit the remote's ref is at, else
// the remote's branch or default branch as last fetched), so a push can
// neither relax the policy nor add a signer by a change of its own, and
// nothing uncommitted counts. A remote this repository knows nothing of
// (a first push) has no policy yet: its pre-receive hook, if installed,
// has its own.
func pushPolicy(r *gitops.Repo, remote string, u Update) (ledger.Strict, error) {
	revs := []string{}
	if u.Old != gitops.ZeroHash {
		revs = append(revs, u.Old)
	}
	if remote != "" {
		revs = append(revs, remoteBranches(remote, u)...)
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
			return ledger.Strict{}, &InputError{Err: fmt.Errorf("the configuration the remote has (%s): %w", rev, err)}
		}
		return ledger.StrictFrom(cfg.Governance, t), nil
	}
	return ledger.Strict{}, nil
}

// PreReceive applies, on a server, the pre-commit rules to each pushed
// range and the pre-push checks to its commits. The policy comes from the
// receiving side's state before the push, never from what is pushed.
// Input it cannot read is an [*InputError].
func PreReceive(r *gitops.Repo, stdin []byte) ([]govern.Problem, error) {
	updates, err := ParsePreReceive(stdin)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	var problems []govern.Problem
	for _, u := range updates {
		if u.Deletes() || !strings.HasPrefix(u.Ref, "refs/heads/") {
			continue
		}
		ps, err := receive(r, u)
		if err != nil {
			return nil, err
		}
		problems = append(problems, ps...)
	}
	return problems, nil
}

// receive judges one branch update of a pre-receive.
func receive(r *gitops.Repo, u Update) ([]govern.Problem, error) {
	commits, err := receivedCommits(r, u)
	if err != nil || len(commits) == 0 {
		return nil, err
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
			return nil, err
		}
	} else {
		base = gitops.EmptyTree
	}
	nextFS, err := r.TreeFS(u.New)
	if err != nil {
		return nil, err
	}
	changes, err := r.TreeChanges(base, u.New)
	if err != nil {
		return nil, err
	}
	rep, err := govern.Judge(govern.Input{Base: baseFS, Next: nextFS, Changes: changes,
		Policy: govern.Policy{StaleView: cfg.Hooks.StaleView, Index: "check"}})
	if err != nil {
		return nil, err
	}
	ps, err := CheckCommits(r, commits, ledger.StrictFrom(cfg.Governance, policyFS))
	if err != nil {
		return nil, err
	}
	return append(rep.Problems, ps...), nil
}
