// Command bench measures git-adr against adr-tools on generated decision
// logs of 100, 1,000 and 10,000 records and reports the medians.
//
//	go run ./scripts/bench [-sizes 100,1000,10000] [-runs N] [-out docs/benchmarks.md]
//	go run ./scripts/bench -workspace 1000x100 [-out docs/workspace.md]
//
// It builds git-adr from the source tree, puts it first on PATH so that
// `git adr` runs it, generates one committed adr-tools log per size (see
// [Generate]) and times each command as a user runs it: a fresh process,
// warm file cache, the first run discarded. Figures are reported, never
// asserted; docs/benchmarks.md explains how to read them.
package main

import (
	"errors"
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

func main() { os.Exit(Main()) }

type options struct {
	sizes       []int
	runs        int
	out         string
	src         string
	seed        uint64
	adrToolsMax int
	slowRuns    int
	budget      time.Duration
	keep        bool
	// workspace is -workspace NxM (workspace.go); "" for the log sizes.
	workspace string
	// history is -history: commits of code each generated workspace
	// repository holds before its log (workspace.go).
	history int
	// sizesSet: -sizes was given (with -workspace, one repository of each
	// size is measured in the same run too).
	sizesSet bool
}

// Main runs the benchmark with the process arguments and returns the exit
// code: 0 when every command ran, 1 when one failed, 2 for bad flags.
func Main() int {
	o, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: error: %v\n", err)
		return 2
	}
	if err := run(o); err != nil {
		fmt.Fprintf(os.Stderr, "bench: error: %v\n", err)
		return 1
	}
	return 0
}

func parseFlags(args []string) (options, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var o options
	sizes := fs.String("sizes", "100,1000,10000", "comma-separated log sizes (records)")
	fs.IntVar(&o.runs, "runs", 5, "timed runs per command (one more warm-up run is discarded)")
	fs.StringVar(&o.out, "out", "", "write the Markdown table into `FILE` between <!-- bench:start --> and <!-- bench:end -->")
	fs.StringVar(&o.src, "src", ".", "build git-adr from the source tree in `DIR`")
	fs.Uint64Var(&o.seed, "seed", 1, "generator seed")
	fs.IntVar(&o.adrToolsMax, "adr-tools-max", 1000, "above this many records, run `adr generate toc` only -slow-runs times, without warm-up")
	fs.IntVar(&o.slowRuns, "slow-runs", 1, "timed runs of `adr generate toc` above -adr-tools-max records (0 skips it)")
	fs.DurationVar(&o.budget, "budget", time.Minute, "stop timing one command after this long, once 3 runs are done")
	fs.StringVar(&o.workspace, "workspace", "", "measure a workspace of `NxM`: N repositories of M records (workspace sync, context, peak RSS of every workspace command); with -sizes, one repository of each size as well, and issue 33's targets from both")
	fs.IntVar(&o.history, "history", 0, "with -workspace, give each generated repository `N` commits of code (three of 200 files changed each) before its log, as real repositories have")
	fs.BoolVar(&o.keep, "keep", false, "keep the temporary directory (binary and repositories) and print its path")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	fs.Visit(func(f *flag.Flag) { o.sizesSet = o.sizesSet || f.Name == "sizes" })
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return o, fmt.Errorf("-sizes: %q is not a positive number", s)
		}
		o.sizes = append(o.sizes, n)
	}
	if o.runs < 1 {
		return o, fmt.Errorf("-runs %d: need at least 1", o.runs)
	}
	if o.history < 0 {
		return o, fmt.Errorf("-history %d: need 0 or more", o.history)
	}
	if o.slowRuns < 0 {
		return o, fmt.Errorf("-slow-runs %d: need 0 or more", o.slowRuns)
	}
	return o, nil
}

