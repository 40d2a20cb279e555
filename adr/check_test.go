package adr

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// chkRecord writes an adr-tools record with the given status paragraph and
// extra status lines (relations).
func chkRecord(n int, title, status string, links ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %d. %s\n\nDate: 2026-01-01\n\n## Status\n\n%s\n", n, title, status)
	for _, l := range links {
		fmt.Fprintf(&b, "\n%s\n", l)
	}
	b.WriteString("\n## Context\n\nC.\n\n## Decision\n\nD.\n\n## Consequences\n\nE.\n")
	return b.String()
}

func chkLoad(t testing.TB, files map[string]string) *Log {
	t.Helper()
	fsys := fstest.MapFS{}
	for p, s := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(s)}
	}
	l, err := Load(fsys, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func chkKinds(rep *CheckReport, k FindingKind) []Finding {
	var out []Finding
	for _, f := range rep.Findings {
		if f.Kind == k {
			out = append(out, f)
		}
	}
	return out
}

func TestCheckCycle(t *testing.T) {
	l := chkLoad(t, map[string]string{
		// 1 -> 2 -> 3 -> 1, each written on one side only.
		"doc/adr/0001-a.md": chkRecord(1, "A", "Accepted", "Supersedes [2. B](0002-b.md)"),
		"doc/adr/0002-b.md": chkRecord(2, "B", "Accepted"),
		"doc/adr/0003-c.md": chkRecord(3, "C", "Superseded by [2. B](0002-b.md)", "Supersedes [1. A](0001-a.md)"),
		// 4 supersedes itself.
		"doc/adr/0004-d.md": chkRecord(4, "D", "Accepted", "Supersedes [4. D](0004-d.md)"),
		// 5 <-> 6 written reciprocally is no cycle.
		"doc/adr/0005-e.md": chkRecord(5, "E", "Superseded by [6. F](0006-f.md)"),
		"doc/adr/0006-f.md": chkRecord(6, "F", "Accepted", "Supersedes [5. E](0005-e.md)"),
	})
	cycles := chkKinds(l.Check(CheckOptions{}), KindCycle)
	if len(cycles) != 2 {
		t.Fatalf("got %d cycles, want 2: %+v", len(cycles), cycles)
	}
	if got, want := cycles[0].IDs, []string{"ADR-0001", "ADR-0002", "ADR-0003"}; !slices.Equal(got, want) {
		t.Errorf("cycle IDs = %v, want %v", got, want)
	}
	if want := "supersession cycle: ADR-0001 supersedes ADR-0002 supersedes ADR-0003 supersedes ADR-0001"; cycles[0].Message != want {
		t.Errorf("message = %q, want %q", cycles[0].Message, want)
	}
	if cycles[0].Path != "doc/adr/0001-a.md" || cycles[0].Line != 9 {
		t.Errorf("location = %s:%d, want doc/adr/0001-a.md:9", cycles[0].Path, cycles[0].Line)
	}
	if got := cycles[1].IDs; !slices.Equal(got, []string{"ADR-0004"}) {
		t.Errorf("self-supersession IDs = %v", got)
	}
}

func TestCheckOneWay(t *testing.T) {
	l := chkLoad(t, map[string]string{
		"doc/adr/0001-a.md": chkRecord(1, "A", "Accepted", "Amended by [2. B](0002-b.md)"),
		"doc/adr/0002-b.md": chkRecord(2, "B", "Accepted", "Amends [1. A](0001-a.md)", "Relates to [3. C](0003-c.md)"),
		"doc/adr/0003-c.md": chkRecord(3, "C", "Accepted", "Clarifies [1. A](0001-a.md)"),
		// A custom label is satisfied by any link back, and a known
		// relation by a link back under the log's own phrase.
		"doc/adr/0004-d.md": chkRecord(4, "D", "Accepted", "Clarifies [5. E](0005-e.md)"),
		"doc/adr/0005-e.md": chkRecord(5, "E", "Accepted", "Relates to [4. D](0004-d.md)"),
		// Not a supersession: its reverse is "Superseded by".
		"doc/adr/0006-f.md": chkRecord(6, "F", "Accepted", "Supersedes [7. G](0007-g.md)"),
		"doc/adr/0007-g.md": chkRecord(7, "G", "Accepted", "Clarifies [6. F](0006-f.md)"),
	})
	rep := l.Check(CheckOptions{})
	var got []string
	for _, f := range chkKinds(rep, KindOneWayLink) {
		got = append(got, fmt.Sprintf("%s:%d %v %s", f.Path, f.Line, f.IDs, f.Fix))
	}
	want := []string{
		"doc/adr/0002-b.md:11 [ADR-0002 ADR-0003] git adr link ADR-0002 'Relates to' ADR-0003 'Relates to'",
		`doc/adr/0003-c.md:9 [ADR-0003 ADR-0001] add a line "Clarified by [3. C](0003-c.md)" to doc/adr/0001-a.md`,
		"doc/adr/0006-f.md:9 [ADR-0006 ADR-0007] git adr link ADR-0006 Supersedes ADR-0007 'Superseded by'",
	}
	if !slices.Equal(got, want) {
		t.Errorf("one-way findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCheckDuplicateBranch(t *testing.T) {
	l := chkLoad(t, map[string]string{
		"doc/adr/0001-a.md":     chkRecord(1, "A", "Accepted"),
		"doc/adr/0002-ours.md":  chkRecord(2, "Ours", "Accepted"),
		"doc/adr/0003-moved.md": chkRecord(3, "Moved", "Accepted"),
	})
	root := l.Roots[0]
	branches := []BranchRecord{
		{Ref: "refs/heads/feature", Root: root, Path: "doc/adr/0001-a.md", Number: 1},
		{Ref: "refs/heads/feature", Root: root, Path: "doc/adr/0002-theirs.md", Number: 2},
		// Renamed on our side: the old name is in the merge base.
		{Ref: "refs/heads/feature", Root: root, Path: "doc/adr/0003-old.md", Number: 3},
		{Ref: "refs/remotes/origin/main", Root: root, Path: "doc/adr/0002-main.md", Number: 2},
	}
	base := fstest.MapFS{"doc/adr/0003-old.md": &fstest.MapFile{}, "doc/adr/0001-a.md": &fstest.MapFile{}}
	opt := CheckOptions{
		Branches:     branches,
		MergeBase:    func(string) fs.FS { return base },
		IsDefaultRef: func(ref string) bool { return strings.HasSuffix(ref, "/main") },
	}
	got := chkKinds(l.Check(opt), KindDuplicateIDBranch)
	if len(got) != 2 {
		t.Fatalf("got %d findings, want 2: %+v", len(got), got)
	}
	for _, f := range got {
		if f.Fix != "git adr renumber ADR-0002" {
			t.Errorf("fix on a feature branch = %q, want our side renumbered", f.Fix)
		}
	}
	opt.OnDefaultBranch = true
	got = chkKinds(l.Check(opt), KindDuplicateIDBranch)
	var fixes []string
	for _, f := range got {
		fixes = append(fixes, f.Fix)
	}
	want := []string{"git adr renumber ADR-0002", "git switch feature && git adr renumber ADR-0002"}
	slices.Sort(fixes)
	if !slices.Equal(fixes, want) {
		t.Errorf("fixes on the default branch = %q, want %q", fixes, want)
	}
}

func TestCheckIgnoreAndCounts(t *testing.T) {
	l := chkLoad(t, map[string]string{
		"doc/adr/0001-a.md": chkRecord(1, "A", "Someday"),
		".adr.toml":         "[check]\nignore = [\"unknown-status\"]\n",
	})
	rep := l.Check(CheckOptions{})
	if len(rep.Findings) != 0 || rep.Ignored != 1 {
		t.Errorf("findings %v, ignored %d; want none and 1", rep.Findings, rep.Ignored)
	}
	if len(rep.Counts) != len(FindingKinds) {
		t.Errorf("counts has %d kinds, want all %d", len(rep.Counts), len(FindingKinds))
	}
	if _, err := ParseConfig([]byte("[check]\nignore = [\"nope\"]\n")); err == nil {
		t.Error("an unknown kind in check.ignore was accepted")
	}
}

func TestCheckSorted(t *testing.T) {
	l := chkLoad(t, map[string]string{
		"doc/adr/0002-b.md": chkRecord(2, "B", "Maybe", "Amends ADR-0009"),
		"doc/adr/0001-a.md": chkRecord(7, "A", "Accepted", "See [x](missing.md)"),
	})
	rep := l.Check(CheckOptions{})
	var got []string
	for _, f := range rep.Findings {
		got = append(got, fmt.Sprintf("%s:%d:%s", f.Path, f.Line, f.Kind))
	}
	want := []string{
		"doc/adr/0001-a.md:1:id-mismatch",
		"doc/adr/0001-a.md:9:broken-reference",
		"doc/adr/0002-b.md:7:unknown-status",
		"doc/adr/0002-b.md:9:broken-reference",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// chkGenerate makes a log of n records: chains of supersession written on
// both sides, amendments, links to other records and a few problems.
func chkGenerate(n int) map[string]string {
	files := map[string]string{}
	name := func(i int) string { return fmt.Sprintf("%04d-record-%d.md", i, i) }
	for i := 1; i <= n; i++ {
		var links []string
		status := "Accepted"
		if i%10 == 1 && i+1 <= n {
			status = fmt.Sprintf("Superseded by [%d. Record %d](%s)", i+1, i+1, name(i+1))
		}
		if i%10 == 2 {
			links = append(links, fmt.Sprintf("Supersedes [%d. Record %d](%s)", i-1, i-1, name(i-1)))
		}
		if i > 5 {
			links = append(links, fmt.Sprintf("Relates to [%d. Record %d](%s)", i-5, i-5, name(i-5)))
		}
		if i%97 == 0 {
			links = append(links, "See [the missing guide](../guide.md).")
		}
		files["doc/adr/"+name(i)] = chkRecord(i, fmt.Sprintf("Record %d", i), status, links...)
	}
	return files
}

func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			l := chkLoad(b, chkGenerate(n))
			b.ResetTimer()
			for b.Loop() {
				l.Check(CheckOptions{})
			}
		})
	}
}

func BenchmarkIndex(b *testing.B) {
	l := chkLoad(b, chkGenerate(1000))
	b.ResetTimer()
	for b.Loop() {
		for _, r := range l.Roots {
			RenderIndex(r, l)
		}
	}
}

func TestCheckAllKindsOverridesConfig(t *testing.T) {
	l := chkLoad(t, map[string]string{
		".adr.toml":         "[check]\nignore = [\"unknown-status\"]\n",
		"doc/adr/0001-a.md": chkRecord(1, "A", "On hold"),
	})
	if rep := l.Check(CheckOptions{}); len(rep.Findings) != 0 || rep.Ignored != 1 {
		t.Errorf("configured ignore: %+v", rep)
	}
	if rep := l.Check(CheckOptions{AllKinds: true}); len(chkKinds(rep, KindUnknownStatus)) != 1 || rep.Ignored != 0 {
		t.Errorf("AllKinds: %+v", rep)
	}
}

// TestCheckLinksInHTMLComments: a link inside an HTML comment (a template's
// example, "<!-- example: Refined by [xxx](yyyymmdd-xxx.md) -->") is no
// link, whether the comment is a block, closes on the line it opens, or
// opens in the middle of a text line and closes lines later; a link
// outside the comment, on the same line, still counts.
func TestCheckLinksInHTMLComments(t *testing.T) {
	l := chkLoad(t, map[string]string{
		"doc/adr/0001-a.md": chkRecord(1, "A", "Accepted <!-- or: superseded by [xxx](0009-gone.md) -->",
			"## Links <!-- optional -->",
			"- [Link type](link to adr) <!-- example: Refined by [xxx](yyyymmdd-xxx.md) -->",
			"- [B](0002-b.md) <!-- one --> and [kept](0003-missing.md) <!-- [two](0004-missing.md) -->",
			"Opened here <!-- a note that runs on,\n[over](0005-missing.md) lines --> then [after](0006-missing.md)",
			"<!--\n[block](0007-missing.md)\n-->",
			"`<!--` is code, so [this](0008-missing.md) counts",
			"An opener <!-- never closed is text: [so](0010-missing.md) counts",
		),
		"doc/adr/0002-b.md": chkRecord(2, "B", "Accepted"),
	})
	var got []string
	for _, f := range chkKinds(l.Check(CheckOptions{}), KindBrokenReference) {
		got = append(got, fmt.Sprintf("%d %s", f.Line, f.Message))
	}
	want := []string{
		`13 link to "0003-missing.md": doc/adr/0003-missing.md does not exist`,
		`16 link to "0006-missing.md": doc/adr/0006-missing.md does not exist`,
		`22 link to "0008-missing.md": doc/adr/0008-missing.md does not exist`,
		`24 link to "0010-missing.md": doc/adr/0010-missing.md does not exist`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("broken references:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := l.Records[0].Status; s != "accepted" {
		t.Errorf("status %q, want accepted (a relation in a comment is none)", s)
	}
}
