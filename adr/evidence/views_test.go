package evidence

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/adr"
	"github.com/git-adr/git-adr/adr/view"
)

// publishView builds the first root's view over sel (a constraint per
// accepted record with its decision text, a proposal per proposed record,
// every unit retained) and writes the pair into fsys.
func publishView(t testing.TB, fsys fstest.MapFS, sel view.Selection, topic func(*adr.Record) string) {
	t.Helper()
	l := load(t, fsys)
	root := l.Roots[0]
	srcs := view.Members(l, root, sel)
	var d view.Draft
	for _, r := range srcs {
		u, ok := r.Unit("decision")
		if !ok {
			u = r.Units()[0]
		}
		st := view.Statement{Topic: topic(r), Text: strings.TrimSpace(r.UnitText(u)[len("## Decision\n"):]), Sources: []string{u.ID}}
		switch r.Status {
		case adr.Accepted:
			d.Constraints = append(d.Constraints, st)
		case adr.Proposed:
			d.Proposals = append(d.Proposals, st)
		}
		for _, u := range r.Units() {
			d.Coverage = append(d.Coverage, view.UnitCoverage{Unit: u.ID, State: view.Retained, Location: "Effective constraints/" + st.Topic})
		}
	}
	m, cur, err := view.Build(l, root, sel, srcs, nil, d, "s-0123456789", 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	fsys[m.Summary.Path] = &fstest.MapFile{Data: cur}
	fsys[root.Join(view.ManifestFile)] = &fstest.MapFile{Data: m.Encode()}
}

func byNumberMod(n int) func(*adr.Record) string {
	return func(r *adr.Record) string { return fmt.Sprintf("Topic %d", r.Number%n) }
}

// The budget holds with a fresh view leading the answers, whatever the
// selector, budget and format; paging still returns every unit once.
func TestBudgetPropertyWithView(t *testing.T) {
	for seed := int64(1); seed <= 2; seed++ {
		fsys := stressLog(seed)
		publishView(t, fsys, view.NewSelection("", nil), byNumberMod(9))
		l := load(t, fsys)
		svc := &Service{Log: l, CursorKey: testKey("r")}
		rng := rand.New(rand.NewSource(seed))
		used := 0
		for i := 0; i < 20; i++ {
			req := Request{MaxChars: 2000 + rng.Intn(18000), MaxUnits: 1 + rng.Intn(12)}
			switch i % 5 {
			case 1:
				req.ID = fmt.Sprint(1 + rng.Intn(60))
			case 2:
				req.Domain = "billing"
			case 3:
				req.Task = "缓存 cache latency for billing tenants"
			case 4:
				req.Domain, req.Intent = "billing", Rationale
			}
			for _, f := range []Format{JSON, Text} {
				req.Format = f
				resp, out, err := svc.Answer(req)
				if err != nil {
					if isRequestError(err) && strings.Contains(err.Error(), "cannot hold") {
						continue
					}
					t.Fatalf("%+v: %v", req, err)
				}
				checkBudget(t, req, resp, out)
				if resp.Freshness.View != "fresh" {
					t.Fatalf("view %q, want fresh", resp.Freshness.View)
				}
				if len(resp.Units) > 0 && resp.Units[0].Kind == KindCurrent {
					used++
				}
			}
		}
		if used == 0 {
			t.Error("no answer led with the view")
		}
		if seed > 1 {
			continue
		}
		// Paging a domain answer led by the view delivers every unit once.
		seen := map[string]int{}
		r := Request{Domain: "billing", MaxChars: 3000, MaxUnits: 3}
		for pages := 0; ; pages++ {
			resp, out, err := svc.Answer(r)
			if err != nil {
				t.Fatal(err)
			}
			checkBudget(t, Request{Domain: "billing", MaxChars: 3000, MaxUnits: 3}, resp, out)
			for _, u := range resp.Units {
				seen[u.ID]++
			}
			if resp.Cursor == nil {
				if len(seen) != resp.Coverage.Selected {
					t.Errorf("delivered %d distinct units, selected %d", len(seen), resp.Coverage.Selected)
				}
				break
			}
			if pages > 5000 {
				t.Fatal("paging does not end")
			}
			r = Request{Cursor: *resp.Cursor}
		}
		for id, n := range seen {
			if n != 1 {
				t.Errorf("unit %s delivered %d times", id, n)
			}
		}
	}
}

func viewLog() fstest.MapFS {
	rec := func(n int, title, status, domains, decision string) *fstest.MapFile {
		s := nygard(n, title, status, decision)
		s = strings.Replace(s, "## Status", "Domains: "+domains+"\n\n## Status", 1)
		return &fstest.MapFile{Data: []byte(s)}
	}
	return fstest.MapFS{
		name(1, "use-postgresql"): rec(1, "Use PostgreSQL", "Accepted", "storage", "Orders are stored in PostgreSQL."),
		name(2, "log-json"):       rec(2, "Log JSON lines", "Accepted", "platform, system", "Every service logs JSON lines."),
		name(3, "shard-orders"):   rec(3, "Shard orders", "Proposed", "storage", "Shard orders by customer."),
		name(4, "cache-reads"):    rec(4, "Cache order reads", "Accepted", "caching", "Cache order reads in Redis for 60 seconds."),
	}
}

func firstDomainTopic(r *adr.Record) string { return strings.Title(r.Domains[0]) }

func TestFreshViewLeadsAnswers(t *testing.T) {
	fsys := viewLog()
	publishView(t, fsys, view.NewSelection("", nil), firstDomainTopic)
	svc := &Service{Log: load(t, fsys), CursorKey: testKey("r")}

	resp := answer(t, svc, Request{})
	if resp.Freshness.Basis != "current" || resp.Freshness.View != "fresh" || len(resp.Freshness.Views) != 1 {
		t.Fatalf("freshness %+v", resp.Freshness)
	}
	var kinds, ids []string
	for _, u := range resp.Units {
		kinds = append(kinds, u.Kind)
		ids = append(ids, u.ID)
	}
	if got := strings.Join(ids, " "); got != "doc/adr/CURRENT.md#storage doc/adr/CURRENT.md#platform doc/adr/CURRENT.md#caching doc/adr/CURRENT.md#proposals-not-in-force ADR-0002#decision" {
		t.Errorf("overview units %s", got)
	}
	// The view's sections lead as units of their own kind; the original
	// evidence follows as before (ADR-0002, a system constraint, as its
	// record's decision).
	if got := strings.Join(kinds, " "); got != "current current current current decision" {
		t.Errorf("overview kinds %s", got)
	}
	u := resp.Units[0]
	if u.Kind != KindCurrent || u.Status != StatusDerived || u.Path != "doc/adr/CURRENT.md" || u.Role != "current view (plan s-0123456789 rev 1)" ||
		u.Title != "Effective constraints: Storage" || !strings.Contains(u.Text, "Orders are stored in PostgreSQL. ([ADR-0001](0001-use-postgresql.md#decision))") {
		t.Errorf("first unit %+v", u)
	}
	if len(resp.Warnings) != 0 {
		t.Errorf("warnings %q", resp.Warnings)
	}

	// A domain answer leads with the sections citing the domain's records.
	resp = answer(t, svc, Request{Domain: "storage"})
	if resp.Units[0].ID != "doc/adr/CURRENT.md#storage" || resp.Units[1].ID != "doc/adr/CURRENT.md#proposals-not-in-force" || resp.Units[2].Kind != "decision" {
		t.Errorf("domain units %+v", resp.Units[:3])
	}
	// A task answer leads with the section citing its best match.
	resp = answer(t, svc, Request{Task: "cache order reads in redis"})
	if resp.Units[0].ID != "doc/adr/CURRENT.md#caching" || resp.Freshness.Basis != "current" {
		t.Errorf("task units %+v", resp.Units)
	}
	// An ID answer is the record's own, but states the view.
	resp = answer(t, svc, Request{ID: "1"})
	if resp.Units[0].Kind != "decision" || resp.Freshness.Basis != "records" || resp.Freshness.View != "fresh" {
		t.Errorf("id answer %+v %+v", resp.Units[0], resp.Freshness)
	}
	// History never leads with the view.
	resp = answer(t, svc, Request{Domain: "storage", Intent: History})
	if resp.Units[0].Kind == KindCurrent {
		t.Error("history led with the view")
	}
}

func TestStaleViewFallsBack(t *testing.T) {
	for _, tc := range []struct {
		name, state, warning string
		change               func(fstest.MapFS)
	}{
		{"edited source", "stale", "CURRENT view is stale: ADR-0004 changed since plan s-0123456789 revision 1; answered from the original records (refresh: git adr compaction --mode summary)",
			func(f fstest.MapFS) {
				f[name(4, "cache-reads")] = &fstest.MapFile{Data: []byte(strings.Replace(string(f[name(4, "cache-reads")].Data), "60 seconds", "5 minutes", 1))}
			}},
		{"new record", "stale", "CURRENT view is stale: ADR-0005 entered the view's scope since plan s-0123456789 revision 1 (a new record in doc/adr)",
			func(f fstest.MapFS) {
				f[name(5, "use-kafka")] = &fstest.MapFile{Data: []byte(nygard(5, "Use Kafka", "Accepted", "Events go through Kafka."))}
			}},
		{"hand edit", "corrupt", "CURRENT view is corrupt: doc/adr/CURRENT.md is not the file CURRENT.sources.json pins",
			func(f fstest.MapFS) {
				f["doc/adr/CURRENT.md"] = &fstest.MapFile{Data: append(append([]byte(nil), f["doc/adr/CURRENT.md"].Data...), "- Also use Redis everywhere.\n"...)}
			}},
		{"unsupported", "unsupported", "CURRENT view is unsupported: doc/adr/CURRENT.sources.json: unsupported CURRENT manifest: schema",
			func(f fstest.MapFS) {
				f["doc/adr/CURRENT.sources.json"] = &fstest.MapFile{Data: []byte(`{"schema": "git-adr/current-sources/v2"}`)}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := viewLog()
			publishView(t, fsys, view.NewSelection("", nil), firstDomainTopic)
			tc.change(fsys)
			svc := &Service{Log: load(t, fsys), CursorKey: testKey("r")}
			for _, req := range []Request{{}, {Domain: "storage"}, {Task: "cache order reads in redis"}, {ID: "4"}} {
				for _, f := range []Format{JSON, Text} {
					req.Format = f
					resp := answer(t, svc, req)
					for _, u := range resp.Units {
						if u.Kind == KindCurrent {
							t.Errorf("%s: a %s view was used: %s", describe(req), tc.state, u.ID)
						}
					}
					if resp.Freshness.Basis != "records" || resp.Freshness.View != tc.state {
						t.Errorf("%s: freshness %+v", describe(req), resp.Freshness)
					}
					if len(resp.Warnings) == 0 || !strings.HasPrefix(resp.Warnings[0], tc.warning) {
						t.Errorf("%s: warnings %q, want %q", describe(req), resp.Warnings, tc.warning)
					}
				}
			}
		})
	}
}

// Without any view nothing changes: basis records, view none, no views
// list, the fingerprint of the records alone.
func TestNoViewUnchanged(t *testing.T) {
	fsys := viewLog()
	svc := &Service{Log: load(t, fsys), CursorKey: testKey("r")}
	resp := answer(t, svc, Request{})
	if resp.Freshness.Basis != "records" || resp.Freshness.View != "none" || resp.Freshness.Views != nil || len(resp.Warnings) != 0 {
		t.Errorf("%+v %q", resp.Freshness, resp.Warnings)
	}
	fp := svc.Fingerprint()
	publishView(t, fsys, view.NewSelection("", nil), firstDomainTopic)
	if (&Service{Log: load(t, fsys), CursorKey: testKey("r")}).Fingerprint() == fp {
		t.Error("publishing a view does not change the fingerprint: cursors would survive it")
	}
}

// A view of one domain leads only that domain's answers; others fall in
// no view's scope and are answered from records without a warning.
func TestDomainViewScope(t *testing.T) {
	fsys := viewLog()
	publishView(t, fsys, view.NewSelection("storage", nil), firstDomainTopic)
	svc := &Service{Log: load(t, fsys), CursorKey: testKey("r")}
	if resp := answer(t, svc, Request{Domain: "storage"}); resp.Units[0].Kind != KindCurrent {
		t.Errorf("storage answer: %+v", resp.Units[0])
	}
	resp := answer(t, svc, Request{Domain: "caching"})
	if resp.Units[0].Kind == KindCurrent || resp.Freshness.Basis != "records" || len(resp.Warnings) != 0 {
		t.Errorf("caching answer: %+v %+v %q", resp.Units[0], resp.Freshness, resp.Warnings)
	}
}

// Two roots, each with its own view: a fresh one leads, a stale one is
// named in a warning with its root; view reports the worst state of the
// roots the request concerns.
func TestViewsPerRoot(t *testing.T) {
	fsys := viewLog()
	fsys[".adr.toml"] = &fstest.MapFile{Data: []byte("[[roots]]\npath = \"doc/adr\"\n\n[[roots]]\npath = \"services/billing/adr\"\nprefix = \"BILL-\"\n")}
	fsys["services/billing/adr/0001-invoice-monthly.md"] = &fstest.MapFile{Data: []byte(strings.Replace(
		nygard(1, "Invoice monthly", "Accepted", "Invoices go out monthly."), "## Status", "Domains: billing\n\n## Status", 1))}
	l := load(t, fsys)
	var srcs []*adr.Record
	var d view.Draft
	for _, root := range l.Roots {
		for _, r := range view.Members(l, root, view.NewSelection("", nil)) {
			srcs = append(srcs, r)
			u, _ := r.Unit("decision")
			if r.Status == adr.Accepted {
				d.Constraints = append(d.Constraints, view.Statement{Topic: firstDomainTopic(r), Text: "Restated " + r.ID + ".", Sources: []string{u.ID}})
			}
			for _, u := range r.Units() {
				d.Coverage = append(d.Coverage, view.UnitCoverage{Unit: u.ID, State: view.Unresolved})
			}
		}
	}
	pairs, err := view.BuildAll(l, view.NewSelection("", nil), srcs, nil, d, "s-2", 3, "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pairs {
		c, m := p.Paths()
		fsys[c] = &fstest.MapFile{Data: p.Current}
		fsys[m] = &fstest.MapFile{Data: p.ManifestJSON}
	}
	fsys["services/billing/adr/0001-invoice-monthly.md"].Data = append(append([]byte(nil), fsys["services/billing/adr/0001-invoice-monthly.md"].Data...), "\nMore.\n"...)
	svc := &Service{Log: load(t, fsys), CursorKey: testKey("r")}

	resp := answer(t, svc, Request{})
	if resp.Units[0].Kind != KindCurrent || resp.Freshness.Basis != "current" || resp.Freshness.View != "stale" || len(resp.Freshness.Views) != 2 {
		t.Errorf("overview: %+v %+v", resp.Units[0], resp.Freshness)
	}
	if len(resp.Warnings) != 1 || !strings.HasPrefix(resp.Warnings[0], "CURRENT view of services/billing/adr is stale: BILL-0001 changed since plan s-2 revision 3") {
		t.Errorf("warnings %q", resp.Warnings)
	}
	// A request about the fresh root only: view fresh, the other still warned about.
	resp = answer(t, svc, Request{Domain: "storage"})
	if resp.Freshness.View != "fresh" || resp.Units[0].Kind != KindCurrent || len(resp.Warnings) != 1 {
		t.Errorf("storage: %+v %q", resp.Freshness, resp.Warnings)
	}
	resp = answer(t, svc, Request{Domain: "billing"})
	if resp.Freshness.View != "stale" || resp.Freshness.Basis != "records" {
		t.Errorf("billing: %+v", resp.Freshness)
	}
	for _, u := range resp.Units {
		if u.Kind == KindCurrent {
			t.Errorf("billing answer used a view: %s", u.ID)
		}
	}
}
