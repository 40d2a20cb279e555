package accept

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/git-adr/git-adr/adr/publish"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/gitops"
)

// ForPlan prepares the acceptance of revision of plan id (a consolidation
// or a summary) over in.Log, the log at HEAD, checking everything again
// from content (see the package documentation). A revision already
// accepted is a *DoneError; any check that fails is a *Refusal listing
// every problem.
func ForPlan(in Input, id string, revision int) (*Acceptance, error) {
	repo, store := in.Repo, in.Store
	commit, err := repo.ResolveRef(compaction.PlanRef(id))
	if errors.Is(err, gitops.ErrNotFound) {
		return nil, fmt.Errorf("%w: %q", compaction.ErrNoPlan, id)
	}
	if err != nil {
		return nil, err
	}
	p, err := store.LoadAt(commit)
	if err != nil {
		return nil, &Refusal{Kind: Forged, Problems: []string{fmt.Sprintf("%s holds no readable plan: %v", compaction.PlanRef(id), err)}}
	}
	if p.ID != id {
		return nil, &Refusal{Kind: Forged, Problems: []string{fmt.Sprintf("%s holds plan %s, not %s: a plan ref names the plan it holds", compaction.PlanRef(id), p.ID, id)},
			Hint: "a plan's ref was pointed at another plan's revision; nothing of it is accepted: restore or delete " + compaction.PlanRef(id)}
	}
	head, err := repo.ResolveRef("HEAD")
	if err != nil {
		return nil, err
	}
	if p.Done() {
		if pub := publishedCommit(store, commit); pub != "" && revision < p.Revision-1 {
			return nil, &Refusal{Kind: Revision, Problems: []string{fmt.Sprintf("plan %s was %s at revision %d in commit %s; revision %d is an earlier draft, never accepted", p.ID, p.State, p.Revision-1, shortHash(pub), revision)}}
		}
		if pub := publishedCommit(store, commit); pub != "" && revision >= p.Revision-1 {
			on := false
			if found, err := publish.Find(repo, p.Base, fmt.Sprintf("%s: %s@%d", ledger.KeyPlan, p.ID, p.Revision-1)); err == nil && found != "" {
				on = true
				pub = found
			}
			return nil, &DoneError{Plan: p.ID, Revision: p.Revision - 1, Commit: pub, OnBranch: on}
		}
	}
	if p.State == compaction.Cancelled {
		return nil, &Refusal{Kind: Revision, Problems: []string{fmt.Sprintf("plan %s is cancelled", p.ID)}, Hint: "plan again: git adr compaction --mode " + string(p.Mode)}
	}
	if revision != p.Revision {
		if revision > p.Revision {
			return nil, &Refusal{Kind: Revision, Problems: []string{fmt.Sprintf("plan %s has no revision %d (the latest is %d)", p.ID, revision, p.Revision)}}
		}
		return nil, &Refusal{Kind: Revision, Problems: []string{fmt.Sprintf("plan %s changed since revision %d: revision %d is the one to review", p.ID, revision, p.Revision)},
			Hint: "review it with `git adr compaction review " + p.ID + "`, then confirm that revision"}
	}
	// A run that committed but was interrupted before recording it.
	if found, err := publish.Find(repo, p.Base, fmt.Sprintf("%s: %s@%d", ledger.KeyPlan, p.ID, p.Revision)); err != nil {
		return nil, err
	} else if found != "" {
		return nil, &DoneError{Plan: p.ID, Revision: p.Revision, Commit: found, OnBranch: true}
	}
	var problems []string
	forged := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	candCommit, err := repo.ResolveRef(compaction.CandidateRef(p.ID))
	if err != nil {
		return nil, &Refusal{Kind: Forged, Problems: []string{fmt.Sprintf("plan %s has no candidate ref (%s)", p.ID, compaction.CandidateRef(p.ID))},
			Hint: "draft it again: git adr compaction --mode " + string(p.Mode)}
	}
	candTree, err := repo.ResolveRef(candCommit + "^{tree}")
	if err != nil {
		return nil, err
	}
	if p.CandidateTree == "" {
		forged("plan %s revision %d names no candidate tree: it was not made by this git-adr, or its candidate was never reviewed", p.ID, p.Revision)
	} else if candTree != p.CandidateTree {
		forged("%s holds tree %s, but revision %d of plan %s reviewed tree %s: the candidate was swapped after review", compaction.CandidateRef(p.ID), shortHash(candTree), p.Revision, p.ID, shortHash(p.CandidateTree))
	}
	if parent, err := repo.ResolveRef(candCommit + "^"); err != nil || parent != p.Base {
		forged("%s is not a commit on the plan's base %s", compaction.CandidateRef(p.ID), shortHash(p.Base))
	}
	data, err := store.File(commit, "candidate.json")
	if err != nil {
		return nil, &Refusal{Kind: Forged, Problems: append(problems, fmt.Sprintf("plan %s revision %d has no candidate.json", p.ID, p.Revision))}
	}
	var cand compaction.Candidate
	if err := json.Unmarshal(data, &cand); err != nil {
		return nil, &Refusal{Kind: Forged, Problems: append(problems, fmt.Sprintf("plan %s revision %d: candidate.json: %v", p.ID, p.Revision, err))}
	}
	if len(problems) > 0 {
		return nil, &Refusal{Kind: Forged, Problems: problems, Hint: "nothing was accepted; draft a new revision (`git adr compaction --mode " + string(p.Mode) + p.Scope.Flags() + "`) and review it"}
	}
	candChanges, err := repo.TreeChanges(p.Base, candCommit)
	if err != nil {
		return nil, err
	}
	gen := in.Generator
	for _, c := range candChanges {
		if path.Base(c.Path) == "CURRENT.sources.json" {
			if data, err := repo.ReadBlobAt(candCommit, c.Path); err == nil {
				if m, err := view.DecodeManifest(data); err == nil && m.Generator != "" {
					gen = m.Generator
				}
			}
		}
	}
	l := in.Log
	prop, err := compaction.Propose(l, p, &cand, p.Revision, gen)
	if err != nil {
		return nil, err
	}
	// Validation again, over the log as it is: a plan whose state says
	// validated proves nothing.
	var invalid []string
	for _, is := range prop.Issues {
		if is.Kind == compaction.IssueHash {
			continue // recompute names every changed source
		}
		invalid = append(invalid, is.Kind+": "+is.Message)
	}
	if p.Mode == compaction.Consolidate {
		for _, is := range compaction.ReservationIssues(l, p, prop.Drafts, in.Branches, store.Owner) {
			invalid = append(invalid, is.Kind+": "+is.Message)
		}
	}
	membership, sources, stale := recompute(l, p)
	if len(invalid) > 0 || len(stale) > 0 {
		kind := Invalid
		if len(invalid) == 0 {
			kind = Stale
		}
		return nil, &Refusal{Kind: kind, Problems: append(stale, invalid...),
			Hint: "nothing was accepted; draft a new revision: git adr compaction --mode " + string(p.Mode) + p.Scope.Flags()}
	}
	// The candidate is exactly what the plan derives, and writes nothing
	// else.
	derived := map[string][]byte{}
	for _, c := range prop.Changes {
		derived[c.Path] = c.Data
	}
	indexes := map[string]bool{}
	for _, p := range prop.Indexes {
		indexes[p] = true
	}
	owned := ownedPaths(l, p, prop)
	inCandidate := map[string]bool{}
	for _, c := range candChanges {
		for _, q := range []string{c.Path, c.OldPath} {
			if q == "" {
				continue
			}
			inCandidate[q] = true
			if !owned[q] {
				forged("the candidate writes %s, which plan %s does not own (it writes only its reserved records, their predecessors, the CURRENT pair and INDEX of their roots)", q, p.ID)
			}
		}
		if c.Status == 'D' || c.OldPath != "" {
			forged("the candidate deletes or renames %s: acceptance never removes a record", firstOf(c.OldPath, c.Path))
			continue
		}
		if indexes[c.Path] || isIndexName(l, c.Path) {
			continue // rebuilt for the actual state
		}
		got, err := repo.ReadBlobAt(candCommit, c.Path)
		if err != nil {
			return nil, err
		}
		want, ok := derived[c.Path]
		if !ok {
			// The plan derives no change here: only a file HEAD already
			// holds as the candidate does is fine (a saved draft).
			if cur, err := repo.ReadBlobAt(head, c.Path); err != nil || !bytes.Equal(cur, got) {
				forged("the candidate changes %s, for which plan %s derives no change", c.Path, p.ID)
			}
			continue
		}
		if !bytes.Equal(got, want) {
			forged("the candidate's %s is not what plan %s revision %d derives from its draft and the log", c.Path, p.ID, p.Revision)
		}
	}
	for _, c := range prop.Changes {
		if !inCandidate[c.Path] && !indexes[c.Path] {
			forged("plan %s would write %s, which the reviewed candidate does not hold", p.ID, c.Path)
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return nil, &Refusal{Kind: Forged, Problems: problems, Hint: "nothing was accepted; draft a new revision (`git adr compaction --mode " + string(p.Mode) + p.Scope.Flags() + "`) and review it"}
	}
	acc := &Acceptance{Plan: p, PlanCommit: commit, Head: head, Kinds: map[string]string{}}
	acc.build(l, p, prop)
	if p.Mode == compaction.Consolidate && p.Archive {
		part, err := planArchive(in, acc)
		if err != nil {
			return nil, err
		}
		acc.addArchive(part)
	}
	acc.Approval = Approval{Plan: p.ID, Revision: p.Revision, Candidate: candTree, Sources: sources, Membership: membership,
		Changes: changesHash(acc.Changes(), acc.Ledger)}
	return acc, nil
}

// build fills in the steps, the ledger and the message.
func (a *Acceptance) build(l *adr.Log, p *compaction.Plan, prop *compaction.Proposal) {
	a.Ledger.Plan = fmt.Sprintf("%s@%d", p.ID, p.Revision)
	reserved := map[string]compaction.Reservation{}
	for _, r := range p.Reserved {
		reserved[r.Path] = r
	}
	var mat, sup, pub, idx []gitops.TreeChange
	for _, c := range prop.Changes {
		switch prop.Kind(c.Path) {
		case "record":
			a.Kinds[c.Path] = Lifecycle
			if d, ok := prop.Drafts[c.Path]; ok {
				if cur := l.ByPath(c.Path); cur == nil || !bytes.Equal(cur.Text().Src, d) {
					mat = append(mat, gitops.TreeChange{Path: c.Path, Data: d})
				}
			}
			sup = append(sup, c)
		case "view":
			a.Kinds[c.Path] = View
			pub = append(pub, c)
			if path.Base(c.Path) == "CURRENT.md" || path.Base(c.Path) == "CURRENT.sources.json" {
				a.Ledger.Views = append(a.Ledger.Views, c.Path)
			}
		case "index":
			a.Kinds[c.Path] = Index
			idx = append(idx, c)
		}
	}
	for _, st := range []Step{{StepMaterialise, mat}, {StepSupersede, sup}, {StepPublish, pub}, {StepIndex, idx}} {
		if len(st.Changes) > 0 {
			a.Steps = append(a.Steps, st)
		}
	}
	if p.Mode == compaction.Summary {
		a.Subject = fmt.Sprintf("Publish the CURRENT view from plan %s revision %d", p.ID, p.Revision)
		a.Body = fmt.Sprintf("A derived view of %d records, reviewed and approved; the ADRs stay authoritative.", len(p.Sources))
		return
	}
	f := prop.Future
	var accepted []string
	for _, r := range p.Reserved {
		if rec := f.ByPath(r.Path); rec != nil {
			accepted = append(accepted, rec.ID)
			for _, s := range p.Sources {
				old := f.ByPath(s.Path)
				if old == nil || old.Status != adr.Superseded {
					continue
				}
				for _, rel := range old.Relations {
					if rel.Type == adr.SupersededBy && rel.TargetID == rec.ID {
						a.Ledger.Supersedes = append(a.Ledger.Supersedes, ledger.Pair{New: rec.ID, Old: old.ID})
					}
				}
			}
		}
	}
	sort.Strings(accepted)
	a.Ledger.Accepted = accepted
	sort.Slice(a.Ledger.Supersedes, func(i, j int) bool {
		x, y := a.Ledger.Supersedes[i], a.Ledger.Supersedes[j]
		if x.New != y.New {
			return x.New < y.New
		}
		return x.Old < y.Old
	})
	var olds []string
	for _, pr := range a.Ledger.Supersedes {
		if !contains(olds, pr.Old) {
			olds = append(olds, pr.Old)
		}
	}
	a.Subject = fmt.Sprintf("Accept %s from plan %s revision %d", strings.Join(accepted, ", "), p.ID, p.Revision)
	if len(accepted) == 0 {
		a.Subject = fmt.Sprintf("Publish the CURRENT view from consolidation plan %s revision %d (no replacement record)", p.ID, p.Revision)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Consolidates %d records into %d reviewed replacement(s), accepted by a person.", len(p.Sources), len(accepted))
	if len(olds) > 0 {
		fmt.Fprintf(&b, " %s %s superseded, with reciprocal links.", strings.Join(olds, ", "), isAre(len(olds)))
	}
	if len(pub) > 0 {
		b.WriteString(" Publishes the reviewed CURRENT view.")
	}
	if len(idx) > 0 {
		b.WriteString(" Rebuilds INDEX.")
	}
	a.Body = b.String()
}

// recompute returns the membership and sources hashes of the plan's scope
// as the log is now, and why they differ from the plan's. The plan's own
// drafts (at its reserved paths) are not members: they are its output.
func recompute(l *adr.Log, p *compaction.Plan) (membership, sources string, stale []string) {
	var now []compaction.Source
	for _, s := range p.Sources {
		r := l.ByPath(s.Path)
		switch {
		case r == nil:
			stale = append(stale, fmt.Sprintf("%s (%s) no longer exists", s.ID, s.Path))
			continue
		case view.BlobHash(r.Text().Src) != s.Blob:
			stale = append(stale, fmt.Sprintf("%s changed since plan %s was drafted", s.ID, p.ID))
		}
		now = append(now, compaction.SourceOf(r))
	}
	sources = compaction.SourcesHash(now)
	a, err := compaction.Analyze(l, compaction.AnalyzeOptions{Domain: p.Scope.Domain, Sources: p.Scope.Sources})
	if err != nil {
		stale = append(stale, "the plan's scope cannot be resolved now: "+err.Error())
		return "", sources, stale
	}
	reserved := map[string]bool{}
	for _, r := range p.Reserved {
		reserved[r.Path] = true
	}
	var members []compaction.Source
	for _, rc := range a.Records {
		if reserved[rc.Path] {
			continue
		}
		if r := l.ByPath(rc.Path); r != nil {
			members = append(members, compaction.SourceOf(r))
		}
	}
	membership = compaction.MembershipHash(members)
	if membership != p.Membership {
		stale = append(stale, fmt.Sprintf("the records in scope changed since plan %s was made (%d then, %d now)", p.ID, len(p.Sources), len(members)))
	}
	return membership, sources, stale
}

// ownedPaths are the paths a plan may write: its reserved records, its
// sources, and the CURRENT pair and generated INDEX of their roots.
func ownedPaths(l *adr.Log, p *compaction.Plan, prop *compaction.Proposal) map[string]bool {
	owned := map[string]bool{}
	roots := map[*adr.Root]bool{}
	for _, r := range p.Reserved {
		owned[r.Path] = true
	}
	if p.Mode == compaction.Consolidate {
		for _, s := range p.Sources {
			owned[s.Path] = true
		}
	}
	for _, s := range p.Sources {
		if r := l.ByPath(s.Path); r != nil {
			roots[r.Root] = true
		}
	}
	for root := range roots {
		owned[root.Join("CURRENT.md")] = true
		owned[root.Join("CURRENT.sources.json")] = true
		if p.Mode == compaction.Consolidate {
			owned[root.Join(root.IndexName())] = true
		}
	}
	for _, v := range prop.Views {
		owned[v] = true
	}
	return owned
}

// isIndexName reports a root's generated index path.
func isIndexName(l *adr.Log, p string) bool {
	for _, r := range l.Roots {
		if r.Join(r.IndexName()) == p {
			return true
		}
	}
	return false
}

// publishedCommit reads the commit a done plan recorded.
func publishedCommit(store *compaction.Store, commit string) string {
	data, err := store.File(commit, "published.json")
	if err != nil {
		return ""
	}
	var pub struct {
		Commit string `json:"commit"`
	}
	if json.Unmarshal(data, &pub) != nil {
		return ""
	}
	return pub.Commit
}

func firstOf(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
