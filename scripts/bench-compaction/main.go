// Command bench-compaction measures `git adr compaction` (the read-only
// analysis) on generated decision logs of 10, 100, 1,000 and 10,000
// records, and sizes what a summary of the whole log would cost.
//
//	go run ./scripts/bench-compaction [-sizes 10,100,1000,10000] [-runs 5] [-out docs/benchmarks-compaction.md]
//
// For each size it reports:
//
//   - the analysis time of the real binary as a user runs it (`git adr
//     compaction --json`, a fresh process, warm file cache, the first run
//     discarded, median of the rest), and of compaction.Analyze in process
//     on an already loaded log;
//   - the classes and issues the analysis finds, and its inferred groups
//     (records about one subject that no relation links): how many, how
//     many records they hold, how many evolved without a marker;
//   - the plan a summary of the whole log would need: its sources, their
//     decision units, and the bytes of plan.json built from the plan types
//     with every source's blob hash and unit hashes (no drafting: coverage
//     is empty, as in a plan before drafting);
//   - the evidence a drafter would read: the full text of every record in
//     scope except the archive candidates, in bytes, Unicode code points
//     and OpenAI o200k_base tokens (no client-side tokenizer exists for
//     Claude; other models count differently).
//
// Figures are measured and reported, never asserted.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
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
	"sync"
	"time"
	"unicode/utf8"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/compaction"
	"github.com/git-adr/git-adr/adr/view"
	"github.com/tiktoken-go/tokenizer"
)

func main() { os.Exit(Main()) }

type options struct {
	sizes []int
	runs  int
	out   string
	seed  uint64
	keep  bool
}

// Main runs the benchmark and returns the exit code: 0 when every run
// succeeded, 1 when one failed, 2 for bad flags.
func Main() int {
	o, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench-compaction: error: %v\n", err)
		return 2
	}
	if err := run(o); err != nil {
		fmt.Fprintf(os.Stderr, "bench-compaction: error: %v\n", err)
		return 1
	}
	return 0
}

func parseFlags(args []string) (options, error) {
	fs := flag.NewFlagSet("bench-compaction", flag.ContinueOnError)
	var o options
	sizes := fs.String("sizes", "10,100,1000,10000", "comma-separated log sizes (records)")
	fs.IntVar(&o.runs, "runs", 5, "timed runs per size (one more warm-up run is discarded)")
	fs.StringVar(&o.out, "out", "", "write the Markdown table into `FILE` between <!-- bench-compaction:start --> and <!-- bench-compaction:end -->")
	fs.Uint64Var(&o.seed, "seed", 1, "generator seed")
	fs.BoolVar(&o.keep, "keep", false, "keep the temporary directory and print its path")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
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
	return o, nil
}

// row is one size's figures.
type row struct {
	records         int
	binary, library time.Duration
	classes         map[compaction.Class]int
	issues          int
	groups, grouped int
	evolved         int
	sources, units  int
	planBytes       int
	evidence        compaction.Volume
}

func run(o options) error {
	tmp, err := os.MkdirTemp("", "bench-compaction-")
	if err != nil {
		return err
	}
	if o.keep {
		fmt.Fprintln(os.Stderr, "bench-compaction: keeping", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	bin := filepath.Join(tmp, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "git-adr"), "./cmd/git-adr")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("build git-adr: %w", err)
	}
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		return err
	}
	var rows []row
	for _, n := range o.sizes {
		dir := filepath.Join(tmp, fmt.Sprintf("log-%d", n))
		if err := writeLog(dir, n, o.seed); err != nil {
			return err
		}
		r, err := measure(bin, dir, n, o.runs, enc)
		if err != nil {
			return fmt.Errorf("%d records: %w", n, err)
		}
		rows = append(rows, r)
		fmt.Fprintf(os.Stderr, "bench-compaction: %d records: binary %s, Analyze %s\n", n, ms(r.binary), ms(r.library))
	}
	table := environment() + "\n" + render(rows, o.runs)
	fmt.Print(table)
	if o.out != "" {
		return writeMarked(o.out, table)
	}
	return nil
}

