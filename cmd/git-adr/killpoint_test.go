package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/git-adr/git-adr/internal/failpoint"
)

// setKillPoint makes the test binary, running as git-adr, kill itself with
// SIGKILL (kill -9: no deferred function, no signal handler runs) at the
// N-th time it reaches the named failpoint, when GIT_ADR_KILL_AT=name:N
// (the name may hold colons: the count follows the last one).
// Only the test binary registers this; a released git-adr has no such
// switch.
func setKillPoint() {
	spec := os.Getenv("GIT_ADR_KILL_AT")
	if spec == "" {
		return
	}
	i := strings.LastIndexByte(spec, ':')
	name, nth := spec[:max(i, 0)], spec[i+1:]
	n, err := strconv.Atoi(nth)
	if err != nil || n < 1 || name == "" {
		fmt.Fprintf(os.Stderr, "GIT_ADR_KILL_AT=%q: want NAME:N\n", spec)
		os.Exit(2)
	}
	hits := 0
	failpoint.Set(func(point string) {
		if point != name {
			return
		}
		if hits++; hits == n {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is on its way
		}
	})
}
