package main

import (
	"os"
	"syscall"
)

// peakRSS is a finished process's peak resident set size in KiB: on
// Linux the larger of its own and that of its waited-for children, so
// `git adr ...` reports git-adr's.
func peakRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}
