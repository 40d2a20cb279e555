//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package gitops

import "os"

// canFlock: without flock a dead owner cannot be told from a live one,
// so a lock left by a crash is cleared with `git adr recover --break-lock`.
const canFlock = false

func flock(*os.File) {}

func flockState(*os.File) (held, free bool) { return false, false }
