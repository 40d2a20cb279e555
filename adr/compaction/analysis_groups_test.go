package compaction

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/retrieve"
)

// subjectRec is an adr-tools record with a date, a context and a
// decision, for the tests of inferred groups.
type subjectRec struct {
	n                 int
	title, date       string
	status            string
	context, decision string
	links             []string
}

func (r subjectRec) file() string {
	return fmt.Sprintf("doc/adr/%04d-%s.md", r.n, strings.ToLower(strings.ReplaceAll(r.title, " ", "-")))
}

func (r subjectRec) text() string {
	status := r.status
	if status == "" {
		status = "Accepted"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %d. %s\n\nDate: %s\n\n## Status\n\n%s\n", r.n, r.title, r.date, status)
	for _, l := range r.links {
		fmt.Fprintf(&b, "\n%s\n", l)
	}
	fmt.Fprintf(&b, "\n## Context\n\n%s\n\n## Decision\n\n%s\n\n## Consequences\n\nThe team follows it.\n", r.context, r.decision)
	return b.String()
}

func loadSubjects(t testing.TB, recs ...subjectRec) *adr.Log {
	t.Helper()
	fsys := fstest.MapFS{}
	for _, r := range recs {
		fsys[r.file()] = &fstest.MapFile{Data: []byte(r.text())}
	}
	l, err := adr.Load(fsys, adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// unrelated are records about other subjects, so that the words of a
// subject are rare in the log, as in a real one.
var unrelated = []subjectRec{
	{n: 2, title: "Deploy on Kubernetes", date: "2024-02-01", context: "Services need a runtime with rolling updates.", decision: "We will deploy every service on Kubernetes with Helm charts."},
	{n: 3, title: "Log in JSON lines", date: "2024-03-01", context: "Logs are read by machines first.", decision: "Every service writes structured logs as JSON lines to standard output."},
	{n: 5, title: "Sign commits", date: "2024-05-01", context: "Releases must be traceable to a person.", decision: "Every commit on main is signed with an SSH key."},
	{n: 6, title: "Describe APIs with OpenAPI", date: "2024-06-01", context: "Clients are generated from API descriptions.", decision: "Each HTTP API publishes an OpenAPI 3.1 document."},
	{n: 7, title: "Feature flags", date: "2024-07-01", context: "Releases and launches are separate events.", decision: "New behaviour ships dark behind a feature flag until product enables it."},
}

func withUnrelated(recs ...subjectRec) []subjectRec {
	return append(append([]subjectRec{}, unrelated...), recs...)
}

// redisSessions and memcachedSessions decide one subject; the second
// replaces the choice of the first, saying "instead of".
func redisSessions(n int, date string) subjectRec {
	return subjectRec{n: n, title: "Use Redis for session caching", date: date,
		context:  "User sessions are read on every request and must survive a restart of a web node.",
		decision: "We will use Redis to cache user sessions."}
}

func memcachedSessions(n int, date string) subjectRec {
	return subjectRec{n: n, title: "Cache sessions in Memcached", date: date,
		context:  "Redis costs too much for session caching at our traffic.",
		decision: "We will cache user sessions in Memcached instead of Redis."}
}

func inferred(t *testing.T, l *adr.Log) []InferredGroup {
	t.Helper()
	a := analyze(t, l, AnalyzeOptions{Infer: true})
	return a.Inferred
}

func TestInferredGroupWithChangeWording(t *testing.T) {
	l := loadSubjects(t, withUnrelated(
		subjectRec{n: 1, title: "Use Redis for session caching", date: "2024-01-10",
			context:  "User sessions are read on every request and must survive a restart of a web node.",
			decision: "We will use Redis to cache user sessions, with a time to live of 30 minutes."},
		subjectRec{n: 4, title: "Cache sessions in Memcached", date: "2024-04-02",
			context:  "Redis costs too much for session caching at our traffic.",
			decision: "We will cache user sessions in Memcached instead of Redis.\nThe time to live of a session stays 30 minutes."},
	)...)
	gs := inferred(t, l)
	if len(gs) != 1 {
		t.Fatalf("got %d groups, want 1: %+v", len(gs), gs)
	}
	g := gs[0]
	if !reflect.DeepEqual(g.IDs, []string{"ADR-0001", "ADR-0004"}) {
		t.Errorf("ids: %v", g.IDs)
	}
	if g.Similarity < groupMin || g.Similarity > 1 {
		t.Errorf("similarity %v", g.Similarity)
	}
	for _, w := range []string{"session", "caching", "redis"} {
		if !strings.Contains(strings.Join(g.SharedTerms, " ")+" "+strings.Join(g.TitleWords, " "), w) {
			t.Errorf("shared terms %v and title words %v lack %q", g.SharedTerms, g.TitleWords, w)
		}
	}
	want := []Evolution{{
		Earlier: "ADR-0001", Later: "ADR-0004",
		Signals: []string{`ADR-0004 says "instead of" about Redis`},
		Evidence: []Quote{
			{ID: "ADR-0001", Path: "doc/adr/0001-use-redis-for-session-caching.md", Line: 15, Text: "We will use Redis to cache user sessions, with a time to live of 30 minutes."},
			{ID: "ADR-0004", Path: "doc/adr/0004-cache-sessions-in-memcached.md", Line: 15, Text: "We will cache user sessions in Memcached instead of Redis."},
		},
	}}
	if !reflect.DeepEqual(g.Evolved, want) {
		t.Errorf("evolved:\n got %+v\nwant %+v", g.Evolved, want)
	}
	if g.Command != "git adr compaction --mode consolidate --sources ADR-0001,ADR-0004" {
		t.Errorf("command %q", g.Command)
	}
	// Nothing of the analysis changes: the two records keep their class.
	a := analyze(t, l, AnalyzeOptions{Infer: true})
	wantClass(t, a, "ADR-0001", SummarizeClass, "in force")
	wantClass(t, a, "ADR-0004", SummarizeClass, "in force")
	if b := analyze(t, l, AnalyzeOptions{}); len(b.Inferred) != 0 || !reflect.DeepEqual(b.Records, a.Records) {
		t.Errorf("without Infer: %d groups; records differ: %v", len(b.Inferred), !reflect.DeepEqual(b.Records, a.Records))
	}
}

func TestInferredEvolutionByNamedChoice(t *testing.T) {
	// No wording of change: each decision names a broker the other never
	// mentions, for the same concern (events of billing).
	l := loadSubjects(t, withUnrelated(
		subjectRec{n: 1, title: "Broker for billing events", date: "2024-01-10",
			context:  "Billing publishes invoice events that other services consume.",
			decision: "We will use Kafka for the invoice events of billing."},
		subjectRec{n: 4, title: "Billing events broker", date: "2024-04-02",
			context:  "Billing publishes invoice events that other services consume.",
			decision: "We will use RabbitMQ for the invoice events of billing."},
	)...)
	gs := inferred(t, l)
	if len(gs) != 1 || len(gs[0].Evolved) != 1 {
		t.Fatalf("got %+v, want one group with one evolution", gs)
	}
	ev := gs[0].Evolved[0]
	if want := "ADR-0004 chooses RabbitMQ where ADR-0001 chose Kafka, on the same concern"; !reflect.DeepEqual(ev.Signals, []string{want}) {
		t.Errorf("signals %q, want %q", ev.Signals, want)
	}
	if len(ev.Evidence) != 2 || ev.Evidence[0].Text != "We will use Kafka for the invoice events of billing." || ev.Evidence[1].Line != 15 {
		t.Errorf("evidence %+v", ev.Evidence)
	}
}

func TestInferredNoEvolutionWhenComplementary(t *testing.T) {
	// Same subject, both name Redis: the later one adds to the earlier
	// one, it does not replace it.
	l := loadSubjects(t, withUnrelated(
		redisSessions(1, "2024-01-10"),
		subjectRec{n: 4, title: "Session caching time to live", date: "2024-04-02",
			context:  "Cached user sessions in Redis grow without bound.",
			decision: "Cached user sessions in Redis expire after 30 minutes of inactivity."},
	)...)
	gs := inferred(t, l)
	if len(gs) != 1 {
		t.Fatalf("got %d groups, want 1", len(gs))
	}
	if len(gs[0].Evolved) != 0 {
		t.Errorf("evolved %+v, want none", gs[0].Evolved)
	}
}

func TestInferredOrderByDate(t *testing.T) {
	// The later record by date has the lower number: it is still the one
	// that evolved.
	l := loadSubjects(t, withUnrelated(
		memcachedSessions(1, "2025-04-02"),
		redisSessions(4, "2024-01-10"),
	)...)
	gs := inferred(t, l)
	if len(gs) != 1 || len(gs[0].Evolved) != 1 {
		t.Fatalf("got %+v", gs)
	}
	if ev := gs[0].Evolved[0]; ev.Earlier != "ADR-0004" || ev.Later != "ADR-0001" {
		t.Errorf("earlier %s, later %s: want ADR-0004, ADR-0001", ev.Earlier, ev.Later)
	}
}

func TestInferredLeavesOutLinkedAndRetired(t *testing.T) {
	sessions := func(n int, title, date string) subjectRec {
		return subjectRec{n: n, title: title, date: date,
			context:  "User sessions are read on every request and must survive a restart of a web node.",
			decision: "We will cache user sessions for 30 minutes."}
	}
	t.Run("formal cluster", func(t *testing.T) {
		a, b := sessions(1, "Session caching", "2024-01-10"), sessions(4, "Session caching rules", "2024-04-02")
		a.links = []string{link("Amended by", 4, "Session caching rules")}
		b.links = []string{link("Amends", 1, "Session caching")}
		l := loadSubjects(t, withUnrelated(a, b)...)
		if gs := inferred(t, l); len(gs) != 0 {
			t.Errorf("records a relation clusters are grouped again: %+v", gs)
		}
	})
	t.Run("superseded", func(t *testing.T) {
		a, b := sessions(1, "Session caching", "2024-01-10"), sessions(4, "Session caching rules", "2024-04-02")
		a.status = link("Superseded by", 4, "Session caching rules")
		b.links = []string{link("Supersedes", 1, "Session caching")}
		l := loadSubjects(t, withUnrelated(a, b)...)
		if gs := inferred(t, l); len(gs) != 0 {
			t.Errorf("a retired record is grouped: %+v", gs)
		}
	})
	t.Run("links only", func(t *testing.T) {
		// Two records on different subjects that cite the same tracker:
		// the addresses are not words of a subject.
		cite := " See https://tracker.example.org/browse/PLATFORM-1234 and https://wiki.example.org/spaces/PLATFORM/pages/architecture-decisions-overview."
		a := subjectRec{n: 1, title: "Rotate database credentials", date: "2024-01-10",
			context: "Credentials leak." + cite, decision: "Database credentials rotate every 30 days."}
		b := subjectRec{n: 4, title: "Nightly image rebuilds", date: "2024-04-02",
			context: "Images go stale." + cite, decision: "Container images are rebuilt every night."}
		l := loadSubjects(t, withUnrelated(a, b)...)
		if gs := inferred(t, l); len(gs) != 0 {
			t.Errorf("records that share only link addresses are grouped: %+v", gs)
		}
	})
	t.Run("unrelated only", func(t *testing.T) {
		l := loadSubjects(t, unrelated...)
		if gs := inferred(t, l); len(gs) != 0 {
			t.Errorf("records about different subjects are grouped: %+v", gs)
		}
	})
}

func TestInferredGroupsAreBounded(t *testing.T) {
	// Twelve records about one subject: groups of at most maxGroup, every
	// pair of a group similar enough, the same groups on every run.
	var recs []subjectRec
	for i := 1; i <= 12; i++ {
		recs = append(recs, subjectRec{n: 10 + i, title: "Session caching rule", date: "2024-01-10",
			context: "User sessions are read on every request and must survive a restart of a web node. " +
				"Session caching keeps the cached sessions of every user close to the web nodes.",
			decision: fmt.Sprintf("Cached user sessions expire after %d minutes of inactivity in session caching.", 10+i)})
	}
	l := loadSubjects(t, withUnrelated(recs...)...)
	gs := inferred(t, l)
	if len(gs) == 0 {
		t.Fatal("no group")
	}
	seen := map[string]bool{}
	for _, g := range gs {
		if len(g.IDs) < 2 || len(g.IDs) > maxGroup {
			t.Errorf("a group of %d: %v", len(g.IDs), g.IDs)
		}
		if g.Similarity < groupMin {
			t.Errorf("group %v: similarity %v below %v", g.IDs, g.Similarity, groupMin)
		}
		for _, id := range g.IDs {
			if seen[id] {
				t.Errorf("%s is in two groups", id)
			}
			seen[id] = true
		}
	}
	for i := 0; i < 3; i++ {
		if again := inferred(t, l); !reflect.DeepEqual(again, gs) {
			t.Fatalf("run %d differs:\n%+v\n%+v", i, again, gs)
		}
	}
}

func TestInferredWithinScopeAndRoot(t *testing.T) {
	recs := withUnrelated(
		redisSessions(1, "2024-01-10"),
		memcachedSessions(4, "2024-04-02"),
	)
	l := loadSubjects(t, recs...)
	a := analyze(t, l, AnalyzeOptions{Infer: true, Sources: []string{"ADR-0001", "ADR-0002"}})
	if len(a.Inferred) != 0 {
		t.Errorf("a record outside --sources is grouped: %+v", a.Inferred)
	}
	// The same subject in two roots: each root numbers its own records,
	// a consolidation does not cross them.
	fsys := fstest.MapFS{".adr.toml": &fstest.MapFile{Data: []byte("[[roots]]\npath = \"doc/adr\"\n\n[[roots]]\npath = \"services/web/adr\"\n")}}
	for _, r := range recs {
		p := r.file()
		if r.n == 4 {
			p = "services/web/adr/" + p[len("doc/adr/"):]
		}
		fsys[p] = &fstest.MapFile{Data: []byte(r.text())}
	}
	l2, err := adr.Load(fsys, adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l2.Roots) != 2 {
		t.Fatalf("roots: %d", len(l2.Roots))
	}
	if gs := inferred(t, l2); len(gs) != 0 {
		t.Errorf("records of two roots are grouped: %+v", gs)
	}
}

func TestConsolidateCommandQuotes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ADR-0001,ADR-0004", "ADR-0001,ADR-0004"},
		{"doc/adr/x y.md", "'doc/adr/x y.md'"},
		{"it's;rm", `'it'\''s;rm'`},
		{"a$(id)", "'a$(id)'"},
	} {
		if got := shellWord(c.in); got != c.want {
			t.Errorf("shellWord(%q) = %s, want %s", c.in, got, c.want)
		}
	}
	// log4brains records are named by their slug: a hostile one is
	// quoted; one that --sources cannot name (a comma in its slug and
	// path) gets a note instead of a command.
	for _, c := range []struct{ later, command, note string }{
		{"20240402-cache-sessions-in-memcached.md",
			`git adr compaction --mode consolidate --sources '20240110-use-redis-for-session-caching$(id),20240402-cache-sessions-in-memcached'`, ""},
		{"20240402-cache-sessions,in-memcached.md", "",
			"docs/adr/20240402-cache-sessions,in-memcached.md cannot be named in --sources (its ID and path hold a comma, start with '-' or name other records too): rename its file first"},
	} {
		fsys := fstest.MapFS{}
		for name, decision := range map[string]string{
			"20240110-use-redis-for-session-caching$(id).md": "We will use Redis to cache user sessions.",
			c.later: "We will cache user sessions in Memcached instead of Redis.",
		} {
			fsys["docs/adr/"+name] = &fstest.MapFile{Data: []byte("# Session caching\n\n- Status: accepted\n\n## Context\n\nUser sessions are read on every request and must survive a restart.\n\n## Decision\n\n" + decision + "\n")}
		}
		for _, r := range unrelated {
			fsys[fmt.Sprintf("docs/adr/2024%02d01-%d.md", r.n, r.n)] = &fstest.MapFile{Data: []byte("# " + r.title + "\n\n- Status: accepted\n\n## Context\n\n" + r.context + "\n\n## Decision\n\n" + r.decision + "\n")}
		}
		l, err := adr.Load(fsys, adr.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		gs := inferred(t, l)
		if len(gs) != 1 {
			t.Fatalf("groups: %+v", gs)
		}
		if gs[0].Command != c.command || gs[0].Note != c.note {
			t.Errorf("command %q note %q\nwant %q note %q", gs[0].Command, gs[0].Note, c.command, c.note)
		}
	}
}

// TestInferredBlockingOnCorpora compares the blocked search for similar
// records with comparing every pair, on each shared real log: every pair
// that can start a group by its text alone (cosine >= groupMin) is found.
func TestInferredBlockingOnCorpora(t *testing.T) {
	dir := os.Getenv("GIT_ADR_CORPORA")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "corpora")
	}
	logs, err := os.ReadDir(dir)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("corpora not found at %s (CI=true: the corpora are required)", dir)
		}
		t.Skipf("corpora not found at %s", dir)
	}
	compared := 0
	for _, d := range logs {
		if !d.IsDir() {
			continue
		}
		l, err := adr.Load(os.DirFS(filepath.Join(dir, d.Name())), adr.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		a := analyze(t, l, AnalyzeOptions{})
		var dts []retrieve.NumberedTerms
		vocab := retrieve.NewVocabulary(0)
		for _, rc := range a.Records {
			if r := l.ByPath(rc.Path); r != nil && groupable(r, rc) {
				dts = append(dts, subjectOf(r, r.PeekText(), vocab.Number).terms)
			}
		}
		v := retrieve.NewVectors(vocab, dts)
		found := map[[2]int32]bool{}
		for _, p := range v.SimilarPairs(retrieve.PairOptions{Min: groupMin}) {
			found[[2]int32{p.A, p.B}] = true
		}
		for i := range dts {
			for j := i + 1; j < len(dts); j++ {
				compared++
				if s := v.Cosine(i, j); s >= groupMin && !found[[2]int32{int32(i), int32(j)}] {
					t.Errorf("%s: records %d and %d (cosine %.2f) are not compared", d.Name(), i, j, s)
				}
			}
		}
	}
	if compared == 0 {
		t.Fatal("no pair compared")
	}
}

