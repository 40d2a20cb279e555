package accept

import (
	"errors"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/git-adr/git-adr/gitops"
)

// ErrNoCommit means the repository has no commit yet: acceptance
// commits on top of HEAD.
var ErrNoCommit = errors.New("the repository has no commit yet")

// ErrNoIdentity means git has no committer identity to record as the
// approver.
var ErrNoIdentity = errors.New("git has no committer identity to record as the approver")

// HeadLog loads the decision log as HEAD commits it (acceptance builds
// its commit on HEAD, so that is the log it checks), with roots relative
// to the repository's top ([ErrNoCommit] without a commit). cache, the
// repository's parse cache (nil for none), serves the records whose blobs
// it knows, as it does the work tree's: at 10,000 records a first
// acceptance otherwise read and parsed every record at HEAD again.
func HeadLog(repo *gitops.Repo, roots []string, cache *adr.Cache) (*adr.Log, error) {
	tree, err := repo.TreeFS("HEAD")
	if err != nil {
		return nil, ErrNoCommit
	}
	return adr.Load(tree, adr.LoadOptions{Roots: roots, Cwd: repo.Prefix, Cache: cache})
}

// InputFor is what the acceptance service reads, over l, with the trees
// of the other branches and what manifests name as their generator.
func InputFor(repo *gitops.Repo, l *adr.Log, branches []adr.BranchTree, generator string) Input {
	return Input{Repo: repo, Store: &compaction.Store{Repo: repo}, Log: l, Branches: adr.ScanBranches(branches, l.Roots), Generator: generator}
}

// StrictOf is the strict-mode policy of a log's configuration (HEAD's for
// acceptance: what is committed, not what the work tree says); its
// allowed signers are read from the same tree.
func StrictOf(l *adr.Log) ledger.Strict {
	if l == nil || l.Config == nil {
		return ledger.Strict{}
	}
	return ledger.StrictFrom(l.Config.Governance, l.FS)
}

// Signs reports whether git-adr's commits are signed: when git's
// commit.gpgsign or .adr.toml [signing] sign asks, and always in strict
// mode.
func Signs(repo *gitops.Repo, l *adr.Log) (bool, error) {
	sign, err := repo.SignByDefault()
	if err != nil {
		return false, err
	}
	return sign || l != nil && l.Config != nil && l.Config.Signing.Sign || StrictOf(l).On, nil
}

// OptionsFor says how an acceptance over l commits: signed when git or
// .adr.toml asks, always in strict mode; approved by the person whose
// identity git commits with ([ErrNoIdentity] without one); journalled in
// journalDir for command.
func OptionsFor(repo *gitops.Repo, l *adr.Log, journalDir, command string) (ExecOptions, error) {
	sign, err := repo.SignByDefault()
	if err != nil {
		return ExecOptions{}, err
	}
	who, err := repo.CommitterIdent()
	if err != nil {
		return ExecOptions{}, ErrNoIdentity
	}
	return ExecOptions{Sign: sign || l.Config != nil && l.Config.Signing.Sign, Strict: StrictOf(l), ApprovedBy: who,
		JournalDir: journalDir, StateDir: StateDir(repo), Command: command}, nil
}
