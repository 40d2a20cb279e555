package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/git-adr/git-adr/scripts/internal/benchkit"
)

// The workspace mode (-workspace NxM): N generated repositories of M
// records each, served over file:// URLs as remotes, and one workspace
// file naming them all. It prints, from one run: the first `workspace
// sync` beside `git fetch` of the same refs into fresh bare repositories
// (git's own floor), a cold and a warm `context --task`, and the peak RSS
// of every workspace command beside `git status` in one repository.

// parseWorkspace reads "NxM".
func parseWorkspace(s string) (n, m int, err error) {
	a, b, ok := strings.Cut(s, "x")
	if ok {
		n, err = strconv.Atoi(a)
		if err == nil {
			m, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || n < 1 || m < 1 {
		return 0, 0, fmt.Errorf("-workspace %q: want REPOSxRECORDS, for example 50x100", s)
	}
	return n, m, nil
}

// wsRow is one measured command.
type wsRow struct {
	name string
	time time.Duration
	// rss is the peak resident set in KiB (0: not measured).
	rss int64
	err error
}

// runOnce runs argv in dir with env and returns the wall time and the
// peak RSS of the process (getrusage of the child: Maxrss in KiB).
func runOnce(dir string, env []string, stdout io.Writer, argv ...string) wsRow {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := wsRow{name: strings.Join(argv, " "), time: time.Since(start)}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && cmd.ProcessState != nil {
		r.rss = ru.Maxrss
	}
	if err != nil {
		var ee *exec.ExitError
		// check exits 1 when it finds something: that is a result.
		if !(errorsAs(err, &ee) && ee.ExitCode() == 1 && argv[len(argv)-1] == "check") {
			r.err = fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
		}
	}
	return r
}

func errorsAs(err error, ee **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	if ok {
		*ee = e
	}
	return ok
}

func (b *bench) workspace(n, m int) error {
	f := gatherFacts(b.opts.src) // the load average before the run
	root := filepath.Join(b.dir, "ws")
	src := filepath.Join(root, "remotes")
	fmt.Fprintf(os.Stderr, "bench: generating %d repositories of %d records\n", n, m)
	var toml strings.Builder
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("r%04d", i)
		dir := filepath.Join(src, name)
		if err := WriteLog(filepath.Join(dir, "doc", "adr"), Generate(m, b.opts.seed+uint64(i))); err != nil {
			return err
		}
		for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "records"}} {
			if err := b.git(dir, args...); err != nil {
				return err
			}
		}
		fmt.Fprintf(&toml, "[[repo]]\nname = %q\nurl = %q\nref = \"main\"\n\n", name, "file://"+dir)
		if (i+1)%100 == 0 {
			fmt.Fprintf(os.Stderr, "bench: %d repositories\n", i+1)
		}
	}
	wsFile := filepath.Join(root, "adr-workspace.toml")
	if err := os.WriteFile(wsFile, []byte(toml.String()), 0o644); err != nil {
		return err
	}
	env := append(append([]string{}, b.env...), "XDG_CACHE_HOME="+filepath.Join(root, "cache"))
	var rows []wsRow

	// git's floor: the same refs fetched into fresh bare repositories,
	// one git process per repository as sync runs them.
	fmt.Fprintln(os.Stderr, "bench: git fetch of every repository")
	start := time.Now()
	var peak int64
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("r%04d", i)
		dst := filepath.Join(root, "fetch", name+".git")
		if r := runOnce(root, env, io.Discard, "git", "init", "-q", "--bare", dst); r.err != nil {
			return r.err
		}
		r := runOnce(dst, env, io.Discard, "git", "fetch", "-q", "--no-tags", "file://"+filepath.Join(src, name), "+main:refs/adr-workspace/main")
		if r.err != nil {
			return r.err
		}
		peak = max(peak, r.rss)
	}
	rows = append(rows, wsRow{name: fmt.Sprintf("git init --bare + git fetch, %d repositories", n), time: time.Since(start), rss: peak})

	gitADR := func(label string, args ...string) wsRow {
		fmt.Fprintf(os.Stderr, "bench: %s\n", label)
		r := runOnce(root, env, io.Discard, append([]string{"git", "adr", "--workspace", wsFile}, args...)...)
		r.name = label
		if r.err != nil {
			fmt.Fprintf(os.Stderr, "bench: %s FAILED: %v\n", label, r.err)
		}
		rows = append(rows, r)
		return r
	}
	gitADR("workspace sync (first)", "workspace", "sync")
	gitADR("workspace sync (nothing new)", "workspace", "sync")
	// Cold: no parse or term cache in any mirror.
	caches, _ := filepath.Glob(filepath.Join(root, "cache", "git-adr", "workspace", "*", "adr", "cache"))
	for _, c := range caches {
		os.RemoveAll(c)
	}
	gitADR("context --task (cold caches)", "context", "--task", benchTask)
	gitADR("context --task (warm, 1st)", "context", "--task", benchTask)
	gitADR("context --task (warm, 2nd)", "context", "--task", benchTask)
	gitADR("list", "list")
	gitADR("list --json", "list", "--json")
	gitADR("show (qualified)", "show", fmt.Sprintf("r%04d:%d", n/2, max(1, m/2)))
	gitADR("graph", "graph")
	gitADR("index", "index")
	gitADR("check", "check")
	gitADR("workspace export", "workspace", "export")
	st := runOnce(filepath.Join(src, "r0000"), env, io.Discard, "git", "status")
	st.name = "git status (one repository)"
	rows = append(rows, st)

	f.loadEnd = loadAverage()
	md := wsMarkdown(n, m, rows, f)
	fmt.Println()
	fmt.Print(md)
	if b.opts.out != "" {
		if err := benchkit.UpdateRegion(b.opts.out, "workspace-bench", md); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "bench: wrote the figures into %s\n", b.opts.out)
	}
	for _, r := range rows {
		if r.err != nil {
			return fmt.Errorf("%s failed", r.name)
		}
	}
	return nil
}

func wsMarkdown(n, m int, rows []wsRow, f facts) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d repositories × %d records (%s records), one process per command, `go run ./scripts/bench -workspace %dx%d`.\n\n", n, m, thousands(n*m), n, m)
	fmt.Fprintf(&b, "- date: %s\n", f.date)
	for _, line := range (&report{facts: f}).machine() {
		fmt.Fprintf(&b, "- %s\n", line)
	}
	b.WriteString("\n| command | time | peak RSS |\n| --- | ---: | ---: |\n")
	for _, r := range rows {
		t, rss := formatDuration(r.time), "-"
		if r.rss > 0 {
			rss = fmt.Sprintf("%d MiB", (r.rss+1023)/1024)
		}
		if r.err != nil {
			t = "failed"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", r.name, t, rss)
	}
	return b.String()
}
