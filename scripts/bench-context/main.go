// Command bench-context measures `git adr context --task` against reading
// every record and against a targeted grep-and-read baseline, on generated
// ADR logs of 10, 100, 1,000 and 10,000 records with labelled tasks.
//
//	go run ./scripts/bench-context [-sizes 10,100,1000,10000] [-tasks 20] [-out docs/benchmarks-context.md]
//	go run ./scripts/bench-context -labelled [-heldout-corpora DIR] [-compare LABEL=BIN] [-out docs/benchmarks-context.md]
//	go run ./scripts/bench-context -labelled -workspace [-sets WORDS] [-heldout-corpora DIR] [-compare LABEL=BIN]
//
// With -labelled it measures the hand-labelled task sets instead (see
// labelled.go): recall with and without each retrieval heuristic, and how
// well confidence predicts correctness. With -labelled -workspace it asks
// the labelled tasks across one workspace of all the sets' corpora
// (workspace.go).
//
// For each size and method it prints the evidence an agent would read (code
// points and o200k tokens), relevant-record recall, and latency per call.
// The figures are measured, never asserted.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/git-adr/git-adr/scripts/internal/benchkit"
	"github.com/tiktoken-go/tokenizer"
)

var (
	components = []string{"billing", "orders", "search", "checkout", "inventory", "shipping", "catalog", "payments",
		"notifications", "reporting", "identity", "pricing", "recommendations", "returns", "loyalty", "warehouse",
		"fulfilment", "invoicing", "onboarding", "analytics", "messaging", "scheduling", "documents", "media",
		"subscriptions", "fraud", "ledger", "tax", "vendors", "support", "reviews", "coupons", "gateway", "profiles",
		"sessions", "exports", "imports", "audit", "settings", "partners"}
	technologies = []string{"PostgreSQL", "Redis", "Kafka", "S3", "Elasticsearch", "gRPC", "GraphQL", "Kubernetes",
		"Terraform", "Vault", "RabbitMQ", "DynamoDB", "Cassandra", "ClickHouse", "Prometheus", "OpenTelemetry",
		"Envoy", "NATS", "Memcached", "SQLite", "MongoDB", "Temporal", "Airflow", "Spark", "Flink", "Nginx",
		"Consul", "etcd", "MinIO", "Keycloak"}
	aspects = []string{"caching", "retention", "encryption", "sharding", "replication", "rate limiting", "pagination",
		"idempotency", "observability", "feature flags", "schema migrations", "backups", "retries", "timeouts",
		"audit logging", "access control", "data export", "load shedding", "deduplication", "batching"}
	filler = "The team discussed the trade-offs at length during the architecture review. Operational experience " +
		"from the previous quarter informed the options, and the cost of running each alternative was estimated " +
		"from the current production footprint. Stakeholders from engineering, operations and product agreed on " +
		"the constraints listed here. "
)

type record struct {
	n                  int
	component, aspect  string
	tech               string
	status             string
	supersedes, amends int
	long               bool
}

type task struct {
	Text     string
	Relevant []int
}

