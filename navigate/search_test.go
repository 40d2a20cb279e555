package navigate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func matchList(res *SearchResult) []string {
	var out []string
	for _, m := range res.Matches {
		out = append(out, fmt.Sprintf("%s:%d:%s", m.Path, m.Line, m.Text))
	}
	return out
}

func search(t *testing.T, tr *Tree, o SearchOptions) *SearchResult {
	t.Helper()
	res, err := tr.Search(o)
	if err != nil {
		t.Fatalf("search %+v: %v", o, err)
	}
	return res
}

func TestSearchIsLiteral(t *testing.T) {
	tr, _ := newTree(t, map[string]string{
		"re.txt": "a.b(c)*\naxb(c)\na.b(c)*d\n[x]+ ^$ \\d\n",
	})
	for pattern, want := range map[string][]string{
		"a.b(c)*":   {"re.txt:1:a.b(c)*", "re.txt:3:a.b(c)*d"},
		"[x]+ ^$":   {"re.txt:4:[x]+ ^$ \\d"},
		`\d`:        {"re.txt:4:[x]+ ^$ \\d"},
		".*":        nil,
		"axb(c)":    {"re.txt:2:axb(c)"},
		"a.b(c)*dd": nil,
	} {
		got := matchList(search(t, tr, SearchOptions{Pattern: pattern, CaseSensitive: true}))
		if !slices.Equal(got, want) {
			t.Errorf("%q: got %q, want %q", pattern, got, want)
		}
	}
}

func TestSearchCase(t *testing.T) {
	tr, _ := newTree(t, map[string]string{
		"a.txt": "Hello World\nhello world\nHELLO\r\nÉCOLE école\n" +
			"\u212a is the Kelvin sign\nkelvin\nΣίσυφος σίσυφος\n" +
			"after a fold that changes byte lengths: ſ\nline nine\n",
	})
	got := matchList(search(t, tr, SearchOptions{Pattern: "hello"}))
	if want := []string{"a.txt:1:Hello World", "a.txt:2:hello world", "a.txt:3:HELLO"}; !slices.Equal(got, want) {
		t.Errorf("folded: %q", got)
	}
	got = matchList(search(t, tr, SearchOptions{Pattern: "hello", CaseSensitive: true}))
	if want := []string{"a.txt:2:hello world"}; !slices.Equal(got, want) {
		t.Errorf("case-sensitive: %q", got)
	}
	if got := matchList(search(t, tr, SearchOptions{Pattern: "école"})); len(got) != 1 || got[0] != "a.txt:4:ÉCOLE école" {
		t.Errorf("unicode fold: %q", got)
	}
	if got := matchList(search(t, tr, SearchOptions{Pattern: "K is"})); len(got) != 1 || got[0] != "a.txt:5:\u212a is the Kelvin sign" {
		t.Errorf("Kelvin sign: %q", got)
	}
	if got := matchList(search(t, tr, SearchOptions{Pattern: "ΣΊΣΥΦΟΣ"})); len(got) != 1 || got[0] != "a.txt:7:Σίσυφος σίσυφος" {
		t.Errorf("greek: %q", got)
	}
	// Line numbers stay right after runes whose folded form is shorter.
	if got := matchList(search(t, tr, SearchOptions{Pattern: "LINE NINE"})); len(got) != 1 || got[0] != "a.txt:9:line nine" {
		t.Errorf("after folding: %q", got)
	}
	if got := matchList(search(t, tr, SearchOptions{Pattern: "S"})); len(got) == 0 || got[len(got)-1] != "a.txt:8:after a fold that changes byte lengths: ſ" {
		t.Errorf("long s folds to S: %q", got)
	}
}

