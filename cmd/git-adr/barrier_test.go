package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/git-adr/git-adr/internal/failpoint"
)

// setBarrier makes the test binary, running as git-adr, wait at a
// failpoint until N processes have reached it, when
// GIT_ADR_BARRIER=NAME:DIR:N: each process that reaches NAME leaves a file
// in DIR and goes on once DIR holds N files. Race tests start N processes
// and so meet them at the moment they race for, whatever the machine's
// load: by a failpoint, not by timing. Only the test binary registers
// this; GIT_ADR_KILL_AT takes precedence.
func setBarrier() {
	spec := os.Getenv("GIT_ADR_BARRIER")
	if spec == "" || os.Getenv("GIT_ADR_KILL_AT") != "" {
		return
	}
	parts := strings.SplitN(spec, ":", 3)
	n := 0
	if len(parts) == 3 {
		n, _ = strconv.Atoi(parts[2])
	}
	if n < 1 {
		fmt.Fprintf(os.Stderr, "GIT_ADR_BARRIER=%q: want NAME:DIR:N\n", spec)
		os.Exit(2)
	}
	name, dir := parts[0], parts[1]
	failpoint.Set(func(point string) {
		if point != name {
			return
		}
		if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(os.Getpid())), nil, 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "barrier: %v\n", err)
			os.Exit(2)
		}
		// A bound only against a test that never starts N processes.
		for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if ents, err := os.ReadDir(dir); err == nil && len(ents) >= n {
				return
			}
		}
		fmt.Fprintf(os.Stderr, "barrier %s: fewer than %d processes came in 5 minutes\n", name, n)
		os.Exit(2)
	})
}
