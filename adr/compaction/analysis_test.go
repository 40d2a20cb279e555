package compaction

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/adr"
)

// rec writes an adr-tools record: status paragraph, extra status lines
// (relations), optional "Domains:" line and body.
type rec struct {
	n       int
	title   string
	status  string
	links   []string
	domains string
	body    string
}

func (r rec) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %d. %s\n\nDate: 2026-01-01\n", r.n, r.title)
	if r.domains != "" {
		fmt.Fprintf(&b, "Domains: %s\n", r.domains)
	}
	fmt.Fprintf(&b, "\n## Status\n\n%s\n", r.status)
	for _, l := range r.links {
		fmt.Fprintf(&b, "\n%s\n", l)
	}
	body := r.body
	if body == "" {
		body = "## Context\n\nC.\n\n## Decision\n\nD.\n\n## Consequences\n\nE.\n"
	}
	b.WriteString("\n" + body)
	return b.String()
}

func (r rec) file() string {
	return fmt.Sprintf("doc/adr/%04d-%s.md", r.n, strings.ToLower(strings.ReplaceAll(r.title, " ", "-")))
}

func link(label string, n int, title string) string {
	return fmt.Sprintf("%s [%d. %s](%04d-%s.md)", label, n, title, n, strings.ToLower(strings.ReplaceAll(title, " ", "-")))
}