func TestSearchFilters(t *testing.T) {
	tr, _ := newTree(t, map[string]string{
		"main.go":             "needle\n",
		"README.md":           "needle\n",
		"cmd/tool/main.go":    "needle\n",
		"cmd/tool/x_test.go":  "needle\n",
		"docs/guide.md":       "needle\n",
		"node_modules/m/i.js": "needle\n",
		"vendor/v/v.go":       "needle\n",
		"build/out.txt":       "needle\n",
		"bin.dat":             "needle\x00",
	})
	check := func(o SearchOptions, want ...string) {
		t.Helper()
		res := search(t, tr, o)
		var got []string
		for _, m := range res.Matches {
			got = append(got, m.Path)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%+v: got %q, want %q", o, got, want)
		}
	}
	check(SearchOptions{Pattern: "needle"}, "README.md", "cmd/tool/main.go", "cmd/tool/x_test.go", "docs/guide.md", "main.go")
	check(SearchOptions{Pattern: "needle", Glob: "*.go"}, "cmd/tool/main.go", "cmd/tool/x_test.go", "main.go")
	check(SearchOptions{Pattern: "needle", Glob: "*_test.go"}, "cmd/tool/x_test.go")
	check(SearchOptions{Pattern: "needle", Glob: "cmd/*/main.go"}, "cmd/tool/main.go")
	check(SearchOptions{Pattern: "needle", Glob: "tool/*.go", Path: "cmd"}, "cmd/tool/main.go", "cmd/tool/x_test.go")
	check(SearchOptions{Pattern: "needle", Path: "docs"}, "docs/guide.md")
	check(SearchOptions{Pattern: "needle", Path: "docs/guide.md"}, "docs/guide.md")
	check(SearchOptions{Pattern: "needle", Path: "docs/guide.md", Glob: "*.go"})
	// A skipped folder is searched when named.
	check(SearchOptions{Pattern: "needle", Path: "node_modules"}, "node_modules/m/i.js")
	check(SearchOptions{Pattern: "needle", Path: "vendor"}, "vendor/v/v.go")

	res := search(t, tr, SearchOptions{Pattern: "needle"})
	if res.Stats.Binary != 1 || res.Stats.SkippedCount != 3 {
		t.Errorf("stats %+v", res.Stats)
	}
	res = search(t, tr, SearchOptions{Pattern: "nothing like it"})
	if res.Hint == nil || !strings.Contains(*res.Hint, `"build", "node_modules", "vendor" not searched`) || res.Truncated {
		t.Errorf("no-match hint: %v", res.Hint)
	}
	var ae *ArgError
	for _, o := range []SearchOptions{{Pattern: ""}, {Pattern: "a\nb"}, {Pattern: "x", Glob: "[a-"}, {Pattern: "\xff"}} {
		if _, err := tr.Search(o); !errors.As(err, &ae) {
			t.Errorf("%+v: %v, want an ArgError", o, err)
		}
	}
	_, err := tr.Search(SearchOptions{Pattern: "x", Path: "../"})
	wantErr(t, err, ErrOutside)
	_, err = tr.Search(SearchOptions{Pattern: "x", Path: "missing"})
	wantErr(t, err, ErrNotFound)
	_, err = tr.Search(SearchOptions{Pattern: "x", Path: ".git"})
	wantErr(t, err, ErrGitDir)
}

func TestSearchMatchLimit(t *testing.T) {
	var b strings.Builder
	for i := range 150 {
		fmt.Fprintf(&b, "match %d\n", i)
	}
	tr, _ := newTree(t, map[string]string{"a.txt": b.String(), "b.txt": "match\n"})
	res := search(t, tr, SearchOptions{Pattern: "match"})
	if len(res.Matches) != MaxMatches || !res.Truncated || !slices.Equal(res.LimitsHit, []string{LimitMatches}) || res.Hint == nil {
		t.Fatalf("%d matches, truncated %v, limits %v", len(res.Matches), res.Truncated, res.LimitsHit)
	}
	if !strings.Contains(*res.Hint, "more than 100 matches") || !strings.Contains(*res.Hint, "narrow the search with path") {
		t.Errorf("hint %q", *res.Hint)
	}
	res = search(t, tr, SearchOptions{Pattern: "match", Words: Words{Path: "--path", Glob: "--glob"}})
	if !strings.Contains(*res.Hint, "--path (a subdirectory or file), --glob") {
		t.Errorf("hint words %q", *res.Hint)
	}
	// Exactly 100 matches is complete.
	tr2, _ := newTree(t, map[string]string{"a.txt": strings.Repeat("m\n", 100)})
	if res := search(t, tr2, SearchOptions{Pattern: "m"}); res.Truncated || len(res.Matches) != 100 || res.Hint != nil {
		t.Errorf("exactly 100: truncated %v, %d", res.Truncated, len(res.Matches))
	}
}

func TestSearchScanLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 10,000 files")
	}
	t.Run("files", func(t *testing.T) {
		dir := t.TempDir()
		for i := range MaxScanFiles + 1 {
			writeFile(t, filepath.Join(dir, fmt.Sprintf("f%04d.txt", i)), "x\n")
		}
		tr, _ := Open(dir)
		defer tr.Close()
		res := search(t, tr, SearchOptions{Pattern: "nothing"})
		if !slices.Equal(res.LimitsHit, []string{LimitFiles}) || res.Stats.Files != MaxScanFiles {
			t.Errorf("1,001 files: %v after %d files", res.LimitsHit, res.Stats.Files)
		}
		os.Remove(filepath.Join(dir, "f1000.txt"))
		if res := search(t, tr, SearchOptions{Pattern: "nothing"}); res.Truncated {
			t.Errorf("1,000 files: %v", res.LimitsHit)
		}
	})
	t.Run("entries", func(t *testing.T) {
		dir := t.TempDir()
		for i := range MaxScanEntries + 1 {
			writeFile(t, filepath.Join(dir, fmt.Sprintf("d%03d", i/100), fmt.Sprintf("f%02d", i%100)), "")
		}
		tr, _ := Open(dir)
		defer tr.Close()
		// 101 folders and 10,001 files are 10,102 entries; the glob keeps
		// the file limit out of the way.
		res := search(t, tr, SearchOptions{Pattern: "x", Glob: "none"})
		if !slices.Equal(res.LimitsHit, []string{LimitEntries}) || res.Stats.Entries != MaxScanEntries {
			t.Errorf("entries: %v after %d", res.LimitsHit, res.Stats.Entries)
		}
	})
	t.Run("bytes", func(t *testing.T) {
		dir := t.TempDir()
		chunk := strings.Repeat(strings.Repeat("x", 1023)+"\n", 1024) // 1 MiB
		for i := range 16 {
			writeFile(t, filepath.Join(dir, fmt.Sprintf("f%02d", i)), chunk)
		}
		writeFile(t, filepath.Join(dir, "f16"), "tail\n"+chunk+"needle\n")
		tr, _ := Open(dir)
		defer tr.Close()
		res := search(t, tr, SearchOptions{Pattern: "needle"})
		if !slices.Equal(res.LimitsHit, []string{LimitBytes}) || res.Stats.Bytes != MaxScanBytes || len(res.Matches) != 0 {
			t.Errorf("bytes: %v after %d bytes, %d matches", res.LimitsHit, res.Stats.Bytes, len(res.Matches))
		}
		os.Remove(filepath.Join(dir, "f16"))
		if res := search(t, tr, SearchOptions{Pattern: "needle"}); res.Truncated {
			t.Errorf("exactly 16 MiB: %v", res.LimitsHit)
		}
	})
	t.Run("depth", func(t *testing.T) {
		dir := t.TempDir()
		p := dir
		for i := 1; i <= MaxDepth+1; i++ {
			p = filepath.Join(p, fmt.Sprintf("d%d", i))
			writeFile(t, filepath.Join(p, "f.txt"), fmt.Sprintf("needle at depth %d\n", i))
		}
		tr, _ := Open(dir)
		defer tr.Close()
		res := search(t, tr, SearchOptions{Pattern: "needle"})
		if !slices.Equal(res.LimitsHit, []string{LimitDepth}) || len(res.Matches) != MaxDepth {
			t.Errorf("depth: %v, %d matches", res.LimitsHit, len(res.Matches))
		}
		if !strings.Contains(*res.Hint, "more than 32 levels deep") {
			t.Errorf("depth hint %q", *res.Hint)
		}
	})
}

