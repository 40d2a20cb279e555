//go:build unix

package gitops

import (
	"errors"
	"syscall"
)

// processGone reports whether no process has this PID (signal 0 checks
// existence without sending anything; EPERM means it exists).
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
