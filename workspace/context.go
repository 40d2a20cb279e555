package workspace

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"

	"github.com/git-adr/git-adr/adr/evidence"
)

// ContextRequest is a task question across a workspace.
type ContextRequest struct {
	Task               string
	MaxUnits, MaxChars int
	// MCP words a refused request for a tool call ("task", not "--task").
	MCP bool
	// Ablate switches the merge's heuristics off, for measurements.
	Ablate MergeAblation
}

// MergeAblation switches off how a task answer across a workspace
// orders its members' units (bench-context -labelled -workspace).
type MergeAblation struct {
	evidence.MergeAblation
	// MemberOrder merges as before ADR-0051: the surest member first
	// (its confidence), then each unit's place in its member's answer.
	MemberOrder bool
	// RecordsTogether keeps a record's units together in the score
	// order, where a record's later units stand behind every record's
	// first.
	RecordsTogether bool
}

// maxTaskChars is the context service's bound on a task (in code
// points), checked before any member is read: the term index weighs
// every word of the task against every summary, and a megabyte's task
// over MCP took minutes of CPU before a member refused it.
const maxTaskChars = 1000

// ContextUnit is a unit of evidence from one member, its ID qualified.
type ContextUnit struct {
	Repository string
	evidence.Unit
	// score orders the merge: the unit's record scored on the scale of
	// every member asked (evidence.MergedScores); equal scores go by the
	// member's confidence in its answer, then the unit's place in it.
	score float64
	// later counts the units of the same record before this one in its
	// member's answer: a record's later units stand behind every
	// record's first, so that a budget holds more records.
	later      int
	confidence int
	rank       int
	member     int
}

// MemberAnswer is how one member answered.
type MemberAnswer struct {
	Name       string `json:"name"`
	Confidence string `json:"confidence"`
	Records    int    `json:"records"`
	Units      int    `json:"units"`
	// NotAsked: the workspace term index answered for the member (its
	// confidence "none" or "skipped") without asking it.
	NotAsked bool `json:"-"`
	// Unavailable says why the member was not read ("not synced yet",
	// "not a git repository"), its confidence then NotRead; "" when it
	// was (see [Workspace.Reading]).
	Unavailable string `json:"unavailable,omitempty"`
}

// NotRead is the confidence of a member a [Workspace.Reading] view went
// on without.
const NotRead = "not read"

// ContextAnswer is a task answer across a workspace: each member ranks
// its own records (the context service, within the request's unit
// budget), and the answers are merged by each unit's record's score on
// the scale of every member asked (evidence.MergedScores).
type ContextAnswer struct {
	Task    string
	Members []MemberAnswer
	// Candidates are every member's units in merged order; Units the
	// ones Pack kept, Omitted how many it left out.
	Candidates []ContextUnit
	Units      []ContextUnit
	Omitted    int
	Records    int
	// dropped counts candidates left out while merging (past twice the
	// unit budget).
	dropped int
	// Prefilter, when the workspace term index chose the members asked
	// (a workspace of more than twice the unit budget), says how many.
	Prefilter *Prefilter
	// Named are the records of other repositories that candidates name
	// by qualified ID (platform:ADR-0003), followed: the text's ID (as
	// qualified in the text, lower-cased) to the record it resolves to.
	Named map[string]Reference
}

// Prefilter is the provenance of an answer whose members were chosen by
// the workspace term index: Asked of Repositories ranked the task; of the
// others, None hold too few of its words (confidence "none") and Skipped
// fewer of its best matches (confidence "skipped").
type Prefilter struct {
	Asked        int `json:"asked"`
	Repositories int `json:"repositories"`
	None         int `json:"none"`
	Skipped      int `json:"skipped"`
}

// Reference is a record a unit names in another repository.
type Reference struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Status string `json:"status"`
	Path   string `json:"path"`
}

