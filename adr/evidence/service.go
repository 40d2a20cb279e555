package evidence

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/git-adr/git-adr/internal/failpoint"
	"github.com/git-adr/git-adr/retrieve"
)

// Service answers context requests over one decision log.
type Service struct {
	Log *adr.Log
	// Source is the work tree, for source files: a confined file system
	// (gitops.ConfinedFS) so that no source is read from outside it.
	Source fs.FS
	// SourceFiles lists candidate source files (repository-relative), for
	// task retrieval; nil disables source excerpts.
	SourceFiles func() ([]string, error)
	// CursorKey returns the repository's key that signs and verifies
	// cursors; create asks for one to be made when there is none (without
	// create, a missing key is an error wrapping fs.ErrNotExist). Nil: no
	// cursors are issued and none is accepted.
	CursorKey func(create bool) ([]byte, error)
	// Prefix is the caller's directory relative to the top of the work tree ("" at the top), so
	// that suggested commands name files as the caller would.
	Prefix string
	// CacheDir holds derived caches ($GIT_DIR/adr/cache); "" disables them.
	CacheDir string
	// MCP words hints, warnings and next steps for the MCP tools (argument
	// names such as max_chars, tool calls) instead of the command line.
	MCP bool
	// Measure, when set, counts a rendered response as its transport
	// sends it (for MCP, the whole JSON-RPC message); the budget bounds
	// that count. Nil: the code points of the rendered response.
	Measure func(rendered []byte) int
	// Ablate switches retrieval heuristics off, for measurements.
	Ablate Ablation
	// Memory supplies memory items to task answers (kind "memory"); nil: none.
	Memory MemorySource
	// Scope finds the records governing paths (declared scope, markers,
	// mentions; see adr/scope), for requests with Paths; nil: none.
	Scope func(paths []string) []ScopeHit
	// Progress, when set, is told how many of the records a task query
	// must analyse (those the term cache does not know) are done.
	Progress func(done, total int)
	// ReleaseTexts lets a task query let go of each record's text once
	// it is analysed (adr.Record.ReleaseText), so that a first query over
	// a long log does not hold every text while it builds its indexes;
	// the few texts the answer quotes are read again. Only for a service
	// that answers one question over a log nothing else reads meanwhile
	// (the command, not the MCP server).
	ReleaseTexts bool
	// OutsideHeap reads the stored task index into memory the garbage
	// collector does not manage (package offheap), where it is never
	// given back: only for a service that answers once in a process that
	// then ends (the command, not the MCP server).
	OutsideHeap bool
	// Preanalysis, when set, holds records analysed as the log loaded
	// (a first task query's): their terms are taken from it.
	Preanalysis *Preanalysis
	// Stale, when set, finds the staleness signals of an answer's records
	// that need the repository (a declared scope that matches no tracked
	// file, governed code changed in many commits since the record was
	// added), as labels by record; the signals a record states itself
	// (review_by passed, a proposal left open) are found without it.
	Stale func(recs []*adr.Record) map[*adr.Record][]string
	// Embeddings, when set, adds the records closest in meaning to a
	// task to its lexical matches, labelled (embeddings.go); nil: the
	// ranking is lexical alone.
	Embeddings *Embeddings
	// KeepIndexes keeps the indexes of the last task answer for
	// WordStats (a workspace member's service, which answers once and is
	// then asked how its units score on the workspace's scale).
	KeepIndexes bool

	fingerprint string
	cursorKey   []byte
	viewsDone   bool
	rootViews   []*rootView
	tokens      *tokenCache
	tokensOnce  sync.Once
	// saving holds the cache writes a task query started, which Answer
	// waits for before it returns.
	saving pendingWrites
	kept   keptIndexes
}

// pendingWrites are writes running beside an answer. Unlike a
// sync.WaitGroup, answers made at once on one Service may start and wait
// for them in any order: each Wait waits for every write started before
// it.
type pendingWrites struct {
	mu   sync.Mutex
	runs []chan struct{}
}

// Go runs f on its own goroutine.
func (p *pendingWrites) Go(f func()) {
	done := make(chan struct{})
	p.mu.Lock()
	p.runs = append(p.runs, done)
	p.mu.Unlock()
	go func() {
		defer close(done)
		// The race test stops a question here, its answer made and its
		// caches not yet written, while a prune removes the mirror they
		// go into.
		failpoint.Hit("evidence-cache-write")
		f()
	}()
}

