// Command bench-budget measures `git adr budget` over generated agent
// transcripts of 10 to 10,000 tool calls and prints Markdown figures: the
// transcript's size, what the plan compacts and keeps, the size of the
// outbound request, the library's planning time and the wall time of the
// real binary (a new process per run, as an agent harness runs it), and
// whether two applies are byte-identical. It is a benchmark to report, not
// a test: see docs/budget.md.
//
//	go run ./scripts/bench-budget [-calls 10,100,1000,10000] [-runs 5] [-budget-share 0.5] [-out docs/budget.md]
//	go run ./scripts/bench-budget -gen 100 > transcript.json   # just write one transcript
//
// Transcripts are generated from a fixed seed (byte-identical on every
// run), in OpenAI chat format: one system prompt, a few earlier exchanges,
// then the newest exchange with N tool calls in groups of one to three
// parallel calls: reads of a set of files (each file read several times,
// so keep-latest-read has work), shell commands with long output, some
// failed calls and denials.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/git-adr/git-adr/navigate/budget"
	"github.com/git-adr/git-adr/scripts/internal/benchkit"
)

func main() {
	sizes := flag.String("calls", "10,100,1000,10000", "comma-separated numbers of tool calls")
	runs := flag.Int("runs", 5, "timed runs per size")
	share := flag.Float64("budget-share", 0.5, "the budget as a share of the transcript's tokens")
	out := flag.String("out", "", "write the figures into `FILE` between <!-- bench-budget:start --> and <!-- bench-budget:end -->")
	bin := flag.String("bin", "", "git-adr binary (default: built from this module)")
	gen := flag.Int("gen", 0, "only print a transcript of `N` tool calls and exit")
	flag.Parse()
	if *gen > 0 {
		os.Stdout.Write(generate(*gen))
		return
	}
	if err := run(*sizes, *runs, *share, *out, *bin); err != nil {
		fmt.Fprintln(os.Stderr, "bench-budget:", err)
		os.Exit(1)
	}
}

// generate writes a transcript with n tool calls (seeded: the same bytes
// every time).
func generate(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 69))
	var msgs []any
	add := func(m map[string]any) { msgs = append(msgs, m) }
	add(map[string]any{"role": "system", "content": "You are a coding agent working in a Go repository. Navigate before editing; read a file again before editing it."})
	for i := range 3 {
		add(map[string]any{"role": "user", "content": fmt.Sprintf("Earlier task %d: explain package %d.", i, i)})
		add(map[string]any{"role": "assistant", "content": strings.Repeat(fmt.Sprintf("Package %d does its work in a few files. ", i), 20)})
	}
	add(map[string]any{"role": "user", "content": "Fix the failing tests in the orders service and keep the public API unchanged."})
	files := min(24, max(4, n/8))
	id := 0
	for made := 0; made < n; {
		k := min(n-made, 1+r.IntN(3))
		var calls, results []map[string]any
		for range k {
			id++
			cid := fmt.Sprintf("call_%06d", id)
			var name string
			var args map[string]any
			var out string
			switch x := r.IntN(10); {
			case x < 5:
				name = "read_file"
				path := fmt.Sprintf("internal/orders/file%03d.go", r.IntN(files))
				args = map[string]any{"path": path}
				if r.IntN(3) == 0 {
					args["start_line"] = 1 + r.IntN(200)
				}
				out = source(r, path, 20+r.IntN(120))
			case x < 8:
				name = "run_shell"
				args = map[string]any{"command": fmt.Sprintf("go test ./internal/orders/... -run Test%d", r.IntN(500)), "timeout_ms": 120000}
				out = testOutput(r, 10+r.IntN(80))
			case x < 9:
				name = "run_shell"
				args = map[string]any{"command": "rm -rf build/"}
				out = "Error: permission denied by the owner: destructive commands need approval"
			default:
				name = "search"
				args = map[string]any{"pattern": fmt.Sprintf("func Handle%d", r.IntN(100)), "glob": "*.go"}
				out = testOutput(r, 5+r.IntN(20))
			}
			a, _ := json.Marshal(args)
			calls = append(calls, map[string]any{"id": cid, "type": "function", "function": map[string]any{"name": name, "arguments": string(a)}})
			results = append(results, map[string]any{"role": "tool", "tool_call_id": cid, "content": out})
		}
		add(map[string]any{"role": "assistant", "content": nil, "tool_calls": calls})
		for _, res := range results {
			add(res)
		}
		made += k
	}
	data, err := json.Marshal(map[string]any{"model": "gpt-5", "messages": msgs, "tools": tools()})
	if err != nil {
		panic(err)
	}
	return append(data, '\n')
}

func source(r *rand.Rand, path string, lines int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// %s\npackage orders\n\n", path)
	for i := range lines {
		fmt.Fprintf(&b, "func helper%d_%d(o *Order) error { return validate(o, %d) }\n", i, r.IntN(1000), r.IntN(100))
	}
	return b.String()
}

func testOutput(r *rand.Rand, lines int) string {
	var b strings.Builder
	for i := range lines {
		if r.IntN(7) == 0 {
			fmt.Fprintf(&b, "--- FAIL: TestOrder%d (0.%02ds)\n    orders_test.go:%d: got %d, want %d\n", i, r.IntN(100), r.IntN(400), r.IntN(9), r.IntN(9))
			continue
		}
		fmt.Fprintf(&b, "=== RUN   TestOrder%d\n--- PASS: TestOrder%d (0.%02ds)\n", i, i, r.IntN(100))
	}
	return b.String()
}

