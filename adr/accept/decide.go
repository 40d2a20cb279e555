package accept

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/ledger"
	"github.com/git-adr/git-adr/gitops"
)

// ForDecision prepares `git adr decide ID accept`: rec accepted and the
// records it supersedes retired, in their own style with reciprocal
// links. When rec is a replacement a consolidation plan reserved (its
// draft was saved), retirement is many-to-one: a record another
// replacement of that plan also supersedes stays in force until that one
// is accepted too (a note says so). in.Log is the log the change applies
// to (the work tree's, or HEAD's for a commit). It returns
// adr.ErrNoChange when rec is accepted already.
func ForDecision(in Input, rec *adr.Record, reason string) (*Acceptance, error) {
	l := in.Log
	files, notes, err := l.AcceptAll([]*adr.Record{rec}, reason, planCover(in, rec))
	if err != nil {
		return nil, err
	}
	acc := &Acceptance{Kinds: map[string]string{}, Files: files, Notes: notes}
	if in.Repo != nil {
		if head, err := in.Repo.ResolveRef("HEAD"); err == nil {
			acc.Head = head
		}
	}
	overlay := map[string][]byte{}
	var changes []gitops.TreeChange
	for _, f := range files {
		overlay[f.Path] = f.New
		changes = append(changes, gitops.TreeChange{Path: f.Path, Data: f.New})
		acc.Kinds[f.Path] = Lifecycle
	}
	future, err := l.Reload(&adr.Overlay{Base: l.FS, Files: overlay})
	if err != nil {
		return nil, err
	}
	acc.Ledger.Accepted = []string{rec.ID}
	for _, f := range files {
		if f.Path == rec.Path {
			continue
		}
		was, now := l.ByPath(f.Path), future.ByPath(f.Path)
		if was == nil || now == nil || now.Status != adr.Superseded || was.Status == adr.Superseded {
			continue
		}
		// Every successor the record now says it is superseded by.
		for _, rel := range now.Relations {
			if rel.Type == adr.SupersededBy && rel.TargetID != "" && !hasPair(acc.Ledger.Supersedes, rel.TargetID, now.ID) {
				acc.Ledger.Supersedes = append(acc.Ledger.Supersedes, ledger.Pair{New: rel.TargetID, Old: now.ID})
			}
		}
	}
	acc.Steps = []Step{{Name: StepSupersede, Changes: changes}}
	if ixs, err := future.Indexes(); err == nil {
		var idx []gitops.TreeChange
		for _, ix := range ixs {
			if ix.State == adr.IndexStale {
				idx = append(idx, gitops.TreeChange{Path: ix.Path, Data: ix.Content})
				acc.Kinds[ix.Path] = Index
			}
		}
		if len(idx) > 0 {
			acc.Steps = append(acc.Steps, Step{Name: StepIndex, Changes: idx})
		}
	}
	acc.Subject = "Accept " + rec.ID
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s) is accepted by a person with `git adr decide`.", rec.ID, oneLine(rec.Title))
	if len(acc.Ledger.Supersedes) > 0 {
		var olds []string
		for _, p := range acc.Ledger.Supersedes {
			olds = append(olds, p.Old)
		}
		fmt.Fprintf(&b, " %s %s superseded, with reciprocal links.", strings.Join(olds, ", "), isAre(len(olds)))
	}
	for _, n := range notes {
		if strings.Contains(n, " stays ") {
			b.WriteString(" " + n + ".")
		}
	}
	acc.Body = b.String()
	acc.Approval = Approval{Changes: changesHash(acc.Changes(), acc.Ledger)}
	return acc, nil
}

// planCover returns, for a replacement a plan reserved, the many-to-one
// rule of its plan: a predecessor stays in force until every replacement
// of the plan that supersedes it is accepted, and then links all of them;
// nil for any other record.
func planCover(in Input, rec *adr.Record) *adr.Cover {
	if in.Store == nil || !rec.Numbered || rec.Root == nil {
		return nil
	}
	id := in.Store.Owner(compaction.ReservationRef(rec.Root.Dir(), rec.Number))
	if id == "" || id == "?" {
		return nil
	}
	p, commit, err := in.Store.Load(id)
	if err != nil {
		return nil
	}
	mine := false
	for _, r := range p.Reserved {
		if r.Path == rec.Path {
			mine = true
		}
	}
	if !mine {
		return nil
	}
	var cand compaction.Candidate
	if data, err := in.Store.File(commit, "candidate.json"); err != nil || json.Unmarshal(data, &cand) != nil {
		return nil
	}
	paths := map[string]string{}
	for _, r := range p.Reserved {
		paths[r.ID] = r.Path
	}
	// others returns the plan's other replacements that supersede old,
	// split by whether they are accepted.
	others := func(old *adr.Record) (accepted []*adr.Record, waiting []string) {
		for _, nr := range cand.Records {
			if paths[nr.ID] == rec.Path || !containsID(in.Log, nr.Supersedes, old) {
				continue
			}
			other := in.Log.ByPath(paths[nr.ID])
			if other != nil && other.Status == adr.Accepted {
				accepted = append(accepted, other)
			} else {
				waiting = append(waiting, nr.ID)
			}
		}
		return accepted, waiting
	}
	return &adr.Cover{
		Hold: func(old *adr.Record) string {
			_, waiting := others(old)
			if len(waiting) == 0 {
				return ""
			}
			sort.Strings(waiting)
			return fmt.Sprintf("plan %s retires it with %s too, which %s not accepted yet (`git adr decide %s accept`)",
				p.ID, strings.Join(waiting, " and "), isAre(len(waiting)), waiting[0])
		},
		Also: func(old *adr.Record) []*adr.Record {
			accepted, _ := others(old)
			return accepted
		},
	}
}

func hasPair(ps []ledger.Pair, nw, old string) bool {
	for _, p := range ps {
		if p.New == nw && p.Old == old {
			return true
		}
	}
	return false
}

// containsID reports whether ids (as a drafter wrote them) name rec.
func containsID(l *adr.Log, ids []string, rec *adr.Record) bool {
	for _, id := range ids {
		if r, err := l.Resolve(id); err == nil && r != nil && r.Path == rec.Path {
			return true
		}
	}
	return false
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
