// Package hooks holds the entry points git runs as hooks (pre-commit,
// pre-push, commit-msg, pre-receive): they read what git passes (staged
// changes, pushed ranges, the message file), run the hook a team had
// before git-adr's, and apply the rules of package adr/govern. They are
// adapters only: the policy lives in adr/govern, everything that talks to
// git in gitops, and printing in cmd/git-adr.
package hooks