// Wait returns when every write started before it has ended.
func (p *pendingWrites) Wait() {
	p.mu.Lock()
	runs := slices.Clone(p.runs)
	p.mu.Unlock()
	for _, done := range runs {
		<-done
	}
	p.mu.Lock()
	p.runs = slices.DeleteFunc(p.runs, func(done chan struct{}) bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	})
	p.mu.Unlock()
}

// item is one candidate piece of evidence in the order it should appear.
type item struct {
	rec       *adr.Record
	unit      adr.Unit
	role      string
	essential bool
	// part selects one part of a split unit (1-based; 0: the whole unit,
	// split as the budget requires).
	part int
	src  *retrieve.Excerpt
	// view is the CURRENT.md section a "current" unit shows.
	view *view.Section
	// mem is the memory item a "memory" unit shows.
	mem *MemoryNote
	// win is the window of the unit a task answer sends (nil: the unit,
	// split as the budget requires).
	win *window
	// limit, when set, is the largest part of this item's unit, in place
	// of the response's (a task answer sends lower-ranked records
	// shorter).
	limit int
}

// Fingerprint identifies the log's content: every record's path and bytes
// and the configuration. Any edit, addition, deletion or rename changes it.
func (s *Service) Fingerprint() string {
	if s.fingerprint != "" {
		return s.fingerprint
	}
	h := sha256.New()
	recs := append([]*adr.Record(nil), s.Log.Records...)
	sort.Slice(recs, func(i, j int) bool { return recs[i].Path < recs[j].Path })
	var buf []byte // one buffer: a conversion per record allocated
	for _, r := range recs {
		sum := r.SourceSHA256()
		buf = append(append(append(buf[:0], r.Path...), 0), sum[:]...)
		h.Write(buf)
	}
	if s.Log.Config != nil {
		for _, root := range s.Log.Roots {
			h.Write([]byte("root:" + root.Path + ":" + root.Prefix + "\x00"))
		}
	}
	// A fresh view's sections can be in an answer: a new or changed view
	// makes cursors stale. (Without views the fingerprint is as before.)
	for _, v := range s.views() {
		if v.fresh() {
			h.Write([]byte("view:" + v.f.CurrentPath + ":" + v.f.Manifest.Summary.SHA256 + "\x00"))
		}
	}
	// Memory items can be in an answer too (without memory: as before).
	if v := s.memoryVersion(); v != "" {
		h.Write([]byte("memory:" + v + "\x00"))
	}
	s.fingerprint = hex.EncodeToString(h.Sum(nil))
	return s.fingerprint
}

// live returns records that are not archived.
func (s *Service) live() []*adr.Record {
	var out []*adr.Record
	for _, r := range s.Log.Records {
		if !r.Archived {
			out = append(out, r)
		}
	}
	return out
}

// systemConstraints are the accepted system-wide records, in log order.
func (s *Service) systemConstraints() []*adr.Record {
	var out []*adr.Record
	for _, r := range s.live() {
		if r.IsSystemConstraint() {
			out = append(out, r)
		}
	}
	return out
}

// unitsFor returns the units of r an intent asks for, most important
// first.
func unitsFor(r *adr.Record, intent Intent) []adr.Unit {
	if r.Style == adr.StyleOCP {
		var live, rest []adr.Unit
		for _, u := range r.Units() {
			if intent == Current && (u.Status == adr.Superseded || u.Status == adr.Rejected || u.Status == adr.Deprecated) {
				rest = append(rest, u)
				continue
			}
			live = append(live, u)
		}
		if intent == Current {
			return live
		}
		return append(live, rest...)
	}
	order := map[Intent][]string{
		Current:   {"decision", "body"},
		Rationale: {"context", "decision", "options", "consequences", "body"},
		History:   {"decision", "context", "body"},
	}[intent]
	var out []adr.Unit
	seen := map[string]bool{}
	for _, a := range order {
		if u, ok := r.Unit(a); ok && !seen[u.Anchor] {
			seen[u.Anchor] = true
			out = append(out, u)
		}
	}
	if len(out) == 0 {
		if u, ok := mainUnit(r); ok {
			out = append(out, u)
		}
	}
	return out
}

