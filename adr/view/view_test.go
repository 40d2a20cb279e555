package view

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/adr"
)

func record(n int, title, status, domains, decision string, extra ...string) *fstest.MapFile {
	var b strings.Builder
	fmt.Fprintf(&b, "# %d. %s\n\nDate: 2026-01-%02d\n", n, title, n)
	if domains != "" {
		fmt.Fprintf(&b, "Domains: %s\n", domains)
	}
	fmt.Fprintf(&b, "\n## Status\n\n%s\n", status)
	for _, e := range extra {
		b.WriteString("\n" + e + "\n")
	}
	fmt.Fprintf(&b, "\n## Context\n\nWhy %s.\n\n## Decision\n\n%s\n", strings.ToLower(title), decision)
	return &fstest.MapFile{Data: []byte(b.String())}
}

// baseFS is a small log: two accepted storage records, a proposal, and a
// system constraint in another domain.
func baseFS() fstest.MapFS {
	return fstest.MapFS{
		"doc/adr/0001-use-postgresql.md": record(1, "Use PostgreSQL", "Accepted", "storage", "Orders are stored in PostgreSQL."),
		"doc/adr/0002-log-json.md":       record(2, "Log JSON lines", "Accepted", "platform, system", "Every service logs JSON lines."),
		"doc/adr/0003-shard-orders.md":   record(3, "Shard orders", "Proposed", "storage", "Shard orders by customer."),
		"doc/adr/0004-cache-reads.md":    record(4, "Cache reads", "Accepted", "storage", "Cache order reads for 60 seconds."),
	}
}

