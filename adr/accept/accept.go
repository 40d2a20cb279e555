// Package accept is git-adr's one acceptance service. The terminal
// prompt's Accept and execute, `git adr compaction --confirm
// PLAN@REVISION` and `git adr decide ID accept` all end here, so a
// decision is accepted with the same checks and the same ledger whichever
// way it is asked for. Publishing a reviewed summary goes through it too.
//
// # What an approval binds
//
// An approval names content, not refs ([Approval]): the git tree of the
// candidate that was reviewed, a hash of what the plan read of its sources,
// the hash of the scope's record set, and a hash of every file the commit
// will write and of its ledger. Refs anyone can rewrite are only where
// things are stored. [ForPlan] recomputes everything from the log at HEAD
// and the candidate: the plan on refs/adr/plans/<id> must call itself
// <id>, the candidate ref must hold the tree the plan recorded, the
// candidate must be exactly what the plan derives mechanically from the
// log (compaction.Propose) and write nothing the plan does not own, the
// validation must pass again (whatever state the plan claims), the sources
// and the membership must be as planned, and the reserved numbers still
// the plan's. [Execute] runs [ForPlan]'s result only when its approval is
// the one the person was shown.
//
// # One commit
//
// Acceptance is ONE commit on the current branch, built through a
// temporary index in steps (materialise the replacements, supersede their
// predecessors, publish the CURRENT view, rebuild INDEX), signed when git
// or .adr.toml asks and always in strict mode, where the signature is
// verified (an allowed signer who is an approver and the person
// ADR-Approved-By names) before the branch moves. The branch moves
// compare-and-swap; then only the committed paths are brought into the
// work tree and index through a journalled changeset, so unrelated staged
// and unstaged work is untouched.
//
// # Archive on acceptance
//
// A consolidation planned with --archive has an archive part
// ([ArchivePart]): an archive plan (adr/archive) for the records the
// acceptance retires, computed on the tree the acceptance commit will
// have. When nothing blocks it, the ledger names it with the SHA-256 of
// its content (ADR-Archive-On-Accept), so the approval covers it; [Execute]
// stores it as a planned revision on refs/adr/archives/<id> before the
// commit, and the caller carries it out after the commit, in commits of
// its own, only when it computes the same plan again on the new HEAD
// ([ArchiveOf] reads where it stands). A blocked part never blocks the
// acceptance.
//
// # Recovery
//
// A journal under $GIT_DIR/adr/accept records each step. A run killed
// before the branch moved accepted nothing: the next confirmation asks
// again and starts over. A run killed after is found by its ADR-Plan
// trailer ([publish.Find]) and finished (work tree, plan,
// refs), never committed twice.
package accept

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
)

// Components of an acceptance, reported separately when one is pending.
const (
	Lifecycle = "lifecycle" // records accepted and superseded
	View      = "view"      // CURRENT.md and its manifest
	Index     = "index"     // generated INDEX.md files
	Archive   = "archive"   // archive-on-accept moves, in commits of their own
)

// Step names, in order: each builds on the tree of the one before.
const (
	StepMaterialise = "materialise" // replacement records written as proposals
	StepSupersede   = "supersede"   // replacements accepted, predecessors retired
	StepPublish     = "publish"     // CURRENT pairs
	StepIndex       = "index"       // INDEX files rebuilt
)

// Input is what acceptance reads besides the plan.
type Input struct {
	Repo  *gitops.Repo
	Store *compaction.Store
	// Log is the decision log at HEAD, the commit acceptance builds on
	// (loaded with the command's roots).
	Log *adr.Log
	// Branches are the numbered records of every other branch (reserved
	// numbers must still be free there).
	Branches []adr.BranchRecord
	// Generator names the manifest generator when the candidate holds
	// none.
	Generator string
}

// Step is one tree-building step of an acceptance.
type Step struct {
	Name    string
	Changes []gitops.TreeChange
}

// Acceptance is a prepared acceptance: exactly what its commit holds and
// says, and the approval that names it.
type Acceptance struct {
	// Plan is the plan accepted (nil for `git adr decide`), PlanCommit the
	// revision commit read.
	Plan       *compaction.Plan
	PlanCommit string
	// Head is the commit acceptance builds on.
	Head  string
	Steps []Step
	// Ledger is the commit's ledger without ADR-Approved-By, which
	// execution adds.
	Ledger  ledger.Ledger
	Subject string
	Body    string
	// Approval names the content.
	Approval Approval
	// Kinds says which component each path belongs to.
	Kinds map[string]string
	// Notes are things to tell the person (records held back, ...).
	Notes []string
	// Files are a decision's edits with what they replace, for a decision
	// applied to the work tree rather than committed.
	Files []adr.FileChange
	// Archive is the archive-on-accept part (nil when the plan asked for
	// none); when authorised, the ledger names it and the approval covers
	// it.
	Archive *ArchivePart
}

