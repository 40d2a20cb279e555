package ledger

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/govern"
	"github.com/git-adr/git-adr/gitops"
)

// handMade is the fix for a ledger commit that does not hold what its
// ledger says: such a commit is made by git-adr, never by hand.
const handMade = "a ledger commit is made by git-adr (`git adr compaction --confirm PLAN@REVISION`, `git adr decide ID accept`); do not push a hand-made one: `git reset --soft HEAD^` and accept again"

// Check compares a commit's ledger with what the commit changes: every
// file it changes is named (a record of ADR-Accepted or ADR-Supersedes, an
// ADR-View, or the generated INDEX.md or CURRENT pair of their roots) and
// every file named changes; each record ADR-Accepted names is accepted in
// the commit and was not before; each ADR-Supersedes pair is superseded
// with reciprocal links; no other record changes status; an acceptance
// names its approver. A commit without a ledger is not checked.
func Check(r *gitops.Repo, c string) ([]govern.Problem, error) {
	msg, err := r.Git("log", "-1", "--format=%B", c)
	if err != nil {
		return nil, err
	}
	led, bad := Parse(string(msg))
	if !led.IsLedger() {
		return nil, nil
	}
	short := c
	if len(short) > 12 {
		short = short[:12]
	}
	who := fmt.Sprintf("commit %s (%s)", short, firstLine(string(msg)))
	var out []govern.Problem
	problem := func(p, format string, args ...any) {
		out = append(out, govern.Problem{Rule: RuleLedger, Path: p, Block: true, Message: who + " " + fmt.Sprintf(format, args...), Fix: handMade})
	}
	for _, b := range bad {
		problem(c, "has a malformed ledger: %s", b)
	}
	parent := c + "^"
	if _, err := r.ResolveRef(parent); err != nil {
		parent = gitops.EmptyTree
	}
	changes, err := r.TreeChanges(parent, c)
	if err != nil {
		return nil, err
	}
	tree, err := r.TreeFS(c)
	if err != nil {
		return nil, err
	}
	l, err := adr.Load(tree, adr.LoadOptions{Lazy: true})
	if err != nil {
		return nil, err
	}
	var before *adr.Log
	if parent != gitops.EmptyTree {
		if pt, err := r.TreeFS(parent); err == nil {
			if before, err = adr.Load(pt, adr.LoadOptions{Lazy: true}); err != nil {
				before = nil
			}
		}
	}
	was := func(p string) *adr.Record {
		if before == nil {
			return nil
		}
		rec := before.ByPath(p)
		if rec == nil || before.Ensure(rec) != nil {
			return nil
		}
		return rec
	}
	named := map[string]bool{}
	for _, v := range led.Views {
		named[v] = true
	}
	roots := map[string]bool{}
	index := map[string]string{} // root directory -> its index file name
	// may are records the ledger names that the commit may change (a
	// successor accepted in an earlier commit need not change again).
	may := map[string]bool{}
	resolve := func(id string, mustChange bool) *adr.Record {
		rec, err := l.Resolve(id)
		if err != nil || rec == nil || l.Ensure(rec) != nil {
			problem(c, "names %q in its ledger, which is no record in it", id)
			return nil
		}
		if mustChange {
			named[rec.Path] = true
		} else {
			may[rec.Path] = true
		}
		roots[rec.Root.Dir()] = true
		index[rec.Root.Dir()] = rec.Root.IndexName()
		return rec
	}
	accepted := map[string]bool{}
	for _, id := range led.Accepted {
		rec := resolve(id, true)
		if rec == nil {
			continue
		}
		accepted[rec.Path] = true
		if rec.Status != adr.Accepted {
			problem(rec.Path, "says it accepts %s, but %s is %s in it", id, rec.Path, statusText(rec))
		} else if w := was(rec.Path); w != nil && w.Status == adr.Accepted {
			problem(rec.Path, "says it accepts %s, which was accepted before it", id)
		}
	}
	retired := map[string]bool{}
	for _, pr := range sortedPairs(led.Supersedes) {
		nw, old := resolve(pr.New, contains(led.Accepted, pr.New)), resolve(pr.Old, true)
		if nw == nil || old == nil {
			continue
		}
		retired[old.Path] = true
		switch {
		case old.Status != adr.Superseded:
			problem(old.Path, "says %s supersedes %s, but %s is %s in it", pr.New, pr.Old, pr.Old, statusText(old))
		case !hasRelation(old, adr.SupersededBy, nw):
			problem(old.Path, "says %s supersedes %s, but %s does not say it is superseded by %s", pr.New, pr.Old, pr.Old, pr.New)
		}
		if !hasRelation(nw, adr.Supersedes, old) {
			problem(nw.Path, "says %s supersedes %s, but %s does not say it supersedes %s", pr.New, pr.Old, pr.New, pr.Old)
		}
		if nw.Status != adr.Accepted {
			problem(nw.Path, "says %s supersedes %s, but %s is %s in it", pr.New, pr.Old, pr.New, statusText(nw))
		}
	}
	if led.Archive.Plan != "" && len(led.Supersedes) == 0 {
		problem(c, "authorises archive plan %s (%s) but retires no record: only records an acceptance supersedes move on acceptance", led.Archive.Plan, KeyArchive)
	}
	if len(led.Accepted) > 0 && led.ApprovedBy == "" {
		problem(c, "accepts %s without an %s trailer", strings.Join(led.Accepted, ", "), KeyApprovedBy)
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
		if !named[ch.Path] && !may[ch.Path] && !generated {
			extra = append(extra, ch.Path)
		}
		// A record whose status changes must be in the ledger.
		now := l.ByPath(ch.Path)
		if now == nil || ch.Status == 'D' || l.Ensure(now) != nil {
			continue
		}
		if w := was(ch.Path); w != nil && w.Status != now.Status && !accepted[now.Path] && !retired[now.Path] {
			problem(now.Path, "changes the status of %s from %s to %s, which its ledger does not name", now.ID, w.Status, now.Status)
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
	kind := "a decision ledger"
	if led.Plan != "" {
		kind = "an ADR-Plan ledger"
	}
	if len(extra) > 0 {
		out = append(out, govern.Problem{Rule: RuleLedger, Path: extra[0], Block: true,
			Message: fmt.Sprintf("%s carries %s but also changes %s, which it does not name", who, kind, strings.Join(extra, ", ")),
			Fix:     "an acceptance or publication commit holds exactly what was approved: move the other changes to their own commit (`git rebase -i`)"})
	}
	if len(missing) > 0 {
		out = append(out, govern.Problem{Rule: RuleLedger, Path: missing[0], Block: true,
			Message: fmt.Sprintf("%s names %s in its ledger but does not change it", who, strings.Join(missing, ", ")),
			Fix:     "the ledger must match the commit: publish again with `git adr compaction --confirm PLAN@REVISION`"})
	}
	return out, nil
}

func statusText(r *adr.Record) string {
	if r.Status == adr.Unknown && r.RawStatus != "" {
		return fmt.Sprintf("%q", r.RawStatus)
	}
	return string(r.Status)
}

// hasRelation reports whether from has a relation of typ resolving to to.
func hasRelation(from *adr.Record, typ adr.RelationType, to *adr.Record) bool {
	for _, rel := range from.Relations {
		if rel.Type == typ && rel.TargetID == to.ID {
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// Strict is the signing policy of strict mode ([governance] in .adr.toml).
type Strict struct {
	On bool
	// AllowedSigners is [governance] allowed_signers as configured: a
	// repository-relative path, read from Policy; or an absolute path
	// outside the repository. "" takes gpg.ssh.allowedSignersFile from
	// the person's own git configuration (see [Strict.SignersFile]).
	AllowedSigners string
	// Policy is the tree the policy was read from: HEAD's for an
	// acceptance, the base's for `check --since`, the receiving side's
	// for the push hooks. The work tree is never read: an uncommitted
	// line for an agent's own key must not make its signature count.
	Policy fs.FS
	// Approvers are the signers whose signature counts (empty: any
	// allowed signer).
	Approvers []string
}

// StrictFrom is the policy of a configuration read from the tree policy.
func StrictFrom(g adr.GovernanceConfig, policy fs.FS) Strict {
	return Strict{On: g.Strict, AllowedSigners: g.AllowedSigners, Policy: policy, Approvers: g.Approvers}
}

// IsApprover reports whether a signer counts as an approver.
func (s Strict) IsApprover(signer string) bool {
	if len(s.Approvers) == 0 {
		return signer != ""
	}
	for _, a := range s.Approvers {
		if SamePerson(signer, a) {
			return true
		}
	}
	return false
}

// Signature is what git says about a commit's signature.
type Signature struct {
	// Status is git's %G?: G good, B bad, U good but unknown validity, X
	// expired signature, Y expired key, R revoked key, E cannot check, N
	// none (or no allowed-signers file configured).
	Status string
	// Signer is %GS: the allowed-signers principal (ssh) or the user ID
	// (gpg).
	Signer string
	// Key is %GF, the key's fingerprint.
	Key string
}

// ReadSignature asks git about a commit's signature, with the
// allowed-signers file given explicitly (git's %G? is N when none is
// configured, which must not pass for "unsigned"). signers is the file
// [Strict.SignersFile] resolved ("": git's own configuration, which
// SignersFile found to hold none).
func ReadSignature(r *gitops.Repo, c, signers string) Signature {
	out, err := r.Git(append(signersArgs(signers), "log", "-1", "--format=%G?%x00%GS%x00%GF", c)...)
	sig := Signature{Status: "N"}
	if err == nil {
		f := strings.SplitN(strings.TrimSpace(string(out)), "\x00", 3)
		sig.Status = f[0]
		if len(f) > 1 {
			sig.Signer = f[1]
		}
		if len(f) > 2 {
			sig.Key = f[2]
		}
	}
	return sig
}

func signersArgs(file string) []string {
	if file == "" {
		return nil
	}
	return []string{"-c", "gpg.ssh.allowedSignersFile=" + file}
}

// Verify requires, in strict mode, that a ledger commit has a good
// signature (`git verify-commit`, %G? = G) by an allowed signer who is
// among the approvers and, when the ledger names the approver, is that
// person. The allowed signers are those of the policy's tree (see
// [Strict.SignersFile]). It returns nil when the commit passes.
func Verify(r *gitops.Repo, c string, s Strict) *govern.Problem {
	msg, err := r.Git("log", "-1", "--format=%B", c)
	if err != nil {
		return &govern.Problem{Rule: RuleSignature, Path: c, Block: true, Message: err.Error()}
	}
	led, _ := Parse(string(msg))
	short := c
	if len(short) > 12 {
		short = short[:12]
	}
	who := fmt.Sprintf("strict mode: commit %s (%s)", short, firstLine(string(msg)))
	signers, cleanup, err := s.SignersFile(r)
	if err != nil {
		var se *SignersError
		if errors.As(err, &se) {
			return &govern.Problem{Rule: RuleSignature, Path: c, Block: true, Message: who + " cannot be verified: " + se.Msg, Fix: se.Fix}
		}
		return &govern.Problem{Rule: RuleSignature, Path: c, Block: true, Message: who + " cannot be verified: " + err.Error(), Fix: signersFix}
	}
	defer cleanup()
	sig := ReadSignature(r, c, signers)
	if sig.Status == "G" {
		if _, err := r.Git(append(signersArgs(signers), "verify-commit", c)...); err != nil {
			sig.Status = "B"
		}
	}
	fix := "acceptance and publication commits must be signed by an allowed signer: configure signing (`git config gpg.format ssh`, `user.signingkey`) and accept again; the allowed signers are in [governance] allowed_signers (as committed) or the gpg.ssh.allowedSignersFile of your global git configuration, the approvers in [governance] approvers"
	switch {
	case sig.Status == "G" && !s.IsApprover(sig.Signer):
		return &govern.Problem{Rule: RuleSignature, Path: c, Block: true,
			Message: fmt.Sprintf("%s is signed by %q, who is not among the approvers", who, sig.Signer),
			Fix:     "the approvers are listed in [governance] approvers of .adr.toml; an approver accepts again"}
	case sig.Status == "G" && led.ApprovedBy != "" && !SamePerson(sig.Signer, led.ApprovedBy):
		return &govern.Problem{Rule: RuleSignature, Path: c, Block: true,
			Message: fmt.Sprintf("%s is signed by %q, but its ledger says %s approved it", who, sig.Signer, led.ApprovedBy),
			Fix:     "the approver signs: set user.email to the address the allowed-signers file lists for your key, and accept again"}
	case sig.Status == "G":
		return nil
	}
	why := map[string]string{
		"N": "is not signed (or no allowed-signers file is configured)",
		"B": "has a bad signature",
		"U": "is signed by a key the allowed-signers file does not list",
		"X": "is signed with an expired signature",
		"Y": "is signed by an expired key",
		"R": "is signed by a revoked key",
		"E": "has a signature that cannot be checked",
	}[sig.Status]
	if why == "" {
		why = "has no good signature (" + sig.Status + ")"
	}
	if sig.Signer != "" {
		why += fmt.Sprintf(" (signer %q)", sig.Signer)
	}
	return &govern.Problem{Rule: RuleSignature, Path: c, Block: true, Message: who + " " + why, Fix: fix}
}

// CheckCommits checks every ledger commit among commits with [Check]. In
// strict mode it also verifies ([Verify]) the signature of every ledger
// commit and of every archival or restore commit (an ADR-Archive or
// ADR-Restore trailer), and refuses a commit without a ledger that makes
// a record accepted ([Unledgered]): the same signed approval is needed
// whichever path makes a decision binding.
func CheckCommits(r *gitops.Repo, commits []string, s Strict) ([]govern.Problem, error) {
	var out []govern.Problem
	for _, c := range commits {
		msg, err := r.Git("log", "-1", "--format=%B", c)
		if err != nil {
			return nil, err
		}
		led, _ := Parse(string(msg))
		if !led.IsLedger() {
			if !s.On {
				continue
			}
			tr := Trailers(string(msg))
			if len(tr[KeyArchived]) > 0 || len(tr[KeyRestored]) > 0 {
				if p := Verify(r, c, s); p != nil {
					out = append(out, *p)
				}
			}
			recs, err := Unledgered(r, c)
			if err != nil {
				return nil, err
			}
			if len(recs) > 0 {
				out = append(out, unledgered(c, string(msg), recs))
			}
			continue
		}
		ps, err := Check(r, c)
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
		if s.On {
			if p := Verify(r, c, s); p != nil {
				out = append(out, *p)
			}
		}
	}
	return out, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