// writeLog generates a log of n records in a fresh, committed repository.
func writeLog(dir string, n int, seed uint64) error {
	adrDir := filepath.Join(dir, "doc", "adr")
	if err := os.MkdirAll(adrDir, 0o755); err != nil {
		return err
	}
	for _, r := range generate(n, seed) {
		if err := os.WriteFile(filepath.Join(adrDir, r.fileName()), r.render(), 0o644); err != nil {
			return err
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-qm", "generated log", "--no-verify"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.com",
			"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.com", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v: %s", args[0], err, out)
		}
	}
	return nil
}

func measure(bin, dir string, n, runs int, enc tokenizer.Codec) (row, error) {
	r := row{records: n}
	// The binary, as `git adr` runs it.
	var times []time.Duration
	var out []byte
	for i := 0; i <= runs; i++ {
		cmd := exec.Command("git", "adr", "compaction", "--json")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		start := time.Now()
		o, err := cmd.Output()
		d := time.Since(start)
		if err != nil {
			return r, fmt.Errorf("git adr compaction: %v: %s", err, stderr.Bytes())
		}
		if i > 0 {
			times = append(times, d)
		}
		out = o
	}
	r.binary = median(times)
	var a compaction.Analysis
	if err := json.Unmarshal(out, &a); err != nil {
		return r, fmt.Errorf("git adr compaction --json: %w", err)
	}
	if len(a.Records) != n {
		return r, fmt.Errorf("the analysis classified %d records, want %d", len(a.Records), n)
	}

	// The library, on a loaded log.
	l, err := adr.Load(os.DirFS(dir), adr.LoadOptions{})
	if err != nil {
		return r, err
	}
	times = times[:0]
	var lib *compaction.Analysis
	for i := 0; i <= runs; i++ {
		start := time.Now()
		lib, err = compaction.Analyze(l, compaction.AnalyzeOptions{Infer: true})
		if err != nil {
			return r, err
		}
		if i > 0 {
			times = append(times, time.Since(start))
		}
	}
	r.library = median(times)
	if got, _ := json.Marshal(lib); !bytes.Equal(bytes.TrimSpace(got), compactJSON(out)) {
		return r, errors.New("the binary and the library disagree")
	}
	r.classes = map[compaction.Class]int{}
	for _, c := range compaction.Classes {
		r.classes[c] = lib.Count(c)
	}
	r.issues = len(lib.Issues)
	r.groups = len(lib.Inferred)
	for _, g := range lib.Inferred {
		r.grouped += len(g.IDs)
		r.evolved += len(g.Evolved)
	}

	plan, err := summaryPlan(l, lib, dir, enc)
	if err != nil {
		return r, err
	}
	r.sources = len(plan.Sources)
	for _, s := range plan.Sources {
		r.units += len(s.Units)
	}
	r.planBytes = len(plan.Encode())
	r.evidence = plan.Read
	return r, nil
}

// environment names the machine and versions the figures come from.
func environment() string {
	out := func(name string, args ...string) string {
		b, err := exec.Command(name, args...).Output()
		if err != nil {
			return "unknown"
		}
		return strings.TrimSpace(string(b))
	}
	commit := out("git", "rev-parse", "--short", "HEAD")
	if out("git", "status", "--porcelain", "--untracked-files=no") != "" {
		commit += " with uncommitted changes"
	}
	return fmt.Sprintf("Measured %s on %s/%s, %d CPUs, %s, %s, git-adr %s.\n",
		time.Now().UTC().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(),
		runtime.Version(), out("git", "--version"), commit)
}

func compactJSON(b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return b
	}
	return buf.Bytes()
}

// summaryPlan builds the plan a summary of the whole log would start from:
// every record in scope as a source with its blob hash and units, the
// membership hash, the issues, and the read volume of the records the
// drafter reads (all but the archive candidates).
func summaryPlan(l *adr.Log, a *compaction.Analysis, dir string, enc tokenizer.Codec) (*compaction.Plan, error) {
	classOf := map[string]compaction.Class{}
	for _, rc := range a.Records {
		classOf[rc.Path] = rc.Class
	}
	p := &compaction.Plan{Schema: compaction.SchemaVersion, Revision: 1, Mode: compaction.Summary,
		Base: strings.Repeat("0", 40), Issues: a.Issues, Evidence: []compaction.Source{},
		Transitions: []compaction.Transition{}, Reserved: []compaction.Reservation{}, State: compaction.Planned}
	for _, root := range a.Roots {
		p.Scope.Roots = append(p.Scope.Roots, root.Path)
	}
	var read [][]byte
	for _, r := range l.Records {
		c, ok := classOf[r.Path]
		if !ok {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(r.Path)))
		if err != nil {
			return nil, err
		}
		s := compaction.Source{ID: r.ID, Path: r.Path, Blob: view.BlobHash(data), Status: string(r.Status), Class: string(c), Units: []compaction.Unit{}}
		for _, u := range r.Units() {
			s.Units = append(s.Units, compaction.Unit{Locator: u.ID, Hash: u.Hash, Lines: [2]int{u.Start, u.End}})
		}
		p.Sources = append(p.Sources, s)
		if c != compaction.ArchivalCandidate {
			read = append(read, data)
		}
	}
	p.Membership = compaction.MembershipHash(p.Sources)
	p.ID = compaction.PlanID(p.Mode, p.Scope, p.Base, p.Membership)
	v, err := volume(read, enc)
	if err != nil {
		return nil, err
	}
	p.Read = v
	return p, nil
}

