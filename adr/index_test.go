package adr

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"
)

func TestRenderIndexDeterministic(t *testing.T) {
	files := map[string]string{
		"doc/adr/0010-j.md":                chkRecord(10, "J", "Accepted"),
		"doc/adr/0002-b.md":                chkRecord(2, "B | pipes", "Superseded by [10. J](0010-j.md)"),
		"doc/adr/archive/0001-a.md":        chkRecord(1, "A", "Deprecated"),
		"doc/adr/0003-c.md":                chkRecord(3, "C", "Accepted", "Amends ADR-0099"),
		"doc/adr/20260101-slug-records.md": "# Slug records\n\n- Status: proposed\n",
	}
	l := chkLoad(t, files)
	root := l.Roots[0]
	want := RenderIndex(root, l)
	for i := 0; i < 20; i++ {
		rand.Shuffle(len(root.Records), func(a, b int) { root.Records[a], root.Records[b] = root.Records[b], root.Records[a] })
		if got := RenderIndex(root, l); !bytes.Equal(got, want) {
			t.Fatalf("render depends on record order:\n%s\nwant:\n%s", got, want)
		}
	}
	if again := RenderIndex(chkLoad(t, files).Roots[0], chkLoad(t, files)); !bytes.Equal(again, want) {
		t.Fatalf("render differs between loads")
	}
	s := string(want)
	for _, frag := range []string{
		"| [ADR-0002](0002-b.md) | B \\| pipes | superseded | 2026-01-01 | superseded by [ADR-0010](0010-j.md) |\n",
		"| [ADR-0003](0003-c.md) | C | accepted | 2026-01-01 | amends ADR-0099 |\n",
		"## Archived\n\n| ID | Title | Status | Date | Links |\n| --- | --- | --- | --- | --- |\n| [ADR-0001](archive/0001-a.md) | A | deprecated | 2026-01-01 | |\n",
	} {
		if !strings.Contains(s, frag) {
			t.Errorf("index lacks %q:\n%s", frag, s)
		}
	}
	// Numbered records numerically (10 after 3), slugs after them.
	if i3, i10, is := strings.Index(s, "| [ADR-0003]"), strings.Index(s, "| [ADR-0010]"), strings.Index(s, "| [20260101"); !(i3 < i10 && i10 < is) {
		t.Errorf("order wrong: 3 at %d, 10 at %d, slug at %d", i3, i10, is)
	}
}

func TestIndexesStates(t *testing.T) {
	fsys := fstest.MapFS{
		"doc/adr/0001-a.md": &fstest.MapFile{Data: []byte(chkRecord(1, "A", "Accepted"))},
	}
	l, err := Load(fsys, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ixs, err := l.Indexes()
	if err != nil || len(ixs) != 1 || ixs[0].State != IndexMissing || ixs[0].Path != "doc/adr/INDEX.md" {
		t.Fatalf("missing index: %+v, %v", ixs, err)
	}
	content := ixs[0].Content
	for _, c := range []struct {
		data  []byte
		state IndexState
	}{
		{content, IndexUpToDate},
		{append(bytes.Clone(content), "| stale |\n"...), IndexStale},
		{[]byte("# Hand-written index\n"), IndexForeign},
	} {
		fsys["doc/adr/INDEX.md"] = &fstest.MapFile{Data: c.data}
		l, err := Load(fsys, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Records) != 1 {
			t.Errorf("INDEX.md was read as a record")
		}
		ixs, err := l.Indexes()
		if err != nil || ixs[0].State != c.state {
			t.Errorf("state = %v (%v), want %v", ixs[0].State, err, c.state)
		}
	}
}

func TestGraphReciprocalOnce(t *testing.T) {
	l := chkLoad(t, map[string]string{
		"doc/adr/0001-a.md":         chkRecord(1, "A", "Accepted", "Amended by [3. C](0003-c.md)"),
		"doc/adr/archive/0002-b.md": chkRecord(2, "B", "Superseded by [3. C](../0003-c.md)"),
		"doc/adr/0003-c.md":         chkRecord(3, "C", "Accepted", "Supersedes [2. B](archive/0002-b.md)", "Amends [1. A](0001-a.md)", "Relates to [1. A](0001-a.md)"),
	})
	g := l.Graph(GraphOptions{})
	var got []string
	for _, e := range g.Edges {
		got = append(got, e.From+" "+string(e.Type)+" "+e.To)
	}
	want := "ADR-0001 relates-to ADR-0003,ADR-0003 amends ADR-0001,ADR-0003 supersedes ADR-0002"
	if strings.Join(got, ",") != want {
		t.Errorf("edges = %s, want %s", strings.Join(got, ","), want)
	}
	if dot := g.DOT(); !strings.Contains(dot, `"ADR-0002" [label="ADR-0002\nB", style=dashed`) {
		t.Errorf("archived node not styled:\n%s", dot)
	}
	if g2 := l.Graph(GraphOptions{Status: Accepted}); len(g2.Nodes) != 2 || len(g2.Edges) != 2 {
		t.Errorf("status filter: %d nodes, %d edges; want 2 and 2", len(g2.Nodes), len(g2.Edges))
	}
	if id := mermaidID("end"); id != "n_end" {
		t.Errorf("mermaidID(end) = %q", id)
	}
}
