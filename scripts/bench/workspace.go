package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/git-adr/git-adr/scripts/internal/benchkit"
)

// The workspace mode (-workspace NxM): N generated repositories of M
// records each, served over file:// URLs as remotes, and one workspace
// file naming them all. It prints, from one run: the first `workspace
// sync` beside `git fetch` of the same refs into fresh bare repositories,
// as many at once as sync fetches (git's own floor), `context --task`
// right after the sync, cold and warm, and the time, CPU and peak RSS of
// every workspace command beside `git status` in one repository.

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
	// cpu is the user and system time of the process and of every
	// process it waited for (git's, for git-adr).
	cpu time.Duration
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
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.rss = ru.Maxrss
			r.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
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

// jsonAnswerRow asks the task as MCP's adr_context does (JSON, the
// default budget) and names in the row how many units the answer sent:
// one that sends none fails the row (over 100 repositories the list of
// every repository once took the whole budget; ADR-0050).
func jsonAnswerRow(root string, env []string, wsFile string) wsRow {
	fmt.Fprintf(os.Stderr, "bench: context --task --json (warm)\n")
	var out bytes.Buffer
	r := runOnce(root, env, &out, "git", "adr", "--workspace", wsFile, "context", "--task", benchTask, "--json")
	var ans struct {
		Units   []json.RawMessage `json:"units"`
		Omitted int               `json:"omitted"`
	}
	if r.err == nil {
		if err := json.Unmarshal(out.Bytes(), &ans); err != nil {
			r.err = fmt.Errorf("context --task --json: %v", err)
		} else if len(ans.Units) == 0 {
			r.err = fmt.Errorf("context --task --json sent no unit (%d omitted)", ans.Omitted)
		}
	}
	r.name = fmt.Sprintf("context --task --json (warm, as MCP sends it: %d units sent, %d omitted)", len(ans.Units), ans.Omitted)
	if r.err != nil {
		fmt.Fprintf(os.Stderr, "bench: %s FAILED: %v\n", r.name, r.err)
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
	var toml, trees strings.Builder
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("r%04d", i)
		dir := filepath.Join(src, name)
		if err := WriteLog(filepath.Join(dir, "doc", "adr"), Generate(m, b.opts.seed+uint64(i))); err != nil {
			return err
		}
		if err := b.git(dir, "init", "-q"); err != nil {
			return err
		}
		if b.opts.history > 0 {
			if err := b.codeHistory(dir, b.opts.history, b.opts.seed+uint64(i)); err != nil {
				return err
			}
		}
		// The log alone: the code of -history is in the index, not the
		// work tree.
		for _, args := range [][]string{{"add", "--", "doc"}, {"commit", "-q", "-m", "records"}} {
			if err := b.git(dir, args...); err != nil {
				return err
			}
		}
		fmt.Fprintf(&toml, "[[repo]]\nname = %q\nurl = %q\nref = \"main\"\n\n", name, "file://"+dir)
		fmt.Fprintf(&trees, "[[repo]]\nname = %q\npath = %q\n\n", name, "remotes/"+name)
		if (i+1)%100 == 0 {
			fmt.Fprintf(os.Stderr, "bench: %d repositories\n", i+1)
		}
	}
	if b.opts.history > 0 {
		fmt.Fprintf(os.Stderr, "bench: each repository holds %d commits of code before its log\n", b.opts.history)
	}
	wsFile := filepath.Join(root, "adr-workspace.toml")
	if err := os.WriteFile(wsFile, []byte(toml.String()), 0o644); err != nil {
		return err
	}
	// The same repositories read from their work trees (ADR-0044).
	treesFile := filepath.Join(root, "work-trees.toml")
	if err := os.WriteFile(treesFile, []byte(trees.String()), 0o644); err != nil {
		return err
	}
	env := append(append([]string{}, b.env...), "XDG_CACHE_HOME="+filepath.Join(root, "cache"))
	var rows []wsRow

	gitADRIn := func(file, label string, args ...string) wsRow {
		fmt.Fprintf(os.Stderr, "bench: %s\n", label)
		r := runOnce(root, env, io.Discard, append([]string{"git", "adr", "--workspace", file}, args...)...)
		r.name = label
		if r.err != nil {
			fmt.Fprintf(os.Stderr, "bench: %s FAILED: %v\n", label, r.err)
		}
		rows = append(rows, r)
		return r
	}
	gitADR := func(label string, args ...string) wsRow { return gitADRIn(wsFile, label, args...) }
	// The first sync and git's floor, alternately, firstRounds times:
	// one run of each is at the mercy of what else the machine does.
	// Each round starts from no mirror; the last round's are kept. The
	// order turns each round (git first, then sync first, ...), and the
	// file system is flushed before each run (syscall.Sync): without it
	// the second of a pair ran while the first's writes, and the last
	// round's removals, were being written back.
	var peers, firsts []wsRow
	for k := range firstRounds {
		os.RemoveAll(filepath.Join(root, "fetch"))
		os.RemoveAll(filepath.Join(root, "cache"))
		fetch := func() error {
			fmt.Fprintf(os.Stderr, "bench: git fetch of every repository (round %d of %d)\n", k+1, firstRounds)
			syscall.Sync()
			peer, err := fetchAll(root, src, env, n)
			peers = append(peers, peer)
			return err
		}
		sync := func() {
			fmt.Fprintf(os.Stderr, "bench: workspace sync (first, round %d of %d)\n", k+1, firstRounds)
			syscall.Sync()
			firsts = append(firsts, runOnce(root, env, io.Discard, "git", "adr", "--workspace", wsFile, "workspace", "sync"))
		}
		if k%2 == 1 {
			sync()
		}
		if err := fetch(); err != nil {
			return err
		}
		if k%2 == 0 {
			sync()
		}
	}
	peer, first := medianRow(peers), medianRow(firsts)
	peer.name = fmt.Sprintf("git init --bare + git fetch, %d repositories, %d at once (median of %d)", n, syncJobs, firstRounds)
	first.name = fmt.Sprintf("workspace sync (first, median of %d)", firstRounds)
	if first.err != nil {
		fmt.Fprintf(os.Stderr, "bench: %s FAILED: %v\n", first.name, first.err)
	}
	rows = append(rows, peer, first)
	gitADR("workspace sync (nothing new)", "workspace", "sync")
	// The question right after a sync: the summaries and parse caches
	// are there, the context service's own indexes of the repositories
	// asked are not yet.
	gitADR("context --task (first after sync)", "context", "--task", benchTask)
	// Cold: no parse or term cache in any mirror.
	caches, _ := filepath.Glob(filepath.Join(root, "cache", "git-adr", "workspace", "*", "adr", "cache"))
	for _, c := range caches {
		os.RemoveAll(c)
	}
	gitADR("context --task (cold caches)", "context", "--task", benchTask)
	gitADR("context --task (warm, 1st)", "context", "--task", benchTask)
	gitADR("context --task (warm, 2nd)", "context", "--task", benchTask)
	rows = append(rows, jsonAnswerRow(root, env, wsFile))
	gitADR("list", "list")
	gitADR("list --json", "list", "--json")
	gitADR("show (qualified)", "show", fmt.Sprintf("r%04d:%d", n/2, max(1, m/2)))
	gitADR("graph", "graph")
	gitADR("index", "index")
	gitADR("check", "check")
	gitADR("workspace export", "workspace", "export")
	// Members read from their work trees: the first question makes their
	// parse caches and term summaries, a warm one reads the summaries
	// after a load of each log the parse cache serves (the summary's
	// stamp).
	gitADRIn(treesFile, "context --task, work trees (first)", "context", "--task", benchTask)
	gitADRIn(treesFile, "context --task, work trees (warm, 1st)", "context", "--task", benchTask)
	gitADRIn(treesFile, "context --task, work trees (warm, 2nd)", "context", "--task", benchTask)
	st := runOnce(filepath.Join(src, "r0000"), env, io.Discard, "git", "status")
	st.name = "git status (one repository)"
	rows = append(rows, st)

	// One repository of each -sizes size, in the same run: issue 33's
	// targets name both.
	var single *report
	if b.opts.sizesSet {
		var results []*result
		for _, size := range b.opts.sizes {
			rs, err := b.size(size)
			if err != nil {
				return err
			}
			results = append(results, rs...)
		}
		single = &report{opts: b.opts, facts: f, results: results}
	}

	f.loadEnd = loadAverage()
	md := wsMarkdown(n, m, b.opts, rows, f) + wsTargets(rows, single)
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

// syncJobs is how many repositories `workspace sync` fetches at once
// (workspace.DefaultSyncJobs): git's floor fetches as many at once.
const syncJobs = 4

// firstRounds is how many times the first sync and git's floor are
// measured, alternately.
const firstRounds = 3

// fetchAll is git's floor for a first sync: the same refs fetched into
// fresh bare repositories, one `git init --bare` and one `git fetch` per
// repository, syncJobs repositories at once as sync fetches them. Its
// CPU is the sum over every git process, its peak RSS the largest.
func fetchAll(root, src string, env []string, n int) (wsRow, error) {
	var (
		mu   sync.Mutex
		row  wsRow
		errs []error
		next atomic.Int64
		wg   sync.WaitGroup
	)
	start := time.Now()
	for range syncJobs {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				name := fmt.Sprintf("r%04d", i)
				dst := filepath.Join(root, "fetch", name+".git")
				made := runOnce(root, env, io.Discard, "git", "init", "-q", "--bare", dst)
				fetch := wsRow{err: made.err}
				if made.err == nil {
					fetch = runOnce(dst, env, io.Discard, "git", "fetch", "-q", "--no-tags", "file://"+filepath.Join(src, name), "+main:refs/adr-workspace/main")
				}
				mu.Lock()
				row.cpu += made.cpu + fetch.cpu
				row.rss = max(row.rss, made.rss, fetch.rss)
				if fetch.err != nil {
					errs = append(errs, fetch.err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	row.time = time.Since(start)
	if len(errs) > 0 {
		return row, errs[0]
	}
	return row, nil
}

// medianRow is the run of median time (the upper one of an even count),
// with its own CPU and peak RSS; a failed run fails the row.
func medianRow(runs []wsRow) wsRow {
	sorted := slices.Clone(runs)
	slices.SortStableFunc(sorted, func(a, b wsRow) int { return cmp.Compare(a.time, b.time) })
	r := sorted[len(sorted)/2]
	for _, run := range runs {
		if run.err != nil {
			r.err = run.err
		}
	}
	return r
}

func wsMarkdown(n, m int, o options, rows []wsRow, f facts) string {
	flags := historyFlag(o.history)
	if o.sizesSet {
		sizes := make([]string, len(o.sizes))
		for i, n := range o.sizes {
			sizes[i] = strconv.Itoa(n)
		}
		flags += " -sizes " + strings.Join(sizes, ",")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d repositories × %d records (%s records), one process per command, `go run ./scripts/bench -workspace %dx%d%s`.\n\n", n, m, thousands(n*m), n, m, flags)
	fmt.Fprintf(&b, "- date: %s\n", f.date)
	for _, line := range (&report{facts: f}).machine() {
		fmt.Fprintf(&b, "- %s\n", line)
	}
	b.WriteString("\n| command | time | CPU | peak RSS |\n| --- | ---: | ---: | ---: |\n")
	for _, r := range rows {
		t, cpu, rss := formatDuration(r.time), "-", "-"
		if r.cpu > 0 {
			cpu = formatDuration(r.cpu)
		}
		if r.rss > 0 {
			rss = fmt.Sprintf("%d MiB", (r.rss+1023)/1024)
		}
		if r.err != nil {
			t = "failed"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.name, t, cpu, rss)
	}
	return b.String()
}

// syncSlack is how far past git's own fetch a first sync may take and
// still count as bounded by it: the peer's time moves by more than that
// from one run to the next on this machine (docs/workspace.md).
const syncSlack = 1.1

// wsTargets is the table of issue 33's targets (item 4) from this run:
// the workspace's rows, and with single, one repository's.
func wsTargets(rows []wsRow, single *report) string {
	find := func(prefix string) *wsRow {
		for i := range rows {
			if strings.HasPrefix(rows[i].name, prefix) && rows[i].err == nil {
				return &rows[i]
			}
		}
		return nil
	}
	met := func(ok bool) string { return map[bool]string{true: "yes", false: "no"}[ok] }
	var b strings.Builder
	b.WriteString("\n| target (issue 33) | measured | met |\n| --- | --- | --- |\n")
	if peer, first := find("git init --bare + git fetch"), find("workspace sync (first"); peer != nil && first != nil && peer.time > 0 && peer.cpu > 0 {
		x, c := float64(first.time)/float64(peer.time), float64(first.cpu)/float64(peer.cpu)
		fmt.Fprintf(&b, "| first sync bounded by git's own fetch (≤ %g× its time) | %.2f× its time, %.2f× its CPU | %s |\n", syncSlack, x, c, met(x <= syncSlack))
	}
	warm := []*wsRow{find("context --task (warm, 1st)"), find("context --task (warm, 2nd)")}
	if warm[0] != nil && warm[1] != nil {
		slow := max(warm[0].time, warm[1].time)
		fmt.Fprintf(&b, "| warm `context --task` ≤ 1 s | %s (the slower of two) | %s |\n", formatDuration(slow), met(slow <= time.Second))
	}
	var peak *wsRow
	for i, r := range rows {
		if strings.HasPrefix(r.name, "git ") || r.rss == 0 {
			continue // git's own rows
		}
		if peak == nil || r.rss > peak.rss {
			peak = &rows[i]
		}
	}
	if peak != nil {
		fmt.Fprintf(&b, "| every workspace command's peak RSS ≤ 256 MiB | %d MiB (%s) | %s |\n", (peak.rss+1023)/1024, peak.name, met(peak.rss <= 256*1024))
	}
	if single != nil {
		for _, g := range single.goals() {
			if strings.HasPrefix(g.name, "cold `context --task` ÷") || g.name == "peak RSS of every command" {
				fmt.Fprintf(&b, "| one repository of %s records: %s %s | %s | %s |\n", thousands(g.n), g.name, g.target, g.measured, g.met)
			}
		}
	} else {
		b.WriteString("| one repository of 10,000 records: cold `context --task` ≤ 10× `git status`, peak RSS ≤ 64 MiB | not measured (add `-sizes 10000`) | – |\n")
	}
	return b.String()
}

func historyFlag(history int) string {
	if history == 0 {
		return ""
	}
	return fmt.Sprintf(" -history %d", history)
}

// codeHistory gives the new repository at dir n commits of code on its
// branch (git fast-import: three Go files of 60 lines changed a commit,
// among 200 in 20 folders, so that history outgrows the tip's tree as
// it does in a real repository), and puts the last one's tree in the index, so
// that the log's commit keeps the code: what a workspace's first sync
// fetches from a real repository is mostly history and code, not its
// log.
func (b *bench) codeHistory(dir string, n int, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 7))
	var stream bytes.Buffer
	var body strings.Builder
	for c := range n {
		fmt.Fprintf(&stream, "commit refs/heads/main\ncommitter Bench <bench@example.com> %d +0000\n", 1600000000+c*600)
		msg := fmt.Sprintf("change %d", c)
		fmt.Fprintf(&stream, "data %d\n%s\n", len(msg), msg)
		for range 3 {
			body.Reset()
			body.WriteString("package code\n")
			for range 60 {
				fmt.Fprintf(&body, "// %d %d\n", c, rng.Uint64())
			}
			fmt.Fprintf(&stream, "M 100644 inline src/m%d/f%d.go\ndata %d\n%s\n", rng.IntN(20), rng.IntN(10), body.Len(), body.String())
		}
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Env, cmd.Stdin = dir, b.env, &stream
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git fast-import in %s: %v: %s", dir, err, out)
	}
	return b.git(dir, "read-tree", "main")
}
