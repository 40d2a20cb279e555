package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"
)

// facts describe the machine and the software measured.
type facts struct {
	date, cpu, os, goVersion, git, adrTools, rg, gitADR string
	cores                                               int
	// loadStart and loadEnd are the 1-minute load averages before and
	// after the run: other work on the machine shows in the figures.
	loadStart, loadEnd string
}

func gatherFacts(src string) facts {
	f := facts{
		date:      time.Now().UTC().Format("2006-01-02"),
		cpu:       cpuModel(),
		cores:     runtime.NumCPU(),
		os:        osName(),
		goVersion: strings.TrimPrefix(output("", "go", "version"), "go version "),
		git:       strings.TrimPrefix(output("", "git", "--version"), "git version "),
		adrTools:  strings.ReplaceAll(output("", "dpkg-query", "-W", "adr-tools"), "\t", " "),
		rg:        firstLine(output("", "rg", "--version")),
		gitADR:    output(src, "git", "describe", "--always", "--dirty", "--exclude", "*"),
		loadStart: loadAverage(),
	}
	return f
}

// output is a command's trimmed stdout, or "unknown".
func output(dir, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil || len(bytes.TrimSpace(out)) == 0 {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// loadAverage is the 1-minute load average, or "unknown".
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Fields(string(data))[0]
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.Join(strings.Fields(v), " ")
		}
	}
	return runtime.GOARCH
}

func osName() string {
	name := runtime.GOOS
	if data, err := os.ReadFile("/etc/os-release"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(l, "PRETTY_NAME="); ok {
				name = strings.Trim(v, `"`)
			}
		}
	}
	if k, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		name += ", kernel " + strings.TrimSpace(string(k))
	}
	return name
}

// report renders the results.
type report struct {
	opts    options
	facts   facts
	results []*result
}

// row is one line of the comparison table.
type row struct {
	n             int
	name          string
	gitADR, other *result
}

func (rep *report) rows() []row {
	var out []row
	idx := map[[2]any]int{}
	for _, r := range rep.results {
		if r.cmd.tool == toolFloor {
			continue
		}
		key := [2]any{r.n, r.cmd.row}
		i, ok := idx[key]
		if !ok {
			i = len(out)
			idx[key] = i
			out = append(out, row{n: r.n, name: r.cmd.row})
		}
		if r.cmd.tool == toolGitADR {
			out[i].gitADR = r
		} else {
			out[i].other = r
		}
	}
	return out
}

// cell is a result's median, or why there is none.
func (rep *report) cell(r *result) string {
	switch {
	case r == nil:
		return "–"
	case r.err != nil:
		return "failed"
	case r.unavailable:
		return "unavailable"
	case r.skipped != "":
		return "skipped"
	}
	s := formatDuration(r.median())
	if len(r.times) != rep.opts.runs || r.capped {
		s += fmt.Sprintf(" (%d run%s)", len(r.times), map[bool]string{true: "s"}[len(r.times) != 1])
	}
	return s
}

func ratio(a, b *result) string {
	if a == nil || b == nil || len(a.times) == 0 || len(b.times) == 0 {
		return "–"
	}
	x := float64(b.median()) / float64(a.median())
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0f×", x)
	case x >= 10:
		return fmt.Sprintf("%.1f×", x)
	}
	return fmt.Sprintf("%.2f×", x)
}

func formatDuration(d time.Duration) string {
	switch {
	case d >= 100*time.Second:
		return fmt.Sprintf("%.1f min", d.Minutes())
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d >= 10*time.Millisecond:
		return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}

func (rep *report) command(rw row, md bool) string {
	q := func(s string) string {
		if md {
			return "`" + s + "`"
		}
		return s
	}
	s := q(rw.gitADR.cmd.display())
	if rw.other != nil {
		s += " vs " + q(rw.other.cmd.display())
	}
	return s
}

func (rep *report) machine() []string {
	f := rep.facts
	return []string{
		fmt.Sprintf("CPU: %s, %d cores", f.cpu, f.cores),
		"OS: " + f.os,
		"Go: " + f.goVersion,
		"git: " + f.git,
		"adr-tools: " + f.adrTools + " (dpkg-query -W adr-tools)",
		"ripgrep: " + f.rg,
		"git-adr: " + f.gitADR + " (built from the working tree)",
		fmt.Sprintf("load average (1 min): %s before, %s after", f.loadStart, f.loadEnd),
	}
}

func (rep *report) method() string {
	return fmt.Sprintf("Median wall-clock time of %d timed runs per command after one discarded warm-up run "+
		"(warm file cache), each a fresh process started from the repository root as a user would; "+
		"generated adr-tools logs, seed %d; measured %s.", rep.opts.runs, rep.opts.seed, rep.facts.date)
}

// notes explain the empty cells and what check reported.
func (rep *report) notes(md bool) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	q := func(s string) string {
		if md {
			return "`" + s + "`"
		}
		return s
	}
	for _, r := range rep.results {
		switch {
		case r.unavailable:
			add(fmt.Sprintf("%s is unavailable: this git-adr build has no such command yet; re-run the benchmark once it is merged.", q(r.cmd.display())))
		case r.skipped != "" && r.cmd.slow:
			add(fmt.Sprintf("%s was not run above %d records (-slow-runs 0).", q(r.cmd.display()), rep.opts.adrToolsMax))
		case r.capped && r.err == nil:
			add(fmt.Sprintf("%s at %s records ran %d time(s), without a warm-up run, to keep the benchmark short "+
				"(-adr-tools-max %d, -slow-runs %d): it starts about ten processes per record.",
				q(r.cmd.display()), thousands(r.n), len(r.times), rep.opts.adrToolsMax, rep.opts.slowRuns))
		case r.skipped != "":
			add(fmt.Sprintf("%s was skipped: %s.", q(r.cmd.display()), r.skipped))
		case r.cmd.row == "check" && r.err == nil:
			add(fmt.Sprintf("%s at %s records: exit %d, %d lines of findings.", q(r.cmd.display()), thousands(r.n), r.code, r.lines))
		}
	}
	return out
}