func load(t testing.TB, files map[string]string, recs ...rec) *adr.Log {
	t.Helper()
	fsys := fstest.MapFS{}
	for _, r := range recs {
		fsys[r.file()] = &fstest.MapFile{Data: []byte(r.text())}
	}
	for p, s := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(s)}
	}
	l, err := adr.Load(fsys, adr.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func analyze(t testing.TB, l *adr.Log, opt AnalyzeOptions) *Analysis {
	t.Helper()
	a, err := Analyze(l, opt)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func classOf(a *Analysis, id string) RecordClass {
	for _, r := range a.Records {
		if r.ID == id {
			return r
		}
	}
	return RecordClass{}
}

func issuesOf(a *Analysis, kind string) []Issue {
	var out []Issue
	for _, is := range a.Issues {
		if is.Kind == kind {
			out = append(out, is)
		}
	}
	return out
}

// wantClass checks a record's class and that its reason contains want.
func wantClass(t *testing.T, a *Analysis, id string, c Class, want string) {
	t.Helper()
	got := classOf(a, id)
	if got.Class != c || !strings.Contains(got.Reason, want) {
		t.Errorf("%s: got %s (%q), want %s with %q", id, got.Class, got.Reason, c, want)
	}
}

func TestClasses(t *testing.T) {
	l := load(t, nil,
		rec{n: 1, title: "Proposal", status: "Proposed"},
		rec{n: 2, title: "Alone", status: "Accepted"},
		rec{n: 3, title: "Base", status: "Accepted", links: []string{link("Amended by", 4, "Amendment")}},
		rec{n: 4, title: "Amendment", status: "Accepted", links: []string{link("Amends", 3, "Base")}},
		rec{n: 5, title: "Refinement", status: "Accepted", links: []string{link("Refines", 4, "Amendment")}},
		rec{n: 6, title: "Storage one", status: "Accepted", domains: "storage", links: []string{link("Relates to", 7, "Storage two")}},
		rec{n: 7, title: "Storage two", status: "Accepted", domains: "storage, api"},
		rec{n: 8, title: "Cross domain", status: "Accepted", domains: "ui", links: []string{link("Relates to", 2, "Alone")}},
		rec{n: 9, title: "Rejected", status: "Rejected"},
		rec{n: 10, title: "Deprecated", status: "Deprecated"},
		rec{n: 11, title: "Old", status: link("Superseded by", 12, "Middle")},
		rec{n: 12, title: "Middle", status: link("Superseded by", 13, "New"), links: []string{link("Supersedes", 11, "Old")}},
		rec{n: 13, title: "New", status: "Accepted", links: []string{link("Supersedes", 12, "Middle")}},
		rec{n: 14, title: "Empty", status: "Accepted", body: "## Context\n\n## Decision\n\n<!-- to do -->\n"},
	)
	a := analyze(t, l, AnalyzeOptions{})
	wantClass(t, a, "ADR-0001", RetainUnchanged, "open proposal")
	wantClass(t, a, "ADR-0002", SummarizeClass, "accepted and in force")
	// 3, 4, 5: a chain of amendments and refinements is one cluster.
	wantClass(t, a, "ADR-0003", ConsolidateClass, "amended by ADR-0004: one of 3 accepted records (ADR-0003, ADR-0004, ADR-0005)")
	wantClass(t, a, "ADR-0004", ConsolidateClass, "amends ADR-0003, refined by ADR-0005")
	wantClass(t, a, "ADR-0005", ConsolidateClass, "refines ADR-0004")
	// A relation clusters only records that share a domain.
	wantClass(t, a, "ADR-0006", ConsolidateClass, "relates to ADR-0007 (domain storage): one of 2")
	wantClass(t, a, "ADR-0008", SummarizeClass, "in force")
	wantClass(t, a, "ADR-0009", ArchivalCandidate, "rejected")
	wantClass(t, a, "ADR-0010", ArchivalCandidate, "deprecated")
	wantClass(t, a, "ADR-0011", ArchivalCandidate, "superseded by ADR-0012, itself superseded by a record in force")
	wantClass(t, a, "ADR-0012", ArchivalCandidate, "superseded by ADR-0013, which is in force")
	wantClass(t, a, "ADR-0013", SummarizeClass, "in force")
	wantClass(t, a, "ADR-0014", RetainUnchanged, "every section is empty")
	if len(a.Issues) != 0 {
		t.Errorf("issues: %+v", a.Issues)
	}
	if len(a.Records) != 14 || !reflect.DeepEqual(a.Roots, []RootCount{{"doc/adr", 14}}) {
		t.Errorf("roots %+v, %d records", a.Roots, len(a.Records))
	}
	for i, c := range Classes {
		if n := a.Count(c); n != []int{2, 3, 5, 0, 4}[i] {
			t.Errorf("%s: %d records", c, n)
		}
	}
}

func TestUnknownStatusAndAmbiguousID(t *testing.T) {
	l := load(t, map[string]string{
		// .adr.toml may silence kinds for check; compaction still sees them.
		".adr.toml":           "[check]\nignore = [\"unknown-status\", \"duplicate-id\"]\n",
		"doc/adr/0003-b.md":   rec{n: 3, title: "B", status: "Accepted"}.text(),
		"doc/adr/0004-ref.md": rec{n: 4, title: "Ref", status: "Accepted", links: []string{"Amends ADR-0003"}}.text(),
	},
		rec{n: 1, title: "No status", status: ""},
		rec{n: 2, title: "On hold", status: "On hold"},
		rec{n: 3, title: "A", status: "Accepted"},
	)
	a := analyze(t, l, AnalyzeOptions{})
	wantClass(t, a, "ADR-0001", UnresolvedClass, "no status")
	wantClass(t, a, "ADR-0002", UnresolvedClass, `status "On hold" is not one git-adr knows`)
	if got := issuesOf(a, KindUnknownStatus); len(got) != 2 || got[1].Line != 7 || got[1].Message != `unknown status "On hold"` {
		t.Errorf("unknown-status: %+v", got)
	}
	// Both records numbered 3 are unresolved; the reference to ADR-0003
	// is an ambiguous ID, not a broken reference.
	for _, r := range a.Records {
		if r.ID == "ADR-0003" && (r.Class != UnresolvedClass || !strings.Contains(r.Reason, "also names")) {
			t.Errorf("%s: %+v", r.Path, r)
		}
	}
	wantClass(t, a, "ADR-0004", UnresolvedClass, `"Amends ADR-0003" on line 9 names several records`)
	amb := issuesOf(a, KindAmbiguousID)
	if len(amb) != 2 || amb[0].Path != "doc/adr/0003-b.md" || amb[1].Path != "doc/adr/0004-ref.md" || amb[1].Line != 9 {
		t.Errorf("ambiguous-id: %+v", amb)
	}
	if got := issuesOf(a, KindBrokenReference); len(got) != 0 {
		t.Errorf("broken-reference: %+v", got)
	}
}

func TestCycleAndBrokenReferences(t *testing.T) {
	l := load(t, nil,
		rec{n: 1, title: "A", status: link("Superseded by", 2, "B")},
		rec{n: 2, title: "B", status: link("Superseded by", 1, "A")},
		rec{n: 3, title: "Dangling", status: "Accepted", links: []string{link("Amends", 9, "Nothing")}},
		rec{n: 4, title: "Prose link", status: "Accepted", body: "## Decision\n\nSee [the design](design.md).\n"},
		rec{n: 5, title: "Retired link", status: "Deprecated", body: "## Decision\n\nSee [the design](design.md).\n"},
	)
	a := analyze(t, l, AnalyzeOptions{})
	wantClass(t, a, "ADR-0001", UnresolvedClass, "supersession cycle")
	wantClass(t, a, "ADR-0002", UnresolvedClass, "supersession cycle")
	if c := issuesOf(a, KindCycle); len(c) != 1 || !reflect.DeepEqual(c[0].IDs, []string{"ADR-0001", "ADR-0002"}) {
		t.Errorf("cycle: %+v", c)
	}
	// A broken relation blocks; a broken prose link only keeps a retired
	// record out of the archive.
	wantClass(t, a, "ADR-0003", UnresolvedClass, `"Amends 0009-nothing.md" on line 9 names no record`)
	wantClass(t, a, "ADR-0004", SummarizeClass, "in force")
	wantClass(t, a, "ADR-0005", UnresolvedClass, "wholly retired, but a link on line 11 leads nowhere")
	if b := issuesOf(a, KindBrokenReference); len(b) != 3 {
		t.Errorf("broken-reference: %+v", b)
	}
}

func TestContradictionsAndProposedSuccessors(t *testing.T) {
	l := load(t, nil,
		// Superseded, but nothing supersedes it.
		rec{n: 1, title: "Orphan", status: "Superseded"},
		// Accepted, but an accepted record supersedes it.
		rec{n: 2, title: "Still accepted", status: "Accepted"},
		rec{n: 3, title: "Winner", status: "Accepted", links: []string{link("Supersedes", 2, "Still accepted")}},
		// Superseded by a rejected record.
		rec{n: 4, title: "Retired by rejection", status: link("Superseded by", 5, "Rejected successor")},
		rec{n: 5, title: "Rejected successor", status: "Rejected", links: []string{link("Supersedes", 4, "Retired by rejection")}},
		// Two accepted records supersede one.
		rec{n: 6, title: "Split", status: "Superseded", links: []string{link("Superseded by", 7, "Left"), link("Superseded by", 8, "Right")}},
		rec{n: 7, title: "Left", status: "Accepted", links: []string{link("Supersedes", 6, "Split")}},
		rec{n: 8, title: "Right", status: "Accepted", links: []string{link("Supersedes", 6, "Split")}},
		// A proposal supersedes an accepted record: it stays binding.
		rec{n: 9, title: "Binding", status: "Accepted"},
		rec{n: 10, title: "Challenger", status: "Proposed", links: []string{link("Supersedes", 9, "Binding")}},
		// Superseded by a mere proposal.
		rec{n: 11, title: "Early", status: link("Superseded by", 12, "Pending")},
		rec{n: 12, title: "Pending", status: "Proposed"},
	)
	a := analyze(t, l, AnalyzeOptions{})
	wantClass(t, a, "ADR-0001", UnresolvedClass, "superseded, but no record names itself its successor")
	wantClass(t, a, "ADR-0002", UnresolvedClass, "accepted, yet accepted ADR-0003 supersedes it")
	wantClass(t, a, "ADR-0003", SummarizeClass, "in force")
	wantClass(t, a, "ADR-0004", UnresolvedClass, "superseded, but ADR-0005 was rejected")
	wantClass(t, a, "ADR-0005", ArchivalCandidate, "rejected")
	wantClass(t, a, "ADR-0006", UnresolvedClass, "superseded by 2 accepted records (ADR-0007, ADR-0008)")
	wantClass(t, a, "ADR-0009", SummarizeClass, "proposal ADR-0010 would supersede it once accepted")
	wantClass(t, a, "ADR-0010", UnresolvedClass, "proposes to supersede accepted ADR-0009, which stays binding")
	wantClass(t, a, "ADR-0011", UnresolvedClass, "superseded, but ADR-0012 is only proposed")
	want := []string{
		"doc/adr/0001-orphan.md:7: the status is superseded but no record supersedes it",
		"doc/adr/0002-still-accepted.md:7: the status is accepted but ADR-0003 (doc/adr/0003-winner.md:9) supersedes it: both cannot be in force",
		"doc/adr/0004-retired-by-rejection.md:7: the status is superseded but nothing in force replaces it: ADR-0005 was rejected",
		"doc/adr/0006-split.md:7: 2 accepted records supersede it (ADR-0007, ADR-0008): which one replaces it?",
		"doc/adr/0011-early.md:7: the status is superseded but nothing in force replaces it: ADR-0012 is only proposed",
	}
	var got []string
	for _, is := range issuesOf(a, KindContradiction) {
		got = append(got, fmt.Sprintf("%s:%d: %s", is.Path, is.Line, is.Message))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("contradictions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	ps := issuesOf(a, KindProposedSuccessor)
	if len(ps) != 1 || ps[0].Path != "doc/adr/0010-challenger.md" || ps[0].Line != 9 || !reflect.DeepEqual(ps[0].IDs, []string{"ADR-0010", "ADR-0009"}) {
		t.Errorf("proposed-successor: %+v", ps)
	}
}

func TestPartialSupersession(t *testing.T) {
	l := load(t, map[string]string{
		"doc/adr/0007-platform.md": "# 7. Platform\n\nDate: 2026-01-01\nStatus: Deprecated\n\n## §1 Kubernetes\n\nStatus: Accepted\n\nK.\n\n## §2 Helm\n\nStatus: Superseded\n\nH.\n",
		"doc/adr/0008-sections.md": "# 8. Sections\n\nDate: 2026-01-01\nStatus: Accepted\n\n## §1 One\n\nStatus: Accepted\n\nO.\n\n## §2 Two\n\nStatus: Superseded\n\nT.\n",
		"doc/adr/0009-section-successor.md": rec{n: 9, title: "Section successor", status: "Accepted",
			links: []string{"Supersedes ADR-0008§2"}}.text(),
	},
		rec{n: 1, title: "Networking", status: "Partly superseded"},
		rec{n: 2, title: "Ranges", status: "Accepted", body: "## Decision\n\nThis ADR in part supersedes [1. Networking](0001-networking.md).\n"},
		rec{n: 3, title: "Model", status: "Accepted"},
		rec{n: 4, title: "Simplify", status: "Proposed", body: "## Decision\n\nNote: this ADR supersedes some aspects of [ADR-3](0003-model.md).\n"},
		rec{n: 5, title: "Old part", status: "Accepted", body: "## Decision\n\nThe cache rule was partly superseded by [6. New](0006-new.md).\n"},
		rec{n: 6, title: "New", status: "Accepted", links: []string{"Supersedes [5. Old part](0005-old-part.md#decision)"}},
	)
	a := analyze(t, l, AnalyzeOptions{})
	wantClass(t, a, "ADR-0001", UnresolvedClass, "partly superseded (status on line 7)")
	wantClass(t, a, "ADR-0002", SummarizeClass, "in force")
	wantClass(t, a, "ADR-0003", SummarizeClass, "in force")
	wantClass(t, a, "ADR-0004", UnresolvedClass, "proposes to supersede ADR-0003 in part (line 11)")
	wantClass(t, a, "ADR-0005", UnresolvedClass, "partly superseded")
	wantClass(t, a, "ADR-0007", UnresolvedClass, "deprecated, but section §1 is still accepted")
	// A container retires sections one by one: ordinary life.
	wantClass(t, a, "ADR-0008", SummarizeClass, "(1 of 2 sections in force)")
	var got []string
	for _, is := range issuesOf(a, KindPartialSupersession) {
		got = append(got, fmt.Sprintf("%s:%d %v", is.Path, is.Line, is.IDs))
	}
	want := []string{
		"doc/adr/0001-networking.md:7 [ADR-0001]",
		"doc/adr/0002-ranges.md:11 [ADR-0002 ADR-0001]",
		"doc/adr/0004-simplify.md:11 [ADR-0004 ADR-0003]",
		"doc/adr/0005-old-part.md:11 [ADR-0005 ADR-0006]",
		"doc/adr/0006-new.md:9 [ADR-0006 ADR-0005]",
		"doc/adr/0007-platform.md:6 [ADR-0007]",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("partial-supersession:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestDomainScope(t *testing.T) {
	l := load(t, map[string]string{
		"doc/adr/archive/0005-gone.md": rec{n: 5, title: "Gone", status: "Deprecated", domains: "legacy"}.text(),
		"other/adr/0001-x.md":          rec{n: 1, title: "X", status: "Accepted"}.text(),
		".adr.toml":                    "[[roots]]\npath = \"doc/adr\"\n\n[[roots]]\npath = \"other/adr\"\n\n[[roots]]\npath = \"empty/adr\"\n",
	},
		rec{n: 1, title: "Store", status: "Accepted", domains: "Storage"},
		rec{n: 2, title: "Serve", status: "Accepted", domains: "api"},
	)
	a := analyze(t, l, AnalyzeOptions{})
	if want := []RootCount{{"doc/adr", 2}, {"other/adr", 1}, {"empty/adr", 0}}; !reflect.DeepEqual(a.Roots, want) {
		t.Errorf("whole scope roots: %+v", a.Roots)
	}
	a = analyze(t, l, AnalyzeOptions{Domain: "storage"})
	if len(a.Records) != 1 || a.Records[0].ID != "ADR-0001" || !reflect.DeepEqual(a.Roots, []RootCount{{"doc/adr", 1}}) {
		t.Errorf("domain scope: %+v %+v", a.Roots, a.Records)
	}
	_, err := Analyze(l, AnalyzeOptions{Domain: "billing"})
	var se *ScopeError
	if !errors.As(err, &se) || se.Msg != `no unarchived record has domain "billing"` || se.Hint != "known domains: api, storage" {
		t.Errorf("unknown domain: %#v", err)
	}
	_, err = Analyze(l, AnalyzeOptions{Domain: "legacy"})
	if !errors.As(err, &se) || !strings.Contains(se.Msg, "only archived records do") {
		t.Errorf("archived domain: %#v", err)
	}
}

func TestSourcesScope(t *testing.T) {
	l := load(t, map[string]string{
		"doc/adr/archive/0004-gone.md": rec{n: 4, title: "Gone", status: "Deprecated"}.text(),
		"other/adr/0001-x.md":          rec{n: 1, title: "X", status: "Accepted"}.text(),
		".adr.toml":                    "[[roots]]\npath = \"doc/adr\"\n\n[[roots]]\npath = \"other/adr\"\n",
	},
		rec{n: 1, title: "One", status: "Accepted", links: []string{link("Amended by", 2, "Two")}},
		rec{n: 2, title: "Two", status: "Accepted", links: []string{link("Amends", 1, "One")}},
		rec{n: 3, title: "Three", status: "Proposed"},
	)
	a := analyze(t, l, AnalyzeOptions{Sources: []string{"doc/adr/0003-three.md", "ADR-0002", "2"}})
	if len(a.Records) != 2 || a.Records[0].ID != "ADR-0002" || a.Records[1].ID != "ADR-0003" {
		t.Errorf("records: %+v", a.Records)
	}
	// ADR-0001 is outside the scope: references are not promoted to
	// targets, so ADR-0002 has no cluster.
	wantClass(t, a, "ADR-0002", SummarizeClass, "in force")
	_, err := Analyze(l, AnalyzeOptions{Sources: []string{"9", "1", "ADR-0004", "ADR-0002#decision", "ADR-0002"}})
	var se *ScopeError
	want := `4 sources cannot be compacted: "9" names no record; "1" is ambiguous (doc/adr/0001-one.md, other/adr/0001-x.md); "ADR-0004" is archived (doc/adr/archive/0004-gone.md); "ADR-0002#decision" names a unit, not a record`
	if !errors.As(err, &se) || se.Msg != want || len(strings.Split(se.Hint, "\n")) != 4 {
		t.Errorf("bad sources:\n%#v\nwant %s", err, want)
	}
}

func TestIssuesFollowScope(t *testing.T) {
	l := load(t, nil,
		rec{n: 1, title: "Unknown", status: "Maybe"},
		rec{n: 2, title: "Binding", status: "Accepted", domains: "api"},
		rec{n: 3, title: "Challenger", status: "Proposed", links: []string{link("Supersedes", 2, "Binding")}},
	)
	a := analyze(t, l, AnalyzeOptions{Domain: "api"})
	// The proposal is outside the scope but names the record in it.
	if len(a.Issues) != 1 || a.Issues[0].Kind != KindProposedSuccessor {
		t.Errorf("issues: %+v", a.Issues)
	}
}

func TestDeterministicAndProgress(t *testing.T) {
	l := generated(t, 300)
	var calls, last, lastTotal int
	a := analyze(t, l, AnalyzeOptions{Progress: func(done, total int) {
		calls++
		if done != last+1 {
			t.Errorf("progress went from %d to %d", last, done)
		}
		last, lastTotal = done, total
	}})
	// Every live record is read, then every record in scope classified
	// (here the scope is every live record).
	if want := 2 * len(a.Records); calls != want || last != want || lastTotal != want {
		t.Errorf("progress: %d calls, last %d of %d, %d records", calls, last, lastTotal, len(a.Records))
	}
	b := analyze(t, generated(t, 300), AnalyzeOptions{})
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Error("two analyses of the same log differ")
	}
	for _, c := range Classes {
		if a.Count(c) == 0 {
			t.Errorf("the generated log has no %s record", c)
		}
	}
}

func TestEmptyArraysEncode(t *testing.T) {
	l := load(t, map[string]string{".adr.toml": "[[roots]]\npath = \"doc/adr\"\n"})
	data, err := json.Marshal(analyze(t, l, AnalyzeOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"roots":[{"path":"doc/adr","count":0}],"records":[],"issues":[],"inferred":[]}`; string(data) != want {
		t.Errorf("got %s, want %s", data, want)
	}
}

// generated is a log of n adr-tools records with every class and issue:
// proposals, amendments, supersession chains, rejections, deprecations,
// unknown statuses and proposed successors.
func generated(t testing.TB, n int) *adr.Log {
	t.Helper()
	files := map[string]string{}
	title := func(i int) string { return fmt.Sprintf("Decision %d", i) }
	recs := make([]rec, n+1)
	for i := 1; i <= n; i++ {
		r := rec{n: i, title: title(i), status: "Accepted", domains: fmt.Sprintf("d%d", i%7)}
		switch {
		case i%11 == 0:
			r.status = "Proposed"
		case i%17 == 0:
			r.status = "Rejected"
		case i%19 == 0:
			r.status = "Deprecated"
		case i%23 == 0:
			r.status = "On hold"
		}
		recs[i] = r
	}
	for i := 5; i <= n; i++ {
		switch {
		case i%5 == 0 && recs[i-3].status == "Accepted":
			recs[i].links = append(recs[i].links, link("Supersedes", i-3, title(i-3)))
			if recs[i].status == "Accepted" {
				recs[i-3].status = link("Superseded by", i, title(i))
			}
		case i%7 == 0:
			recs[i].links = append(recs[i].links, link("Amends", i-2, title(i-2)))
			recs[i-2].links = append(recs[i-2].links, link("Amended by", i, title(i)))
		case i%13 == 0:
			recs[i].links = append(recs[i].links, link("Relates to", i-7, title(i-7)))
		}
	}
	for _, r := range recs[1:] {
		files[r.file()] = r.text()
	}
	return load(t, files)
}

func BenchmarkAnalyze(b *testing.B) {
	l := generated(b, 1000)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Analyze(l, AnalyzeOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAnalyzeInfer is the analysis with inferred groups, as `git adr
// compaction` runs it; the generated records all read alike (the worst
// case for grouping: every record has a group).
func BenchmarkAnalyzeInfer(b *testing.B) {
	l := generated(b, 1000)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Analyze(l, AnalyzeOptions{Infer: true}); err != nil {
			b.Fatal(err)
		}
	}
}