func main() {
	sizes := flag.String("sizes", "10,100,1000,10000", "corpus sizes")
	ntasks := flag.Int("tasks", 20, "tasks per size")
	out := flag.String("out", "", "write the Markdown table into this file (between bench markers)")
	lab := flag.Bool("labelled", false, "measure the labelled task sets (ablation and reliability) instead of generated logs")
	heldout := flag.String("heldout-corpora", "", "with -labelled: a folder holding the held-out corpora that are not in the repository")
	compare := flag.String("compare", "", "with -labelled: LABEL=BIN[,LABEL=BIN...], also measure each git-adr binary BIN (built from LABEL) through its command line")
	quick := flag.Bool("quick", false, "with -labelled: only the shipped answers and the baselines at their size, no ablations or forms (for a quick look)")
	only := flag.String("sets", "", "with -labelled: measure only the sets whose file names contain one of these comma-separated words")
	misses := flag.Bool("misses", false, "with -labelled: print each missed record")
	ranks := flag.Bool("ranks", false, "with -labelled: print how each ranking places the relevant records (recall at 1, 3, 5, 8, 10, 15)")
	extra := flag.String("extra-sets", "", "with -labelled: comma-separated labelled set files to measure besides the repository's")
	ask := flag.String("ask", "", "with -labelled -workspace: ask only the tasks of the sets whose names hold one of these comma-separated words; every chosen set's corpora are in the workspace")
	ws := flag.Bool("workspace", false, "with -labelled: ask every task of the chosen sets across one workspace of all their corpora (this build, then each of -compare)")
	flag.Parse()
	if *lab && *ws {
		var bins []string // none with -quick: in process alone, the baseline at its sizes
		if !*quick {
			tmp, err := os.MkdirTemp("", "bench-context-build-")
			check(err)
			defer os.RemoveAll(tmp)
			bins = append(bins, "this tree="+buildGitADR(tmp))
			for _, c := range strings.Split(*compare, ",") {
				if c != "" {
					bins = append(bins, c)
				}
			}
		}
		workspaceMain(labelledOptions{out: *out, heldout: *heldout, only: *only, misses: *misses, extra: *extra, quick: *quick, ask: *ask}, bins)
		return
	}
	if *lab {
		labelledMain(labelledOptions{out: *out, heldout: *heldout, compare: *compare, quick: *quick, ranks: *ranks, only: *only, misses: *misses, extra: *extra})
		return
	}
	tmp, err := os.MkdirTemp("", "bench-context-")
	check(err)
	defer os.RemoveAll(tmp)
	bin := buildGitADR(tmp)
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	check(err)
	var rows []string
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		check(err)
		dir := filepath.Join(tmp, "log-"+s)
		recs := generate(dir, n)
		tasks := makeTasks(recs, *ntasks)
		rows = append(rows, measure(bin, dir, recs, tasks, enc)...)
	}
	table := "| records | method | evidence code points (mean) | o200k tokens (mean) | recall | latency (median) |\n|---:|---|---:|---:|---:|---:|\n" + strings.Join(rows, "\n") + "\n"
	fmt.Print(table)
	if *out != "" {
		writeMarked(*out, table)
	}
}

// buildGitADR builds git-adr from this tree into dir and returns its path.
func buildGitADR(dir string) string {
	bin := filepath.Join(dir, "git-adr")
	build := exec.Command("go", "build", "-o", bin, "./cmd/git-adr")
	build.Stderr = os.Stderr
	check(build.Run())
	return bin
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-context:", err)
		os.Exit(1)
	}
}

// generate writes an adr-tools log of n records in a fresh git repository.
// Each record decides how one component handles one aspect with one
// technology; some are superseded by a later record on the same topic,
// some amend another, and one in ten is long (several kilobytes).
func generate(dir string, n int) []record {
	rng := rand.New(rand.NewSource(int64(n)))
	check(os.MkdirAll(filepath.Join(dir, "doc", "adr"), 0o755))
	recs := make([]record, n+1)
	last := map[string]int{}
	for i := 1; i <= n; i++ {
		r := record{n: i, component: components[rng.Intn(len(components))], aspect: aspects[rng.Intn(len(aspects))],
			tech: technologies[rng.Intn(len(technologies))], status: "Accepted", long: rng.Intn(10) == 0}
		key := r.component + "/" + r.aspect
		if prev, ok := last[key]; ok && rng.Intn(2) == 0 && recs[prev].status == "Accepted" {
			r.supersedes = prev
			recs[prev].status = "Superseded"
		} else if prev, ok := last[key]; ok {
			r.amends = prev
		}
		if rng.Intn(8) == 0 && r.supersedes == 0 {
			r.status = "Proposed"
		}
		last[key] = i
		recs[i] = r
	}
	for i := 1; i <= n; i++ {
		check(os.WriteFile(filepath.Join(dir, "doc", "adr", fileName(recs[i])), []byte(render(recs, i, rng)), 0o644))
	}
	git(dir, "init", "-q")
	git(dir, "add", "-A")
	git(dir, "-c", "user.name=b", "-c", "user.email=b@example.com", "commit", "-qm", "log")
	return recs
}

func fileName(r record) string {
	return fmt.Sprintf("%04d-%s.md", r.n, slug(title(r)))
}

func title(r record) string {
	return fmt.Sprintf("Use %s for %s in %s", r.tech, r.aspect, r.component)
}

func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(s) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(c)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}

