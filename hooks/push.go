package hooks

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/govern"
	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/git-adr/git-adr/gitops"
)

// Rules the push hooks add to package govern's.
const (
	// RuleLedger: a ledger commit changes files its trailers do not name,
	// names files it does not change, or says something of a record its
	// files do not show.
	RuleLedger = ledger.RuleLedger
	// RuleSignature: in strict mode, a ledger commit is not signed by an
	// allowed signer who is an approver.
	RuleSignature = ledger.RuleSignature
)

// Update is one ref a push or a receive moves. An all-zero New deletes
// the ref; an all-zero Old creates it.
type Update struct {
	Ref      string // the ref on the receiving side
	Old, New string
	// LocalRef is the pushing side's ref (pre-push only).
	LocalRef string
}

// Deletes reports whether the update removes the ref.
func (u Update) Deletes() bool { return u.New == gitops.ZeroHash }

// ParsePrePush reads pre-push's standard input: "<local ref> <local
// sha> <remote ref> <remote sha>" lines.
func ParsePrePush(stdin []byte) ([]Update, error) {
	var out []Update
	sc := bufio.NewScanner(bytes.NewReader(stdin))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != 4 {
			return nil, fmt.Errorf("pre-push input %q is not \"<local ref> <local sha> <remote ref> <remote sha>\"", sc.Text())
		}
		out = append(out, Update{LocalRef: f[0], New: f[1], Ref: f[2], Old: f[3]})
	}
	return out, sc.Err()
}

// PrePushFromEnv builds the update the pre-commit framework describes in
// its environment (it gives pre-push hooks no standard input). For a
// push that carries a branch's whole history, root commit included,
// pre-commit names no range, only the local ref: resolve gives its
// object, and every commit of it not on the remote is checked.
func PrePushFromEnv(getenv func(string) string, resolve func(string) (string, error)) []Update {
	to, local := getenv("PRE_COMMIT_TO_REF"), getenv("PRE_COMMIT_LOCAL_BRANCH")
	if to == "" && local != "" {
		if h, err := resolve(local); err == nil {
			to = h
		}
	}
	if to == "" {
		return nil
	}
	from := getenv("PRE_COMMIT_FROM_REF")
	if from == "" {
		from = gitops.ZeroHash
	}
	return []Update{{LocalRef: local, New: to, Ref: getenv("PRE_COMMIT_REMOTE_BRANCH"), Old: from}}
}

// ParsePreReceive reads pre-receive's standard input: "<old> <new> <ref>".
func ParsePreReceive(stdin []byte) ([]Update, error) {
	var out []Update
	sc := bufio.NewScanner(bytes.NewReader(stdin))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("pre-receive input %q is not \"<old> <new> <ref>\"", sc.Text())
		}
		out = append(out, Update{Old: f[0], New: f[1], Ref: f[2]})
	}
	return out, sc.Err()
}

// pushedCommits lists, oldest first, the commits u brings to remote:
// Old..New, or for a new ref those no tracking ref of remote holds (all
// of New's when the remote is not named).
func pushedCommits(r *gitops.Repo, u Update, remote string) ([]string, error) {
	switch {
	case u.Deletes():
		return nil, nil
	case u.Old != gitops.ZeroHash:
		return r.CommitsBetween(u.Old, u.New)
	case remote != "":
		return r.CommitsNotOnRemote(u.New, remote)
	}
	return r.CommitsBetween("", u.New)
}

// receivedCommits lists, oldest first, the commits u brings to the
// receiving repository: Old..New, or for a new ref those no ref holds.
func receivedCommits(r *gitops.Repo, u Update) ([]string, error) {
	switch {
	case u.Deletes():
		return nil, nil
	case u.Old != gitops.ZeroHash:
		return r.CommitsBetween(u.Old, u.New)
	}
	return r.CommitsNotOnAnyRef(u.New)
}

// Strict is the signing policy for acceptance and publication commits
// (package ledger holds it; the name is kept for the hooks' callers).
type Strict = ledger.Strict

// CheckCommits verifies every ledger commit (one with an ADR-Plan,
// ADR-Accepted or ADR-Supersedes trailer) among commits: its ledger agrees
// with the files it changes and, in strict mode, it has a good signature
// by an allowed signer who is an approver (see package ledger).
func CheckCommits(r *gitops.Repo, commits []string, strict Strict) ([]govern.Problem, error) {
	return ledger.CheckCommits(r, commits, strict)
}

// PushDuplicates reports records a pushed tip adds whose number the
// receiving branch (as last fetched, remote) already holds for another
// file: merging would give two records one ID.
func PushDuplicates(r *gitops.Repo, tip, remote string) ([]govern.Problem, error) {
	tipFS, err := r.TreeFS(tip)
	if err != nil {
		return nil, err
	}
	remoteFS, err := r.TreeFS(remote)
	if err != nil {
		return nil, nil // not fetched: nothing to compare with
	}
	l, err := adr.Load(tipFS, adr.LoadOptions{Lazy: true})
	if err != nil || len(l.Roots) == 0 {
		return nil, nil
	}
	theirs := adr.ScanBranches([]adr.BranchTree{{Ref: remote, FS: remoteFS}}, l.Roots)
	var out []govern.Problem
	for _, rec := range l.Records {
		if !rec.Numbered {
			continue
		}
		if _, err := fs.Stat(remoteFS, rec.Path); err == nil {
			continue // the same file on both sides
		}
		for _, t := range theirs {
			if t.Root == rec.Root && t.Number == rec.Number && t.Path != rec.Path {
				out = append(out, govern.Problem{Rule: govern.RuleDuplicateNumber, Path: rec.Path, Line: 1,
					Message: fmt.Sprintf("%s takes number %d, which %s holds on %s", rec.ID, rec.Number, t.Path, strings.TrimPrefix(remote, "refs/remotes/")),
					Fix:     fmt.Sprintf("renumber the unmerged record: `git adr renumber %s`, commit, and push again", adr.ShellWord(rec.Path))})
			}
		}
	}
	return out, nil
}
