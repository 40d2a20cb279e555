package main

import (
	"os"
	"syscall"

	"golang.org/x/term"
)

// detachUnlessTerminal makes the test binary, running as git-adr, leave
// any controlling terminal when neither its standard input nor its
// standard output is one: a scenario run from a developer's terminal then
// sees what an agent or CI job sees (no terminal to ask on), instead of
// prompting on the developer's screen. Scenarios that drive a terminal run
// git-adr under script(1), whose pty is both, and keep it. Only the test
// binary does this.
func detachUnlessTerminal() {
	if term.IsTerminal(int(os.Stdin.Fd())) || term.IsTerminal(int(os.Stdout.Fd())) {
		return
	}
	syscall.Setsid()
}
