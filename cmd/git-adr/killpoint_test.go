package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/git-adr/git-adr/internal/failpoint"
)

// setKillPoint makes the test binary, running as git-adr, kill itself with
// SIGKILL (kill -9: no deferred function, no signal handler runs) at the
// N-th time it reaches the named failpoint, when GIT_ADR_KILL_AT=name:N
// (the name may hold colons: the count follows the last one).
// Only the test binary registers this; a released git-adr has no such
// switch.
func setKillPoint() {
	if spec := os.Getenv("GIT_ADR_PAUSE_AT"); spec != "" {
		setPausePoint(spec)
		return
	}
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

// setPausePoint makes the test binary stop at the N-th time it reaches the
// named failpoint, when GIT_ADR_PAUSE_AT=name:N:FILE: it creates
// FILE.reached, so that a test knows where it stands, and goes on once
// FILE exists (a rendezvous, not a timing: the test creates FILE after
// doing what must happen at that point, such as closing the pipe's
// reader). It gives up after ten minutes so that a broken test cannot
// leave it behind.
func setPausePoint(spec string) {
	parts := strings.SplitN(spec, ":", 3)
	n := 0
	if len(parts) == 3 {
		n, _ = strconv.Atoi(parts[1])
	}
	if n < 1 {
		fmt.Fprintf(os.Stderr, "GIT_ADR_PAUSE_AT=%q: want NAME:N:FILE\n", spec)
		os.Exit(2)
	}
	name, file := parts[0], parts[2]
	hits := 0
	failpoint.Set(func(point string) {
		if point != name {
			return
		}
		if hits++; hits != n {
			return
		}
		os.WriteFile(file+".reached", []byte(strconv.Itoa(os.Getpid())), 0o644)
		for start := time.Now(); time.Since(start) < 10*time.Minute; time.Sleep(10 * time.Millisecond) {
			if _, err := os.Stat(file); err == nil {
				return
			}
		}
	})
}
