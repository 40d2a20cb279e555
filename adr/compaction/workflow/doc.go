// Package workflow carries a compaction plan through its life, as `git
// adr compaction` and its subcommands ask: it sets up the drafter a run
// uses ([NewDrafter]), makes or continues the plan of a drafting run and
// reserves its numbers ([Start], [Reserve]), turns a drafter's candidate
// or a manual draft ([ReadSubmission]) into the candidate commit and a
// reviewed plan revision ([Process]), records a person's requested changes
// ([RequestChanges]), reads the stored review ([LoadReview]), puts a
// proposal on a branch for pull-request review ([Publish]), says what Save
// drafts only writes ([SaveDrafts]), cancels a plan ([Cancel]) and says
// where every plan stands ([Statuses]).
//
// It returns values and errors and never prints, asks or exits: the
// command shows what it returns, asks a person on the terminal, writes
// receipts and picks the exit code ([*Error] is a step that cannot be
// taken, [*UsageError] a request that cannot be done as asked). It sits
// above [compaction] (plans, proposals, validation and reviews) and
// [accept] (the acceptance service), which imports [compaction]: the
// status of a plan includes where its acceptance stands, and cancelling
// one drops what acceptance would, so this layer cannot live in
// [compaction] itself.
package workflow
