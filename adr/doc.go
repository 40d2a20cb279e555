// Package adr is the decision log: the Architecture Decision Records of a
// repository's ADR roots, read without loss, resolved, checked and changed
// by minimal edits. Commands, hooks and most packages under adr/
// (acceptance, archive, compaction, context, views, the ledger) start from
// a [Log] that [Load] returns.
//
// The package reads any [io/fs.FS]: the work tree (through the confinement
// layer, package internal/confine), the index or a commit tree, as gitops
// opens them. It prints nothing, asks nothing and never runs git. It writes
// the work tree only through a [Changeset] (journalled, under the project
// lock the caller holds), and otherwise only in the folders its callers
// name under the git directory: the parse cache, detection's memo, the
// journals and the copies recovery keeps.
//
// # Reading map
//
// Read the files in this order; each step builds on the ones before it.
// File names share the step's prefix where one exists.
//
//  1. Model: record.go ([Record], [Unit], [Field], [Style]), text.go
//     ([Text]: a record's exact bytes with a line index and line kinds;
//     [Edit] splices them), status.go ([Status], [NormalizeStatus]: status
//     words in several languages, the raw text kept), relation.go
//     ([RelationType], [Relation]), names.go (file names, IDs, slugs,
//     numbers), info.go ([RecordInfo], the documented JSON shape).
//  2. Parse (parse*.go): [Parse] runs the passes listed in parse.go's run:
//     front matter (parse_frontmatter.go), the title (parse_title.go),
//     metadata lines and tables (parse.go, with the keys and date forms of
//     meta.go), status sections (parse_status.go), relation lines
//     (parse_relations.go), then sections, decision units and the style
//     (parse_sections.go). Markdown links are read by mdlink.go, links.go
//     and linkdest.go. A single-file log (logfile*.go: [SplitLog],
//     [ParseSection]) is parsed section by section, never written.
//  3. Discover and root: config.go ([Config], .adr.toml), discover.go
//     ([Discover]: --root, .adr.toml, adr-tools' .adr-dir, log4brains,
//     conventional folders, a bounded scan), detect*.go (judging a folder
//     nobody configured; the verdict is remembered by stat data),
//     dirmemo.go (each folder listed once a load), root*.go ([Root];
//     root_read.go turns a root's folder and archive/ into records and
//     skipped entries, root_conventions.go derives the root's padding,
//     names and style from them).
//  4. Cache (cache*.go): [Cache], the parse cache under
//     $GIT_COMMON_DIR/adr/cache (shared by linked worktrees), keyed by git
//     blob hash (docs/adr/0026). cache_read.go's readRecord takes a record
//     from it or parses it; [Record.Text] reads a cached record's bytes
//     only when they are needed.
//  5. Log: log.go ([Load], [Log], [Log.Resolve]: IDs and relation targets),
//     lookup.go ([Log.Lookup]: what a person types), narrow.go (lazy and
//     narrow loads: [Log.Ensure], [Log.Derive]), branches.go (numbers on
//     other branches, [NextNumber]), overlay.go ([Overlay]: a log's future
//     state in memory).
//  6. Check (check*.go): [Log.Check] returns a [CheckReport];
//     check_findings.go holds the kinds and [Finding], check.go the checker,
//     and each other check_*.go file one family of checks (one record,
//     links, cycles, other branches, prose); check_since.go ([Introduced])
//     judges a range, stale.go the review and staleness signals.
//  7. Writes: edit.go (minimal edits: only the bytes that must change, in
//     the record's own style and line endings), transition.go
//     ([CheckTransition]: the decision lifecycle), lifecycle.go
//     ([Log.Decide], [Log.AcceptAll], [Log.Link]), new*.go
//     ([Log.NewRecord]: templates, sections, the log's conventions),
//     renumber*.go ([Log.Renumber], [RenumberText]); every write then goes
//     through changeset.go, journal.go and recover.go ([Changeset],
//     [Journal], [RecoverJournals]).
//  8. Index and graph: index.go ([RenderIndex], [Log.Indexes]: the
//     deterministic INDEX.md), graph.go ([Log.Graph]: DOT and Mermaid),
//     escape.go and mdescape.go ([Escape], [EscapeCell]: record text is
//     data, never terminal or Markdown control); index_write.go (which
//     indexes a command may write: [Log.IndexesWithin], [IndexOutput]).
//  9. What commands ask of the log, returned as values for cmd to render:
//     select.go ([Log.Select]: list's filters), pick.go ([Log.Pick]),
//     lookup_path.go ([Log.LookupTyped]), named.go ([SplitNamed]: files a
//     person named), init.go ([PlanInit]), proposal.go (a proposal's checks
//     and next steps), new_template_find.go ([FindTemplate]), root_info.go
//     and root_write.go (roots as `roots` shows them, the root a new record
//     goes in), check_tally.go (a report's counts and whether it fails),
//     notes_seen.go (discovery notes shown once), tempfiles.go and
//     recover_report.go (leftover temporary files; what `recover` did).
//
// # Invariants
//
//   - Lossless: a record's [Text] is its bytes; rendering an unchanged
//     record reproduces them (line endings, BOM, final newline), and an
//     edit replaces only the bytes it must.
//   - Nothing unknown is guessed: a status, relation or file git-adr
//     cannot classify is kept raw and reported (a record's RawStatus and
//     Problems, a root's Skipped entries), never dropped.
//   - Derived state is never trusted blindly: the parse cache and the
//     detection memo are ignored and rebuilt when damaged, foreign or from
//     another build; recovery finishes a change only over files that still
//     hold what it read, unless told to ([RecoverFinish] keeps a copy of
//     each first).
//
// The capabilities built on the log are subpackages (accept, archive,
// compaction, evidence, govern, guard, ledger, view and others);
// docs/architecture.md maps them, and the commands that call them.
package adr