// References are the records of other repositories the kept units name
// and the answer does not hold, with the unit naming each, in order.
func (a *ContextAnswer) References() []NamedReference {
	held := map[string]bool{}
	for _, u := range a.Units {
		id, _, _ := strings.Cut(u.ID, "#")
		held[id] = true
	}
	var out []NamedReference
	seen := map[string]bool{}
	for _, u := range a.Units {
		for _, m := range mentionRE.FindAllStringSubmatch(u.Text, -1) {
			key := strings.ToLower(m[1] + ":" + m[2])
			ref, ok := a.Named[key]
			if !ok || held[ref.ID] || seen[ref.ID] || strings.EqualFold(m[1], u.Repository) {
				continue
			}
			seen[ref.ID] = true
			out = append(out, NamedReference{Reference: ref, By: u.ID})
		}
	}
	return out
}

// NamedReference is a Reference with the unit that names it.
type NamedReference struct {
	Reference
	By string `json:"named_by"`
}

var confidenceRank = map[string]int{"high": 3, "medium": 2, "low": 1}

// Context asks every member the task. A few members are read at once
// (one per core, at most [maxParallel]), each log closed once answered:
// memory follows the largest members, not the workspace. Members without
// an ADR directory are skipped. The answer does not depend on the order
// members finish in.
func (w *Workspace) Context(req ContextRequest, progress func(done, total int)) (*ContextAnswer, error) {
	if n := utf8.RuneCountInString(req.Task); n > maxTaskChars {
		arg := "--task"
		if req.MCP {
			arg = "task"
		}
		return nil, &evidence.RequestError{Msg: fmt.Sprintf("%s is %d characters; at most %d are accepted", arg, n, maxTaskChars),
			Hint: "shorten it: the request is echoed in every response and cursor"}
	}
	if req.MaxUnits == 0 {
		req.MaxUnits = evidence.DefaultTaskMaxUnits
	}
	if req.MaxChars == 0 {
		req.MaxChars = evidence.DefaultTaskMaxChars
	}
	type result struct {
		ma    MemberAnswer
		units []ContextUnit
		stats evidence.WordStats
	}
	results := make([]result, len(w.Members))
	terms := evidence.MergeTerms(req.Task, req.Ablate.MergeAblation)
	ask, pre := w.selectMembers(req)
	for i, ma := range pre {
		if ma != nil {
			results[i].ma = *ma
		}
	}
	err := w.eachParallel(ask, progress, func(i int, ld *Loaded) error {
		ma := MemberAnswer{Name: ld.Member.Name, Confidence: "none", Records: len(ld.Log.Records)}
		defer func() { results[i].ma = ma }()
		if len(ld.Log.Roots) == 0 {
			return nil
		}
		svc := &evidence.Service{Log: ld.Log, CacheDir: ld.CacheDir, KeepIndexes: true}
		// No member can send more than the whole answer holds: its own
		// answer is asked within the same budget.
		resp, _, err := svc.Answer(evidence.Request{Task: req.Task, MaxUnits: req.MaxUnits, MaxChars: req.MaxChars, Format: evidence.CompactJSON})
		if err != nil {
			var re *evidence.RequestError
			if errors.As(err, &re) {
				return err
			}
			return &SyncError{Member: ld.Member, Err: err}
		}
		if resp.Confidence != "" {
			ma.Confidence = resp.Confidence
		}
		var kept []evidence.Unit
		for _, u := range resp.Units {
			if u.Kind == "decision" || u.Kind == "excerpt" {
				kept = append(kept, u)
			}
		}
		results[i].stats = svc.WordStats(terms, kept)
		later := laterUnits(kept)
		for k, u := range kept {
			c := ContextUnit{Repository: ld.Member.Name, Unit: u, confidence: confidenceRank[resp.Confidence], rank: ma.Units, member: i}
			if !req.Ablate.MemberOrder && !req.Ablate.RecordsTogether {
				c.later = later[k]
			}
			c.ID = Qualify(ld.Member.Name, u.ID)
			results[i].units = append(results[i].units, c)
			ma.Units++
		}
		return nil
	})
	if err == nil {
		err = w.noneRead()
	}
	if err != nil {
		return nil, err
	}
	for i, m := range w.Members {
		if err := w.skipped(m); err != nil {
			results[i] = result{ma: MemberAnswer{Name: m.Name, Confidence: NotRead, Unavailable: Unavailable{m, err}.Reason()}}
		}
	}
	ans := &ContextAnswer{Task: req.Task}
	if ask != nil {
		ans.Prefilter = &Prefilter{Asked: len(ask), Repositories: len(w.Members)}
		for _, ma := range pre {
			switch {
			case ma == nil:
			case ma.Confidence == Skipped:
				ans.Prefilter.Skipped++
			default:
				ans.Prefilter.None++
			}
		}
	}
	// Each member ranked its records by its own statistics: the merge
	// scores every unit's record by those of all the members asked.
	stats := make([]evidence.WordStats, len(results))
	for i, r := range results {
		stats[i] = r.stats
	}
	scores := evidence.MergedScores(terms, stats, req.Ablate.MergeAblation)
	for i, r := range results {
		ans.Members = append(ans.Members, r.ma)
		ans.Records += r.ma.Records
		for k, u := range r.units {
			if !req.Ablate.MemberOrder {
				u.score = scores[i][k]
			}
			ans.Candidates = append(ans.Candidates, u)
		}
	}
	// Only the best MaxUnits can be shown; as many more stand by for
	// units that do not fit the code points left.
	ans.sort()
	if keep := 2 * req.MaxUnits; len(ans.Candidates) > keep {
		ans.dropped = len(ans.Candidates) - keep
		ans.Candidates = ans.Candidates[:keep:keep]
	}
	return ans, w.follow(ans)
}

