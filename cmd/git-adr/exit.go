package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// Exit codes. They are documented in docs/commands.md and never renumbered.
const (
	ExitOK       = 0 // success; for check: no findings
	ExitFailure  = 1 // the command failed, or check found problems
	ExitUsage    = 2 // bad flags, arguments or input; nothing was changed
	ExitAwaiting = 3 // an approval is needed and no terminal could give it
	ExitConflict = 4 // a concurrent change won a race (a ref or file changed); retry
)

// cmdError carries an exit code and hints to Main, the one place that
// prints errors.
type cmdError struct {
	code  int
	err   error
	hints []string
}

func (e *cmdError) Error() string { return e.err.Error() }
func (e *cmdError) Unwrap() error { return e.err }

// usagef is a usage error (exit 2): a bad flag, argument or value.
func usagef(format string, args ...any) *cmdError {
	return &cmdError{code: ExitUsage, err: fmt.Errorf(format, args...)}
}

// failf is a failure (exit 1).
func failf(format string, args ...any) *cmdError {
	return &cmdError{code: ExitFailure, err: fmt.Errorf(format, args...)}
}

// withCode wraps err with an exit code.
func withCode(code int, err error) *cmdError {
	var ce *cmdError
	if errors.As(err, &ce) {
		return &cmdError{code: code, err: ce.err, hints: ce.hints}
	}
	return &cmdError{code: code, err: err}
}

// hint adds "hint:" lines naming the next command to run.
func (e *cmdError) hint(lines ...string) *cmdError {
	e.hints = append(e.hints, lines...)
	return e
}

// silentExit ends the command with a code and no message (check prints its
// own findings and exits 1).
type silentExit int

func (s silentExit) Error() string { return fmt.Sprintf("exit %d", int(s)) }

// report prints err the one way git-adr prints errors and returns the exit
// code.
func report(w io.Writer, err error) int {
	var se silentExit
	if errors.As(err, &se) {
		return int(se)
	}
	code := ExitFailure
	var hints []string
	var ce *cmdError
	if errors.As(err, &ce) {
		code, hints = ce.code, ce.hints
	}
	// Messages and hints may name records, paths and titles: escaped.
	msg := err.Error()
	fmt.Fprintf(w, "git-adr: error: %s\n", adr.EscapeBody(strings.TrimSpace(msg)))
	for _, h := range hints {
		fmt.Fprintf(w, "hint: %s\n", adr.EscapeBody(h))
	}
	return code
}
