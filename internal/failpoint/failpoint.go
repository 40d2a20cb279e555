// Package failpoint marks the places where an interrupted write must be
// recoverable, so that crash tests can stop a real git-adr process exactly
// there. In a normal build nothing is registered and [Hit] does nothing;
// the test binary registers a handler that sends the process SIGKILL at a
// chosen hit (see cmd/git-adr's crash tests).
package failpoint

import "sync/atomic"

var handler atomic.Pointer[func(name string)]

// Hit reports that the named point was reached.
func Hit(name string) {
	if h := handler.Load(); h != nil {
		(*h)(name)
	}
}

// Set registers the handler called at every [Hit]; tests only.
func Set(h func(name string)) { handler.Store(&h) }
