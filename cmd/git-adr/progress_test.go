package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestTerminalProgress: on a terminal (faked here) long work shows one
// line, rewritten in place, that ends at the total and is erased; short
// work and anything that is not a terminal see nothing.
func TestTerminalProgress(t *testing.T) {
	real := isTerminal
	defer func() { isTerminal = real }()
	run := func(terminal bool, total int) string {
		var b bytes.Buffer
		isTerminal = func(w io.Writer) bool { return terminal && w == &b }
		progress, done := terminalProgress(&b, "indexing records")
		if progress != nil {
			for i := 1; i <= total; i++ {
				progress(i, total)
			}
		}
		done()
		return b.String()
	}
	got := run(true, 1200)
	if !strings.HasPrefix(got, "\rgit-adr: indexing records 1/1200") {
		t.Errorf("the first report is %q", got[:min(len(got), 40)])
	}
	line := "git-adr: indexing records 1200/1200"
	if want := "\r" + line + "\r" + strings.Repeat(" ", len(line)) + "\r"; !strings.HasSuffix(got, want) {
		t.Errorf("progress ends %q, want %q", got[max(0, len(got)-len(want)):], want)
	}
	if got := run(true, progressMin); got != "" {
		t.Errorf("%d items on a terminal printed %q", progressMin, got)
	}
	if got := run(false, 1200); got != "" {
		t.Errorf("not a terminal, printed %q", got)
	}
}
