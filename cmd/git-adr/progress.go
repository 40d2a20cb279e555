package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"
)

// progressMin is the number of items from which a terminal sees progress.
const progressMin = 500

// isTerminal reports whether w is a terminal. A variable, so that a test
// can stand in for a terminal.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalProgress reports long work on w ("git-adr: WHAT 1200/10000")
// when w is a terminal, at most ten times a second, for more than
// progressMin items; done erases the line. Elsewhere (a pipe, a file, CI)
// both do nothing, so output that is read by programs never changes.
func terminalProgress(w io.Writer, what string) (progress func(done, total int), done func()) {
	if !isTerminal(w) {
		return nil, func() {}
	}
	var last time.Time
	width := 0
	progress = func(n, total int) {
		if total <= progressMin || n < total && time.Since(last) < 100*time.Millisecond {
			return
		}
		last = time.Now()
		s := fmt.Sprintf("git-adr: %s %d/%d", what, n, total)
		width = max(width, len(s))
		fmt.Fprintf(w, "\r%s", s)
	}
	done = func() {
		if width > 0 {
			fmt.Fprintf(w, "\r%s\r", strings.Repeat(" ", width))
		}
	}
	return progress, done
}
