// Command bench-hooks measures git-adr's pre-commit hook on a one-record
// change against `git diff --cached --quiet` (the cheapest thing a
// pre-commit hook can do) on generated logs of 100, 1,000 and 10,000
// records, and reports the medians and their ratio: the hook as git runs
// it (the script `git adr hooks install` writes) and the command typed by
// hand (which also asks git for the hook folder).
//
//	go run ./scripts/bench-hooks [-sizes 100,1000,10000] [-runs 9] [-remind] [-out docs/benchmarks.md]
//
// Each log is a committed adr-tools log with a generated INDEX.md-free
// root; the staged change edits one proposed record (the common case: the
// hook must read only that record and its neighbours). A second row
// stages a new record, which also checks numbers against the root and the
// other branches. Figures are reported, never asserted.
package main

import (
	"bytes"
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
	sizes := flag.String("sizes", "100,1000,10000", "comma-separated log sizes")
	runs := flag.Int("runs", 9, "timed runs per command (one warm-up run is discarded)")
	out := flag.String("out", "", "write the table into `FILE` between <!-- bench-hooks:start --> and <!-- bench-hooks:end --> (bench-hooks-remind with -remind)")
	flag.BoolVar(&remind, "remind", false, "turn on [hooks] remind, give every 100th record `Applies to: src/**`, and also stage an edit of a governed source file")
	flag.Parse()
	bin, err := benchkit.Build("bench-hooks")
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-hooks:", err)
		return 1
	}
	binPath = bin
	os.Setenv("PATH", filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	var ns []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 10 {
			fmt.Fprintf(os.Stderr, "bench-hooks: bad size %q\n", s)
			return 2
		}
		ns = append(ns, n)
	}
	var table strings.Builder
	table.WriteString("| records | staged change | `git diff --cached --quiet` | the installed hook (`.git/hooks/pre-commit`, as git runs it) | ratio | `git adr hook pre-commit` typed by hand | ratio |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, n := range ns {
		dir, err := generate(n)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench-hooks:", err)
			return 1
		}
		cases := []struct {
			name  string
			stage func(string) error
		}{
			{"edit of one proposed record", stageEdit},
			{"one new record", stageNew},
		}
		if remind {
			cases = append(cases, struct {
				name  string
				stage func(string) error
			}{"edit of a governed source file", stageSource})
		}
		for _, c := range cases {
			if err := c.stage(dir); err != nil {
				fmt.Fprintln(os.Stderr, "bench-hooks:", err)
				return 1
			}
			base, err := benchkit.Median(*runs, dir, []int{1}, "git", "diff", "--cached", "--quiet") // exit 1: something is staged
			if err != nil {
				fmt.Fprintln(os.Stderr, "bench-hooks:", err)
				return 1
			}
			// What git runs: the script `git adr hooks install` wrote,
			// which execs git-adr with the hook directory in its
			// environment.
			script, err := benchkit.Median(*runs, dir, nil, filepath.Join(dir, ".git", "hooks", "pre-commit"))
			if err != nil {
				fmt.Fprintln(os.Stderr, "bench-hooks:", err)
				return 1
			}
			hook, err := benchkit.Median(*runs, dir, nil, bin, "hook", "pre-commit")
			if err != nil {
				fmt.Fprintln(os.Stderr, "bench-hooks:", err)
				return 1
			}
			fmt.Fprintf(&table, "| %d | %s | %s | %s | %.1f× | %s | %.1f× |\n", n, c.name, benchkit.MS(base), benchkit.MS(script), float64(script)/float64(base), benchkit.MS(hook), float64(hook)/float64(base))
			if err := benchkit.Git(dir, "reset", "-q", "--hard"); err != nil {
				return 1
			}
			benchkit.Git(dir, "clean", "-fdq")
		}
		os.RemoveAll(dir)
	}
	load := "unknown"
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		load = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	command := "go run ./scripts/bench-hooks"
	if remind {
		command += " -remind"
	}
	note := fmt.Sprintf("Median of %d runs after one discarded warm-up, fresh processes, warm file cache; `%s` on %s, load average %s at the end (other work on the machine inflates both columns).\n",
		*runs, command, time.Now().UTC().Format("2006-01-02"), load)
	result := table.String() + "\n" + note
	fmt.Print(result)
	if *out != "" {
		region := "bench-hooks"
		if remind {
			region = "bench-hooks-remind"
		}
		if err := benchkit.UpdateRegion(*out, region, result); err != nil {
			fmt.Fprintln(os.Stderr, "bench-hooks:", err)
			return 1
		}
	}
	return 0
}