// floorRow compares `git adr list` with the cost of starting git-adr and
// with a process that only reads every record.
type floorRow struct {
	n                 int
	startup, rg, list *result
}

func (rep *report) floor() []floorRow {
	var out []floorRow
	at := map[int]int{}
	for _, r := range rep.results {
		if r.cmd.tool != toolFloor && r.cmd.row != "list" {
			continue
		}
		i, ok := at[r.n]
		if !ok {
			i = len(out)
			at[r.n] = i
			out = append(out, floorRow{n: r.n})
		}
		switch {
		case r.cmd.row == "startup":
			out[i].startup = r
		case r.cmd.tool == toolFloor:
			out[i].rg = r
		default:
			out[i].list = r
		}
	}
	return out
}

func (rep *report) text(w io.Writer) {
	for _, l := range rep.machine() {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w, rep.method())
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "records\tcommand\tgit-adr\tadr-tools\tadr-tools / git-adr")
	for _, rw := range rep.rows() {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", rw.n, rep.command(rw, false), rep.cell(rw.gitADR), rep.cell(rw.other), ratio(rw.gitADR, rw.other))
	}
	tw.Flush()
	if fl := rep.floor(); len(fl) > 0 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "records\tgit adr --version\trg reads every record\tgit adr list\tlist / rg")
		for _, f := range fl {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", f.n, rep.cell(f.startup), rep.cell(f.rg), rep.cell(f.list), ratio(f.rg, f.list))
		}
		tw.Flush()
	}
	if notes := rep.notes(false); len(notes) > 0 {
		fmt.Fprintln(w)
		for _, n := range notes {
			fmt.Fprintln(w, "- "+n)
		}
	}
}

func (rep *report) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", rep.method())
	for _, l := range rep.machine() {
		fmt.Fprintf(&b, "- %s\n", l)
	}
	b.WriteString("\n| records | command | git-adr | adr-tools | adr-tools ÷ git-adr |\n|---:|---|---:|---:|---:|\n")
	for _, rw := range rep.rows() {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", thousands(rw.n), rep.command(rw, true), rep.cell(rw.gitADR), rep.cell(rw.other), ratio(rw.gitADR, rw.other))
	}
	if fl := rep.floor(); len(fl) > 0 {
		var startup, rg string
		for _, c := range commands() {
			switch {
			case c.row == "startup":
				startup = c.display()
			case c.tool == toolFloor:
				rg = c.display()
			}
		}
		fmt.Fprintf(&b, "\nThe floor: `%s` starts git-adr through git and reads no record; `%s` is one process that opens and reads every record.\n\n", startup, rg)
		b.WriteString("| records | `git adr --version` | `rg` | `git adr list` | list ÷ rg |\n|---:|---:|---:|---:|---:|\n")
		for _, f := range fl {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", thousands(f.n), rep.cell(f.startup), rep.cell(f.rg), rep.cell(f.list), ratio(f.rg, f.list))
		}
	}
	if notes := rep.notes(true); len(notes) > 0 {
		b.WriteString("\n")
		for _, n := range notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	return b.String()
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// The markers of the generated region in the -out file.
const (
	startMarker = "<!-- bench:start -->"
	endMarker   = "<!-- bench:end -->"
)

// updateRegion replaces the text between the markers of path with body,
// adding the markers at the end when the file has none.
func updateRegion(path, body string) error {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	out, err := replaceRegion(string(data), body)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, []byte(out), 0o644)
}

func replaceRegion(doc, body string) (string, error) {
	region := startMarker + "\n" + strings.TrimRight(body, "\n") + "\n" + endMarker
	i := markerLine(doc, startMarker)
	j := markerLine(doc, endMarker)
	switch {
	case i < 0 && j < 0:
		if doc != "" && !strings.HasSuffix(doc, "\n") {
			doc += "\n"
		}
		if doc != "" {
			doc += "\n"
		}
		return doc + region + "\n", nil
	case i < 0 || j < i:
		return "", fmt.Errorf("%q and %q are not a pair of lines in that order", startMarker, endMarker)
	}
	return doc[:i] + region + doc[j+len(endMarker):], nil
}

// markerLine is the offset of the first line that is exactly marker, or -1;
// a marker quoted inside other text (as the docs do) does not count.
func markerLine(doc, marker string) int {
	for off := 0; off < len(doc); {
		line, _, _ := strings.Cut(doc[off:], "\n")
		if strings.TrimRight(line, "\r") == marker {
			return off
		}
		off += len(line) + 1
	}
	return -1
}
