package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The tools a command belongs to.
const (
	toolGitADR   = "git-adr"
	toolAdrTools = "adr-tools"
	toolFloor    = "floor"
)

// newTitle is the title both tools' `new` is timed with.
const newTitle = "Benchmark decision"

// command is one timed command line.
type command struct {
	// row is the table row the command belongs to; a git-adr command and
	// the adr-tools command it is compared with share a row.
	row  string
	tool string
	args []string
	// writes means the repository is reset after every run.
	writes bool
	// slow commands take minutes on large logs: above -adr-tools-max
	// records they run -slow-runs times without a warm-up run.
	slow bool
	// cold commands run with git-adr's caches removed ($GIT_DIR/adr/cache)
	// before every run, outside the timed region.
	cold bool
	// edit commands run after the middle record was changed (a line
	// appended) before every run, outside the timed region: a command
	// after an edit, which finds one record the cache does not know. The
	// record is restored after the row.
	edit bool
	// rss measures the peak RSS of a command that is not git-adr's (the
	// floors a git-adr figure is compared with).
	rss bool
	// okCodes are the exit codes that mean success (0 unless set).
	okCodes []int
	// verify checks the first run's effect, so that a timing is never of
	// a command that did nothing.
	verify func(n int, dir string, stdout []byte) error
}

func (c command) display() string {
	args := c.args
	if c.tool == toolGitADR {
		args = append([]string{"git"}, args...)
	}
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if strings.ContainsAny(a, " ^#") {
			q[i] = "'" + a + "'"
		}
	}
	return strings.Join(q, " ")
}

// benchTask is the request `context --task` is timed with.
const benchTask = "replace MySQL with PostgreSQL for order storage"

// midID stands for the number of the log's middle record in arguments.
const midID = "{mid}"

// commands lists what is timed, in table order.
func commands() []command {
	return []command{
		{row: "new", tool: toolGitADR, args: []string{"adr", "new", newTitle}, writes: true, verify: verifyNew},
		{row: "new", tool: toolAdrTools, args: []string{"adr", "new", newTitle}, writes: true, verify: verifyNew},
		{row: "list", tool: toolGitADR, args: []string{"adr", "list"}, verify: verifyLines("")},
		{row: "list", tool: toolAdrTools, args: []string{"adr", "list"}, verify: verifyLines("doc/adr/")},
		{row: "list after an edit", tool: toolGitADR, args: []string{"adr", "list"}, edit: true, verify: verifyLines("")},
		{row: "list, cold cache", tool: toolGitADR, args: []string{"adr", "list"}, cold: true, verify: verifyLines("")},
		{row: "list --json", tool: toolGitADR, args: []string{"adr", "list", "--json"}, verify: verifyJSON},
		{row: "show", tool: toolGitADR, args: []string{"adr", "show", midID}, verify: verifyNonEmpty},
		{row: "context --task", tool: toolGitADR, args: []string{"adr", "context", "--task", benchTask}, verify: verifyNonEmpty},
		// The question an agent asks right after editing a record: the
		// stored task index no longer matches and is rebuilt.
		{row: "context --task after an edit", tool: toolGitADR, args: []string{"adr", "context", "--task", benchTask}, edit: true, verify: verifyNonEmpty},
		{row: "context --task, cold cache", tool: toolGitADR, args: []string{"adr", "context", "--task", benchTask}, cold: true, verify: verifyNonEmpty},
		{row: "index", tool: toolGitADR, args: []string{"adr", "index"}, writes: true, verify: verifyIndex},
		{row: "index", tool: toolAdrTools, args: []string{"adr", "generate", "toc"}, slow: true, verify: verifyLines("* [")},
		{row: "check", tool: toolGitADR, args: []string{"adr", "check"}, okCodes: []int{0, 1}},
		{row: "graph", tool: toolGitADR, args: []string{"adr", "graph"}, verify: verifyNonEmpty},
		{row: "compaction", tool: toolGitADR, args: []string{"adr", "compaction"}, verify: verifyNonEmpty},
		{row: "explain", tool: toolGitADR, args: []string{"adr", "explain", "doc/adr"}, verify: verifyNonEmpty},
		{row: "export json", tool: toolGitADR, args: []string{"adr", "export", "json"}, verify: verifyExport},
		{row: "help", tool: toolGitADR, args: []string{"adr", "-h"}, verify: verifyNonEmpty},
		// The floor: starting git-adr through git without reading the log,
		// one fast process that opens and reads every record, and what
		// git itself takes to start and to compare the work tree with the
		// index.
		{row: "startup", tool: toolFloor, args: []string{"git", "adr", "--version"}},
		{row: "read every record", tool: toolFloor, args: []string{"rg", "--count", "^## Status", "doc/adr"}, verify: verifyLines("")},
		{row: "git --version", tool: toolFloor, args: []string{"git", "--version"}},
		// Any Go program started through git: the floor of `git adr -h`.
		{row: "go hello through git", tool: toolFloor, args: []string{"git", "floor-hello"}, verify: verifyNonEmpty},
		{row: "git status", tool: toolFloor, args: []string{"git", "status"}},
		// The floor of a cold `context --task`: the plainest BM25 ranking
		// of every record, counting only the task's words, and indexing
		// every word first (scripts/bench/plainbm25).
		{row: "plain BM25, task words", tool: toolFloor, args: []string{"git", "plain-bm25", "-task-words", "doc/adr", benchTask}, rss: true, verify: verifyNonEmpty},
		{row: "plain BM25, every word", tool: toolFloor, args: []string{"git", "plain-bm25", "doc/adr", benchTask}, rss: true, verify: verifyNonEmpty},
	}
}