// TestInferredSingleFileLog: sections of a single-file log are grouped
// like records, but a plan cannot rewrite them: no command, a note.
func TestInferredSingleFileLog(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Decisions\n\nHow this project decides.\n")
	for i, r := range withUnrelated(redisSessions(1, "2024-01-10"), memcachedSessions(4, "2024-04-02")) {
		fmt.Fprintf(&b, "\n## ADR-%03d: %s\n\n- **Date:** %s\n- **Status:** Accepted\n- **Context:** %s\n- **Decision:** %s\n", i+1, r.title, r.date, r.context, r.decision)
	}
	l, err := adr.Load(fstest.MapFS{"docs/DECISIONS.md": &fstest.MapFile{Data: []byte(b.String())}}, adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Records) != 7 {
		t.Fatalf("%d records", len(l.Records))
	}
	gs := inferred(t, l)
	if len(gs) != 1 {
		t.Fatalf("groups: %+v", gs)
	}
	g := gs[0]
	want := "ADR-006 is a section of the single-file log docs/DECISIONS.md: `git adr compaction --mode consolidate` writes records that are files only; merge the sections by hand"
	if g.Command != "" || g.Note != want {
		t.Errorf("command %q, note %q", g.Command, g.Note)
	}
	if len(g.Evolved) != 1 || g.Evolved[0].Evidence[1].Text != "We will cache user sessions in Memcached instead of Redis." {
		t.Errorf("evolved %+v", g.Evolved)
	}
}
