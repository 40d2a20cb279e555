package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// ttyPath is the controlling terminal. It is a constant: no
// flag, variable or file changes where a person's answer is read from.
const ttyPath = "/dev/tty"

// terminal is the controlling terminal of the process: where a person
// answers an acceptance question. Standard input is never read for it, so
// a program that pipes "a" or "y" into git-adr (an agent, a script)
// answers nothing; without a controlling terminal there is no answer, and
// no answer is never approval.
type terminal struct {
	f *os.File
	r *bufio.Reader
}

// openTerminal opens the controlling terminal; ok is false when the
// process has none.
func openTerminal() (*terminal, bool) {
	f, err := os.OpenFile(ttyPath, os.O_RDWR, 0)
	if err != nil {
		return nil, false
	}
	if !term.IsTerminal(int(f.Fd())) {
		f.Close()
		return nil, false
	}
	return &terminal{f: f, r: bufio.NewReader(f)}, true
}

// Write prints on the terminal.
func (t *terminal) Write(p []byte) (int, error) { return t.f.Write(p) }

// line reads one answer; ok is false at the end of input (the terminal
// closed), which is no answer.
func (t *terminal) line() (string, bool) {
	s, err := t.r.ReadString('\n')
	if err != nil && s == "" {
		return "", false
	}
	return strings.TrimRight(s, "\r\n"), true
}

// yes asks a yes/no question; anything but yes is no.
func (t *terminal) yes(question string) bool {
	fmt.Fprintf(t, "%s [y/N] ", question)
	s, ok := t.line()
	a := strings.ToLower(strings.TrimSpace(s))
	return ok && (a == "y" || a == "yes")
}

// paragraph reads lines up to an empty one.
func (t *terminal) paragraph() string {
	var lines []string
	for {
		l, ok := t.line()
		if !ok || l == "" {
			break
		}
		lines = append(lines, l)
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

func (t *terminal) Close() error { return t.f.Close() }

var _ io.Writer = (*terminal)(nil)
