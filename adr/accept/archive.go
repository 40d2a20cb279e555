package accept

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/adr/archive"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/git-adr/git-adr/gitops"
)

// ArchivePart is the archive-on-accept part of a consolidation's
// acceptance (`--mode consolidate --archive`): an archive plan for the
// records the acceptance retires, computed on the log as the acceptance
// commit will leave it (today they are accepted, so archival would refuse
// them). When it is authorised, the acceptance commit names it in its
// ledger (ADR-Archive-On-Accept: the plan's ID and the SHA-256 of its
// content), so the person's approval covers the exact moves, link
// rewrites and risks shown; the moves are carried out in commits of their
// own once the acceptance has landed, and only if the plan computed again
// on the new HEAD is identical.
type ArchivePart struct {
	// Plan is the archive plan; its Base is the commit acceptance builds
	// on. Nil when no retired record can move (Blocked says why).
	Plan *archive.Plan
	// Held are retired records that stay where they are, with why.
	Held []string
	// Blocked says why the archive part is not authorised ("" when it
	// is): a blocker of the plan, or external-link risks that were not
	// acknowledged. It never blocks the acceptance itself.
	Blocked string
}

// Authorised reports whether the acceptance authorises the archive part.
func (a *ArchivePart) Authorised() bool { return a != nil && a.Plan != nil && a.Blocked == "" }

// planArchive computes the archive part of acc, whose plan asked for it.
// It writes git objects only (the tree of the log after acceptance and
// the trees archival measures).
func planArchive(in Input, acc *Acceptance) (*ArchivePart, error) {
	repo, p := in.Repo, acc.Plan
	part := &ArchivePart{}
	var olds []string
	for _, pr := range acc.Ledger.Supersedes {
		if !contains(olds, pr.Old) {
			olds = append(olds, pr.Old)
		}
	}
	if len(olds) == 0 {
		part.Blocked = "the acceptance retires no record"
		return part, nil
	}
	tree, err := repo.BuildTree(acc.Head, acc.Changes())
	if err != nil {
		return nil, err
	}
	tfs, err := repo.TreeFS(tree)
	if err != nil {
		return nil, err
	}
	after, err := in.Log.Reload(tfs)
	if err != nil {
		return nil, err
	}
	a, err := compaction.Analyze(after, compaction.AnalyzeOptions{})
	if err != nil {
		return nil, err
	}
	class := map[string]compaction.RecordClass{}
	for _, rc := range a.Records {
		class[rc.Path] = rc
	}
	var paths []string
	for _, id := range olds {
		r, err := after.Resolve(id)
		if err != nil || r == nil {
			part.Held = append(part.Held, fmt.Sprintf("%s stays where it is: it cannot be found after the acceptance", id))
			continue
		}
		if rc, ok := class[r.Path]; !ok || rc.Class != compaction.ArchivalCandidate {
			why := "it is not wholly retired"
			if ok {
				why = rc.Reason
			}
			part.Held = append(part.Held, fmt.Sprintf("%s stays where it is: %s", id, why))
			continue
		}
		paths = append(paths, r.Path)
	}
	if len(paths) == 0 {
		part.Blocked = "no record the acceptance retires can move: " + part.Held[0]
		return part, nil
	}
	layout := ""
	if in.Log.Config != nil {
		layout = in.Log.Config.Archive.Layout
	}
	res, err := archive.Prepare(repo, in.Log, archive.Request{Kind: archive.KindArchive, Base: tree, Head: acc.Head, IDs: paths,
		Layout: layout, Ack: p.AckExternalLinks, OnAccept: fmt.Sprintf("%s@%d", p.ID, p.Revision)})
	var re *archive.RequestError
	if errors.As(err, &re) {
		return nil, fmt.Errorf("planning the archive part: %s", re.Msg)
	}
	if err != nil {
		return nil, err
	}
	part.Plan = res.Plan
	part.Plan.Base = acc.Head
	switch n := len(part.Plan.Risks); {
	case len(part.Plan.Blockers) > 0:
		part.Blocked = part.Plan.Blockers[0]
	case n > 0 && !part.Plan.Acknowledged:
		part.Blocked = fmt.Sprintf("%d external-link %s not acknowledged", n, map[bool]string{true: "risk is", false: "risks are"}[n == 1])
	}
	return part, nil
}