// Changes returns every file of the commit (the last step's content of
// each path), sorted.
func (a *Acceptance) Changes() []gitops.TreeChange {
	at := map[string]int{}
	var out []gitops.TreeChange
	for _, st := range a.Steps {
		for _, c := range st.Changes {
			if i, ok := at[c.Path]; ok {
				out[i] = c
				continue
			}
			at[c.Path] = len(out)
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Paths lists the paths of one component, sorted.
func (a *Acceptance) Paths(component string) []string {
	var out []string
	for p, k := range a.Kinds {
		if k == component {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// Message is the commit message with approvedBy in the ledger.
func (a *Acceptance) Message(approvedBy string) string {
	l := a.Ledger
	l.ApprovedBy = approvedBy
	return a.Subject + "\n\n" + strings.TrimSpace(a.Body) + "\n\n" + l.Trailers()
}

// Approval names exactly what a person approves. Two approvals are the
// same only when every field is.
type Approval struct {
	Plan     string `json:"plan,omitempty"`
	Revision int    `json:"revision,omitempty"`
	// Candidate is the git tree of the reviewed candidate.
	Candidate string `json:"candidate_tree,omitempty"`
	// Sources is compaction.SourcesHash of the sources as they are.
	Sources string `json:"sources,omitempty"`
	// Membership is the hash of the scope's record set as it is.
	Membership string `json:"membership,omitempty"`
	// Changes hashes every file the commit writes and its ledger.
	Changes string `json:"changes"`
}

// Digest is one hash of the whole approval.
func (a Approval) Digest() string {
	h := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d\x00%s\x00%s\x00%s\x00%s", a.Plan, a.Revision, a.Candidate, a.Sources, a.Membership, a.Changes)))
	return hex.EncodeToString(h[:])
}

// Differences names the fields in which b differs from a.
func (a Approval) Differences(b Approval) []string {
	var out []string
	for _, f := range []struct{ name, x, y string }{
		{"plan", a.Plan, b.Plan}, {"revision", fmt.Sprint(a.Revision), fmt.Sprint(b.Revision)},
		{"candidate tree", a.Candidate, b.Candidate}, {"sources", a.Sources, b.Sources},
		{"membership", a.Membership, b.Membership}, {"changes", a.Changes, b.Changes},
	} {
		if f.x != f.y {
			out = append(out, f.name)
		}
	}
	return out
}

// changesHash hashes the files and the ledger of an acceptance.
func changesHash(changes []gitops.TreeChange, l ledger.Ledger) string {
	var b strings.Builder
	for _, c := range changes {
		blob := "deleted"
		if !c.Delete {
			blob = view.BlobHash(c.Data)
		}
		fmt.Fprintf(&b, "%s\x00%s\n", c.Path, blob)
	}
	b.WriteString(l.Trailers())
	h := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(h[:])
}

// Refusal is an acceptance refused before anything was written, with
// what to do instead. Every check that fails is listed.
type Refusal struct {
	// Kind is "forged" (the stored plan or candidate is not what was
	// reviewed or not what the plan derives), "invalid" (validation fails
	// now), "stale" (the log changed since), "revision" (not the newest
	// revision) or "done" (already accepted).
	Kind     string
	Problems []string
	Hint     string
}

func (e *Refusal) Error() string {
	if len(e.Problems) == 1 {
		return e.Problems[0]
	}
	return fmt.Sprintf("%d problems: %s", len(e.Problems), strings.Join(e.Problems, "; "))
}

// Refusal kinds.
const (
	Forged   = "forged"
	Invalid  = "invalid"
	Stale    = "stale"
	Revision = "revision"
)

// ErrDone means the plan revision was already accepted (or published);
// Done says in which commit.
var ErrDone = errors.New("already accepted")

// DoneError is ErrDone with the commit.
type DoneError struct {
	Plan     string
	Revision int
	Commit   string
	// OnBranch reports whether the commit is in HEAD's history.
	OnBranch bool
}

func (e *DoneError) Error() string {
	return fmt.Sprintf("plan %s revision %d was accepted in commit %s", e.Plan, e.Revision, shortHash(e.Commit))
}

func (e *DoneError) Unwrap() error { return ErrDone }

// ErrApprovalChanged means what is to be committed is not what the person
// approved: something changed between the prompt and the lock.
var ErrApprovalChanged = errors.New("the content changed since it was approved")

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