func run(o options) error {
	tmp, err := os.MkdirTemp("", "git-adr-bench-")
	if err != nil {
		return err
	}
	if o.keep {
		fmt.Fprintf(os.Stderr, "bench: keeping %s\n", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	b, err := newBench(tmp, o)
	if err != nil {
		return err
	}
	if o.workspace != "" {
		n, m, err := parseWorkspace(o.workspace)
		if err != nil {
			return err
		}
		return b.workspace(n, m)
	}
	facts := gatherFacts(o.src)
	var results []*result
	for _, n := range o.sizes {
		rs, err := b.size(n)
		if err != nil {
			return err
		}
		results = append(results, rs...)
	}
	facts.loadEnd = loadAverage()
	rep := &report{opts: o, facts: facts, results: results}
	fmt.Println()
	rep.text(os.Stdout)
	var failed []string
	for _, r := range results {
		if r.err != nil {
			failed = append(failed, r.label())
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("failed: %s; %s left unchanged", strings.Join(failed, ", "), orNone(o.out))
	}
	if o.out != "" {
		if err := benchkit.UpdateRegion(o.out, "bench", rep.markdown()); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "bench: wrote the figures into %s\n", o.out)
	}
	return nil
}

func orNone(out string) string {
	if out == "" {
		return "no file"
	}
	return out
}

// bench holds the built binary and the environment every command runs in.
type bench struct {
	dir  string
	opts options
	env  []string
	// adrTools is false when adr-tools is not installed.
	adrTools bool
}

func newBench(tmp string, o options) (*bench, error) {
	bin := filepath.Join(tmp, "bin")
	home := filepath.Join(tmp, "home")
	for _, d := range []string{bin, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	fmt.Fprintf(os.Stderr, "bench: building git-adr from %s\n", o.src)
	build := benchkit.BuildCommand(o.src, filepath.Join(bin, "git-adr"))
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return nil, fmt.Errorf("go build ./cmd/git-adr in %s: %w", o.src, err)
	}
	// The floor of `git adr -h`: a Go program that prints one line, built
	// as git-adr is and started through git as `git floor-hello`.
	if err := buildFloorHello(tmp, filepath.Join(bin, "git-floor-hello")); err != nil {
		return nil, fmt.Errorf("build the floor program: %w", err)
	}
	// The floor of a cold `context --task`: the plainest ranking of every
	// record (plainbm25), built from this bench's own tree whatever -src
	// names, and started through git as git-adr is.
	plain := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(bin, "git-plain-bm25"), "./scripts/bench/plainbm25")
	plain.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := plain.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("build scripts/bench/plainbm25: %v: %s", err, out)
	}
	gitconfig := filepath.Join(home, ".gitconfig")
	// No automatic gc or maintenance: a gc that git starts in the
	// background after a large commit would race the repository copies
	// and the timings. makeRepo packs each repository once instead.
	cfg := "[user]\n\tname = Bench\n\temail = bench@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n" +
		"[gc]\n\tauto = 0\n[maintenance]\n\tauto = false\n"
	if err := os.WriteFile(gitconfig, []byte(cfg), 0o644); err != nil {
		return nil, err
	}
	// A small, fixed environment: no user or system git config, no
	// terminal, no editor, a fixed date for new records, the C locale for
	// adr-tools' sort and tr.
	env := []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + gitconfig,
		"GIT_CEILING_DIRECTORIES=" + tmp,
		"GIT_AUTHOR_DATE=2026-01-15T10:00:00Z",
		"GIT_COMMITTER_DATE=2026-01-15T10:00:00Z",
		"TZ=UTC",
		"LC_ALL=C",
		"NO_COLOR=1",
		"TERM=dumb",
		"VISUAL=true",
		"EDITOR=true",
		"ADR_DATE=2026-01-15",
	}
	if t := os.Getenv("TMPDIR"); t != "" {
		env = append(env, "TMPDIR="+t)
	}
	_, err := exec.LookPath("adr")
	b := &bench{dir: tmp, opts: o, env: env, adrTools: err == nil}
	if !b.adrTools {
		fmt.Fprintln(os.Stderr, "bench: adr-tools is not installed (apt-get install -y adr-tools); its columns stay empty")
	}
	// `git adr` must resolve to the binary just built.
	which := exec.Command("git", "adr", "--version")
	which.Env = env
	if out, err := which.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("git adr --version with the built binary first on PATH: %v: %s", err, out)
	}
	return b, nil
}

// floorHello is the smallest Go command: what any Go binary run through
// git pays before it does anything.
const floorHello = "package main\n\nimport \"os\"\n\nfunc main() { os.Stdout.WriteString(\"hello\\n\") }\n"

// buildFloorHello builds floorHello into out, as git-adr is built
// (benchkit.BuildCommand's flags).
func buildFloorHello(tmp, out string) error {
	src := filepath.Join(tmp, "floor-hello")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte(floorHello), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(src, "go.mod"), []byte("module floorhello\n\ngo 1.22\n"), 0o644); err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v: %s", err, b)
	}
	return nil
}

// makeRepo generates a log of n records, commits it, packs the repository
// as a long-lived one would be, and returns its directory.
func (b *bench) makeRepo(n int) (string, error) {
	dir := filepath.Join(b.dir, "repos", strconv.Itoa(n), "master")
	if err := WriteLog(filepath.Join(dir, "doc", "adr"), Generate(n, b.opts.seed)); err != nil {
		return "", err
	}
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "-A"},
		{"commit", "-q", "-m", fmt.Sprintf("%d generated decision records (seed %d)", n, b.opts.seed)},
		{"gc", "-q"},
	} {
		if err := b.git(dir, args...); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// copyRepo copies the generated repository, so that each tool writes into
// its own copy of the same records.
func (b *bench) copyRepo(src, name string) (string, error) {
	dst := filepath.Join(filepath.Dir(src), name)
	out, err := exec.Command("cp", "-a", src, dst).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("cp -a %s %s: %v: %s", src, dst, err, out)
	}
	return dst, nil
}

func (b *bench) git(dir string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, b.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("git %s in %s: %v: %s", strings.Join(args, " "), dir, err, out)
	}
	return nil
}

// reset puts a repository back to its commit: the state every run of a
// writing command starts from. It runs outside the timed region.
func (b *bench) reset(dir string) error {
	if err := b.git(dir, "checkout", "-q", "--", "."); err != nil {
		return err
	}
	return b.git(dir, "clean", "-fdq")
}

// clean fails when a repository differs from its commit.
func (b *bench) clean(dir string) error {
	cmd := exec.Command("git", "status", "--porcelain")
	cmd.Dir, cmd.Env = dir, b.env
	out, err := cmd.Output()
	if err != nil {
		return err
	}
	if len(out) > 0 {
		return errors.New("not clean after reset: " + strings.TrimSpace(string(out)))
	}
	return nil
}