// volume measures texts; tokens are counted on all cores.
func volume(texts [][]byte, enc tokenizer.Codec) (compaction.Volume, error) {
	var v compaction.Volume
	for _, t := range texts {
		v.Bytes += len(t)
		v.CodePoints += utf8.RuneCount(t)
	}
	counts := make([]int, len(texts))
	errs := make([]error, len(texts))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				counts[i], errs[i] = enc.Count(string(texts[i]))
			}
		}()
	}
	for i := range texts {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, n := range counts {
		if errs[i] != nil {
			return v, errs[i]
		}
		v.TokensO200k += n
	}
	return v, nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func ms(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
	case d < 100*time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%d ms", d.Milliseconds())
}

// thousands writes n with comma separators.
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func render(rows []row, runs int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Analysis: `git adr compaction --json` (median of %d runs after a discarded warm-up; process start and log loading included) and `compaction.Analyze` on a loaded log. Classes: retain / summarize / consolidate / unresolved / archive.\n\n", runs)
	b.WriteString("| records | `git adr compaction` | `Analyze` | classes | issues | inferred groups (records, evolved) |\n|---:|---:|---:|---|---:|---|\n")
	for _, r := range rows {
		var cs []string
		for _, c := range compaction.Classes {
			cs = append(cs, thousands(r.classes[c]))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s (%s, %s) |\n", thousands(r.records), ms(r.binary), ms(r.library), strings.Join(cs, " / "),
			thousands(r.issues), thousands(r.groups), thousands(r.grouped), thousands(r.evolved))
	}
	b.WriteString("\nA summary of the whole log: the plan's sources and decision units, the size of its plan.json before drafting, and the evidence the drafter would read (every record in scope but the archive candidates, whole).\n\n")
	b.WriteString("| records | plan sources | units | plan.json | evidence bytes | code points | o200k tokens |\n|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", thousands(r.records), thousands(r.sources), thousands(r.units),
			size(r.planBytes), thousands(r.evidence.Bytes), thousands(r.evidence.CodePoints), thousands(r.evidence.TokensO200k))
	}
	return b.String()
}

func size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

const (
	markStart = "<!-- bench-compaction:start -->"
	markEnd   = "<!-- bench-compaction:end -->"
)

// writeMarked replaces what lies between the markers of file with table.
func writeMarked(file, table string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	s := string(data)
	i, j := strings.Index(s, markStart), strings.Index(s, markEnd)
	if i < 0 || j < i {
		return fmt.Errorf("%s has no %s ... %s markers", file, markStart, markEnd)
	}
	s = s[:i+len(markStart)] + "\n" + table + s[j:]
	return os.WriteFile(file, []byte(s), 0o644)
}

// The generated log imitates a long-lived adr-tools log: most records
// accepted, some proposed, rejected or deprecated, a few with statuses
// nobody filled in; accepted records supersede, amend or relate to earlier
// ones of their domain; a few supersede another in part; one in
// twenty-five is long.
var (
	domains = []string{"storage", "api", "billing", "search", "identity", "messaging", "platform", "observability",
		"security", "frontend", "data", "payments"}
	techs = []string{"PostgreSQL", "Redis", "Kafka", "S3", "gRPC", "GraphQL", "Kubernetes", "Terraform", "Vault",
		"RabbitMQ", "OpenTelemetry", "Envoy", "NATS", "SQLite", "Temporal", "Keycloak"}
	aspects = []string{"caching", "retention", "encryption", "sharding", "replication", "rate limiting",
		"pagination", "idempotency", "schema migrations", "backups", "retries", "timeouts", "access control"}
	filler = "The team weighed the operational cost, the failure modes and the migration effort of each option " +
		"against the current production footprint, and agreed on the constraints below with engineering, " +
		"operations and product. "
)