// reference describes a record without its body.
func reference(r *adr.Record, relation string) Reference {
	return Reference{ID: r.ID, Title: shortTitle(r.Title), Status: string(r.Status), Path: r.Path, Relation: relation}
}

// maxTitle bounds titles in metadata; the record itself is never cut.
const maxTitle = 160

func shortTitle(t string) string {
	rs := []rune(t)
	if len(rs) <= maxTitle {
		return t
	}
	return string(rs[:maxTitle-1]) + "…"
}

// successors follows superseded-by links from r (at most MaxHops) to the
// records now in force. More than one current successor is ambiguous.
func (s *Service) successors(r *adr.Record) (current []*adr.Record, chain []*adr.Record) {
	seen := map[*adr.Record]bool{r: true}
	frontier := []*adr.Record{r}
	for hop := 0; hop < MaxHops && len(frontier) > 0; hop++ {
		var next []*adr.Record
		for _, f := range frontier {
			for _, t := range s.related(f, adr.SupersededBy) {
				if seen[t] {
					continue
				}
				seen[t] = true
				chain = append(chain, t)
				if t.Status == adr.Superseded {
					next = append(next, t)
				} else {
					current = append(current, t)
				}
			}
		}
		frontier = next
	}
	// A successor may be known only from its own "Supersedes" line.
	if len(current) == 0 && len(chain) == 0 {
		for _, o := range s.Log.Records {
			if o == r || o.Status == adr.Superseded {
				continue
			}
			for _, t := range s.related(o, adr.Supersedes) {
				if t == r {
					current = append(current, o)
					chain = append(chain, o)
				}
			}
		}
	}
	return current, chain
}

// related returns the records r links with a relation type ("" for every
// type), resolved, in link order, without duplicates.
func (s *Service) related(r *adr.Record, typ adr.RelationType) []*adr.Record {
	var out []*adr.Record
	seen := map[*adr.Record]bool{}
	for _, rel := range r.Relations {
		if typ != "" && rel.Type != typ {
			continue
		}
		t := s.Log.Target(r, rel.Target)
		if t == nil || t == r || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
	}
	return out
}

// dependencies walks non-supersession relations breadth-first from the
// given records, at most MaxHops, and returns each reached record with
// its distance and the relation that reached it.
type dep struct {
	rec  *adr.Record
	hops int
	via  string
}

func (s *Service) dependencies(from []*adr.Record) []dep {
	seen := map[*adr.Record]bool{}
	for _, r := range from {
		seen[r] = true
	}
	var out []dep
	frontier := from
	for hop := 1; hop <= MaxHops && len(frontier) > 0; hop++ {
		var next []*adr.Record
		for _, f := range frontier {
			for _, rel := range f.Relations {
				if rel.Type == adr.Supersedes || rel.Type == adr.SupersededBy {
					continue
				}
				t := s.Log.Target(f, rel.Target)
				if t == nil || seen[t] {
					continue
				}
				seen[t] = true
				out = append(out, dep{rec: t, hops: hop, via: strings.ToLower(rel.Label) + " " + f.ID})
				next = append(next, t)
			}
		}
		frontier = next
	}
	return out
}

// ScopeHit is a record that governs a path, and why ("applies_to:
// payments/**", "marker ADR-0012 at x.go:3").
type ScopeHit struct {
	Record *adr.Record
	Path   string
	Why    string
}

// staleness labels recs with their staleness signals: those each record
// states itself, then those s.Stale finds.
func (s *Service) staleness(recs []*adr.Record) map[*adr.Record][]string {
	if len(recs) == 0 {
		return nil
	}
	days := 0
	if s.Log.Config != nil {
		days = s.Log.Config.Check.StaleProposalDays
	}
	today := adr.TodayTime()
	out := map[*adr.Record][]string{}
	for _, r := range recs {
		for _, st := range r.OwnStaleness(today, days) {
			out[r] = append(out[r], st.Label)
		}
	}
	if s.Stale != nil {
		for r, ls := range s.Stale(recs) {
			out[r] = append(out[r], ls...)
		}
	}
	return out
}
