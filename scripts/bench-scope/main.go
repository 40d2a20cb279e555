// Command bench-scope measures `git adr context --diff HEAD~1` against `git
// diff --name-only HEAD~1` (what any diff-driven tool starts with) on a
// generated repository: N records, a tenth of them declaring "Applies to:
// src/pkgK/**", and a source tree of N files in 100 packages, with one
// commit that changes five files of three packages.
//
//	go run ./scripts/bench-scope [-sizes 1000,10000] [-runs 7] [-out docs/benchmarks.md]
//
// It checks that the answer leads with exactly the records whose scope the
// diff touches, then reports medians and the ratio, and the median of
// `git adr check` (whose scope rules read every scoped record and the
// history). Figures are reported,
// never asserted.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/git-adr/git-adr/scripts/internal/benchkit"
)

func main() { os.Exit(run()) }

func run() int {
	sizes := flag.String("sizes", "1000,10000", "comma-separated sizes (records and source files)")
	runs := flag.Int("runs", 7, "timed runs per command (one warm-up discarded)")
	out := flag.String("out", "", "write the table into `FILE` between <!-- bench-scope:start --> and <!-- bench-scope:end -->")
	keep := flag.Bool("keep", false, "keep the generated repositories (their paths go to stderr), for profiling")
	flag.Parse()
	bin, err := benchkit.Build("bench-scope")
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-scope:", err)
		return 1
	}
	var table strings.Builder
	table.WriteString("| records | source files | `git diff --name-only HEAD~1` | `git adr context --diff HEAD~1` | ratio | leading records as expected | `git adr check` (a tenth of the records scoped) |\n| ---: | ---: | ---: | ---: | ---: | --- | ---: |\n")
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 100 {
			fmt.Fprintf(os.Stderr, "bench-scope: bad size %q\n", s)
			return 2
		}
		dir, want, err := generate(n)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench-scope:", err)
			return 1
		}
		ok, err := leads(bin, dir, want)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench-scope:", err)
			return 1
		}
		base, err := benchkit.Median(*runs, dir, nil, "git", "diff", "--name-only", "HEAD~1")
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench-scope:", err)
			return 1
		}
		ctx, err := benchkit.Median(*runs, dir, nil, bin, "context", "--diff", "HEAD~1")
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench-scope:", err)
			return 1
		}
		// check's scope rules (unmatched globs, churn) over every scoped
		// record; exit 1 would be a finding that is not a warning.
		check, err := benchkit.Median(*runs, dir, nil, bin, "check")
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench-scope:", err)
			return 1
		}
		fmt.Fprintf(&table, "| %d | %d | %s | %s | %.1f× | %v | %s |\n", n, n, benchkit.MS(base), benchkit.MS(ctx), float64(ctx)/float64(base), ok, benchkit.MS(check))
		if *keep {
			fmt.Fprintf(os.Stderr, "bench-scope: kept %s\n", dir)
		} else {
			os.RemoveAll(dir)
		}
	}
	load := "unknown"
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		load = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	result := table.String() + fmt.Sprintf("\nMedian of %d runs after one discarded warm-up; `go run ./scripts/bench-scope` on %s, load average %s at the end.\n",
		*runs, time.Now().UTC().Format("2006-01-02"), load)
	fmt.Print(result)
	if *out != "" {
		if err := benchkit.UpdateRegion(*out, "bench-scope", result); err != nil {
			fmt.Fprintln(os.Stderr, "bench-scope:", err)
			return 1
		}
	}
	return 0
}

// generate writes the repository and returns the IDs the diff's scope
// selects (records declaring the packages it changes).
func generate(n int) (string, []string, error) {
	dir, err := os.MkdirTemp("", "bench-scope-")
	if err != nil {
		return "", nil, err
	}
	adrDir := filepath.Join(dir, "doc", "adr")
	os.MkdirAll(adrDir, 0o755)
	for i := 1; i <= n; i++ {
		var b bytes.Buffer
		fmt.Fprintf(&b, "# %d. Decision %d\n\nDate: 2026-01-01\n", i, i)
		if i%10 == 0 {
			fmt.Fprintf(&b, "Applies to: src/pkg%d/**\n", (i/10)%100)
		}
		fmt.Fprintf(&b, "\n## Status\n\nAccepted\n\n## Context\n\nWhy decision %d matters for queues and caches.\n\n## Decision\n\nWe decide %d.\n", i, i)
		if err := os.WriteFile(filepath.Join(adrDir, fmt.Sprintf("%05d-decision-%d.md", i, i)), b.Bytes(), 0o644); err != nil {
			return "", nil, err
		}
	}
	for i := 0; i < n; i++ {
		p := filepath.Join(dir, "src", fmt.Sprintf("pkg%d", i%100), fmt.Sprintf("file%d.go", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(fmt.Sprintf("package pkg%d\n\nconst N%d = %d\n", i%100, i, i)), 0o644)
	}
	if err := benchkit.Git(dir, "init", "-q"); err != nil {
		return "", nil, err
	}
	if err := benchkit.Git(dir, "add", "-A"); err != nil {
		return "", nil, err
	}
	if err := benchkit.Git(dir, "commit", "-qm", "base"); err != nil {
		return "", nil, err
	}
	changed := []int{7, 107, 207, 13, 42} // packages 7, 7, 7, 13, 42
	pkgs := map[int]bool{}
	for _, f := range changed {
		pkgs[f%100] = true
		p := filepath.Join(dir, "src", fmt.Sprintf("pkg%d", f%100), fmt.Sprintf("file%d.go", f))
		fh, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return "", nil, err
		}
		fh.WriteString("// changed\n")
		fh.Close()
	}
	if err := benchkit.Git(dir, "commit", "-qam", "change"); err != nil {
		return "", nil, err
	}
	var want []string
	for i := 10; i <= n; i += 10 {
		if pkgs[(i/10)%100] {
			want = append(want, fmt.Sprintf("ADR-%05d", i))
		}
	}
	return dir, want, nil
}

// leads reports whether the answer's leading units are decision units of
// exactly the records whose scope the diff touches (as many as fit).
func leads(bin, dir string, want []string) (bool, error) {
	cmd := exec.Command(bin, "context", "--diff", "HEAD~1", "--json", "--max-units", "8")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return false, fmt.Errorf("context --diff: %v", err)
	}
	var resp struct {
		Units []struct{ ID, Role string } `json:"units"`
	}
	if err := json.Unmarshal(out, &resp); err != nil {
		return false, err
	}
	wanted := map[string]bool{}
	for _, w := range want {
		wanted[w] = true
	}
	got := 0
	for _, u := range resp.Units {
		id, _, _ := strings.Cut(u.ID, "#")
		if !wanted[id] || !strings.HasPrefix(u.Role, "governs ") {
			return false, nil
		}
		got++
	}
	return got == min(len(want), 8), nil
}