// follow resolves the qualified IDs the candidates name in other
// repositories, opening only the repositories named.
func (w *Workspace) follow(ans *ContextAnswer) error {
	var ms []mention
	for _, c := range ans.Candidates {
		for _, m := range mentionRE.FindAllStringSubmatch(c.Text, -1) {
			mem := w.Member(m[1])
			if mem == nil || mem.Name == c.Repository {
				continue
			}
			ms = append(ms, mention{from: Finding{ID: strings.ToLower(m[1] + ":" + m[2])}, member: mem.Name, ref: m[2]})
		}
	}
	ans.Named = map[string]Reference{}
	return w.resolveMentions(ms, func(m mention, mem *Member, r *adr.Record) {
		if r != nil {
			ans.Named[m.from.ID] = Reference{ID: Qualify(mem.Name, r.ID), Title: r.Title, Status: string(r.Status), Path: r.Path}
		}
	})
}

// laterUnits counts, for each of one answer's units, the units of the
// same record before it (a record is its path and the ID its units'
// IDs start with: a single-file log holds several records in one path).
func laterUnits(units []evidence.Unit) []int {
	out := make([]int, len(units))
	seen := map[[2]string]int{}
	for k, u := range units {
		id, _, _ := strings.Cut(u.ID, "#")
		key := [2]string{u.Path, id}
		out[k] = seen[key]
		seen[key]++
	}
	return out
}

func (a *ContextAnswer) sort() {
	sort.SliceStable(a.Candidates, func(i, j int) bool {
		x, y := a.Candidates[i], a.Candidates[j]
		if x.later != y.later {
			return x.later < y.later
		}
		if x.score != y.score {
			return x.score > y.score
		}
		if x.confidence != y.confidence {
			return x.confidence > y.confidence
		}
		if x.rank != y.rank {
			return x.rank < y.rank
		}
		return x.member < y.member
	})
}

// Pack keeps the candidates, in order, that fit maxUnits and maxChars:
// measure is the size of the whole answer as it stands, as it will be
// sent (the code points of its rendering, or of its MCP message).
func (a *ContextAnswer) Pack(maxUnits, maxChars int, measure func(*ContextAnswer) int) {
	if maxUnits == 0 {
		maxUnits = evidence.DefaultTaskMaxUnits
	}
	if maxChars == 0 {
		maxChars = evidence.DefaultTaskMaxChars
	}
	a.Units = nil
	omitted := a.dropped
	a.Omitted = omitted + len(a.Candidates)
	for _, c := range a.Candidates {
		if len(a.Units) == maxUnits {
			break
		}
		a.Units = append(a.Units, c)
		a.Omitted = omitted + len(a.Candidates) - len(a.Units)
		if measure(a) > maxChars {
			a.Units = a.Units[:len(a.Units)-1]
			a.Omitted = omitted + len(a.Candidates) - len(a.Units)
		}
	}
}