func render(recs []record, i int, rng *rand.Rand) string {
	r := recs[i]
	var b strings.Builder
	fmt.Fprintf(&b, "# %d. %s\n\nDate: 2026-01-%02d\n\n## Status\n\n", r.n, title(r), i%28+1)
	for j := i + 1; j < len(recs); j++ {
		if recs[j].supersedes == i {
			fmt.Fprintf(&b, "Superseded by [%d. %s](%s)\n", j, title(recs[j]), fileName(recs[j]))
			goto body
		}
	}
	b.WriteString(r.status + "\n")
body:
	if r.supersedes > 0 {
		p := recs[r.supersedes]
		fmt.Fprintf(&b, "\nSupersedes [%d. %s](%s)\n", p.n, title(p), fileName(p))
	}
	if r.amends > 0 {
		p := recs[r.amends]
		fmt.Fprintf(&b, "\nAmends [%d. %s](%s)\n", p.n, title(p), fileName(p))
	}
	fmt.Fprintf(&b, "\n## Context\n\nThe %s service needs a clear approach to %s. %s", r.component, r.aspect, filler)
	if r.long {
		for k := 0; k < 12+rng.Intn(20); k++ {
			b.WriteString(filler)
		}
	}
	fmt.Fprintf(&b, "\n\n## Decision\n\nFor %s in the %s service we will rely on %s. Every team working on %s follows this.\n\n## Consequences\n\n%s\n",
		r.aspect, r.component, r.tech, r.component, filler)
	return b.String()
}

func git(dir string, args ...string) {
	c := exec.Command("git", args...)
	c.Dir = dir
	c.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
	out, err := c.CombinedOutput()
	if err != nil {
		check(fmt.Errorf("git %v: %v\n%s", args, err, out))
	}
}