func load(t testing.TB, fsys fstest.MapFS) *adr.Log {
	t.Helper()
	l, err := adr.Load(fsys, adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// fullDraft states every accepted decision of the selection as a
// constraint, proposals as proposals, and accounts for every unit.
func fullDraft(recs []*adr.Record) Draft {
	var d Draft
	for _, r := range recs {
		u, _ := r.Unit("decision")
		st := Statement{Topic: strings.Title(firstDomain(r)), Text: strings.TrimSpace(strings.TrimPrefix(r.UnitText(u), "## Decision\n")), Sources: []string{u.ID}}
		switch r.Status {
		case adr.Accepted:
			d.Constraints = append(d.Constraints, st)
		case adr.Proposed:
			d.Proposals = append(d.Proposals, st)
		}
		for _, u := range r.Units() {
			c := UnitCoverage{Unit: u.ID, State: Retained, Location: HeadingConstraints + "/" + st.Topic}
			if r.Status == adr.Proposed {
				c = UnitCoverage{Unit: u.ID, State: Unresolved, Reason: "an open proposal"}
			}
			d.Coverage = append(d.Coverage, c)
		}
	}
	return d
}

func firstDomain(r *adr.Record) string {
	if len(r.Domains) == 0 {
		return ""
	}
	return r.Domains[0]
}

// publish builds the view of the first root for sel and writes the pair
// into fsys.
func publish(t testing.TB, fsys fstest.MapFS, sel Selection, deps ...string) *Manifest {
	t.Helper()
	l := load(t, fsys)
	root := l.Roots[0]
	srcs := Members(l, root, sel)
	var ds []*adr.Record
	for _, p := range deps {
		ds = append(ds, l.ByPath(p))
	}
	m, cur, err := Build(l, root, sel, srcs, ds, fullDraft(srcs), "s-0123456789", 2, "git-adr test")
	if err != nil {
		t.Fatal(err)
	}
	fsys[m.Summary.Path] = &fstest.MapFile{Data: cur}
	fsys[root.Join(ManifestFile)] = &fstest.MapFile{Data: m.Encode()}
	return m
}

func check(t testing.TB, fsys fstest.MapFS) Freshness {
	t.Helper()
	l := load(t, fsys)
	return Check(l, l.Roots[0])
}

func wantState(t *testing.T, f Freshness, state State, kinds ...string) {
	t.Helper()
	if f.State != state {
		t.Fatalf("state %s, want %s (reasons %+v)", f.State, state, f.Reasons)
	}
	var got []string
	for _, r := range f.Reasons {
		got = append(got, r.Kind)
	}
	if strings.Join(got, ",") != strings.Join(kinds, ",") {
		t.Fatalf("reasons %v, want %v: %+v", got, kinds, f.Reasons)
	}
}

func TestBuildThenCheckIsFresh(t *testing.T) {
	for _, sel := range []Selection{NewSelection("", nil), NewSelection("storage", nil), NewSelection("", []string{"ADR-0001", "ADR-0004"})} {
		fsys := baseFS()
		m := publish(t, fsys, sel, "doc/adr/0002-log-json.md")
		f := check(t, fsys)
		wantState(t, f, Fresh)
		if f.Plan != "s-0123456789" || f.Revision != 2 || f.Manifest == nil || f.Manifest.Membership != m.Membership {
			t.Errorf("%+v", f)
		}
	}
}

func TestFreshnessTransitions(t *testing.T) {
	const p1, p3, p4 = "doc/adr/0001-use-postgresql.md", "doc/adr/0003-shard-orders.md", "doc/adr/0004-cache-reads.md"
	all, storage := NewSelection("", nil), NewSelection("storage", nil)
	cases := []struct {
		name   string
		sel    Selection
		change func(fstest.MapFS)
		state  State
		kinds  []string
	}{
		{"edit a source", all, func(f fstest.MapFS) {
			f[p1] = record(1, "Use PostgreSQL", "Accepted", "storage", "Orders are stored in PostgreSQL 16.")
		}, Stale, []string{ReasonEdited}},
		{"re-status a source", all, func(f fstest.MapFS) {
			f[p3] = record(3, "Shard orders", "Accepted", "storage", "Shard orders by customer.")
		}, Stale, []string{ReasonStatus}},
		{"delete a source", all, func(f fstest.MapFS) { delete(f, p4) }, Stale, []string{ReasonDeleted}},
		{"rename a source", all, func(f fstest.MapFS) {
			f["doc/adr/0004-cache-order-reads.md"] = f[p4]
			delete(f, p4)
		}, Stale, []string{ReasonMoved}},
		{"renumber a source", all, func(f fstest.MapFS) {
			f["doc/adr/0009-cache-reads.md"] = f[p4]
			delete(f, p4)
		}, Stale, []string{ReasonMoved}},
		{"archive a source", all, func(f fstest.MapFS) {
			f["doc/adr/archive/0004-cache-reads.md"] = f[p4]
			delete(f, p4)
		}, Stale, []string{ReasonArchived}},
		{"add a record", all, func(f fstest.MapFS) {
			f["doc/adr/0005-use-kafka.md"] = record(5, "Use Kafka", "Accepted", "messaging", "Events go through Kafka.")
		}, Stale, []string{ReasonAdded}},
		{"a record enters the domain", storage, func(f fstest.MapFS) {
			f["doc/adr/0005-archive-orders.md"] = record(5, "Archive orders", "Accepted", "storage", "Orders older than a year move to S3.")
		}, Stale, []string{ReasonAdded}},
		{"a record outside the domain does not matter", storage, func(f fstest.MapFS) {
			f["doc/adr/0005-use-kafka.md"] = record(5, "Use Kafka", "Accepted", "messaging", "Events go through Kafka.")
		}, Fresh, nil},
		{"a record leaves the domain", storage, func(f fstest.MapFS) {
			f[p4] = record(4, "Cache reads", "Accepted", "performance", "Cache order reads for 60 seconds.")
		}, Stale, []string{ReasonRemoved, ReasonEdited}},
		{"a dependency changes", storage, func(f fstest.MapFS) {
			f["doc/adr/0002-log-json.md"] = record(2, "Log JSON lines", "Accepted", "platform, system", "Every service logs JSON lines to stdout.")
		}, Stale, []string{ReasonDependency}},
		{"a dependency is deleted", storage, func(f fstest.MapFS) { delete(f, "doc/adr/0002-log-json.md") }, Stale, []string{ReasonDependency}},
		{"an unrelated file changes", all, func(f fstest.MapFS) {
			f["doc/adr/README.md"] = &fstest.MapFile{Data: []byte("# Decisions\n")}
		}, Fresh, nil},
		{"CRLF checkout", all, func(f fstest.MapFS) {
			f[p1] = &fstest.MapFile{Data: []byte(strings.ReplaceAll(string(f[p1].Data), "\n", "\r\n"))}
			f["doc/adr/CURRENT.md"] = &fstest.MapFile{Data: []byte(strings.ReplaceAll(string(f["doc/adr/CURRENT.md"].Data), "\n", "\r\n"))}
		}, Fresh, nil},
		{"hand edit of CURRENT.md", all, func(f fstest.MapFS) {
			f["doc/adr/CURRENT.md"] = &fstest.MapFile{Data: append(f["doc/adr/CURRENT.md"].Data, "- We also use Redis.\n"...)}
		}, Corrupt, []string{ReasonPairMismatch}},
		{"manifest not JSON", all, func(f fstest.MapFS) {
			f["doc/adr/CURRENT.sources.json"] = &fstest.MapFile{Data: []byte("{\n  \"schema\": \"git-adr/current-sources/v1\",\n  oops\n}\n")}
		}, Corrupt, []string{ReasonManifestInvalid}},
		{"manifest without CURRENT.md", all, func(f fstest.MapFS) { delete(f, "doc/adr/CURRENT.md") }, Corrupt, []string{ReasonCurrentMissing}},
		{"CURRENT.md without manifest", all, func(f fstest.MapFS) { delete(f, "doc/adr/CURRENT.sources.json") }, Corrupt, []string{ReasonManifestMissing}},
		{"pair of another root", all, func(f fstest.MapFS) {
			f["doc/adr/CURRENT.sources.json"] = &fstest.MapFile{Data: []byte(strings.Replace(string(f["doc/adr/CURRENT.sources.json"].Data), `"root": "doc/adr"`, `"root": "docs/adr"`, 1))}
		}, Corrupt, []string{ReasonPairMismatch}},
		{"membership tampered", all, func(f fstest.MapFS) {
			data := string(f["doc/adr/CURRENT.sources.json"].Data)
			i := strings.Index(data, `"membership": "`) + len(`"membership": "`)
			f["doc/adr/CURRENT.sources.json"] = &fstest.MapFile{Data: []byte(data[:i] + "0" + data[i+1:])}
		}, Corrupt, []string{ReasonManifestInvalid}},
		{"unknown schema", all, func(f fstest.MapFS) {
			f["doc/adr/CURRENT.sources.json"] = &fstest.MapFile{Data: []byte(`{"schema": "git-adr/current-sources/v9", "whatever": 1}`)}
		}, Unsupported, []string{ReasonSchema}},
		{"unknown rule", all, func(f fstest.MapFS) {
			f["doc/adr/CURRENT.sources.json"] = &fstest.MapFile{Data: []byte(strings.Replace(string(f["doc/adr/CURRENT.sources.json"].Data), `"rule": "unarchived"`, `"rule": "accepted-only"`, 1))}
		}, Unsupported, []string{ReasonSchema}},
		{"no pair", all, func(f fstest.MapFS) {
			delete(f, "doc/adr/CURRENT.md")
			delete(f, "doc/adr/CURRENT.sources.json")
		}, Missing, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fsys := baseFS()
			publish(t, fsys, c.sel, "doc/adr/0002-log-json.md")
			c.change(fsys)
			f := check(t, fsys)
			wantState(t, f, c.state, c.kinds...)
			for _, r := range f.Reasons {
				if r.Message == "" || r.File == "" {
					t.Errorf("reason without message or file: %+v", r)
				}
			}
		})
	}
}

func TestStaleMessagesAndLines(t *testing.T) {
	fsys := baseFS()
	publish(t, fsys, NewSelection("", nil))
	fsys["doc/adr/0004-cache-reads.md"] = record(4, "Cache reads", "Accepted", "storage", "Cache order reads for 30 seconds.")
	f := check(t, fsys)
	if got, want := f.Summary(), "ADR-0004 changed since plan s-0123456789 revision 2"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	r := f.Reasons[0]
	manifest := string(fsys["doc/adr/CURRENT.sources.json"].Data)
	lines := strings.Split(manifest, "\n")
	if r.Line == 0 || !strings.Contains(lines[r.Line-1], `"id": "ADR-0004"`) {
		t.Errorf("line %d does not point at ADR-0004's entry", r.Line)
	}
	if f.Fix() != "git adr compaction --mode summary" {
		t.Errorf("fix %q", f.Fix())
	}
}

// Many changes: the list is bounded, the rest counted, order by kind.
func TestReasonsBounded(t *testing.T) {
	fsys := baseFS()
	for n := 5; n <= 30; n++ {
		fsys[fmt.Sprintf("doc/adr/%04d-r.md", n)] = record(n, "R", "Accepted", "", "Decision.")
	}
	publish(t, fsys, NewSelection("", nil))
	for n := 5; n <= 30; n++ {
		fsys[fmt.Sprintf("doc/adr/%04d-r.md", n)] = record(n, "R", "Accepted", "", "Other decision.")
	}
	delete(fsys, "doc/adr/0001-use-postgresql.md")
	f := check(t, fsys)
	if f.State != Stale || len(f.Reasons) != MaxReasons || f.More != 26+1-MaxReasons || f.Reasons[0].Kind != ReasonDeleted {
		t.Fatalf("%s %d reasons, %d more, first %+v", f.State, len(f.Reasons), f.More, f.Reasons[0])
	}
	if !strings.HasSuffix(f.Summary(), fmt.Sprintf("(and %d more)", 26)) {
		t.Errorf("summary %q", f.Summary())
	}
}

func TestBuildRejectsIncompleteDrafts(t *testing.T) {
	l := load(t, baseFS())
	root := l.Roots[0]
	sel := NewSelection("storage", nil)
	srcs := Members(l, root, sel)
	d := fullDraft(srcs)
	d.Coverage = d.Coverage[1:]                                                               // one unit missing
	d.Coverage = append(d.Coverage, d.Coverage[0])                                            // one twice
	d.Coverage = append(d.Coverage, UnitCoverage{Unit: "ADR-0001#nowhere", State: Retained})  // unknown
	d.Coverage = append(d.Coverage, UnitCoverage{Unit: "ADR-0002#decision", State: Retained}) // not a source
	d.Constraints = append(d.Constraints, Statement{Text: "Uncited."}, Statement{Text: "Cites nothing real.", Sources: []string{"ADR-0042#decision"}})
	_, _, err := Build(l, root, sel, srcs, nil, d, "s-1", 1, "test")
	var de *DraftError
	if !errors.As(err, &de) {
		t.Fatalf("want a DraftError, got %v", err)
	}
	want := []string{
		`ADR-0001#status is not accounted for: retain, change, retire or mark it unresolved`,
		`ADR-0001#context is accounted for more than once`,
		`coverage names "ADR-0001#nowhere", which is no unit`,
		`coverage names ADR-0002#decision, which is not a unit of a source in doc/adr`,
		`constraint 3 ("Uncited.") cites no unit`,
		`constraint 4 cites "ADR-0042#decision", which is no unit`,
	}
	for _, w := range want {
		found := false
		for _, p := range de.Problems {
			found = found || p == w
		}
		if !found {
			t.Errorf("missing problem %q in %q", w, de.Problems)
		}
	}
	// Sources that are not the selection's members.
	_, _, err = Build(l, root, sel, srcs[:1], nil, fullDraft(srcs[:1]), "s-1", 1, "test")
	if err == nil || !strings.Contains(err.Error(), "in scope but not a source: ADR-0003, ADR-0004") {
		t.Errorf("got %v", err)
	}
}

func TestBuildNormalisesCitationsAndAddsDependencies(t *testing.T) {
	l := load(t, baseFS())
	root := l.Roots[0]
	sel := NewSelection("storage", nil)
	srcs := Members(l, root, sel)
	d := fullDraft(srcs)
	d.Constraints[0].Sources = []string{"1#decision", "ADR-0002#decision.1"} // loose forms; a record outside the scope
	m, cur, err := Build(l, root, sel, srcs, nil, d, "s-1", 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Dependencies) != 1 || m.Dependencies[0].ID != "ADR-0002" || len(m.Dependencies[0].Units) != 1 || m.Dependencies[0].Units[0].Coverage != Cited {
		t.Errorf("dependencies %+v", m.Dependencies)
	}
	if !strings.Contains(string(cur), "([ADR-0001](0001-use-postgresql.md#decision), [ADR-0002#decision.1](0002-log-json.md#decision))") {
		t.Errorf("references not normalised:\n%s", cur)
	}
	if m.Summary.SHA256 != SummaryHash(cur) {
		t.Error("summary hash does not pin CURRENT.md")
	}
}

func TestRenderDeterministic(t *testing.T) {
	fsys := baseFS()
	m := publish(t, fsys, NewSelection("", nil), "doc/adr/0002-log-json.md")
	first := fsys["doc/adr/CURRENT.md"].Data
	fsys2 := baseFS()
	publish(t, fsys2, NewSelection("", nil), "doc/adr/0002-log-json.md")
	if string(first) != string(fsys2["doc/adr/CURRENT.md"].Data) || string(m.Encode()) != string(fsys2["doc/adr/CURRENT.sources.json"].Data) {
		t.Error("the same draft gave different bytes")
	}
}

// A rename that keeps the bytes is repaired mechanically; anything else
// needs a reviewed summary.
func TestRelocate(t *testing.T) {
	const from, to = "doc/adr/0004-cache-reads.md", "doc/adr/0004-cache-order-reads.md"
	fsys := baseFS()
	publish(t, fsys, NewSelection("storage", nil), "doc/adr/0002-log-json.md")
	fsys[to] = fsys[from]
	delete(fsys, from)
	l := load(t, fsys)
	m, cur, err := Relocate(l, l.Roots[0])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(cur), "0004-cache-reads.md") || !strings.Contains(string(cur), "[ADR-0004](0004-cache-order-reads.md#decision)") ||
		!strings.Contains(string(cur), "`doc/adr/0004-cache-order-reads.md`") {
		t.Errorf("links not rewritten:\n%s", cur)
	}
	fsys["doc/adr/CURRENT.md"] = &fstest.MapFile{Data: cur}
	fsys["doc/adr/CURRENT.sources.json"] = &fstest.MapFile{Data: m.Encode()}
	wantState(t, check(t, fsys), Fresh)

	// A rename plus an edit, or any other change, is refused.
	fsys[to] = record(4, "Cache reads", "Accepted", "storage", "Cache order reads for 5 seconds.")
	fsys["doc/adr/0004-cache-reads-again.md"] = fsys[to]
	delete(fsys, to)
	l = load(t, fsys)
	if _, _, err := Relocate(l, l.Roots[0]); err == nil || !strings.Contains(err.Error(), "needs a reviewed summary") {
		t.Errorf("edited and moved: %v", err)
	}
}