// generate writes and commits n adr-tools records; every tenth is
// proposed, every seventh relates to its predecessor.
func generate(n int) (string, error) {
	dir, err := os.MkdirTemp("", "bench-hooks-")
	if err != nil {
		return "", err
	}
	adr := filepath.Join(dir, "doc", "adr")
	if err := os.MkdirAll(adr, 0o755); err != nil {
		return "", err
	}
	for i := 1; i <= n; i++ {
		status := "Accepted"
		if i%10 == 0 {
			status = "Proposed"
		}
		var b bytes.Buffer
		scoped := ""
		if remind && i%100 == 0 {
			scoped = "Applies to: src/**\n"
		}
		fmt.Fprintf(&b, "# %d. Decision number %d\n\nDate: 2026-01-01\n%s\n## Status\n\n%s\n", i, i, scoped, status)
		if i%7 == 0 && i > 1 {
			fmt.Fprintf(&b, "\nRelates to [%d. Decision number %d](%04d-decision-number-%d.md)\n", i-1, i-1, i-1, i-1)
		}
		fmt.Fprintf(&b, "\n## Context\n\nThe context of decision %d, with a few words about queues, caches and storage.\n\n## Decision\n\nWe decide %d.\n\n## Consequences\n\nSome.\n", i, i)
		if err := os.WriteFile(filepath.Join(adr, fmt.Sprintf("%04d-decision-number-%d.md", i, i)), b.Bytes(), 0o644); err != nil {
			return "", err
		}
	}
	if remind {
		if err := os.WriteFile(filepath.Join(dir, ".adr.toml"), []byte("[hooks]\nremind = true\n"), 0o644); err != nil {
			return "", err
		}
		if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, "src", "pay.go"), []byte("package src\n"), 0o644); err != nil {
			return "", err
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-qm", "log"}} {
		if err := benchkit.Git(dir, args...); err != nil {
			return "", err
		}
	}
	cmd := exec.Command(binPath, "hooks", "install", "--pre-commit")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("git adr hooks install: %v\n%s", err, out)
	}
	return dir, nil
}

// binPath is the git-adr built for the run; its folder leads PATH so the
// installed hook finds it.
var binPath string

// remind runs the hook with [hooks] remind = true (see -remind).
var remind bool

// stageSource stages an edit of src/pay.go, which every hundredth record
// governs with -remind.
func stageSource(dir string) error {
	f, err := os.OpenFile(filepath.Join(dir, "src", "pay.go"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	f.WriteString("// more\n")
	f.Close()
	return benchkit.Git(dir, "add", "-A")
}

func stageEdit(dir string) error {
	p := filepath.Join(dir, "doc", "adr", "0010-decision-number-10.md")
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	f.WriteString("\nMore detail.\n")
	f.Close()
	return benchkit.Git(dir, "add", "-A")
}

func stageNew(dir string) error {
	entries, err := os.ReadDir(filepath.Join(dir, "doc", "adr"))
	if err != nil {
		return err
	}
	n := len(entries) + 1
	p := filepath.Join(dir, "doc", "adr", fmt.Sprintf("%04d-a-new-decision.md", n))
	if err := os.WriteFile(p, []byte(fmt.Sprintf("# %d. A new decision\n\nDate: 2026-01-02\n\n## Status\n\nProposed\n", n)), 0o644); err != nil {
		return err
	}
	return benchkit.Git(dir, "add", "-A")
}
