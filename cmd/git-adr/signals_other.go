//go:build !unix

package main

import (
	"os"
	"syscall"
)

// fatalSignals end a process by default; each releases the lock first.
var fatalSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// brokenPipeSignals: a closed pipe is a write error here, not a signal.
var brokenPipeSignals []os.Signal

func isBrokenPipe(os.Signal) bool { return false }
