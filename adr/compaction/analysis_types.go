package compaction

// Class is what compaction would do with a record (spec §4).
type Class string

// Classes.
const (
	RetainUnchanged   Class = "retain"      // stays as it is (open proposals, self-contained records)
	SummarizeClass    Class = "summarize"   // an accepted constraint the CURRENT view states
	ConsolidateClass  Class = "consolidate" // part of a cluster a replacement ADR could merge
	UnresolvedClass   Class = "unresolved"  // unknown status, contradictions, open issues: a person decides
	ArchivalCandidate Class = "archive"     // wholly retired and covered by its successors
)

// RecordClass is one record of an analysis.
type RecordClass struct {
	ID     string `json:"id"`
	Path   string `json:"path"`
	Status string `json:"status"`
	Class  Class  `json:"class"`
	Reason string `json:"reason"`
}

// RootCount is a root in scope and how many of its records are.
type RootCount struct {
	Path  string `json:"path"`
	Count int    `json:"count"`
}

// Analysis is the read-only result of `git adr compaction` without a mode
// (and the scope of any plan): the roots and counts in scope, a class and
// reason per record, and the issues found. It makes no model call and
// writes nothing.
type Analysis struct {
	Roots   []RootCount   `json:"roots"`
	Records []RecordClass `json:"records"`
	Issues  []Issue       `json:"issues"`
	// Inferred are groups of records about one subject that no relation
	// links, found from their words when AnalyzeOptions.Infer asks
	// (empty otherwise). They change no class: a person reads them.
	Inferred []InferredGroup `json:"inferred"`
}

// AnalyzeOptions select the scope: a domain, exact sources, or (both
// empty) every unarchived canonical record of every root.
type AnalyzeOptions struct {
	Domain  string
	Sources []string
	// Infer looks for groups of records about one subject that no
	// relation links (Analysis.Inferred): the read-only analysis asks for
	// them, a plan does not need them.
	Infer bool
	// Progress, when set, is called as records are classified.
	Progress func(done, total int)
}

// ScopeError is a bad scope: an unknown domain, or a source that is
// missing, ambiguous or archived.
type ScopeError struct {
	Msg  string
	Hint string
}

func (e *ScopeError) Error() string { return e.Msg }
