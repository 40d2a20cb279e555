// Package hooks holds the entry points git and coding agents run as
// hooks.
//
// # Git hooks
//
// pre-commit, pre-push, commit-msg and pre-receive read what git passes
// (staged changes, pushed ranges, the message file), run the hook a team
// had before git-adr's, and apply the rules of package adr/govern:
// [PreCommit] (with [FixIndexes]), [PrePush], [PreReceive] and
// [UnlinkedRecords] return what they found, and cmd/git-adr prints it and
// picks the exit code.
//
// # Agent hooks
//
// [Decode] turns one tool call, as Claude Code, Codex CLI, git-adr's
// OpenCode plugin or the generic JSON form sends it, into a
// [guard.Request]; [Encode] answers the read guard's decision in that
// agent's protocol; [Setup] installs and removes the hook in the agent's
// project settings.
//
// They are adapters only: the policy lives in adr/govern and adr/guard,
// everything that talks to git in gitops, and printing in cmd/git-adr.
package hooks