func TestSections(t *testing.T) {
	fsys := baseFS()
	publish(t, fsys, NewSelection("", nil))
	cur := fsys["doc/adr/CURRENT.md"].Data
	var got []string
	for _, s := range Sections("doc/adr/CURRENT.md", cur) {
		got = append(got, fmt.Sprintf("%s/%s#%s %d-%d empty=%v cites=%v", s.Part, s.Topic, s.Anchor, s.Start, s.End, s.Empty, s.Cites))
	}
	want := []string{
		"constraints/Storage#storage 9-12 empty=false cites=[doc/adr/0001-use-postgresql.md doc/adr/0004-cache-reads.md]",
		"constraints/Platform#platform 14-16 empty=false cites=[doc/adr/0002-log-json.md]",
		"rationale/#rationale-and-risks 18-20 empty=true cites=[]",
		"proposals/#proposals-not-in-force 22-24 empty=false cites=[doc/adr/0003-shard-orders.md]",
		"conflicts/#conflicts-and-open-questions 26-28 empty=true cites=[]",
		"coverage/#coverage 30-38 empty=false cites=[doc/adr/0003-shard-orders.md]",
		"sources/#sources 40-45 empty=false cites=[doc/adr/0001-use-postgresql.md doc/adr/0002-log-json.md doc/adr/0003-shard-orders.md doc/adr/0004-cache-reads.md]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sections:\n%s\nwant:\n%s\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), cur)
	}
}