// addArchive puts an authorised archive part into the ledger and the
// message of acc (before its approval is computed, so the approval
// covers it).
func (a *Acceptance) addArchive(part *ArchivePart) {
	a.Archive = part
	if !part.Authorised() {
		a.Body += " " + blockedNote + part.Blocked + "."
		return
	}
	ap := part.Plan
	a.Ledger.Archive = ledger.ArchiveOnAccept{Plan: ap.ID, Digest: ap.Digest()}
	links, files := ap.Links()
	a.Body += fmt.Sprintf(" Authorises archive plan %s: %s move%s into the archive, %d link destination%s rewritten in %d file%s, in %d commit%s of its own after this one, carried out only if it is still exactly this plan.",
		ap.ID, strings.Join(ap.IDs(), ", "), plural(len(ap.Records)), links, plural(links), files, plural(files), ap.Commits, plural(ap.Commits))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// stageArchive stores the approved archive plan as a planned revision on
// refs/adr/archives/<id> before the acceptance commit is made, so that a
// run interrupted after that commit finds exactly what was approved. The
// same content planned already is that revision again. The caller holds
// the lock.
func stageArchive(repo *gitops.Repo, ap *archive.Plan) error {
	store := &archive.Store{Repo: repo}
	prev, commit, err := store.Load(ap.ID)
	switch {
	case errors.Is(err, archive.ErrNoPlan):
		_, err = store.Save(ap, nil, "")
		return err
	case err != nil:
		return err
	case prev.State == archive.Planned && prev.Content() == ap.Content():
		ap.Revision = prev.Revision
		return nil
	}
	_, err = store.Save(ap, nil, commit)
	return err
}

// ArchiveState is where the archive part an acceptance commit authorises
// stands, read from the commit's ledger and the archive plan's ref.
type ArchiveState struct {
	// Plan is the archive plan ID ("" when the commit authorises none).
	Plan string
	// Approved is the plan as approved (nil when its ref is missing or
	// holds other content: the part is then skipped).
	Approved *archive.Plan
	// PlanCommit is the revision commit Approved was read from.
	PlanCommit string
	// Done is the done revision, when the moves were carried out.
	Done *archive.Plan
	// Skipped says why the part was not carried out ("" when it was or
	// still may be).
	Skipped string
}

// ArchiveOf reads the archive part of acceptance commit c.
func ArchiveOf(repo *gitops.Repo, c string) (*ArchiveState, error) {
	msg, err := repo.Git("log", "-1", "--format=%B", c)
	if err != nil {
		return nil, err
	}
	led, _ := ledger.Parse(string(msg))
	st := &ArchiveState{Plan: led.Archive.Plan}
	if st.Plan == "" {
		return st, nil
	}
	store := &archive.Store{Repo: repo}
	p, commit, err := store.Load(st.Plan)
	if errors.Is(err, archive.ErrNoPlan) {
		st.Skipped = fmt.Sprintf("archive plan %s, which the acceptance authorises, is missing (%s)", st.Plan, archive.Ref(st.Plan))
		return st, nil
	}
	if err != nil {
		return nil, err
	}
	// The newest revision is the outcome; the approved one is the newest
	// planned revision with the approved content.
	for rev, at := p, commit; rev != nil; {
		if rev.State == archive.Planned && rev.Digest() == led.Archive.Digest {
			st.Approved, st.PlanCommit = rev, at
			break
		}
		if rev.Revision <= 1 {
			break
		}
		if at, err = repo.ResolveRef(at + "^"); err != nil {
			break
		}
		rev, _ = store.LoadAt(at)
	}
	switch {
	case p.State == archive.Done:
		st.Done = p
	case p.Kind == archive.KindRestore:
		// A restore previewed or cancelled: the archival it would undo
		// is the done revision it names.
		if done, _, err := store.Revision(p.ID, p.Undoes); err == nil {
			st.Done = done
		}
	case p.State == archive.Skipped:
		st.Skipped = p.Reason
	case st.Approved == nil:
		st.Skipped = fmt.Sprintf("%s does not hold the archive plan the acceptance approved (its content differs)", archive.Ref(st.Plan))
	}
	return st, nil
}

// blockedNote starts the sentence an acceptance commit's message says
// when its plan asked for an archive part that was not authorised.
const blockedNote = "Archives nothing on acceptance: "

// archiveComponent reports the archive component of acceptance commit c;
// asked says the plan asked for an archive part.
func archiveComponent(repo *gitops.Repo, c string, asked bool) (ComponentState, error) {
	out := ComponentState{Component: Archive, Paths: []string{}}
	st, err := ArchiveOf(repo, c)
	if err != nil {
		return out, err
	}
	switch {
	case st.Plan == "" && asked:
		why := "the approval showed it blocked"
		if msg, err := repo.Git("log", "-1", "--format=%B", c); err == nil {
			if _, rest, ok := strings.Cut(string(msg), blockedNote); ok {
				why, _, _ = strings.Cut(rest, ".\n")
				why = strings.TrimSuffix(strings.TrimSpace(why), ".")
			}
		}
		out.State = "blocked"
		out.Detail = why + "; nothing was moved, and the acceptance does not depend on it (`git adr archive ID...` plans the move)"
	case st.Plan == "":
		out.State, out.Detail = "none", "the acceptance authorises no archive moves (archival is its own plan: `git adr archive`)"
	case st.Done != nil && st.Done.Kind == archive.KindRestore && st.Done.State == archive.Done:
		out.State, out.Detail = "restored", fmt.Sprintf("archive plan %s was carried out, then restored (revision %d)", st.Plan, st.Done.Revision)
	case st.Done != nil:
		for _, f := range st.Done.Files {
			out.Paths = append(out.Paths, f.Path)
		}
		out.State = "committed"
		out.Detail = fmt.Sprintf("archive plan %s in %s; undo with `%s`", st.Plan, shortList(st.Done.Published), st.Done.Inverse)
	case st.Skipped != "":
		out.State = "skipped"
		out.Detail = st.Skipped + "; nothing was moved and the acceptance stands"
	default:
		out.State = "pending"
		out.Detail = fmt.Sprintf("archive plan %s is approved with the acceptance but not carried out yet", st.Plan)
	}
	return out, nil
}

func shortList(hs []string) string {
	var out []string
	for _, h := range hs {
		out = append(out, shortHash(h))
	}
	return strings.Join(out, ", ")
}
