// Package archive moves wholly retired records into their root's archive
// and back (`git adr archive`, `git adr archive restore`), with every
// relative link that reaches a moved file repaired, in the records, the
// INDEX, the CURRENT view, READMEs, translation mirrors and every other
// Markdown file of the repository.
//
// # Plans
//
// [Prepare] computes a plan from a commit (HEAD): the moves, every link
// it rewrites, the generated files it refreshes, the collisions and
// external-link risks that stop it, and whether git can follow each
// rename through one commit or needs the rename alone first. The plan is
// deterministic: the same request over the same commit gives the same
// plan, with the same ID. It is stored on refs/adr/archives/<plan-id>
// (one commit per revision, [Store]); executing it ([Steps]) recomputes
// it from HEAD and refuses any difference, so an approval binds to what
// was shown, not to a ref.
//
// # History
//
// A rename and a rewrite of one small file in one commit lose git's
// rename detection, and with it `git log --follow`. A plan therefore
// measures, with git's own rename detection, whether every moved file is
// still found as a rename when the rewrite goes in the same commit; if
// not, the tracked rename is committed alone first and the link rewriting
// second.
//
// # Restore
//
// A restore is the exact inverse of an archival: the moves reversed, and
// every file the archival rewrote given back its bytes when nobody changed
// it since (files changed since are rewritten afresh). A restored record
// keeps its status: restoring a location does not restore authority.
package archive

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/git-adr/git-adr/adr/plans"
)

// Schema is the version of plan.json.
const Schema = "git-adr/archive-plan/v1"

// PlansRef is where archive plans live: refs/adr/archives/<plan-id>.
const PlansRef = "refs/adr/archives/"

// Kind is what a plan revision does.
type Kind string

// Kinds.
const (
	KindArchive Kind = "archive"
	KindRestore Kind = "restore"
)

// State is where a plan revision is in its life.
type State string

// States.
const (
	Planned   State = "planned"   // previewed, awaiting approval
	Done      State = "done"      // committed
	Cancelled State = "cancelled" // declined; nothing was moved
	// Skipped is an archive-on-accept plan that was approved with an
	// acceptance but not carried out: computed again once the acceptance
	// had landed, it was no longer what was approved (Reason says why).
	// The acceptance stands; nothing was moved.
	Skipped State = "skipped"
)

// Plan is one revision of an archive plan (docs/json.md, "archive").
type Plan struct {
	Schema   string `json:"schema"`
	ID       string `json:"id"`
	Revision int    `json:"revision"`
	Kind     Kind   `json:"kind"`
	State    State  `json:"state"`
	// Base is the commit the plan was computed from.
	Base   string `json:"base"`
	Layout string `json:"layout"`
	// Records are the moves of records, in log order.
	Records []Move `json:"records"`
	// Files are every file the plan changes, sorted by path.
	Files []File `json:"files"`
	// Generated says what happens to each INDEX and CURRENT view.
	Generated []Generated `json:"generated"`
	// Risks are links the plan cannot repair (external-link risk); they
	// need Acknowledged. Blockers stop the plan.
	Risks        []Risk   `json:"risks"`
	Acknowledged bool     `json:"acknowledged,omitempty"`
	Blockers     []string `json:"blockers"`
	// Commits is 2 when the rename goes first, 1 when git follows every
	// rename through the rewrite; Similarity explains it.
	Commits    int          `json:"commits"`
	Similarity []Similarity `json:"similarity"`
	// Inverse is the command that undoes the plan once done.
	Inverse string `json:"inverse"`
	// Undoes is, for a restore, the revision of the archival it undoes.
	Undoes int `json:"undoes,omitempty"`
	// OnAccept names the consolidation plan revision ("c-…@3") whose
	// acceptance authorises this archival: it was computed on the log as
	// that acceptance leaves it and is carried out right after it, only
	// if it is still exactly what was approved.
	OnAccept string `json:"on_accept,omitempty"`
	// Reason says why a skipped plan was not carried out.
	Reason string `json:"reason,omitempty"`
	// Published names the commits of a done revision, in order.
	Published []string `json:"published,omitempty"`
}

// Move is a record's move.
type Move struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	From   string `json:"from"`
	To     string `json:"to"`
	Reason string `json:"reason"`
}

// File is one file a plan changes: Path after the change, From before
// it when the file moves, Before and After its git blob names.
type File struct {
	Path   string `json:"path"`
	From   string `json:"from,omitempty"`
	Kind   string `json:"kind"`
	Mode   string `json:"mode"`
	Before string `json:"before"`
	After  string `json:"after"`
	// Links are the link destinations rewritten in it.
	Links []LinkEdit `json:"links"`
	// Exact reports a restore that gives the file back the bytes it had
	// before the archival (nobody changed it since).
	Exact bool `json:"exact,omitempty"`
}

// File kinds.
const (
	FileRecord      = "record"      // a moved record
	FileInbound     = "record-link" // a record that links to a moved record
	FileIndex       = "index"       // a generated INDEX.md
	FileView        = "view"        // a CURRENT.md or CURRENT.sources.json
	FileTranslation = "translation" // a file of a translation mirror (zh/, de/...)
	FileMarkdown    = "markdown"    // any other Markdown file (README, ...)
)

