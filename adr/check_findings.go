package adr

import "sort"

// What check reports: the kinds of findings (named alike in output, in
// .adr.toml `[check] ignore` and in docs/commands/check.md), a [Finding],
// and the order findings are listed in. [Log.Check] finds the log's own
// kinds (check.go and the other check_*.go files; KindLikelySupersession
// is declared beside its check in check_prose.go); the others are found
// where their comments say and join the report, most through
// [CheckOptions.Extra].

// FindingKind names a kind of problem [Log.Check] reports.
type FindingKind string

// The kinds of findings, as printed and as named in .adr.toml
// `[check] ignore`.
const (
	// KindDuplicateID: two records of one root share a number.
	KindDuplicateID FindingKind = "duplicate-id"
	// KindDuplicateIDBranch: another branch uses one of our numbers for a
	// different file in the same root; merging would duplicate it.
	KindDuplicateIDBranch FindingKind = "duplicate-id-branch"
	// KindBrokenReference: a relation or a Markdown link names nothing.
	KindBrokenReference FindingKind = "broken-reference"
	// KindCycle: records supersede each other in a circle.
	KindCycle FindingKind = "cycle"
	// KindOneWayLink: a relation whose target does not link back.
	KindOneWayLink FindingKind = "one-way-link"
	// KindStatusMismatch: the status contradicts the relations.
	KindStatusMismatch FindingKind = "status-mismatch"
	// KindStatusConflict: the record states two different statuses (front
	// matter "active", a Status section "Rejected").
	KindStatusConflict FindingKind = "status-conflict"
	// KindUnknownStatus: the status is missing or not one git-adr knows.
	KindUnknownStatus FindingKind = "unknown-status"
	// KindIDMismatch: the number in the title is not the file's number.
	KindIDMismatch FindingKind = "id-mismatch"
	// KindUnparseable: the record could not be read fully.
	KindUnparseable FindingKind = "unparseable"
	// KindPendingChange: a write was interrupted and its journal is not
	// finished; the log may be half changed. Always listed first, and
	// never left out by configuration.
	KindPendingChange FindingKind = "pending-change"
	// KindTempFile: a temporary file an interrupted run left in an ADR
	// folder.
	KindTempFile FindingKind = "temp-file"
	// KindRefusedRoot: an ADR root was not read, being a symbolic link
	// that leads outside the repository (see Root.Refused).
	KindRefusedRoot FindingKind = "refused-root"
	// KindReservedNumber: a record holds a number a consolidation plan
	// reserved for one of its replacements (refs/adr/reservations/);
	// found by the compaction package, which reads the plans.
	KindReservedNumber FindingKind = "reserved-number"
)

// Kinds reported by `git adr check --compaction` only (see the view
// package, which finds them).
const (
	// KindViewStale: a CURRENT view no longer describes the log.
	KindViewStale FindingKind = "view-stale"
	// KindViewCorrupt: a CURRENT pair is broken: the manifest is not one,
	// a file of the pair is missing, or CURRENT.md was edited by hand.
	KindViewCorrupt FindingKind = "view-corrupt"
	// KindViewUnsupported: a manifest of a schema this git-adr cannot read.
	KindViewUnsupported FindingKind = "view-unsupported"
	// KindIndexStale: a generated INDEX.md differs from what the records
	// give.
	KindIndexStale FindingKind = "index-stale"
)

// FindingKinds lists every kind `git adr check` reports by default, in
// the order the documentation gives them.
var FindingKinds = []FindingKind{
	KindDuplicateID, KindDuplicateIDBranch, KindReservedNumber, KindBrokenReference, KindCycle, KindOneWayLink,
	KindStatusMismatch, KindStatusConflict, KindUnknownStatus, KindIDMismatch, KindUnparseable, KindTempFile, KindRefusedRoot,
	KindLikelySupersession,
}

// CompactionKinds lists the kinds `git adr check --compaction` adds.
var CompactionKinds = []FindingKind{KindViewStale, KindViewCorrupt, KindViewUnsupported, KindIndexStale}

// ParseFindingKind returns the kind named exactly by s.
func ParseFindingKind(s string) (FindingKind, bool) {
	for _, k := range append(append(append([]FindingKind(nil), FindingKinds...), CompactionKinds...), ScopeKinds...) {
		if s == string(k) {
			return k, true
		}
	}
	return "", false
}

// Finding is one problem in the log, with the exact command or edit that
// resolves it.
type Finding struct {
	Kind FindingKind `json:"kind"`
	// Path is the repository-relative file the finding is about.
	Path string `json:"path"`
	// Line is 1-based; 0 only when no line applies (the problem is the file
	// name or something missing).
	Line    int      `json:"line"`
	IDs     []string `json:"ids"`
	Message string   `json:"message"`
	Fix     string   `json:"fix"`
	// Warning marks a staleness signal: reported, but it makes check exit
	// 1 only with [check] warnings = "error".
	Warning bool `json:"warning,omitempty"`
}

// Staleness and code-scope kinds (warnings; see [Finding.Warning]).
const (
	// KindReviewDue: a record's review_by date has passed.
	KindReviewDue FindingKind = "review-due"
	// KindStaleProposal: a proposal older than [check]
	// stale_proposal_days.
	KindStaleProposal FindingKind = "stale-proposal"
	// KindScopeUnmatched: an applies_to glob matches no tracked file.
	KindScopeUnmatched FindingKind = "scope-unmatched"
	// KindScopeInvalid: an applies_to glob that is not a pattern, or a
	// [[scope]] table naming no record.
	KindScopeInvalid FindingKind = "scope-invalid"
	// KindMarkerUnknown: a source comment names an ADR that is no record.
	KindMarkerUnknown FindingKind = "marker-unknown"
	// KindScopeChurn: the paths a record in force governs changed in
	// more commits since it was accepted than [check] churn_commits.
	KindScopeChurn FindingKind = "scope-churn"
)

// ScopeKinds lists the staleness and scope kinds `git adr check` adds.
var ScopeKinds = []FindingKind{KindReviewDue, KindStaleProposal, KindScopeUnmatched, KindScopeInvalid, KindMarkerUnknown, KindScopeChurn}

// SortFindings orders findings by path, line, kind, then message.
func SortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Message < b.Message
	})
}
