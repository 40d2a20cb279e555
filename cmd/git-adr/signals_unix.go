//go:build unix

package main

import (
	"os"
	"syscall"
)

// fatalSignals end a process by default; each releases the lock first
// (releaseOnSignal). SIGKILL and SIGSTOP cannot be caught: a holder killed
// by them is taken over by the next write (see gitops.Repo.Lock).
var fatalSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGALRM, syscall.SIGXCPU, syscall.SIGXFSZ, syscall.SIGVTALRM}

// brokenPipeSignals are caught while the lock is held so that a write to
// a closed pipe fails instead of killing the process.
var brokenPipeSignals = []os.Signal{syscall.SIGPIPE}

func isBrokenPipe(sig os.Signal) bool { return sig == syscall.SIGPIPE }
