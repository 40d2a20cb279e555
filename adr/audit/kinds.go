package audit

import "github.com/git-adr/git-adr/adr"

// Kinds lists every kind a report of [Run] can hold: the log's own
// ([adr.FindingKinds]), the journals of interrupted writes, the
// --compaction kinds, the staleness and scope signals, and the rules a
// --since range is judged by (with --compaction, stale-view too).
// docs/commands/check.md has a row for each.
func Kinds() []adr.FindingKind {
	var out []adr.FindingKind
	out = append(out, adr.FindingKinds...)
	out = append(out, adr.KindPendingChange)
	out = append(out, adr.CompactionKinds...)
	out = append(out, adr.ScopeKinds...)
	return append(out, sinceKinds(true)...)
}