func TestSearchExcerptBounds(t *testing.T) {
	long := strings.Repeat("é", 500) + "NEEDLE" + strings.Repeat("字", 500)
	wide := strings.Repeat("🦀", 300) + "needle" + "\n"
	var many strings.Builder
	for range 100 {
		many.WriteString(strings.Repeat("🦀", 250) + " needle\n")
	}
	tr, _ := newTree(t, map[string]string{"long.txt": "x\n" + long + "\r\n", "start.txt": "needle" + strings.Repeat("a", 1000), "wide.txt": wide, "many.txt": many.String()})

	res := search(t, tr, SearchOptions{Pattern: "needle", Path: "long.txt"})
	if len(res.Matches) != 1 {
		t.Fatalf("%+v", res)
	}
	m := res.Matches[0]
	text := strings.TrimSuffix(strings.TrimPrefix(m.Text, "…"), "…")
	if m.Line != 2 || !strings.Contains(m.Text, "NEEDLE") || utf8.RuneCountInString(text) != MaxExcerptRunes ||
		!strings.HasPrefix(m.Text, "…é") || !strings.HasSuffix(m.Text, "字…") || !utf8.ValidString(m.Text) {
		t.Errorf("window: line %d, %d runes: %q", m.Line, utf8.RuneCountInString(text), m.Text)
	}
	res = search(t, tr, SearchOptions{Pattern: "needle", Path: "start.txt"})
	if m := res.Matches[0]; !strings.HasPrefix(m.Text, "needleaaa") || !strings.HasSuffix(m.Text, "a…") || utf8.RuneCountInString(m.Text) != MaxExcerptRunes+1 {
		t.Errorf("window at the start: %q", m.Text)
	}
	res = search(t, tr, SearchOptions{Pattern: "needle", Path: "wide.txt"})
	if m := res.Matches[0]; !strings.HasSuffix(m.Text, "🦀needle") || !strings.HasPrefix(m.Text, "…🦀") {
		t.Errorf("window at the end: %q", m.Text)
	}
	// 100 matches of ~800 bytes each cannot all fit in 32 KiB.
	res = search(t, tr, SearchOptions{Pattern: "needle", Path: "many.txt"})
	if !slices.Equal(res.LimitsHit, []string{LimitOutput}) || len(res.Matches) >= 100 || len(res.Matches) < 30 {
		t.Errorf("output bound: %v with %d matches", res.LimitsHit, len(res.Matches))
	}
}

func TestSearchDeterministic(t *testing.T) {
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("d%d/f%d.txt", i%7, i)] = "needle\n"
	}
	tr, _ := newTree(t, files)
	first := matchList(search(t, tr, SearchOptions{Pattern: "needle"}))
	for range 3 {
		if got := matchList(search(t, tr, SearchOptions{Pattern: "needle"})); !slices.Equal(got, first) {
			t.Fatal("search order changed between runs")
		}
	}
	if first[0] != "d0/f0.txt:1:needle" || first[1] != "d0/f105.txt:1:needle" {
		t.Errorf("order: %q", first[:3])
	}
}

func TestFold(t *testing.T) {
	for _, c := range [][2]string{{"abc", "ABC"}, {"K", "k"}, {"\u212a", "k"}, {"ſ", "s"}, {"Σ", "ς"}, {"É", "é"}} {
		if string(foldBytes(nil, []byte(c[0]))) != string(foldBytes(nil, []byte(c[1]))) {
			t.Errorf("%q and %q fold apart", c[0], c[1])
		}
	}
	if hasCase("123 +-") || !hasCase("a1") {
		t.Error("hasCase")
	}
	if got := foldBytes(nil, []byte("a\xffb")); string(got) != "A\xffB" {
		t.Errorf("invalid byte: %q", got)
	}
}
