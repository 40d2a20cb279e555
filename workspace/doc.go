// Package workspace reads the decision logs of many repositories as one:
// a workspace file (TOML) names each repository by a local path or by a
// remote URL and ref, and commands answer across all of them (ADR-0039,
// docs/workspace.md).
//
// # Reading map
//
//   - file.go: the workspace file, [Load], and the rules a name, a path,
//     a URL and a ref must keep (hostile input is refused before git runs).
//   - sync.go: [Workspace.Sync], a bare mirror per remote repository under
//     the user's cache directory, fetched incrementally through gitops,
//     four at once, each fetched mirror's term summary made beside the
//     fetches.
//   - member.go: [Member.Open], one repository's log read from its tree
//     (a mirror's ref, a local ref, or a local work tree) through that
//     repository's parse cache, and [Workspace.Each], which holds one log
//     at a time so memory follows the largest repository, not the sum.
//   - ids.go: qualified IDs ("payments:ADR-0012") and [Workspace.Find].
//   - context.go: task answers ranked per repository and merged.
//   - terms.go: the workspace term index, a summary per mirror (kept by
//     sync) that chooses which members a task is asked of (ADR-0041).
//   - status.go: [Workspace.Status], what each member holds.
//   - records.go: [Workspace.Records], pages of qualified records;
//     show.go: [Found.Page], pages of one record's lines.
//   - check.go: what only a workspace can see.
//   - export.go: JSON Lines for a bulk indexer.
//
// Nothing here prints: commands in cmd/git-adr render what it returns.
package workspace