// LinkEdit is one rewritten link destination (Line is 1-based).
type LinkEdit struct {
	Line int    `json:"line"`
	Old  string `json:"old"`
	New  string `json:"new"`
}

// Generated is what happens to a root's INDEX.md or CURRENT view.
type Generated struct {
	Path   string `json:"path"`
	Action string `json:"action"`
}

// Risk is a reference the plan cannot repair.
type Risk struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Text string `json:"text"`
	Why  string `json:"why"`
}

// Similarity is git's verdict on one moved file when the rewrite is in
// the rename's commit.
type Similarity struct {
	Path    string `json:"path"`
	Changed bool   `json:"changed"`
	// Followed reports that git finds the rename in one commit.
	Followed bool `json:"followed"`
}

// NewID derives a plan's identity from what it is about: kind, base,
// layout, acknowledgement and the moves. The same request over the same
// commit names the same plan.
func NewID(kind Kind, base, layout string, ack bool, moves []Move) string {
	var keys []string
	for _, m := range moves {
		keys = append(keys, m.From+"\x00"+m.To)
	}
	sort.Strings(keys)
	data, _ := json.Marshal(struct {
		K    Kind
		B, L string
		A    bool
		M    []string
	}{kind, base, layout, ack, keys})
	h := sha256.Sum256(data)
	return "a-" + hex.EncodeToString(h[:])[:10]
}

// Encode renders plan.json deterministically (the shared codec,
// [plans.Encode]).
func (p *Plan) Encode() []byte { return plans.Encode(p) }

// DecodePlan reads plan.json.
func DecodePlan(data []byte) (*Plan, error) {
	var p Plan
	err := plans.Decode(data, &p, func() error {
		if p.Schema != Schema {
			return fmt.Errorf("schema %q is not supported (this git-adr reads %q)", p.Schema, Schema)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// Content is the part of a plan an approval binds to: everything but its
// identity, revision, state, base and published commits. Two plans with
// the same content make the same change, whatever commit they were
// computed from.
func (p *Plan) Content() string {
	q := *p
	q.ID, q.Inverse, q.Revision, q.State, q.Base, q.Published, q.Reason = "", "", 0, "", "", nil, ""
	return string(q.Encode())
}

// Digest is the hex SHA-256 of [Plan.Content]: what an acceptance that
// authorises an archive-on-accept plan names in its ledger.
func (p *Plan) Digest() string {
	h := sha256.Sum256([]byte(p.Content()))
	return hex.EncodeToString(h[:])
}

// Trailer is the line the last commit of a plan revision carries.
func (p *Plan) Trailer() string {
	key := ledger.KeyArchived
	if p.Kind == KindRestore {
		key = ledger.KeyRestored
	}
	return fmt.Sprintf("%s: %s@%d", key, p.ID, p.Revision)
}

// IDs lists the moved records' IDs.
func (p *Plan) IDs() []string {
	var ids []string
	for _, m := range p.Records {
		ids = append(ids, m.ID)
	}
	return ids
}

// Links counts the rewritten link destinations and the files holding
// them.
func (p *Plan) Links() (links, files int) {
	for _, f := range p.Files {
		if len(f.Links) > 0 {
			links += len(f.Links)
			files++
		}
	}
	return links, files
}

func joinIDs(ids []string, n int) string {
	if len(ids) > n {
		return strings.Join(ids[:n], ", ") + fmt.Sprintf(" and %d more", len(ids)-n)
	}
	return strings.Join(ids, ", ")
}

// Diff says in one phrase how plan b differs from plan a (what changed
// since a was shown), "" when their content is the same.
func Diff(a, b *Plan) string {
	if a.Content() == b.Content() {
		return ""
	}
	if len(b.Blockers) > 0 {
		return "the plan is now blocked: " + b.Blockers[0]
	}
	files := func(p *Plan) map[string]File {
		m := map[string]File{}
		for _, f := range p.Files {
			m[f.Path] = f
		}
		return m
	}
	fa, fb := files(a), files(b)
	var paths []string
	for p := range fa {
		paths = append(paths, p)
	}
	for p := range fb {
		if _, ok := fa[p]; !ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		x, inA := fa[p]
		y, inB := fb[p]
		switch {
		case !inA:
			return p + " now needs a change too"
		case !inB:
			return p + " no longer needs a change"
		case x.Before != y.Before:
			return p + " changed"
		case x.After != y.After || len(x.Links) != len(y.Links):
			return p + " would now be written differently"
		}
	}
	switch {
	case len(a.Risks) != len(b.Risks):
		return fmt.Sprintf("the external-link risks changed (%d then, %d now)", len(a.Risks), len(b.Risks))
	case a.Commits != b.Commits:
		return fmt.Sprintf("it would now take %d commits, not %d", b.Commits, a.Commits)
	}
	return "the records or their state changed"
}
