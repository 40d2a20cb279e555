// Package workflow carries a compaction plan through its life, as `git
// adr compaction` and its subcommands ask: it makes or continues the plan
// of a drafting run and reserves its numbers ([Start], [Reserve]), turns
// a drafter's candidate into the candidate commit and a reviewed plan
// revision ([Process]), puts a proposal on a branch for pull-request
// review ([Publish]), cancels a plan ([Cancel]) and says where every plan
// stands ([Statuses]).
//
// It returns values and errors and never prints, asks or exits: the
// command shows what it returns, asks a person, and picks the exit code.
// It sits above [compaction] (plans, proposals, validation and reviews)
// and [accept] (the acceptance service), which imports [compaction]:
// the status of a plan includes where its acceptance stands, so this
// layer cannot live in [compaction] itself.
package workflow