func verifyNonEmpty(_ int, _ string, stdout []byte) error {
	if len(bytes.TrimSpace(stdout)) == 0 {
		return errors.New("no output")
	}
	return nil
}

// result is the measurement of one command at one size.
type result struct {
	n   int
	cmd command
	// times are the timed runs (the warm-up run excluded), and cpu their
	// user plus system CPU time (of git and the git-adr it waits for).
	times, cpu []time.Duration
	// skipped or unavailable explain a missing measurement.
	skipped     string
	unavailable bool
	// capped is a slow command run -slow-runs times without warm-up.
	capped bool
	err    error
	// lines and code are the warm-up run's stdout line count and exit
	// code, for notes (check's findings).
	lines, code int
	// rss is the peak resident set size of one more, untimed run, in
	// KiB (see measureRSS).
	rss int64
}

func (r *result) label() string {
	return fmt.Sprintf("%s at %d records", r.cmd.display(), r.n)
}

func (r *result) median() time.Duration { return medianOf(r.times) }

func medianOf(times []time.Duration) time.Duration {
	if len(times) == 0 {
		return 0
	}
	t := slices.Clone(times)
	slices.Sort(t)
	if len(t)%2 == 1 {
		return t[len(t)/2]
	}
	return (t[len(t)/2-1] + t[len(t)/2]) / 2
}

// size generates the log of n records and times every command on it.
func (b *bench) size(n int) ([]*result, error) {
	fmt.Fprintf(os.Stderr, "bench: generating %d records\n", n)
	master, err := b.makeRepo(n)
	if err != nil {
		return nil, err
	}
	dirs := map[string]string{toolFloor: master}
	for _, tool := range []string{toolGitADR, toolAdrTools} {
		if dirs[tool], err = b.copyRepo(master, tool); err != nil {
			return nil, err
		}
	}
	// The parse cache trusts no stat data of a file changed less than two
	// seconds before (git's racily clean rule), and a copy changes every
	// file: without this wait the first warm rows read and hashed every
	// record again in some runs and not in others (a warm list 87 ms in
	// one run, 49 ms in the next).
	time.Sleep(2100 * time.Millisecond)
	var out []*result
	for _, c := range commands() {
		r := &result{n: n, cmd: c}
		out = append(out, r)
		switch {
		case c.tool == toolAdrTools && !b.adrTools:
			r.skipped = "adr-tools not installed"
			continue
		case c.slow && n > b.opts.adrToolsMax && b.opts.slowRuns == 0:
			r.skipped = fmt.Sprintf("not run above %d records (-adr-tools-max, -slow-runs 0)", b.opts.adrToolsMax)
			continue
		case c.tool == toolFloor:
			if _, err := exec.LookPath(c.args[0]); err != nil {
				r.skipped = c.args[0] + " not installed"
				continue
			}
		}
		b.measure(r, dirs[c.tool])
		switch {
		case r.unavailable:
			fmt.Fprintf(os.Stderr, "bench: %-36s %6d records: unavailable in this binary\n", c.display(), n)
		case r.err != nil:
			fmt.Fprintf(os.Stderr, "bench: %-36s %6d records: FAILED: %v\n", c.display(), n, r.err)
		default:
			fmt.Fprintf(os.Stderr, "bench: %-36s %6d records: %s (median of %d)\n", c.display(), n, formatDuration(r.median()), len(r.times))
		}
		// Later sizes would fail the same way; the error is reported once
		// per size, which is enough to see whether it depends on size.
	}
	return out, nil
}

