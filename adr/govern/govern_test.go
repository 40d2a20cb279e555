package govern

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/git-adr/git-adr/gitops"
)

func rec(n int, title, status, decision string, extra ...string) *fstest.MapFile {
	s := "# " + itoa(n) + ". " + title + "\n\nDate: 2026-01-01\n\n## Status\n\n" + status + "\n"
	for _, e := range extra {
		s += "\n" + e + "\n"
	}
	s += "\n## Decision\n\n" + decision + "\n"
	return &fstest.MapFile{Data: []byte(s)}
}

func itoa(n int) string { return strings.TrimLeft(string(rune('0'+n/10))+string(rune('0'+n%10)), "0") }

func judgeFS(t *testing.T, base, next fstest.MapFS, changes ...gitops.DiffEntry) *Report {
	t.Helper()
	rep, err := Judge(Input{Base: base, Next: next, Changes: changes})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func rules(rep *Report) []string {
	var out []string
	for _, p := range rep.Problems {
		s := string(p.Rule)
		if !p.Block {
			s += "(warn)"
		}
		out = append(out, s+" "+p.Path)
	}
	return out
}

func TestJudge(t *testing.T) {
	base := fstest.MapFS{
		"doc/adr/0001-use-postgresql.md": rec(1, "Use PostgreSQL", "Accepted", "We use PostgreSQL."),
		"doc/adr/0002-shard-orders.md":   rec(2, "Shard orders", "Proposed", "Shard by customer."),
	}
	with := func(p string, f *fstest.MapFile) fstest.MapFS {
		next := fstest.MapFS{}
		for k, v := range base {
			next[k] = v
		}
		if f == nil {
			delete(next, p)
		} else {
			next[p] = f
		}
		return next
	}
	m := func(p string) gitops.DiffEntry { return gitops.DiffEntry{Status: 'M', Path: p} }
	tests := []struct {
		name    string
		next    fstest.MapFS
		changes []gitops.DiffEntry
		want    string
	}{
		{"an accepted decision edited", with("doc/adr/0001-use-postgresql.md", rec(1, "Use PostgreSQL", "Accepted", "We use MySQL.")),
			[]gitops.DiffEntry{m("doc/adr/0001-use-postgresql.md")}, "accepted-edit doc/adr/0001-use-postgresql.md"},
		{"an accepted title edited", with("doc/adr/0001-use-postgresql.md", rec(1, "Use Postgres", "Accepted", "We use PostgreSQL.")),
			[]gitops.DiffEntry{m("doc/adr/0001-use-postgresql.md")}, "accepted-edit doc/adr/0001-use-postgresql.md"},
		{"blank lines and trailing spaces are not substance", with("doc/adr/0001-use-postgresql.md", rec(1, "Use PostgreSQL", "Accepted", "We use PostgreSQL.   \n\n")),
			[]gitops.DiffEntry{m("doc/adr/0001-use-postgresql.md")}, ""},
		{"a link added to an accepted record", with("doc/adr/0001-use-postgresql.md", rec(1, "Use PostgreSQL", "Accepted", "We use PostgreSQL.", "Relates to [2. Shard orders](0002-shard-orders.md)")),
			[]gitops.DiffEntry{m("doc/adr/0001-use-postgresql.md")}, ""},
		{"accepted deprecated", with("doc/adr/0001-use-postgresql.md", rec(1, "Use PostgreSQL", "Deprecated", "We use PostgreSQL.")),
			[]gitops.DiffEntry{m("doc/adr/0001-use-postgresql.md")}, ""},
		{"accepted rejected", with("doc/adr/0001-use-postgresql.md", rec(1, "Use PostgreSQL", "Rejected", "We use PostgreSQL.")),
			[]gitops.DiffEntry{m("doc/adr/0001-use-postgresql.md")}, "lifecycle doc/adr/0001-use-postgresql.md"},
		{"superseded with no successor", with("doc/adr/0001-use-postgresql.md", rec(1, "Use PostgreSQL", "Superseded", "We use PostgreSQL.")),
			[]gitops.DiffEntry{m("doc/adr/0001-use-postgresql.md")}, "lifecycle doc/adr/0001-use-postgresql.md"},
		{"a proposal edited", with("doc/adr/0002-shard-orders.md", rec(2, "Shard orders", "Proposed", "Shard by region.")),
			[]gitops.DiffEntry{m("doc/adr/0002-shard-orders.md")}, ""},
		{"a record deleted", with("doc/adr/0002-shard-orders.md", nil),
			[]gitops.DiffEntry{{Status: 'D', Path: "doc/adr/0002-shard-orders.md"}}, "deleted-record doc/adr/0002-shard-orders.md"},
		{"a new record with a taken number", with("doc/adr/0002-other.md", rec(2, "Other", "Proposed", "x")),
			[]gitops.DiffEntry{{Status: 'A', Path: "doc/adr/0002-other.md"}}, "duplicate-number doc/adr/0002-other.md"},
		{"a new record", with("doc/adr/0003-other.md", rec(3, "Other", "Proposed", "x")),
			[]gitops.DiffEntry{{Status: 'A', Path: "doc/adr/0003-other.md"}}, ""},
		{"unrelated files", with("main.go", &fstest.MapFile{Data: []byte("package main\n")}),
			[]gitops.DiffEntry{{Status: 'A', Path: "main.go"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(rules(judgeFS(t, base, tt.next, tt.changes...)), "; ")
			if got != tt.want {
				t.Errorf("problems = %q, want %q", got, tt.want)
			}
		})
	}
	// Archiving (a rename into archive/) is not a deletion.
	next := with("doc/adr/0002-shard-orders.md", nil)
	next["doc/adr/archive/0002-shard-orders.md"] = base["doc/adr/0002-shard-orders.md"]
	rep := judgeFS(t, base, next, gitops.DiffEntry{Status: 'R', OldPath: "doc/adr/0002-shard-orders.md", Path: "doc/adr/archive/0002-shard-orders.md"})
	if len(rep.Problems) != 0 {
		t.Errorf("archival: %q", rules(rep))
	}
	// Moving a record out of the ADR folders is.
	next = with("doc/adr/0002-shard-orders.md", nil)
	next["notes/shard.md"] = base["doc/adr/0002-shard-orders.md"]
	rep = judgeFS(t, base, next, gitops.DiffEntry{Status: 'R', OldPath: "doc/adr/0002-shard-orders.md", Path: "notes/shard.md"})
	if got := strings.Join(rules(rep), "; "); got != "deleted-record doc/adr/0002-shard-orders.md" {
		t.Errorf("moved out: %q", got)
	}
}

func TestFirstDifference(t *testing.T) {
	a := []numbered{{"x", 3}, {"y", 4}}
	for _, tt := range []struct {
		b    []numbered
		want int
	}{
		{[]numbered{{"x", 5}, {"y", 6}}, 0},
		{[]numbered{{"x", 5}, {"z", 6}}, 6},
		{[]numbered{{"x", 5}}, 5},
		{[]numbered{{"x", 5}, {"y", 6}, {"w", 7}}, 7},
		{nil, -1},
	} {
		if got := firstDifference(a, tt.b); got != tt.want {
			t.Errorf("firstDifference(%v) = %d, want %d", tt.b, got, tt.want)
		}
	}
}

// TestJudgeArchivedRange judges a range that supersedes two accepted
// records and moves them into the archive, links rewritten, as one diff:
// git pairs neither side as a rename (the files are small and changed a
// lot), so the judge pairs a deleted record with the archived one of the
// same file name and ID, and reads link destinations by the file they
// reach. A record deleted outright, or one whose decision changed during
// the move, is still refused.
func TestJudgeArchivedRange(t *testing.T) {
	base := fstest.MapFS{
		"doc/adr/0001-a.md": rec(1, "A", "Accepted", "A; see [3](0003-c.md)."),
		"doc/adr/0002-b.md": rec(2, "B", "Accepted", "B."),
		"doc/adr/0003-c.md": rec(3, "C", "Accepted", "C; see [1](0001-a.md)."),
	}
	next := fstest.MapFS{
		"doc/adr/archive/0001-a.md": rec(1, "A", "Superseded", "A; see [3](../0003-c.md).", "Superseded by [4](../0004-d.md)"),
		"doc/adr/0002-b.md":         rec(2, "B", "Accepted", "B."),
		"doc/adr/0003-c.md":         rec(3, "C", "Accepted", "C; see [1](archive/0001-a.md)."),
		"doc/adr/0004-d.md":         rec(4, "D", "Accepted", "D.", "Supersedes [1](archive/0001-a.md)"),
	}
	changes := []gitops.DiffEntry{{Status: 'D', Path: "doc/adr/0001-a.md"}, {Status: 'M', Path: "doc/adr/0003-c.md"},
		{Status: 'A', Path: "doc/adr/0004-d.md"}, {Status: 'A', Path: "doc/adr/archive/0001-a.md"}}
	if got := rules(judgeFS(t, base, next, changes...)); len(got) != 0 {
		t.Errorf("an archival with its links repaired: %v", got)
	}
	edited := fstest.MapFS{}
	for k, v := range next {
		edited[k] = v
	}
	edited["doc/adr/archive/0001-a.md"] = rec(1, "A", "Superseded", "Not A any more.", "Superseded by [4](../0004-d.md)")
	if got := rules(judgeFS(t, base, edited, changes...)); len(got) != 1 || !strings.HasPrefix(got[0], "accepted-edit ") {
		t.Errorf("a decision edited during the move: %v", got)
	}
	gone := fstest.MapFS{"doc/adr/0002-b.md": next["doc/adr/0002-b.md"], "doc/adr/0003-c.md": base["doc/adr/0003-c.md"]}
	if got := rules(judgeFS(t, base, gone, gitops.DiffEntry{Status: 'D', Path: "doc/adr/0001-a.md"})); len(got) != 1 || !strings.HasPrefix(got[0], "deleted-record ") {
		t.Errorf("a record deleted: %v", got)
	}
}

// readLog is an fs.FS that records the paths read through it.
type readLog struct {
	fs.FS
	read []string
}

func (r *readLog) Open(name string) (fs.File, error) {
	r.read = append(r.read, name)
	return r.FS.Open(name)
}

// A change that only adds records judges them from the next state: the
// base's records are not listed (only its configuration is read), and
// the rules still apply.
func TestOnlyAddsLeavesTheBaseRecordsUnread(t *testing.T) {
	files := fstest.MapFS{
		"doc/adr/0001-use-postgresql.md": rec(1, "Use PostgreSQL", "Accepted", "We use PostgreSQL."),
		"doc/adr/0002-shard-orders.md":   rec(2, "Shard orders", "Proposed", "Shard by customer."),
	}
	next := fstest.MapFS{"doc/adr/0002-dup.md": rec(2, "Dup", "Proposed", "Again.")}
	for k, v := range files {
		next[k] = v
	}
	base := &readLog{FS: files}
	rep, err := Judge(Input{Base: base, Next: next, Changes: []gitops.DiffEntry{{Status: 'A', Path: "doc/adr/0002-dup.md"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := rules(rep); len(got) != 1 || got[0] != "duplicate-number doc/adr/0002-dup.md" {
		t.Errorf("problems = %v, want the duplicate number", got)
	}
	for _, p := range base.read {
		if strings.HasPrefix(p, "doc/") {
			t.Errorf("the base was read at %q", p)
		}
	}
	// An edit needs the base.
	base.read = nil
	if _, err := Judge(Input{Base: base, Next: next, Changes: []gitops.DiffEntry{{Status: 'M', Path: "doc/adr/0002-shard-orders.md"}}}); err != nil {
		t.Fatal(err)
	}
	if len(base.read) == 0 {
		t.Error("an edit did not read the base")
	}
}

// Two accepted records that swap texts while they move are paired by git
// with each other's old path; judged by ID, both edits show.
func TestJudgeFollowsIDs(t *testing.T) {
	a, b := rec(1, "A", "Accepted", "Use A."), rec(2, "B", "Accepted", "Use B.")
	base := fstest.MapFS{"doc/adr/0001-a.md": a, "doc/adr/0002-b.md": b}
	swapped := fstest.MapFS{
		"doc/adr/0001-A.md": rec(1, "B", "Accepted", "Use B."),
		"doc/adr/0002-B.md": rec(2, "A", "Accepted", "Use A."),
	}
	byContent := []gitops.DiffEntry{
		{Status: 'R', OldPath: "doc/adr/0002-b.md", Path: "doc/adr/0001-A.md"},
		{Status: 'R', OldPath: "doc/adr/0001-a.md", Path: "doc/adr/0002-B.md"},
	}
	got := strings.Join(rules(judgeFS(t, base, swapped, byContent...)), "; ")
	if got != "accepted-edit doc/adr/0001-A.md; accepted-edit doc/adr/0002-B.md" {
		t.Errorf("swapped texts: %q", got)
	}
	// A plain re-case keeps each record's text: nothing to report.
	recased := fstest.MapFS{"doc/adr/0001-A.md": a, "doc/adr/0002-B.md": b}
	plain := []gitops.DiffEntry{
		{Status: 'R', OldPath: "doc/adr/0001-a.md", Path: "doc/adr/0001-A.md"},
		{Status: 'R', OldPath: "doc/adr/0002-b.md", Path: "doc/adr/0002-B.md"},
	}
	if got := rules(judgeFS(t, base, recased, plain...)); len(got) != 0 {
		t.Errorf("a re-case: %v", got)
	}
	// Renumbered (a new ID): git's pairing stands.
	renumbered := fstest.MapFS{"doc/adr/0003-a.md": rec(3, "A", "Accepted", "Use A."), "doc/adr/0002-b.md": b}
	if got := rules(judgeFS(t, base, renumbered, gitops.DiffEntry{Status: 'R', OldPath: "doc/adr/0001-a.md", Path: "doc/adr/0003-a.md"})); len(got) != 0 {
		t.Errorf("a renumber: %v", got)
	}
}

// An accepted record moved into archive/ by hand is refused; a retired
// one is archival.
func TestJudgeArchivedInForce(t *testing.T) {
	base := fstest.MapFS{
		"doc/adr/0001-a.md": rec(1, "A", "Accepted", "Use A."),
		"doc/adr/0002-b.md": rec(2, "B", "Deprecated", "Use B."),
	}
	next := fstest.MapFS{
		"doc/adr/archive/0001-a.md": base["doc/adr/0001-a.md"],
		"doc/adr/archive/0002-b.md": base["doc/adr/0002-b.md"],
	}
	got := strings.Join(rules(judgeFS(t, base, next,
		gitops.DiffEntry{Status: 'R', OldPath: "doc/adr/0001-a.md", Path: "doc/adr/archive/0001-a.md"},
		gitops.DiffEntry{Status: 'R', OldPath: "doc/adr/0002-b.md", Path: "doc/adr/archive/0002-b.md"})), "; ")
	if got != "archived-in-force doc/adr/archive/0001-a.md" {
		t.Errorf("archived by hand: %q", got)
	}
}
