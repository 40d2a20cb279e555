package audit

import (
	"fmt"
	"io/fs"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/govern"
	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/git-adr/git-adr/gitops"
)

// sinceRange is what `check --since REV` judges: the change from the
// merge base of REV and HEAD (from) to HEAD, read from git objects only.
type sinceRange struct {
	since          string
	from           string
	baseFS, headFS fs.FS
	changes        []gitops.DiffEntry
}

// resolveSince finds the range of --since REV; a REV this repository
// cannot use is a [*SinceError].
func resolveSince(r *gitops.Repo, since string) (*sinceRange, error) {
	base, err := r.ResolveRef(since + "^{commit}")
	if err != nil {
		return nil, &SinceError{Since: since, NoCommit: true, Shallow: r.IsShallow()}
	}
	mb, err := r.MergeBase(base, "HEAD")
	if err != nil {
		return nil, &SinceError{Since: since}
	}
	rg := &sinceRange{since: since, from: mb}
	if rg.baseFS, err = r.TreeFS(rg.from); err != nil {
		return nil, err
	}
	if rg.headFS, err = r.TreeFS("HEAD"); err != nil {
		return nil, err
	}
	if rg.changes, err = r.TreeChanges(rg.from, "HEAD"); err != nil {
		return nil, err
	}
	return rg, nil
}

// sinceKinds are the kinds a range's governance adds to the report (and
// with compaction, stale-view): the pre-commit hook's rules and the
// pre-push hook's ledger checks.
func sinceKinds(compaction bool) []adr.FindingKind {
	kinds := []adr.FindingKind{adr.FindingKind(govern.RuleAcceptedEdit), adr.FindingKind(govern.RuleLifecycle), adr.FindingKind(govern.RuleDeleted), adr.FindingKind(govern.RuleArchivedInForce),
		adr.FindingKind(govern.RuleDuplicateNumber), adr.FindingKind(govern.RuleIndexDrift),
		adr.FindingKind(ledger.RuleLedger), adr.FindingKind(ledger.RuleSignature), adr.FindingKind(ledger.RuleUnledgered)}
	if compaction {
		kinds = append(kinds, adr.FindingKind(govern.RuleStaleView))
	}
	return kinds
}

// findings applies the governance rules to what changed in the range,
// reading only git objects.
func (rg *sinceRange) findings(r *gitops.Repo, compaction bool) ([]adr.Finding, []adr.FindingKind, error) {
	rep, err := govern.Judge(govern.Input{Base: rg.baseFS, Next: rg.headFS, Changes: rg.changes, Policy: govern.Policy{Index: "check"}})
	if err != nil {
		return nil, nil, err
	}
	// The ledger and, in strict mode, the signature of every acceptance
	// or publication commit of the range, as pre-push and pre-receive
	// check them. The policy is the base's: a change cannot relax it.
	ledgers, err := rangeLedgers(r, rg.from, rg.baseFS)
	if err != nil {
		return nil, nil, err
	}
	var out []adr.Finding
	for _, p := range append(rep.Problems, ledgers...) {
		if !p.Block && !compaction {
			continue
		}
		out = append(out, adr.Finding{Kind: adr.FindingKind(p.Rule), Path: p.Path, Line: p.Line, Message: p.Message, Fix: p.Fix, IDs: []string{}})
	}
	return out, sinceKinds(compaction), nil
}

// rangeLedgers checks the ledger commits of from..HEAD
// (ledger.CheckCommits) with the strict-mode policy of from's tree, its
// allowed-signers file read from that tree too.
func rangeLedgers(r *gitops.Repo, from string, baseFS fs.FS) ([]govern.Problem, error) {
	commits, err := r.CommitsBetween(from, "HEAD")
	if err != nil {
		return nil, err
	}
	if len(commits) == 0 {
		return nil, nil
	}
	cfg := &adr.Config{}
	if c, err := adr.LoadConfig(baseFS); err == nil {
		cfg = c
	}
	return ledger.CheckCommits(r, commits, ledger.StrictFrom(cfg.Governance, baseFS))
}

// introducedOnly leaves in rep the findings the range introduced: the
// log at the merge base is checked the same way (its branches, views and
// scope signals as of that commit, every kind), and each finding it
// already had takes one like it out of rep (adr.Introduced). A note
// counts what was left out. A base whose log cannot be read leaves rep
// whole, and says so.
func introducedOnly(o Options, rg *sinceRange, rep *adr.CheckReport) error {
	base, err := adr.Load(rg.baseFS, o.Base)
	if o.Base.Cache != nil {
		_ = o.Base.Cache.SaveIfWorth()
	}
	if err != nil {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the log at the merge base %s cannot be read (%v): every finding is reported, as with --all", short(rg.from), err))
		return nil
	}
	opt, err := sources(o, base, rg.from)
	if err != nil {
		return err
	}
	opt.AllKinds = true
	renames := map[string]string{}
	for _, c := range rg.changes {
		if c.Status == 'R' {
			renames[c.OldPath] = c.Path
		}
	}
	introduced, old := adr.Introduced(rep.Findings, base.Check(opt).Findings, renames)
	rep.Findings = append([]adr.Finding{}, introduced...)
	for k := range rep.Counts {
		rep.Counts[k] = 0
	}
	for _, f := range rep.Findings {
		rep.Counts[f.Kind]++
	}
	switch {
	case old == 1:
		rep.Notes = append(rep.Notes, fmt.Sprintf("1 finding the log already had at the merge base %s is not reported: this change did not introduce it (`git adr check --since %s --all` reports the whole log)",
			short(rg.from), adr.ShellWord(rg.since)))
	case old > 1:
		rep.Notes = append(rep.Notes, fmt.Sprintf("%d findings the log already had at the merge base %s are not reported: this change did not introduce them (`git adr check --since %s --all` reports the whole log)",
			old, short(rg.from), adr.ShellWord(rg.since)))
	}
	return nil
}