// measure runs the warm-up run, then timed runs until -runs are done or
// the time budget is spent with at least 3 runs. A slow command above
// -adr-tools-max runs -slow-runs times with no warm-up run: its files are
// in the cache already, written by the copy moments before.
func (b *bench) measure(r *result, dir string) {
	var spent time.Duration
	first, last := 0, b.opts.runs
	if r.cmd.slow && r.n > b.opts.adrToolsMax {
		r.capped = true
		first, last = 1, b.opts.slowRuns
	}
	if r.cmd.edit {
		restore, err := editMiddle(dir, r.n)
		if err != nil {
			r.err = err
			return
		}
		defer func() {
			if err := restore(); err != nil && r.err == nil {
				r.err = err
			}
		}()
	}
	for i := first; i <= last; i++ {
		if r.cmd.edit {
			if err := appendEdit(dir, r.n); err != nil {
				r.err = err
				return
			}
		}
		if r.cmd.cold {
			if err := os.RemoveAll(filepath.Join(dir, ".git", "adr", "cache")); err != nil {
				r.err = err
				return
			}
		}
		d, code, stdout, cpu, err := b.once(r.cmd, r.n, dir, nil)
		if err != nil {
			if i == 0 && r.cmd.tool == toolGitADR && isUnknownCommand(err) {
				r.unavailable = true
			} else {
				r.err = err
			}
			return
		}
		if i == first {
			r.lines, r.code = bytes.Count(stdout, []byte("\n")), code
			if r.cmd.verify != nil {
				if err := r.cmd.verify(r.n, dir, stdout); err != nil {
					r.err = fmt.Errorf("%s did not do its work: %w", r.cmd.display(), err)
					return
				}
			}
		}
		if i > 0 {
			r.times = append(r.times, d)
			r.cpu = append(r.cpu, cpu)
			spent += d
		}
		if r.cmd.writes {
			if err := b.reset(dir); err != nil {
				r.err = err
				return
			}
			if i == first {
				if err := b.clean(dir); err != nil {
					r.err = err
					return
				}
			}
		}
		if i >= 3 && spent > b.opts.budget {
			break
		}
	}
	if r.cmd.tool == toolGitADR || r.cmd.rss {
		b.measureRSS(r, dir)
	}
}

// middleRecord is the path of the log's middle record in dir.
func middleRecord(dir string, n int) (string, error) {
	m, err := filepath.Glob(filepath.Join(dir, "doc", "adr", fmt.Sprintf("%04d-*.md", max(1, n/2))))
	if err != nil || len(m) != 1 {
		return "", fmt.Errorf("the middle record %d of %s: %d files match (%v)", max(1, n/2), dir, len(m), err)
	}
	return m[0], nil
}

// editMiddle keeps the middle record's bytes and returns what puts them
// back.
func editMiddle(dir string, n int) (restore func() error, err error) {
	p, err := middleRecord(dir, n)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return func() error { return os.WriteFile(p, data, 0o644) }, nil
}

