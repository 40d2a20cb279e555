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
// agent's protocol; [GuardCall] does it end to end with the policy
// [LoadPolicy] reads. [Setup] edits the hook into the agent's project
// settings, and [InstallGuard] and [UninstallGuard] write it and undo it
// byte for byte.
//
// # Installing git hooks
//
// [PlanInstall] decides which hooks git-adr installs itself and which a
// hook manager (husky, lefthook, pre-commit) must run; [Install],
// [Uninstall] and [Status] act on git's hooks directory.
//
// They are adapters only: the policy lives in adr/govern and adr/guard,
// everything that talks to git in gitops, and printing in cmd/git-adr.
package hooks
