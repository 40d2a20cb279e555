// Package guard is the read guard for coding agents: what an agent's tool
// call may read of the decision log, judged before the tool runs.
//
// # Modes
//
// [Off] judges nothing. [Warn] lets every call run and attaches guidance,
// once per session and reason. [Guard] refuses, before any content is
// output, direct reads of archived record bodies and recognised unscoped
// reads or searches over an ADR root, and refuses the commands only a
// person may run (acceptance, changing the guard). The mode comes from git
// config adr.guard.mode when set, else from the [guard] table of
// .adr.toml (see [Resolve]).
//
// # What is judged
//
// An agent adapter (package hooks) turns one tool call into a [Request]:
// a read, a search, a listing, a write, a shell command or a call of
// git-adr's own tools. [Policy.Judge] locates every path the request
// touches inside the repository ([Scope]), with symbolic links, "..",
// absolute paths and letter case resolved, and applies the rules; a shell
// command is first turned into accesses by a finite recogniser over a
// real shell parser ([Recognise]). What the recogniser does not know runs:
// the guard is guidance with teeth for the obvious cases, not isolation
// (docs/guard.md lists what passes it).
//
// # Sessions
//
// A [Session] keeps, per agent session, which warnings were given and
// which ADR files were read, under $GIT_DIR/adr/guard/, so that warn mode
// does not repeat itself and a repeated read of an unchanged record is
// pointed out. It is bookkeeping, not a cap.
package guard
