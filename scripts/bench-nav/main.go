// Command bench-nav compares `git adr nav search` with `rg -F` and
// `git grep -F` on a copy of Go's own source tree, and prints the median
// wall time of each and their ratios. It is a benchmark to report, not a
// test: see docs/benchmarks-nav.md.
//
//	go run ./scripts/bench-nav [-runs 7] [-src $(go env GOROOT)/src] [-work DIR] [-bin PATH]
//
// The tree is copied into a temporary git repository (committed, so git
// grep sees every file). Each command is run once to warm the page cache,
// then -runs times; every run is a new process, as a person or an agent
// runs it. Match counts are printed beside the times: on the scopes that
// fit within nav's scan limits all three tools must agree.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/git-adr/git-adr/scripts/internal/benchkit"
)

type benchCase struct {
	name     string
	path     string // below the tree root; "." for all of it
	pattern  string
	ignoreCs bool
	note     string
}

var cases = []benchCase{
	{name: "net/http, 115 files, 2.5 MB", path: "net/http", pattern: "func (c *Client)"},
	{name: "net/http, ignoring case", path: "net/http", pattern: "maxheaderbytes", ignoreCs: true},
	{name: "encoding, 167 files, 3.2 MB", path: "encoding", pattern: "func (d *decodeState)"},
	{name: "cmd/compile/internal/ssa, 215 files, 13 MB", path: "cmd/compile/internal/ssa", pattern: "func rewriteValueAMD64_OpAMD64CMPQ"},
	{name: "whole tree, 11,478 files, 157 MB", path: ".", pattern: "unicode.MaxRune",
		note: "nav stops at its scan limits (1,000 files or 16 MiB) and says so; rg and git grep read everything"},
}

type tool struct {
	name string
	argv func(c benchCase) []string
}

func main() {
	runs := flag.Int("runs", 7, "timed runs per command")
	src := flag.String("src", filepath.Join(runtime.GOROOT(), "src"), "tree to copy")
	work := flag.String("work", "", "reuse (or create) the repository copy in `DIR` instead of a temporary one")
	bin := flag.String("bin", "", "git-adr binary (default: built from this module)")
	flag.Parse()
	if err := run(*runs, *src, *work, *bin); err != nil {
		fmt.Fprintln(os.Stderr, "bench-nav:", err)
		os.Exit(1)
	}
}

func run(runs int, src, work, bin string) error {
	tmp, err := os.MkdirTemp("", "bench-nav-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if bin == "" {
		bin = filepath.Join(tmp, "git-adr")
		fmt.Fprintln(os.Stderr, "building git-adr ...")
		if out, err := benchkit.BuildCommand(".", bin).CombinedOutput(); err != nil {
			return fmt.Errorf("go build: %v\n%s", err, out)
		}
	}
	if work == "" {
		work = filepath.Join(tmp, "src")
	}
	if err := prepare(src, work); err != nil {
		return err
	}
	tools := []tool{
		{"git adr nav search", func(c benchCase) []string {
			a := []string{bin, "nav", "search", "--path", c.path}
			if !c.ignoreCs {
				a = append(a, "--case-sensitive")
			}
			return append(a, "--", c.pattern)
		}},
		{"rg -F", func(c benchCase) []string {
			a := []string{"rg", "--no-config", "-F", "-n", "--no-heading"}
			if c.ignoreCs {
				a = append(a, "-i")
			}
			return append(a, "--", c.pattern, c.path)
		}},
		{"git grep -F", func(c benchCase) []string {
			a := []string{"git", "grep", "-F", "-n"}
			if c.ignoreCs {
				a = append(a, "-i")
			}
			return append(a, "-e", c.pattern, "--", c.path)
		}},
	}
	fmt.Printf("bench-nav: %s, %s/%s, %d CPUs, %d runs per command (median wall time, new process each run)\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runs)
	fmt.Printf("tree: %s (copied to a git repository)\n", src)
	for _, t := range tools[1:] {
		fmt.Printf("%s: %s\n", t.name, version(t.argv(benchCase{})[0]))
	}
	fmt.Println()
	fmt.Printf("| case | tool | median | matches | nav ÷ tool |\n|---|---|---:|---:|---:|\n")
	for _, c := range cases {
		var navMedian time.Duration
		for i, t := range tools {
			argv := t.argv(c)
			med, matches, err := measure(work, argv, runs)
			if err != nil {
				return fmt.Errorf("%s: %v", strings.Join(argv, " "), err)
			}
			ratio := "—"
			if i == 0 {
				navMedian = med
			} else {
				ratio = fmt.Sprintf("%.2f", float64(navMedian)/float64(med))
			}
			fmt.Printf("| %s `%s` | %s | %s | %d | %s |\n", c.name, c.pattern, t.name, ms(med), matches, ratio)
		}
		if c.note != "" {
			fmt.Printf("| | *%s* | | | |\n", c.note)
		}
	}
	return nil
}

// prepare copies src into work and commits it, unless work already holds
// a repository.
func prepare(src, work string) error {
	if _, err := os.Stat(filepath.Join(work, ".git")); err == nil {
		return nil
	}
	fmt.Fprintf(os.Stderr, "copying %s to %s and committing it ...\n", src, work)
	if err := os.MkdirAll(filepath.Dir(work), 0o755); err != nil {
		return err
	}
	steps := [][]string{
		{"cp", "-R", src, work},
		{"git", "-C", work, "init", "-q"},
		{"git", "-C", work, "add", "-A"},
		{"git", "-C", work, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "-c", "commit.gpgsign=false", "commit", "-qm", "tree"},
	}
	for _, s := range steps {
		if out, err := exec.Command(s[0], s[1:]...).CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v\n%s", strings.Join(s, " "), err, out)
		}
	}
	return nil
}

// measure runs argv in dir once to warm up, then n times, and returns the
// median wall time and the number of output lines (matches).
func measure(dir string, argv []string, n int) (time.Duration, int, error) {
	var times []time.Duration
	matches := 0
	for i := 0; i <= n; i++ {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout = &out
		start := time.Now()
		err := cmd.Run()
		d := time.Since(start)
		// rg and git grep exit 1 when nothing matched.
		if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1) {
			return 0, 0, err
		}
		matches = bytes.Count(out.Bytes(), []byte{'\n'})
		if i > 0 {
			times = append(times, d)
		}
	}
	slices.Sort(times)
	return times[len(times)/2], matches, nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func version(prog string) string {
	out, err := exec.Command(prog, "--version").Output()
	if err != nil {
		return "unknown version"
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return line
}