// Statement text is Markdown kept inside its list item: continuation
// lines indented, blank lines kept, a closing fence not followed by the
// references; headings inside statements never become sections.
func TestRenderMultilineStatements(t *testing.T) {
	l := load(t, baseFS())
	root := l.Roots[0]
	sel := NewSelection("", []string{"ADR-0001"})
	srcs := Members(l, root, sel)
	d := fullDraft(srcs)
	d.Constraints[0].Topic = "Storage\nand more"
	d.Constraints[0].Text = "Orders live in PostgreSQL:\n\n## not a heading\n\n```sql\nSELECT 1;\n```"
	_, cur, err := Build(l, root, sel, srcs, nil, d, "s-1", 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	want := "### Storage and more\n\n- Orders live in PostgreSQL:\n\n  ## not a heading\n\n  ```sql\n  SELECT 1;\n  ```\n\n  ([ADR-0001](0001-use-postgresql.md#decision))\n"
	if !strings.Contains(string(cur), want) {
		t.Errorf("got\n%s\nwant it to contain\n%s", cur, want)
	}
	secs := Sections("doc/adr/CURRENT.md", cur)
	if secs[0].Topic != "Storage and more" || secs[1].Part != PartRationale {
		t.Errorf("sections %+v", secs[:2])
	}
}

// A plan over two roots publishes one pair per root; the first links the
// other; a statement citing both roots appears in both, the other root's
// record a dependency.
func TestBuildAll(t *testing.T) {
	fsys := baseFS()
	fsys[".adr.toml"] = &fstest.MapFile{Data: []byte("[[roots]]\npath = \"doc/adr\"\n\n[[roots]]\npath = \"services/billing/adr\"\nprefix = \"BILL-\"\n")}
	fsys["services/billing/adr/0001-invoice-monthly.md"] = record(1, "Invoice monthly", "Accepted", "billing", "Invoices go out monthly.")
	l := load(t, fsys)
	if len(l.Roots) != 2 {
		t.Fatalf("roots %v", l.Roots)
	}
	var srcs []*adr.Record
	for _, root := range l.Roots {
		srcs = append(srcs, Members(l, root, NewSelection("", nil))...)
	}
	d := fullDraft(srcs)
	d.Conflicts = []Statement{{Text: "Billing reads orders from PostgreSQL.", Sources: []string{"BILL-0001#decision", "ADR-0001#decision"}}}
	d.Rationale = []Statement{{Text: "Uncited context."}}
	pairs, err := BuildAll(l, NewSelection("", nil), srcs, nil, d, "s-2", 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 2 {
		t.Fatalf("%d pairs", len(pairs))
	}
	main, mod := pairs[0], pairs[1]
	if c, _ := mod.Paths(); c != "services/billing/adr/CURRENT.md" || len(main.Manifest.Views) != 1 || main.Manifest.Views[0] != c {
		t.Errorf("views %v, module pair %s", main.Manifest.Views, c)
	}
	if !strings.Contains(string(main.Current), "- [services/billing/adr/CURRENT.md](../../services/billing/adr/CURRENT.md)") {
		t.Errorf("main view does not link the module view:\n%s", main.Current)
	}
	if !strings.Contains(string(mod.Current), "Billing reads orders") || len(mod.Manifest.Dependencies) != 1 || mod.Manifest.Dependencies[0].ID != "ADR-0001" {
		t.Errorf("module view: deps %+v\n%s", mod.Manifest.Dependencies, mod.Current)
	}
	if !strings.Contains(string(main.Current), "Uncited context.") || strings.Contains(string(mod.Current), "Uncited context.") {
		t.Error("uncited statements belong to the first root only")
	}
	for _, p := range pairs {
		c, mf := p.Paths()
		fsys[c] = &fstest.MapFile{Data: p.Current}
		fsys[mf] = &fstest.MapFile{Data: p.ManifestJSON}
	}
	l = load(t, fsys)
	for _, root := range l.Roots {
		wantState(t, Check(l, root), Fresh)
	}
}

// A CURRENT.md the team wrote is not a view: never used, never reported,
// never overwritten.
func TestForeignCurrent(t *testing.T) {
	fsys := baseFS()
	fsys["doc/adr/CURRENT.md"] = &fstest.MapFile{Data: []byte("# What we decided\n\nOur own page.\n")}
	wantState(t, check(t, fsys), Missing)
	l := load(t, fsys)
	var fe *ForeignError
	if err := Owned(l, l.Roots[0]); !errors.As(err, &fe) || fe.Path != "doc/adr/CURRENT.md" {
		t.Errorf("Owned: %v", err)
	}
	fsys = baseFS()
	fsys["doc/adr/CURRENT.sources.json"] = &fstest.MapFile{Data: []byte(`{"sources": ["a.md"]}`)}
	l = load(t, fsys)
	if err := Owned(l, l.Roots[0]); !errors.As(err, &fe) || fe.Path != "doc/adr/CURRENT.sources.json" {
		t.Errorf("Owned: %v", err)
	}
	fsys = baseFS()
	publish(t, fsys, NewSelection("", nil))
	fsys["doc/adr/CURRENT.sources.json"] = &fstest.MapFile{Data: []byte("{ broken")}
	l = load(t, fsys)
	if err := Owned(l, l.Roots[0]); err != nil {
		t.Errorf("our own broken pair: %v", err)
	}
}

func TestBuildRefusesForeignFiles(t *testing.T) {
	fsys := baseFS()
	fsys["doc/adr/CURRENT.md"] = &fstest.MapFile{Data: []byte("# Ours\n")}
	l := load(t, fsys)
	srcs := Members(l, l.Roots[0], NewSelection("", nil))
	_, _, err := Build(l, l.Roots[0], NewSelection("", nil), srcs, nil, fullDraft(srcs), "s-1", 1, "test")
	var fe *ForeignError
	if !errors.As(err, &fe) {
		t.Errorf("got %v", err)
	}
}

// TestMoved: archival moves a source out of the unarchived scope; the
// relocated view keeps it as a dependency and is fresh; restore brings it
// back as a source, and the pair is byte for byte what it was. A content
// change the caller did not explain is refused.
func TestMoved(t *testing.T) {
	const live, archived = "doc/adr/0003-shard-orders.md", "doc/adr/archive/0003-shard-orders.md"
	fsys := baseFS()
	m0 := publish(t, fsys, NewSelection("", nil))
	man0, cur0 := fsys["doc/adr/CURRENT.sources.json"].Data, fsys["doc/adr/CURRENT.md"].Data
	move := func(from, to, linkFrom, linkTo string) {
		t.Helper()
		fsys[to] = fsys[from]
		delete(fsys, from)
		cur := strings.ReplaceAll(string(fsys["doc/adr/CURRENT.md"].Data), "]("+linkFrom, "]("+linkTo)
		var m Manifest
		if err := json.Unmarshal(fsys["doc/adr/CURRENT.sources.json"].Data, &m); err != nil {
			t.Fatal(err)
		}
		l := load(t, fsys)
		nm, ncur, err := Moved(l, l.Roots[0], &m, []byte(cur), Moves{Paths: map[string]string{from: to}})
		if err != nil {
			t.Fatal(err)
		}
		fsys["doc/adr/CURRENT.md"] = &fstest.MapFile{Data: ncur}
		fsys["doc/adr/CURRENT.sources.json"] = &fstest.MapFile{Data: nm.Encode()}
		wantState(t, check(t, fsys), Fresh)
	}
	move(live, archived, "0003-shard-orders.md", "archive/0003-shard-orders.md")
	var m Manifest
	json.Unmarshal(fsys["doc/adr/CURRENT.sources.json"].Data, &m)
	if len(m.Sources) != len(m0.Sources)-1 || len(m.Dependencies) != 1 || m.Dependencies[0].Path != archived {
		t.Fatalf("after archival: %d sources, dependencies %+v", len(m.Sources), m.Dependencies)
	}
	if !strings.Contains(string(fsys["doc/adr/CURRENT.md"].Data), "`"+archived+"`") {
		t.Error("the code-span path did not follow the move")
	}
	move(archived, live, "archive/0003-shard-orders.md", "0003-shard-orders.md")
	if string(fsys["doc/adr/CURRENT.sources.json"].Data) != string(man0) || string(fsys["doc/adr/CURRENT.md"].Data) != string(cur0) {
		t.Error("archive then restore did not give back the pair byte for byte")
	}

	// Moved and edited: a reviewed summary is needed.
	fsys[archived] = record(3, "Shard orders", "Proposed", "storage", "Shard orders by region.")
	delete(fsys, live)
	l := load(t, fsys)
	if _, _, err := Moved(l, l.Roots[0], m0, cur0, Moves{Paths: map[string]string{live: archived}}); err == nil || !strings.Contains(err.Error(), "changed since it was reviewed") {
		t.Errorf("moved and edited: %v", err)
	}
}