type genRecord struct {
	n                 int
	title, date       string
	status            string // the status paragraph
	links             []string
	domain            string
	tech, aspect      string
	partial           *genRecord
	long              bool
	accepted, retired bool
}

func (r *genRecord) fileName() string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(r.title) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(c)
			continue
		}
		dash = true
	}
	return fmt.Sprintf("%04d-%s.md", r.n, b.String())
}

func (r *genRecord) ref() string { return fmt.Sprintf("[%d. %s](%s)", r.n, r.title, r.fileName()) }

func (r *genRecord) render() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %d. %s\n\nDate: %s\nDomains: %s\n\n## Status\n\n%s\n", r.n, r.title, r.date, r.domain, r.status)
	for _, l := range r.links {
		fmt.Fprintf(&b, "\n%s\n", l)
	}
	fmt.Fprintf(&b, "\n## Context\n\nThe %s services need a rule for %s. %s\n", r.domain, r.aspect, filler)
	if r.long {
		for i := 0; i < 24; i++ {
			fmt.Fprintf(&b, "\n%s%s was measured under load in round %d; the results are in the appendix.\n", filler, r.tech, i+1)
		}
	}
	fmt.Fprintf(&b, "\n## Decision\n\nWe will use %s for %s in %s.\n", r.tech, r.aspect, r.domain)
	if r.partial != nil {
		fmt.Fprintf(&b, "\nThis ADR in part supersedes %s: only its %s rule.\n", r.partial.ref(), r.partial.aspect)
	}
	fmt.Fprintf(&b, "\n## Consequences\n\nEvery %s service follows this rule for %s; exceptions need a new record.\n", r.domain, r.aspect)
	return []byte(b.String())
}

// generate returns n records; the same n and seed give the same bytes.
func generate(n int, seed uint64) []*genRecord {
	rnd := rand.New(rand.NewPCG(seed, uint64(n)))
	start := time.Date(2017, 1, 2, 0, 0, 0, 0, time.UTC)
	recs := make([]*genRecord, 0, n)
	byDomain := map[string][]*genRecord{} // accepted, unretired records per domain
	for i := 1; i <= n; i++ {
		r := &genRecord{n: i, domain: domains[rnd.IntN(len(domains))], tech: techs[rnd.IntN(len(techs))],
			aspect: aspects[rnd.IntN(len(aspects))], long: rnd.IntN(25) == 0,
			date: start.AddDate(0, 0, i*2920/max(n, 1)).Format("2006-01-02")}
		r.title = fmt.Sprintf("Use %s for %s in %s", r.tech, r.aspect, r.domain)
		switch p := rnd.IntN(100); {
		case p < 14:
			r.status = "Proposed"
		case p < 17:
			r.status = "Rejected"
		case p < 21:
			r.status = "Deprecated"
		case p < 22:
			r.status = "On hold"
		default:
			r.status, r.accepted = "Accepted", true
		}
		peers := byDomain[r.domain]
		if len(peers) > 0 {
			prev := peers[rnd.IntN(len(peers))]
			switch p := rnd.IntN(100); {
			case p < 20 && r.accepted:
				r.links = append(r.links, "Supersedes "+prev.ref())
				prev.status = "Superseded by " + r.ref()
				prev.retired = true
			case p < 20 && r.status == "Proposed":
				r.links = append(r.links, "Supersedes "+prev.ref())
			case p < 30:
				r.links = append(r.links, "Amends "+prev.ref())
				prev.links = append(prev.links, "Amended by "+r.ref())
			case p < 36:
				r.links = append(r.links, "Relates to "+prev.ref())
				prev.links = append(prev.links, "Relates to "+r.ref())
			case p < 37 && r.accepted:
				r.partial = prev
				prev.status = "Partly superseded"
			}
		}
		live := make([]*genRecord, 0, len(peers)+1)
		for _, p := range peers {
			if !p.retired && p.status != "Partly superseded" {
				live = append(live, p)
			}
		}
		if r.accepted {
			live = append(live, r)
		}
		byDomain[r.domain] = live
		recs = append(recs, r)
	}
	return recs
}
