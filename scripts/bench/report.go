package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
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
	switch {
	case rw.gitADR.cmd.cold:
		s += " (cold: `$GIT_DIR/adr/cache` removed before every run)"
	case rw.gitADR.cmd.edit:
		s += " (after an edit: a line appended to the middle record before every run)"
	}
	if !md {
		s = strings.ReplaceAll(s, "`", "")
	}
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
		"(warm file cache), each a fresh process started from the repository root as a user would, "+
		"with the median CPU time (user plus system) and the peak RSS of git-adr; "+
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
		switch {
		case r.cmd.row == "startup", r.cmd.row == "read every record":
		case r.cmd.row == "list" && r.cmd.tool == toolGitADR:
		default:
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
		case r.cmd.row == "read every record":
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
	fmt.Fprintln(tw, "records\tcommand\tgit-adr\tCPU\tpeak RSS\tadr-tools\tadr-tools / git-adr")
	for _, rw := range rep.rows() {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", rw.n, rep.command(rw, false), rep.cell(rw.gitADR), cpu(rw.gitADR), rss(rw.gitADR), rep.cell(rw.other), ratio(rw.gitADR, rw.other))
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "goal\trecords\tmeasured\ttarget\tmet")
	for _, g := range rep.goals() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", g.name, thousands(g.n), g.measured, g.target, g.met)
	}
	tw.Flush()
	if gr := rep.growth(); len(gr) > 0 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "command\tgrowth exponent")
		for _, g := range gr {
			fmt.Fprintf(tw, "%s\t%s\n", g[0], g[1])
		}
		tw.Flush()
	}
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
	b.WriteString("\n| records | command | git-adr | CPU | peak RSS | adr-tools | adr-tools ÷ git-adr |\n|---:|---|---:|---:|---:|---:|---:|\n")
	for _, rw := range rep.rows() {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", thousands(rw.n), rep.command(rw, true), rep.cell(rw.gitADR), cpu(rw.gitADR), rss(rw.gitADR), rep.cell(rw.other), ratio(rw.gitADR, rw.other))
	}
	b.WriteString("\nThe goals of issue 17, from the figures above (`nav search` against `rg -F` is measured by `scripts/bench-nav`, see benchmarks-nav.md):\n\n")
	b.WriteString("| goal | records | measured | target | met |\n|---|---:|---:|---:|---|\n")
	for _, g := range rep.goals() {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", g.name, thousands(g.n), g.measured, g.target, g.met)
	}
	if gr := rep.growth(); len(gr) > 0 {
		b.WriteString("\nGrowth exponents: the log-log slope of the median from the smallest to the largest log (1 is linear in the number of records, 0 is constant).\n\n| command | growth exponent |\n|---|---:|\n")
		for _, g := range gr {
			fmt.Fprintf(&b, "| `%s` | %s |\n", g[0], g[1])
		}
	}
	if fl := rep.floor(); len(fl) > 0 {
		var startup, rg string
		for _, c := range commands() {
			switch {
			case c.row == "startup":
				startup = c.display()
			case c.row == "read every record":
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

// cpu is the median user plus system CPU time of a result's runs: less
// moved by other work on the machine than the wall-clock time, and above
// it when a command uses several cores.
func cpu(r *result) string {
	if r == nil || len(r.cpu) == 0 {
		return "–"
	}
	return formatDuration(medianOf(r.cpu))
}

// rss is a result's peak RSS in MiB.
func rss(r *result) string {
	if r == nil || r.rss == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f MiB", float64(r.rss)/1024)
}

// find is the result of the command in row for tool at n records.
func (rep *report) find(n int, rowName, tool string) *result {
	for _, r := range rep.results {
		if r.n == n && r.cmd.row == rowName && r.cmd.tool == tool && len(r.times) > 0 {
			return r
		}
	}
	return nil
}

type goal struct {
	name, measured, target, met string
	n                           int
}

// goals are the targets of issue 17, each at the size it names (or the
// largest measured).
func (rep *report) goals() []goal {
	sizes := map[int]bool{}
	largest := 0
	for _, r := range rep.results {
		sizes[r.n] = true
		largest = max(largest, r.n)
	}
	at := func(want int) int {
		if sizes[want] {
			return want
		}
		return largest
	}
	var out []goal
	// times: a is divided by b, at most limit (or at least, with atLeast).
	times := func(name string, n int, a, b *result, limit float64, atLeast bool) {
		g := goal{name: name, n: n, target: fmt.Sprintf("≤ %g×", limit), met: "not measured", measured: "–"}
		if atLeast {
			g.target = fmt.Sprintf("≥ %g×", limit)
		}
		if a != nil && b != nil {
			x := float64(a.median()) / float64(b.median())
			g.measured = fmt.Sprintf("%.2f×", x)
			if x >= 100 {
				g.measured = fmt.Sprintf("%.0f×", x)
			}
			ok := x <= limit
			if atLeast {
				ok = x >= limit
			}
			g.met = map[bool]string{true: "yes", false: "no"}[ok]
		}
		out = append(out, g)
	}
	n := at(10000)
	status := rep.find(n, "git status", toolFloor)
	times("warm `list` ÷ `git status`", n, rep.find(n, "list", toolGitADR), status, 3, false)
	times("warm `context --task` ÷ `git status`", n, rep.find(n, "context --task", toolGitADR), status, 3, false)
	times("cold `context --task` ÷ `git status`", n, rep.find(n, "context --task, cold cache", toolGitADR), status, 10, false)
	// Its floors: the plainest ranking of every record, without and with
	// an index of every word (not goals; what any design pays).
	floorRSS := func(name string, r *result) {
		times(name, n, r, status, 10, false)
		if r != nil && r.rss > 0 {
			out[len(out)-1].measured += " (" + rss(r) + ")"
		}
	}
	floorRSS("plain BM25 of every record, the task's words only, ÷ `git status` (a floor of the row above)", rep.find(n, "plain BM25, task words", toolFloor))
	floorRSS("plain BM25 of every record, every word indexed, ÷ `git status` (the floor of a cold query that keeps an index)", rep.find(n, "plain BM25, every word", toolFloor))
	m := at(1000)
	times("`adr generate toc` ÷ `index`", m, rep.find(m, "index", toolAdrTools), rep.find(m, "index", toolGitADR), 2000, true)
	times("`list` ÷ `adr list`", n, rep.find(n, "list", toolGitADR), rep.find(n, "list", toolAdrTools), 3, false)
	var peak *result
	for _, r := range rep.results {
		if r.n == n && r.cmd.tool == toolGitADR && (peak == nil || r.rss > peak.rss) {
			peak = r
		}
	}
	g := goal{name: "peak RSS of every command", n: n, target: "≤ 64 MiB", met: "not measured", measured: "–"}
	if peak != nil && peak.rss > 0 {
		g.measured = fmt.Sprintf("%s (`%s`)", rss(peak), peak.cmd.display())
		g.met = map[bool]string{true: "yes", false: "no"}[peak.rss <= 64*1024]
	}
	out = append(out, g)
	times("`git adr -h` ÷ `git --version`", n, rep.find(n, "help", toolGitADR), rep.find(n, "git --version", toolFloor), 2, false)
	// The same ratio for a Go program that prints one line: no Go binary
	// started through git does better (the goal's floor, not a goal).
	times("`git floor-hello` ÷ `git --version` (the floor of the row above)", n, rep.find(n, "go hello through git", toolFloor), rep.find(n, "git --version", toolFloor), 2, false)
	return out
}

// growth is the log-log slope of each git-adr command's median from the
// smallest to the largest size.
func (rep *report) growth() [][2]string {
	lo, hi := 0, 0
	for _, r := range rep.results {
		if lo == 0 || r.n < lo {
			lo = r.n
		}
		hi = max(hi, r.n)
	}
	if lo == hi {
		return nil
	}
	var out [][2]string
	for _, c := range commands() {
		a, b := rep.find(lo, c.row, c.tool), rep.find(hi, c.row, c.tool)
		if a == nil || b == nil {
			continue
		}
		k := math.Log(float64(b.median())/float64(a.median())) / math.Log(float64(hi)/float64(lo))
		name := c.display()
		if c.cold {
			name += " (cold cache)"
		}
		if c.edit {
			name += " (after an edit)"
		}
		out = append(out, [2]string{name, fmt.Sprintf("%.2f (%s → %s records)", k, thousands(lo), thousands(hi))})
	}
	return out
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
