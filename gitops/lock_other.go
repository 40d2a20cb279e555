//go:build !unix

package gitops

// processGone cannot tell on this platform: an owner is never presumed
// dead, so a lock left by a crash is cleared with `git adr recover
// --break-lock`.
func processGone(int) bool { return false }