func tools() []any {
	var ts []any
	for _, n := range []string{"read_file", "run_shell", "search", "edit_file"} {
		ts = append(ts, map[string]any{"type": "function", "function": map[string]any{"name": n, "description": "The " + n + " tool.",
			"parameters": map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}}}})
	}
	return ts
}

type row struct {
	calls, messages, bytes, tokens, budget   int
	compacted, keptReads, trimmed, afterToks int
	afterBytes                               int
	fits, identical                          bool
	planMs, applyMs                          float64
	failure                                  string
}

func run(sizes string, runs int, share float64, out, bin string) error {
	if bin == "" {
		dir, err := os.MkdirTemp("", "bench-budget-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		bin = filepath.Join(dir, "git-adr")
		if b, err := exec.Command("go", "build", "-o", bin, "./cmd/git-adr").CombinedOutput(); err != nil {
			return fmt.Errorf("go build: %v\n%s", err, b)
		}
	}
	work, err := os.MkdirTemp("", "bench-budget-work-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	var rows []row
	for _, s := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return fmt.Errorf("bad size %q", s)
		}
		data := generate(n)
		file := filepath.Join(work, fmt.Sprintf("t%d.json", n))
		if err := os.WriteFile(file, data, 0o644); err != nil {
			return err
		}
		t, err := budget.Decode(data, budget.Auto)
		if err != nil {
			return err
		}
		whole, err := budget.NewPlan(t, data, budget.Options{Budget: 1 << 40})
		if err != nil {
			return err
		}
		rw := row{calls: n, messages: whole.Before.Messages, bytes: len(data), tokens: whole.Before.Tokens}
		rw.budget = int(float64(rw.tokens) * share)
		var planTimes, applyTimes []float64
		var p *budget.Plan
		for range runs {
			start := time.Now()
			t, err := budget.Decode(data, budget.Auto)
			if err != nil {
				return err
			}
			if p, err = budget.NewPlan(t, data, budget.Options{Budget: rw.budget, KeepLatestReads: true}); err != nil {
				return err
			}
			planTimes = append(planTimes, ms(time.Since(start)))
		}
		rw.compacted, rw.trimmed, rw.fits, rw.failure = len(p.Compacted), len(p.Trimmed), p.Fits, p.Failure
		rw.afterToks, rw.afterBytes = p.After.Tokens, p.After.Bytes
		for _, k := range p.Kept {
			if strings.HasPrefix(k.Reason, budget.ReasonLatestRead) {
				rw.keptReads++
			}
		}
		var outs [][]byte
		for i := range runs + 1 {
			cmd := exec.Command(bin, "budget", "apply", file, "--budget", strconv.Itoa(rw.budget))
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			start := time.Now()
			err := cmd.Run()
			d := ms(time.Since(start))
			if err != nil && rw.fits {
				return fmt.Errorf("git adr budget apply (%d calls): %v\n%s", n, err, stderr.String())
			}
			if i > 0 { // the first run warms the page cache
				applyTimes = append(applyTimes, d)
			}
			outs = append(outs, stdout.Bytes())
		}
		rw.identical = true
		for _, o := range outs[1:] {
			rw.identical = rw.identical && bytes.Equal(o, outs[0])
		}
		rw.planMs, rw.applyMs = median(planTimes), median(applyTimes)
		rows = append(rows, rw)
		fmt.Fprintf(os.Stderr, "%d calls: %d tokens -> %d (budget %d), plan %.1f ms, apply %.1f ms\n", n, rw.tokens, rw.afterToks, rw.budget, rw.planMs, rw.applyMs)
	}
	md := report(rows, runs, share)
	fmt.Print(md)
	if out != "" {
		return benchkit.UpdateRegion(out, "bench-budget", md)
	}
	return nil
}

func report(rows []row, runs int, share float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s on %s/%s, %d CPUs, median of %d runs; budget %.0f%% of each transcript's tokens (`go run ./scripts/bench-budget`).\n\n",
		time.Now().UTC().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runs, 100*share)
	b.WriteString("| tool calls | messages | transcript | o200k tokens | budget | groups compacted | latest reads kept | after | fits | plan (library) | `budget apply` (process) | two applies identical |\n")
	b.WriteString("|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|\n")
	for _, r := range rows {
		fits := "yes"
		if !r.fits {
			fits = "no"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s tokens, %s | %s | %s | %s | %v |\n",
			num(r.calls), num(r.messages), sizeOf(r.bytes), num(r.tokens), num(r.budget), num(r.compacted), num(r.keptReads),
			num(r.afterToks), sizeOf(r.afterBytes), fits, dur(r.planMs), dur(r.applyMs), r.identical)
	}
	for _, r := range rows {
		if !r.fits {
			fmt.Fprintf(&b, "\n- %s calls: %s\n", num(r.calls), r.failure)
		}
	}
	return b.String()
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func dur(ms float64) string {
	if ms >= 1000 {
		return fmt.Sprintf("%.2f s", ms/1000)
	}
	return fmt.Sprintf("%.1f ms", ms)
}

func num(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func sizeOf(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