// makeTasks asks about a component's approach to an aspect without naming
// the technology or repeating the title: relevant are the records on that
// topic that are in force, and superseded ones only through their
// successor (which a current-intent answer must bring).
func makeTasks(recs []record, k int) []task {
	rng := rand.New(rand.NewSource(int64(len(recs)) * 7))
	byTopic := map[string][]int{}
	for i := 1; i < len(recs); i++ {
		key := recs[i].component + "/" + recs[i].aspect
		byTopic[key] = append(byTopic[key], i)
	}
	var keys []string
	for k := range byTopic {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	templates := []string{
		"how does the %s service deal with %s",
		"what is our approach to %[2]s for %[1]s",
		"I am changing %[2]s in %[1]s, which decisions apply",
	}
	var out []task
	for _, key := range keys {
		if len(out) >= k {
			break
		}
		var rel []int
		for _, i := range byTopic[key] {
			if recs[i].status != "Superseded" {
				rel = append(rel, i)
			}
		}
		if len(rel) == 0 || len(rel) > 4 {
			continue
		}
		parts := strings.SplitN(key, "/", 2)
		out = append(out, task{Text: fmt.Sprintf(templates[len(out)%len(templates)], parts[0], parts[1]), Relevant: rel})
	}
	return out
}

type contextResponse struct {
	Units []struct {
		ID   string `json:"id"`
		Path string `json:"path"`
	} `json:"units"`
	Size struct {
		CodePoints int `json:"code_points"`
		Tokens     int `json:"tokens_o200k"`
	} `json:"size"`
}

func measure(bin, dir string, recs []record, tasks []task, enc tokenizer.Codec) []string {
	n := len(recs) - 1
	// (b) Read everything.
	var all []byte
	files, _ := filepath.Glob(filepath.Join(dir, "doc", "adr", "*.md"))
	for _, f := range files {
		d, _ := os.ReadFile(f)
		all = append(all, d...)
	}
	allTok, _ := enc.Count(string(all))
	var ctxCP, ctxTok, grepCP, grepTok []int
	var ctxLat, grepLat []time.Duration
	ctxHit, grepHit, total := 0, 0, 0
	numOf := func(p string) int {
		base := filepath.Base(p)
		v, _ := strconv.Atoi(strings.SplitN(base, "-", 2)[0])
		return v
	}
	// Warm the cache once, as an agent's second question would find it.
	exec.Command(bin, "-C", dir, "context", "--task", "warm up", "--json").Run()
	for _, t := range tasks {
		total += len(t.Relevant)
		// (a) git adr context --task.
		start := time.Now()
		c := exec.Command(bin, "-C", dir, "context", "--task", t.Text, "--json")
		var stdout bytes.Buffer
		c.Stdout = &stdout
		check(c.Run())
		ctxLat = append(ctxLat, time.Since(start))
		var resp contextResponse
		check(json.Unmarshal(stdout.Bytes(), &resp))
		ctxCP = append(ctxCP, resp.Size.CodePoints)
		ctxTok = append(ctxTok, resp.Size.Tokens)
		got := map[int]bool{}
		for _, u := range resp.Units {
			got[numOf(u.Path)] = true
		}
		for _, r := range t.Relevant {
			if got[r] {
				ctxHit++
			}
		}
		// (c) grep the task's words, read matching files (most matches
		// first) until 12,000 code points.
		start = time.Now()
		read, cp := grepAndRead(dir, t.Text)
		grepLat = append(grepLat, time.Since(start))
		grepCP = append(grepCP, cp)
		tok, _ := enc.Count(string(read.text))
		grepTok = append(grepTok, tok)
		for _, r := range t.Relevant {
			if read.files[r] {
				grepHit++
			}
		}
	}
	rec := func(h int) string { return fmt.Sprintf("%.2f", float64(h)/float64(max(total, 1))) }
	return []string{
		fmt.Sprintf("| %d | git adr context --task | %d | %d | %s | %s |", n, mean(ctxCP), mean(ctxTok), rec(ctxHit), median(ctxLat)),
		fmt.Sprintf("| %d | read every record | %d | %d | 1.00 | - |", n, utf8.RuneCount(all), allTok),
		fmt.Sprintf("| %d | grep task words, read matches (12,000 cp) | %d | %d | %s | %s |", n, mean(grepCP), mean(grepTok), rec(grepHit), median(grepLat)),
	}
}

type readSet struct {
	files map[int]bool
	text  []byte
}

var stop = map[string]bool{"how": true, "does": true, "the": true, "with": true, "what": true, "is": true, "our": true,
	"to": true, "for": true, "in": true, "am": true, "which": true, "decisions": true, "apply": true, "i": true,
	"changing": true, "service": true, "deal": true, "approach": true}

// grepAndRead is the targeted baseline: ripgrep (or grep) for each word of
// the task, rank files by how many words they contain, read whole files in
// that order within 12,000 code points.
func grepAndRead(dir, text string) (readSet, int) {
	count := map[string]int{}
	for _, w := range strings.Fields(strings.ToLower(text)) {
		if stop[w] || len(w) < 3 {
			continue
		}
		tool := "rg"
		args := []string{"-l", "-i", "-F", w, "doc/adr"}
		if _, err := exec.LookPath("rg"); err != nil {
			tool, args = "grep", []string{"-r", "-l", "-i", "-F", w, "doc/adr"}
		}
		c := exec.Command(tool, args...)
		c.Dir = dir
		out, _ := c.Output()
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			count[sc.Text()]++
		}
	}
	var files []string
	for f := range count {
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool {
		if count[files[i]] != count[files[j]] {
			return count[files[i]] > count[files[j]]
		}
		return files[i] < files[j]
	})
	rs := readSet{files: map[int]bool{}}
	cp := 0
	for _, f := range files {
		d, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			continue
		}
		n := utf8.RuneCount(d)
		if cp+n > 12000 {
			break
		}
		cp += n
		rs.text = append(rs.text, d...)
		v, _ := strconv.Atoi(strings.SplitN(filepath.Base(f), "-", 2)[0])
		rs.files[v] = true
	}
	return rs, cp
}

func mean(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	s := 0
	for _, x := range xs {
		s += x
	}
	return s / len(xs)
}

func median(ds []time.Duration) string {
	if len(ds) == 0 {
		return "-"
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2].Round(time.Millisecond).String()
}

// writeMarked replaces the text between the bench markers of a file.
func writeMarked(path, table string) { writeBetween(path, "bench-context", table) }

// writeBetween replaces the text between the markers named name.
func writeBetween(path, name, table string) { check(benchkit.UpdateRegion(path, name, table)) }
