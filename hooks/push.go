package hooks

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/govern"
	"github.com/git-adr/git-adr/gitops"
)

// Rules the push hooks add to package govern's.
const (
	// RuleLedger: an acceptance or publication commit changes files its
	// trailers do not name, or names files it does not change.
	RuleLedger govern.Rule = "ledger"
	// RuleSignature: in strict mode, an acceptance or publication commit
	// is not signed by an allowed signer.
	RuleSignature govern.Rule = "signature"
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
// its environment (it gives pre-push hooks no standard input).
func PrePushFromEnv(getenv func(string) string) []Update {
	to := getenv("PRE_COMMIT_TO_REF")
	if to == "" {
		return nil
	}
	from := getenv("PRE_COMMIT_FROM_REF")
	if from == "" {
		from = gitops.ZeroHash
	}
	return []Update{{LocalRef: getenv("PRE_COMMIT_LOCAL_BRANCH"), New: to, Ref: getenv("PRE_COMMIT_REMOTE_BRANCH"), Old: from}}
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

// Commits lists the commits an update brings to the other side: Old..New,
// or for a new ref everything not on exclude (remote-tracking refs of the
// remote for a push, every existing ref for a receive).
func Commits(r *gitops.Repo, u Update, exclude ...string) ([]string, error) {
	if u.Deletes() {
		return nil, nil
	}
	args := []string{"rev-list", "--reverse", u.New}
	if u.Old != gitops.ZeroHash {
		args = append(args, "^"+u.Old)
	} else {
		args = append(args, "--not")
		args = append(args, exclude...)
	}
	out, err := r.Git(args...)
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}

// Strict is the signing policy for acceptance and publication commits.
type Strict struct {
	On bool
	// AllowedSigners is the ssh allowed-signers file ("" for git's
	// gpg.ssh.allowedSignersFile).
	AllowedSigners string
	// Approvers are the signers whose signature counts (empty: any
	// allowed signer).
	Approvers []string
}

// CheckCommits verifies every acceptance or publication commit (one with
// an ADR-Plan trailer) among commits: its ledger names exactly the files
// it changes and, in strict mode, a good signature by an allowed signer.
func CheckCommits(r *gitops.Repo, commits []string, strict Strict) ([]govern.Problem, error) {
	var out []govern.Problem
	for _, c := range commits {
		msg, err := r.Git("log", "-1", "--format=%B", c)
		if err != nil {
			return nil, err
		}
		tr := trailers(string(msg))
		if len(tr["ADR-Plan"]) == 0 {
			continue
		}
		short := c
		if len(short) > 12 {
			short = short[:12]
		}
		subject := firstLine(string(msg))
		if ps, err := checkLedger(r, c, short, subject, tr); err != nil {
			return nil, err
		} else {
			out = append(out, ps...)
		}
		if strict.On {
			if p := checkSignature(r, c, short, subject, strict); p != nil {
				out = append(out, *p)
			}
		}
	}
	return out, nil
}

// trailers reads "Key: value" lines of a commit message's last paragraph.
func trailers(msg string) map[string][]string {
	paras := strings.Split(strings.TrimSpace(strings.ReplaceAll(msg, "\r\n", "\n")), "\n\n")
	out := map[string][]string{}
	last := paras[len(paras)-1]
	for _, line := range strings.Split(last, "\n") {
		k, v, ok := strings.Cut(line, ": ")
		if ok && !strings.ContainsAny(k, " \t") && k != "" {
			out[k] = append(out[k], strings.TrimSpace(v))
		}
	}
	return out
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// checkLedger compares the files a commit changes with those its trailers
// name: ADR-View paths, and the records ADR-Accepted and ADR-Supersedes
// name, with the generated INDEX.md and CURRENT pair of their roots.
func checkLedger(r *gitops.Repo, c, short, subject string, tr map[string][]string) ([]govern.Problem, error) {
	changes, err := r.TreeChanges(c+"^", c)
	if err != nil {
		return nil, err
	}
	named := map[string]bool{}
	for _, p := range tr["ADR-View"] {
		named[p] = true
	}
	ids := append(append([]string{}, tr["ADR-Accepted"]...), tr["ADR-Supersedes"]...)
	roots := map[string]bool{}
	index := map[string]string{} // root directory -> its index file name
	if len(ids) > 0 {
		tree, err := r.TreeFS(c)
		if err != nil {
			return nil, err
		}
		l, err := adr.Load(tree, adr.LoadOptions{Lazy: true})
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			rec, err := l.Resolve(id)
			if err != nil {
				return []govern.Problem{{Rule: RuleLedger, Path: c, Block: true,
					Message: fmt.Sprintf("commit %s (%s) names %q in its ledger, which is no record in it", short, subject, id),
					Fix:     "an acceptance commit is made by git-adr; do not push a hand-made one: `git reset --soft HEAD^` and accept again"}}, nil
			}
			named[rec.Path] = true
			roots[rec.Root.Dir()] = true
			index[rec.Root.Dir()] = rec.Root.IndexName()
		}
	}
	for p := range named {
		roots[path.Dir(p)] = true
	}
	changed := map[string]bool{}
	var extra []string
	for _, ch := range changes {
		changed[ch.Path] = true
		if ch.OldPath != "" {
			changed[ch.OldPath] = true
		}
		base, dir := path.Base(ch.Path), path.Dir(ch.Path)
		ix := index[dir]
		if ix == "" {
			ix = adr.IndexFile
		}
		generated := roots[dir] && (base == ix || base == "CURRENT.md" || base == "CURRENT.sources.json")
		if !named[ch.Path] && !generated {
			extra = append(extra, ch.Path)
		}
	}
	var missing []string
	for p := range named {
		if !changed[p] {
			missing = append(missing, p)
		}
	}
	sort.Strings(extra)
	sort.Strings(missing)
	var out []govern.Problem
	if len(extra) > 0 {
		out = append(out, govern.Problem{Rule: RuleLedger, Path: extra[0], Block: true,
			Message: fmt.Sprintf("commit %s (%s) carries an ADR-Plan ledger but also changes %s, which it does not name", short, subject, strings.Join(extra, ", ")),
			Fix:     "an acceptance or publication commit holds exactly what was approved: move the other changes to their own commit (`git rebase -i`)"})
	}
	if len(missing) > 0 {
		out = append(out, govern.Problem{Rule: RuleLedger, Path: missing[0], Block: true,
			Message: fmt.Sprintf("commit %s (%s) names %s in its ledger but does not change it", short, subject, strings.Join(missing, ", ")),
			Fix:     "the ledger must match the commit: publish again with `git adr compaction --confirm PLAN@REVISION`"})
	}
	return out, nil
}

// checkSignature requires a good signature whose key the allowed-signers
// file lists (git's %G? is G only then).
func checkSignature(r *gitops.Repo, c, short, subject string, s Strict) *govern.Problem {
	args := []string{}
	if s.AllowedSigners != "" {
		args = append(args, "-c", "gpg.ssh.allowedSignersFile="+s.AllowedSigners)
	}
	out, err := r.Git(append(args, "log", "-1", "--format=%G?%x00%GS%x00%GF", c)...)
	status, signer := "N", ""
	if err == nil {
		f := strings.SplitN(strings.TrimSpace(string(out)), "\x00", 3)
		status = f[0]
		if len(f) > 1 {
			signer = f[1]
		}
	}
	if status == "G" && (len(s.Approvers) == 0 || contains(s.Approvers, signer)) {
		return nil
	}
	if status == "G" {
		return &govern.Problem{Rule: RuleSignature, Path: c, Block: true,
			Message: fmt.Sprintf("strict mode: commit %s (%s) is signed by %q, who is not among the approvers", short, subject, signer),
			Fix:     "the approvers are listed in [governance] approvers of .adr.toml; an approver publishes again"}
	}
	why := map[string]string{
		"N": "is not signed (or no allowed-signers file is configured)",
		"B": "has a bad signature",
		"U": "is signed by a key the allowed-signers file does not list",
		"X": "is signed with an expired signature",
		"Y": "is signed by an expired key",
		"R": "is signed by a revoked key",
		"E": "has a signature that cannot be checked",
	}[status]
	if why == "" {
		why = "has no good signature (" + status + ")"
	}
	if signer != "" {
		why += fmt.Sprintf(" (signer %q)", signer)
	}
	return &govern.Problem{Rule: RuleSignature, Path: c, Block: true,
		Message: fmt.Sprintf("strict mode: commit %s (%s) %s", short, subject, why),
		Fix:     "acceptance and publication commits must be signed by an allowed signer: configure signing (`git config gpg.format ssh`, `user.signingkey`) and publish again; the allowed signers are in [governance] allowed_signers or gpg.ssh.allowedSignersFile, the approvers in [governance] approvers"}
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

// allowedSignersPath resolves a repository-relative allowed-signers path.
func AllowedSignersPath(top, p string) string {
	if p == "" || path.IsAbs(p) || top == "" {
		return p
	}
	return top + string(os.PathSeparator) + p
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
