// Package hooks will hold the entry points run by git hooks (pre-commit,
// pre-push) and agent tool hooks; they are adapters only, and the policy they
// apply lives in the adr package. Nothing is implemented here yet: hook
// installation and governance arrive with the hooks issue, and no command
// uses this package today.
package hooks