// appendEdit appends a line to the middle record, as an edit would.
func appendEdit(dir string, n int) error {
	p, err := middleRecord(dir, n)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString("\nEdited before a timed run.\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// measureRSS runs a git-adr command once more, untimed, under
// /usr/bin/time, for its peak resident set size: the kernel charges a
// child started by vfork (as Go starts processes) with its parent's peak
// until it calls exec, so a child's own rusage would report the
// benchmark's memory, not git-adr's. Without /usr/bin/time nothing is
// reported.
func (b *bench) measureRSS(r *result, dir string) {
	timeBin, err := exec.LookPath("/usr/bin/time")
	if err != nil {
		return
	}
	f, err := os.CreateTemp(b.dir, "rss-*")
	if err != nil {
		return
	}
	f.Close()
	defer os.Remove(f.Name())
	if r.cmd.cold {
		if os.RemoveAll(filepath.Join(dir, ".git", "adr", "cache")) != nil {
			return
		}
	}
	if r.cmd.edit && appendEdit(dir, r.n) != nil {
		return
	}
	if _, _, _, _, err := b.once(r.cmd, r.n, dir, []string{timeBin, "-f", "%M", "-o", f.Name()}); err != nil {
		return
	}
	if r.cmd.writes && b.reset(dir) != nil {
		return
	}
	data, err := os.ReadFile(f.Name())
	if err != nil {
		return
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if kb, err := strconv.ParseInt(strings.TrimSpace(lines[len(lines)-1]), 10, 64); err == nil {
		r.rss = kb
	}
}

// runError is a command that exited with an unexpected code.
type runError struct {
	code   int
	stderr string
}

func (e *runError) Error() string {
	return fmt.Sprintf("exit status %d: %s", e.code, strings.TrimSpace(e.stderr))
}

func isUnknownCommand(err error) bool {
	var re *runError
	return errors.As(err, &re) && re.code == 2 && strings.Contains(re.stderr, "unknown command")
}

// once runs the command in dir, behind the wrapper command line when
// there is one, and times it from start to exit; it also returns the exit
// code, stdout and the CPU time used.
func (b *bench) once(c command, n int, dir string, wrapper []string) (time.Duration, int, []byte, time.Duration, error) {
	var stdout, stderr bytes.Buffer
	args := slices.Clone(c.args)
	for i, a := range args {
		if a == midID {
			args[i] = strconv.Itoa(max(1, n/2))
		}
	}
	if c.tool == toolGitADR {
		args = append([]string{"git"}, args...)
	}
	args = append(slices.Clone(wrapper), args...)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, b.env
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return 0, 0, nil, 0, err
		}
		code = ee.ExitCode()
	}
	ok := c.okCodes
	if ok == nil {
		ok = []int{0}
	}
	if !slices.Contains(ok, code) {
		return 0, code, nil, 0, &runError{code: code, stderr: stderr.String()}
	}
	return d, code, stdout.Bytes(), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}

func verifyNew(n int, dir string, _ []byte) error {
	want := filepath.Join(dir, "doc", "adr", fmt.Sprintf("%04d-%s.md", n+1, Slug(newTitle)))
	data, err := os.ReadFile(want)
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(data, []byte(fmt.Sprintf("# %d. %s\n", n+1, newTitle))) {
		return fmt.Errorf("%s does not start with its title", want)
	}
	return nil
}

// verifyLines wants one output line per record (starting with prefix).
func verifyLines(prefix string) func(int, string, []byte) error {
	return func(n int, _ string, stdout []byte) error {
		got := 0
		for _, l := range strings.Split(string(stdout), "\n") {
			if l != "" && strings.HasPrefix(l, prefix) {
				got++
			}
		}
		if got != n {
			return fmt.Errorf("%d lines, want %d", got, n)
		}
		return nil
	}
}

func verifyJSON(n int, _ string, stdout []byte) error {
	var recs []json.RawMessage
	if err := json.Unmarshal(stdout, &recs); err != nil {
		return err
	}
	if len(recs) != n {
		return fmt.Errorf("%d records in JSON, want %d", len(recs), n)
	}
	return nil
}

// verifyExport: a JSON-ADR bulk export of every record.
func verifyExport(n int, _ string, stdout []byte) error {
	var doc struct {
		ADRs []json.RawMessage `json:"adrs"`
	}
	if err := json.Unmarshal(stdout, &doc); err != nil {
		return err
	}
	if len(doc.ADRs) != n {
		return fmt.Errorf("%d records exported, want %d", len(doc.ADRs), n)
	}
	return nil
}

func verifyIndex(n int, dir string, _ []byte) error {
	data, err := os.ReadFile(filepath.Join(dir, "doc", "adr", "INDEX.md"))
	if err != nil {
		return err
	}
	if !bytes.Contains(data, []byte(fmt.Sprintf("%04d-", n))) {
		return fmt.Errorf("INDEX.md does not list record %d", n)
	}
	return nil
}
