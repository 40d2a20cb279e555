//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package gitops

import (
	"errors"
	"os"
	"syscall"
)

// canFlock: lock owners on this platform hold their lock file's flock.
const canFlock = true

// flock takes f's exclusive flock, waiting for a reader that holds it for
// a moment (see flockState).
func flock(f *os.File) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			return
		}
	}
}

// flockState tries f's flock without waiting: held means another open
// file holds it (its owner runs); free means this process now holds it
// (until f is closed). Neither means the file system does not say.
func flockState(f *os.File) (held, free bool) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return false, true
		case errors.Is(err, syscall.EWOULDBLOCK):
			return true, false
		case errors.Is(err, syscall.EINTR):
			continue
		}
		return false, false
	}
}
